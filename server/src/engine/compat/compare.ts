/**
 * Compatibility of a CRD change (what crdify checks, and more): the new CRD compared with the old one,
 * version by version and schema node by schema node, each difference that can break stored objects or
 * their clients reported under a category (categories.ts). Pure: two CRD objects in, findings out.
 */
import { FieldPath, type PathSegment } from '../field';
import type { JSONSchemaProps } from '../schema/types';
import { goDeepEqual, goJSON } from '../json/go';
import { storedStatusOf } from '../crd/update';
import { isJSONObject } from '../json/values';

export interface CompatFinding {
  /** A code of COMPAT_CATEGORIES. */
  category: string;
  /** Where in the new CRD, as a v1 field path (for removals: the node that no longer has the field). */
  path: string;
  segments: PathSegment[];
  /** The CRD version whose schema changed. */
  version?: string;
  /** The custom resource field concerned, e.g. `spec.replicas` (list items and map values as `[*]`). */
  field?: string;
  /** What changed, for people. */
  message: string;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const versionsOf = (crd: unknown): Record<string, unknown>[] => {
  const spec = isJSONObject(crd) && isJSONObject(crd.spec) ? crd.spec : {};
  return Array.isArray(spec.versions) ? spec.versions.filter(isJSONObject) : [];
};

/** The version's schema and where it sits in the CRD (per-version, or v1beta1's top-level validation). */
function schemaOf(crd: unknown, index: number): { schema: JSONSchemaProps; path: FieldPath } | undefined {
  const spec = isJSONObject(crd) && isJSONObject(crd.spec) ? crd.spec : {};
  const v = versionsOf(crd)[index];
  if (v && isJSONObject(v.schema) && isJSONObject(v.schema.openAPIV3Schema)) {
    return { schema: v.schema.openAPIV3Schema as JSONSchemaProps, path: FieldPath.root('spec', 'versions').index(index).child('schema', 'openAPIV3Schema') };
  }
  if (isJSONObject(spec.validation) && isJSONObject(spec.validation.openAPIV3Schema)) {
    return { schema: spec.validation.openAPIV3Schema as JSONSchemaProps, path: FieldPath.root('spec', 'validation', 'openAPIV3Schema') };
  }
  return undefined;
}

/**
 * The compatibility findings of replacing oldCrd by newCrd. Stored versions are the old CRD's
 * status.storedVersions, or its storage version when it has none (a CRD created from that object).
 */
export function compareCustomResourceDefinitions(oldCrd: unknown, newCrd: unknown): CompatFinding[] {
  const out: CompatFinding[] = [];
  const add = (category: string, path: FieldPath, message: string, extra: { version?: string; field?: string } = {}) => out.push({ category, path: path.toString(), segments: path.segments(), message, ...extra });
  const oldSpec = isJSONObject(oldCrd) && isJSONObject(oldCrd.spec) ? oldCrd.spec : {};
  const newSpec = isJSONObject(newCrd) && isJSONObject(newCrd.spec) ? newCrd.spec : {};

  if (str(oldSpec.scope) !== '' && str(newSpec.scope) !== '' && oldSpec.scope !== newSpec.scope) {
    add('scope', FieldPath.root('spec', 'scope'), `scope changed from ${str(oldSpec.scope)} to ${str(newSpec.scope)}: existing objects cannot be read at the new paths`);
  }

  const oldVersions = versionsOf(oldCrd);
  const newVersions = versionsOf(newCrd);
  const newByName = new Map(newVersions.map((v, i) => [str(v.name), { v, i }]));
  const stored = storedStatusOf(oldCrd).storedVersions;
  const storedVersions = stored.length > 0 ? stored : oldVersions.filter((v) => v.storage === true).map((v) => str(v.name));
  const versionsPath = FieldPath.root('spec', 'versions');
  for (const name of storedVersions) {
    if (!newByName.has(name)) {
      add(
        'storedVersionRemoval',
        versionsPath,
        `version ${name} was removed, but objects may still be stored in it (status.storedVersions): the API server rejects this until a storage migration removes it from status.storedVersions`,
        { version: name },
      );
    }
  }
  for (const ov of oldVersions) {
    const name = str(ov.name);
    if (ov.served !== true) continue;
    const n = newByName.get(name);
    if (!n) {
      if (!storedVersions.includes(name)) add('servedVersionRemoval', versionsPath, `served version ${name} was removed: clients using ${str(newSpec.group)}/${name} break`, { version: name });
    } else if (n.v.served !== true) {
      add('servedVersionRemoval', versionsPath.index(n.i).child('served'), `version ${name} is no longer served: clients using ${str(newSpec.group)}/${name} break`, { version: name });
    }
  }

  const oldByName = new Map(oldVersions.map((v, i) => [str(v.name), i]));
  const oldStorage = oldVersions.findIndex((v) => v.storage === true);
  newVersions.forEach((nv, ni) => {
    const name = str(nv.name);
    // A version new in this change is compared with the old storage version: the objects stored there are
    // what it serves (a v1alpha1 -> v1 promotion).
    const oi = oldByName.get(name) ?? oldStorage;
    if (oi === undefined || oi < 0) return;
    const o = schemaOf(oldCrd, oi);
    const s = schemaOf(newCrd, ni);
    if (!o || !s) return;
    const against = str(oldVersions[oi].name);
    compareSchema(o.schema, s.schema, s.path, '', { version: name, add: against === name ? add : (c, p, m, e) => add(c, p, `${m} (${name} against ${against})`, e) });
  });
  return out;
}

interface Walk {
  version: string;
  add: (category: string, path: FieldPath, message: string, extra?: { version?: string; field?: string }) => void;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined);
const fmt = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : goJSON(v));
const fieldName = (parent: string, name: string) => (parent === '' ? name : `${parent}.${name}`);
const typeOf = (s: JSONSchemaProps): string => (s['x-kubernetes-int-or-string'] === true ? 'int-or-string' : str(s.type));

function compareSchema(o: JSONSchemaProps, n: JSONSchemaProps, path: FieldPath, field: string, w: Walk): void {
  if (!isJSONObject(o) || !isJSONObject(n)) return;
  const at = field === '' ? 'the object' : field;
  const report = (category: string, key: string | undefined, message: string) => w.add(category, key === undefined ? path : path.child(key), `${at}: ${message}`, { version: w.version, ...(field ? { field } : {}) });

  const ot = typeOf(o);
  const nt = typeOf(n);
  if (ot !== '' && nt !== '' && ot !== nt) {
    report('type', n['x-kubernetes-int-or-string'] === true ? 'x-kubernetes-int-or-string' : 'type', `type changed from ${ot} to ${nt}`);
    return; // everything below compares values of another type
  }

  const oe = Array.isArray(o.enum) ? o.enum : undefined;
  const ne = Array.isArray(n.enum) ? n.enum : undefined;
  if (ne && ne.length > 0) {
    if (!oe || oe.length === 0) report('enum', 'enum', `an enum was added: only ${ne.map(fmt).join(', ')} allowed`);
    else {
      const removed = oe.filter((x) => !ne.some((y) => goDeepEqual(x, y)));
      if (removed.length > 0) report('enum', 'enum', `enum narrowed: ${removed.map(fmt).join(', ')} no longer allowed`);
    }
  }

  const oldRequired = new Set(Array.isArray(o.required) ? o.required : []);
  for (const r of Array.isArray(n.required) ? n.required : []) {
    if (!oldRequired.has(r)) w.add('required', path.child('required'), `${fieldName(field, r)}: now required`, { version: w.version, field: fieldName(field, r) });
  }

  const upper = (key: 'maximum' | 'maxLength' | 'maxItems' | 'maxProperties') => {
    const ov = num(o[key]);
    const nv = num(n[key]);
    if (nv === undefined) return;
    if (ov === undefined) report(key, key, `${key} ${nv} added`);
    else if (nv < ov) report(key, key, `${key} lowered from ${ov} to ${nv}`);
    else if (key === 'maximum' && nv === ov && n.exclusiveMaximum === true && o.exclusiveMaximum !== true) report(key, 'exclusiveMaximum', `maximum ${nv} became exclusive`);
  };
  const lower = (key: 'minimum' | 'minLength' | 'minItems' | 'minProperties') => {
    const ov = num(o[key]);
    const nv = num(n[key]);
    if (nv === undefined) return;
    if (ov === undefined) {
      if (nv > 0 || key === 'minimum') report(key, key, `${key} ${nv} added`);
    } else if (nv > ov) report(key, key, `${key} raised from ${ov} to ${nv}`);
    else if (key === 'minimum' && nv === ov && n.exclusiveMinimum === true && o.exclusiveMinimum !== true) report(key, 'exclusiveMinimum', `minimum ${nv} became exclusive`);
  };
  upper('maximum');
  upper('maxLength');
  upper('maxItems');
  upper('maxProperties');
  lower('minimum');
  lower('minLength');
  lower('minItems');
  lower('minProperties');

  if (str(n.pattern) !== '' && str(n.pattern) !== str(o.pattern)) {
    report('pattern', 'pattern', str(o.pattern) === '' ? `pattern ${fmt(n.pattern)} added` : `pattern changed from ${fmt(o.pattern)} to ${fmt(n.pattern)}`);
  }
  if (str(n.format) !== '' && str(n.format) !== str(o.format)) {
    report('format', 'format', str(o.format) === '' ? `format ${n.format} added` : `format changed from ${str(o.format)} to ${str(n.format)}`);
  }

  const olt = str(o['x-kubernetes-list-type']) || 'atomic';
  const nlt = str(n['x-kubernetes-list-type']) || 'atomic';
  if (ot === 'array' && olt !== nlt) report('listType', 'x-kubernetes-list-type', `list type changed from ${olt} to ${nlt}`);
  else if (olt === 'map' && nlt === 'map' && !goDeepEqual(o['x-kubernetes-list-map-keys'] ?? [], n['x-kubernetes-list-map-keys'] ?? [])) {
    report('listMapKeys', 'x-kubernetes-list-map-keys', `list map keys changed from ${goJSON(o['x-kubernetes-list-map-keys'] ?? [])} to ${goJSON(n['x-kubernetes-list-map-keys'] ?? [])}`);
  }

  const oldRules = (Array.isArray(o['x-kubernetes-validations']) ? o['x-kubernetes-validations'] : []).filter(isJSONObject);
  const newRules = (Array.isArray(n['x-kubernetes-validations']) ? n['x-kubernetes-validations'] : []).filter(isJSONObject);
  newRules.forEach((r, i) => {
    const text = str(r.rule);
    const before = oldRules.find((x) => str(x.rule) === text);
    if (!before) {
      w.add('validationRule', path.child('x-kubernetes-validations').index(i).child('rule'), `${at}: validation rule added or changed: ${text}`, { version: w.version, ...(field ? { field } : {}) });
    }
  });

  if ('default' in n || 'default' in o) {
    if (!('default' in o)) report('default', 'default', `default ${fmt(n.default)} added`);
    else if (!('default' in n)) report('default', undefined, `default ${fmt(o.default)} removed`);
    else if (!goDeepEqual(o.default, n.default)) report('default', 'default', `default changed from ${fmt(o.default)} to ${fmt(n.default)}`);
  }

  if (o['x-kubernetes-preserve-unknown-fields'] === true && n['x-kubernetes-preserve-unknown-fields'] !== true) {
    report('preserveUnknownFields', undefined, 'x-kubernetes-preserve-unknown-fields removed: unknown fields are pruned when objects are next written');
  }

  const op = isJSONObject(o.properties) ? (o.properties as Record<string, JSONSchemaProps>) : {};
  const np = isJSONObject(n.properties) ? (n.properties as Record<string, JSONSchemaProps>) : {};
  for (const k of Object.keys(op)) {
    if (!Object.hasOwn(np, k)) {
      const kept = n['x-kubernetes-preserve-unknown-fields'] === true;
      w.add('existingFieldRemoval', Object.keys(np).length > 0 ? path.child('properties') : path, `${fieldName(field, k)}: field removed${kept ? '' : ' (its values are pruned when objects are next written)'}`, {
        version: w.version,
        field: fieldName(field, k),
      });
    } else compareSchema(op[k], np[k], path.child('properties').key(k), fieldName(field, k), w);
  }
  if (isJSONObject(o.items) && isJSONObject(n.items)) compareSchema(o.items as JSONSchemaProps, n.items as JSONSchemaProps, path.child('items'), `${field}[*]`, w);
  if (isJSONObject(o.additionalProperties) && isJSONObject(n.additionalProperties)) {
    compareSchema(o.additionalProperties as JSONSchemaProps, n.additionalProperties as JSONSchemaProps, path.child('additionalProperties'), `${field}[*]`, w);
  }
}
