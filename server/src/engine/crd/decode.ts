/**
 * Decoding a v1 CustomResourceDefinition from plain JSON into typed values, as the API server's JSON
 * decoder does before anything else. Where the server would reject the request body (a string where an
 * object belongs), we report a FieldValueTypeInvalid at that field and go on as if it were absent, so
 * that malformed, half-typed documents still get every other finding. Unknown fields become warnings
 * (the server's default `fieldValidation=Warn`).
 */
import { FieldPath, OMIT_VALUE, invalid, strictDecodingPath, typeInvalid, type FieldError } from '../field';
import { markPathInDetail, memoAt, rebaseErrors } from '../field/memo';
import { decodeObjectMeta } from '../objectmeta/objectmeta';
import type { JSONSchemaProps } from '../schema/types';
import type { CRDNames, ColumnDefinition, CRDVersion, ObjectMeta, SelectableField, ServiceReference, Subresources, WebhookClientConfig } from './types';
import { deepCopyJSON, isInteger, isJSONObject, isNumber, jsonKindName, setOwn } from '../json/values';

/** spec.conversion as v1 spells it. */
export interface V1Conversion {
  strategy: string;
  webhook?: { clientConfig?: WebhookClientConfig; conversionReviewVersions: string[] };
}

export interface V1Spec {
  group: string;
  names: CRDNames;
  scope: string;
  versions: CRDVersion[];
  conversion?: V1Conversion;
  preserveUnknownFields?: boolean;
}

export interface V1CustomResourceDefinition {
  metadata: ObjectMeta;
  spec: V1Spec;
}

export interface DecodeResult {
  crd: V1CustomResourceDefinition;
  errors: FieldError[];
}

class Decoder {
  readonly errors: FieldError[] = [];

  private typeError(p: FieldPath, v: unknown, goType: string): void {
    this.errors.push(typeInvalid(p, v, `must be of type ${goType}, not ${jsonKindName(v)}`));
  }

  unknown(p: FieldPath, known: readonly string[]): void {
    // The API server's strict-decoding warning text; the known names are for "did you mean".
    // Its text prints the path (not rebased when a memoized subtree moves).
    this.errors.push(
      markPathInDetail({
        type: 'FieldValueNotFound',
        field: p.toString(),
        badValue: OMIT_VALUE,
        detail: `unknown field "${strictDecodingPath(p.segments())}"`,
        severity: 'warning',
        segments: p.segments(),
        params: { origin: 'unknownField', knownNames: [...known] },
      }),
    );
  }

  /** An object's known keys; others are reported as unknown fields. */
  object(v: unknown, p: FieldPath, known: readonly string[]): Record<string, unknown> | undefined {
    if (v === undefined || v === null) return undefined;
    if (!isJSONObject(v)) {
      this.typeError(p, v, 'object');
      return undefined;
    }
    for (const k of Object.keys(v)) if (!known.includes(k)) this.unknown(p.child(k), known);
    return v;
  }

  string(v: unknown, p: FieldPath): string | undefined {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') {
      this.typeError(p, v, 'string');
      return undefined;
    }
    return v;
  }

  bool(v: unknown, p: FieldPath): boolean | undefined {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'boolean') {
      this.typeError(p, v, 'bool');
      return undefined;
    }
    return v;
  }

  int(v: unknown, p: FieldPath, goType = 'int32'): number | undefined {
    if (v === undefined || v === null) return undefined;
    if (!isInteger(v)) {
      this.typeError(p, v, goType);
      return undefined;
    }
    return Number(v);
  }

  array(v: unknown, p: FieldPath): unknown[] {
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) {
      this.typeError(p, v, 'array');
      return [];
    }
    return v;
  }

  strings(v: unknown, p: FieldPath): string[] {
    const out: string[] = [];
    this.array(v, p).forEach((x, i) => {
      const s = this.string(x, p.index(i));
      out.push(s ?? '');
    });
    return out;
  }

  stringMap(v: unknown, p: FieldPath): Record<string, string> {
    const out: Record<string, string> = {};
    if (v === undefined || v === null) return out;
    if (!isJSONObject(v)) {
      this.typeError(p, v, 'map[string]string');
      return out;
    }
    for (const [k, x] of Object.entries(v)) {
      const s = this.string(x, p.key(k));
      if (s !== undefined) setOwn(out, k, s);
    }
    return out;
  }
}

const META_KEYS = [
  'name',
  'generateName',
  'namespace',
  'labels',
  'annotations',
  'finalizers',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'ownerReferences',
  'managedFields',
  'selfLink',
];

function decodeMeta(d: Decoder, v: unknown): ObjectMeta {
  const p = FieldPath.root('metadata');
  const m = d.object(v, p, META_KEYS) ?? {};
  const typed = {
    name: d.string(m.name, p.child('name')) ?? '',
    generateName: d.string(m.generateName, p.child('generateName')) ?? '',
    namespace: d.string(m.namespace, p.child('namespace')) ?? '',
    labels: d.stringMap(m.labels, p.child('labels')),
    annotations: d.stringMap(m.annotations, p.child('annotations')),
    finalizers: d.strings(m.finalizers, p.child('finalizers')),
  };
  // Go's decoder stops at the first type error (reported above); then validate what did decode.
  const decoded = decodeObjectMeta(m).meta ?? { ...typed };
  return { ...typed, decoded };
}

function decodeNames(d: Decoder, v: unknown, p: FieldPath): CRDNames {
  const n = d.object(v, p, ['plural', 'singular', 'kind', 'listKind', 'shortNames', 'categories']) ?? {};
  return {
    plural: d.string(n.plural, p.child('plural')) ?? '',
    singular: d.string(n.singular, p.child('singular')) ?? '',
    kind: d.string(n.kind, p.child('kind')) ?? '',
    listKind: d.string(n.listKind, p.child('listKind')) ?? '',
    shortNames: d.strings(n.shortNames, p.child('shortNames')),
    categories: d.strings(n.categories, p.child('categories')),
  };
}

function decodeSubresources(d: Decoder, v: unknown, p: FieldPath): Subresources | undefined {
  const s = d.object(v, p, ['status', 'scale']);
  if (!s) return undefined;
  const out: Subresources = {};
  const status = d.object(s.status, p.child('status'), []);
  if (status) out.status = {};
  const scale = d.object(s.scale, p.child('scale'), ['specReplicasPath', 'statusReplicasPath', 'labelSelectorPath']);
  if (scale) {
    const sp = p.child('scale');
    out.scale = {
      specReplicasPath: d.string(scale.specReplicasPath, sp.child('specReplicasPath')) ?? '',
      statusReplicasPath: d.string(scale.statusReplicasPath, sp.child('statusReplicasPath')) ?? '',
    };
    const ls = d.string(scale.labelSelectorPath, sp.child('labelSelectorPath'));
    if (ls !== undefined) out.scale.labelSelectorPath = ls;
  }
  return out;
}

function decodeColumns(d: Decoder, v: unknown, p: FieldPath): ColumnDefinition[] {
  return d.array(v, p).map((x, i) => {
    const cp = p.index(i);
    const c = d.object(x, cp, ['name', 'type', 'format', 'description', 'priority', 'jsonPath']) ?? {};
    return {
      name: d.string(c.name, cp.child('name')) ?? '',
      type: d.string(c.type, cp.child('type')) ?? '',
      format: d.string(c.format, cp.child('format')) ?? '',
      description: d.string(c.description, cp.child('description')) ?? '',
      priority: d.int(c.priority, cp.child('priority')) ?? 0,
      JSONPath: d.string(c.jsonPath, cp.child('jsonPath')) ?? '',
    };
  });
}

function decodeSelectableFields(d: Decoder, v: unknown, p: FieldPath): SelectableField[] {
  return d.array(v, p).map((x, i) => {
    const f = d.object(x, p.index(i), ['jsonPath']) ?? {};
    return { jsonPath: d.string(f.jsonPath, p.index(i).child('jsonPath')) ?? '' };
  });
}

function decodeVersion(d: Decoder, v: unknown, p: FieldPath): CRDVersion {
  const o = d.object(v, p, ['name', 'served', 'storage', 'deprecated', 'deprecationWarning', 'schema', 'subresources', 'additionalPrinterColumns', 'selectableFields']) ?? {};
  const version: CRDVersion = {
    name: d.string(o.name, p.child('name')) ?? '',
    served: d.bool(o.served, p.child('served')) ?? false,
    storage: d.bool(o.storage, p.child('storage')) ?? false,
    deprecated: d.bool(o.deprecated, p.child('deprecated')) ?? false,
    additionalPrinterColumns: decodeColumns(d, o.additionalPrinterColumns, p.child('additionalPrinterColumns')),
    selectableFields: decodeSelectableFields(d, o.selectableFields, p.child('selectableFields')),
  };
  const dw = d.string(o.deprecationWarning, p.child('deprecationWarning'));
  if (dw !== undefined) version.deprecationWarning = dw;
  const schema = d.object(o.schema, p.child('schema'), ['openAPIV3Schema']);
  if (schema) {
    version.schema = {};
    const s = decodeSchema(d, schema.openAPIV3Schema, p.child('schema', 'openAPIV3Schema'));
    if (s) version.schema.openAPIV3Schema = s;
  }
  const sub = decodeSubresources(d, o.subresources, p.child('subresources'));
  if (sub) version.subresources = sub;
  return version;
}

function decodeClientConfig(d: Decoder, v: unknown, p: FieldPath): WebhookClientConfig | undefined {
  const o = d.object(v, p, ['url', 'service', 'caBundle']);
  if (!o) return undefined;
  const cc: WebhookClientConfig = { caBundle: d.string(o.caBundle, p.child('caBundle')) ?? '' };
  const url = d.string(o.url, p.child('url'));
  if (url !== undefined) cc.url = url;
  const sp = p.child('service');
  const s = d.object(o.service, sp, ['namespace', 'name', 'path', 'port']);
  if (s) {
    const svc: ServiceReference = {
      namespace: d.string(s.namespace, sp.child('namespace')) ?? '',
      name: d.string(s.name, sp.child('name')) ?? '',
      // v1 defaulting: SetDefaults_ServiceReference.
      port: d.int(s.port, sp.child('port')) ?? 443,
    };
    const path = d.string(s.path, sp.child('path'));
    if (path !== undefined) svc.path = path;
    cc.service = svc;
  }
  return cc;
}

function decodeConversion(d: Decoder, v: unknown, p: FieldPath): V1Conversion | undefined {
  const o = d.object(v, p, ['strategy', 'webhook']);
  if (!o) return undefined;
  const c: V1Conversion = { strategy: d.string(o.strategy, p.child('strategy')) ?? '' };
  const wp = p.child('webhook');
  const w = d.object(o.webhook, wp, ['clientConfig', 'conversionReviewVersions']);
  if (w) {
    c.webhook = { conversionReviewVersions: d.strings(w.conversionReviewVersions, wp.child('conversionReviewVersions')) };
    const cc = decodeClientConfig(d, w.clientConfig, wp.child('clientConfig'));
    if (cc) c.webhook.clientConfig = cc;
  }
  return c;
}

const SCHEMA_STRING = ['id', '$schema', '$ref', 'description', 'type', 'format', 'title', 'pattern', 'x-kubernetes-list-type', 'x-kubernetes-map-type'];
const SCHEMA_NUMBER = ['maximum', 'minimum', 'multipleOf'];
const SCHEMA_BOOL = ['exclusiveMaximum', 'exclusiveMinimum', 'uniqueItems', 'nullable', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string'];
const SCHEMA_INT = ['maxLength', 'minLength', 'maxItems', 'minItems', 'maxProperties', 'minProperties'];
const SCHEMA_ANY = ['default', 'example'];
const SCHEMA_STRINGS = ['required', 'x-kubernetes-list-map-keys'];
const SCHEMA_LISTS = ['allOf', 'oneOf', 'anyOf'];
const SCHEMA_MAPS = ['properties', 'patternProperties', 'definitions'];
const SCHEMA_BOOL_OR_SCHEMA = ['additionalProperties', 'additionalItems'];
const RULE_KEYS = ['rule', 'message', 'messageExpression', 'reason', 'fieldPath', 'optionalOldSelf'];
/** Every key of a JSONSchemaProps (what an unknown key is compared with for "did you mean"). */
const SCHEMA_KEYS = [
  ...SCHEMA_STRING,
  ...SCHEMA_NUMBER,
  ...SCHEMA_BOOL,
  ...SCHEMA_INT,
  ...SCHEMA_ANY,
  'enum',
  ...SCHEMA_STRINGS,
  'not',
  'items',
  ...SCHEMA_LISTS,
  ...SCHEMA_MAPS,
  ...SCHEMA_BOOL_OR_SCHEMA,
  'dependencies',
  'externalDocs',
  'x-kubernetes-validations',
];

/**
 * A type-checked copy of an openAPIV3Schema: keys of the wrong JSON type are reported and left out,
 * JSON nulls are dropped (Go decodes them as unset), unknown keys are warned about and left out.
 */
/** A decoded schema node and the decoding errors of its subtree. */
interface DecodedSchema {
  out: JSONSchemaProps;
  errors: FieldError[];
}

function decodeSchema(d: Decoder, v: unknown, p: FieldPath): JSONSchemaProps | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isJSONObject(v)) {
    d.object(v, p, []);
    return undefined;
  }
  // Per node (engine/field/memo.ts): decoding an edited CRD re-decodes only the edited path. The decoded
  // nodes are shared between checks of the same subtree, so nothing downstream may mutate them.
  const r = memoAt<DecodedSchema>(
    'crd.decodeSchema',
    v,
    '',
    p,
    () => {
      const sub = new Decoder();
      return { out: decodeSchemaNode(sub, v, p), errors: sub.errors };
    },
    (val, from, to) => {
      const errors = rebaseErrors(val.errors, from, to);
      return errors && { out: val.out, errors };
    },
  );
  for (const e of r.errors) d.errors.push(e);
  return r.out;
}

function decodeSchemaNode(d: Decoder, v: Record<string, unknown>, p: FieldPath): JSONSchemaProps {
  const out: JSONSchemaProps = {};
  for (const [k, x] of Object.entries(v)) {
    const kp = p.child(k);
    if (x === null) continue;
    if (SCHEMA_STRING.includes(k)) {
      const s = d.string(x, kp);
      if (s !== undefined) out[k] = s;
    } else if (SCHEMA_NUMBER.includes(k)) {
      if (isNumber(x)) out[k] = x;
      else d.errors.push(typeInvalid(kp, x, `must be of type float64, not ${jsonKindName(x)}`));
    } else if (SCHEMA_BOOL.includes(k)) {
      const b = d.bool(x, kp);
      if (b !== undefined) out[k] = b;
    } else if (SCHEMA_INT.includes(k)) {
      const n = d.int(x, kp, 'int64');
      if (n !== undefined) out[k] = x;
    } else if (SCHEMA_ANY.includes(k)) {
      out[k] = deepCopyJSON(x);
    } else if (k === 'enum') {
      if (Array.isArray(x)) out.enum = deepCopyJSON(x);
      else d.array(x, kp);
    } else if (SCHEMA_STRINGS.includes(k)) {
      if (Array.isArray(x)) out[k] = d.strings(x, kp);
      else d.array(x, kp);
    } else if (k === 'not') {
      const s = decodeSchema(d, x, kp);
      if (s) out.not = s;
    } else if (k === 'items') {
      if (Array.isArray(x)) out.items = x.map((y, i) => decodeSchema(d, y, kp.index(i)) ?? {});
      else {
        const s = decodeSchema(d, x, kp);
        if (s) out.items = s;
      }
    } else if (SCHEMA_LISTS.includes(k)) {
      if (Array.isArray(x)) out[k] = x.map((y, i) => decodeSchema(d, y, kp.index(i)) ?? {});
      else d.array(x, kp);
    } else if (SCHEMA_MAPS.includes(k)) {
      if (isJSONObject(x)) {
        const m: Record<string, JSONSchemaProps> = {};
        for (const [name, y] of Object.entries(x)) setOwn(m, name, decodeSchema(d, y, kp.key(name)) ?? {});
        out[k] = m;
      } else d.object(x, kp, []);
    } else if (SCHEMA_BOOL_OR_SCHEMA.includes(k)) {
      if (typeof x === 'boolean') out[k] = x;
      else {
        const s = decodeSchema(d, x, kp);
        if (s) out[k] = s;
      }
    } else if (k === 'dependencies') {
      if (isJSONObject(x)) {
        const m: Record<string, JSONSchemaProps | string[]> = {};
        for (const [name, y] of Object.entries(x)) {
          setOwn(m, name, Array.isArray(y) ? d.strings(y, kp.key(name)) : (decodeSchema(d, y, kp.key(name)) ?? {}));
        }
        out.dependencies = m;
      } else d.object(x, kp, []);
    } else if (k === 'externalDocs') {
      const o = d.object(x, kp, ['description', 'url']);
      if (o) {
        const docs: { description?: string; url?: string } = {};
        const desc = d.string(o.description, kp.child('description'));
        const url = d.string(o.url, kp.child('url'));
        if (desc !== undefined) docs.description = desc;
        if (url !== undefined) docs.url = url;
        out.externalDocs = docs;
      }
    } else if (k === 'x-kubernetes-validations') {
      const rules = d.array(x, kp).map((r, i) => {
        const rp = kp.index(i);
        const o = d.object(r, rp, RULE_KEYS) ?? {};
        const rule: Record<string, unknown> = { rule: d.string(o.rule, rp.child('rule')) ?? '' };
        for (const f of ['message', 'messageExpression', 'reason', 'fieldPath']) {
          const s = d.string(o[f], rp.child(f));
          if (s !== undefined) rule[f] = s;
        }
        const oo = d.bool(o.optionalOldSelf, rp.child('optionalOldSelf'));
        if (oo !== undefined) rule.optionalOldSelf = oo;
        return rule;
      });
      out['x-kubernetes-validations'] = rules as unknown as JSONSchemaProps['x-kubernetes-validations'];
    } else {
      d.unknown(kp, SCHEMA_KEYS);
    }
  }
  return out;
}

/** Decodes a v1 CustomResourceDefinition; never throws, whatever the input. */
export function decodeCustomResourceDefinition(input: unknown): DecodeResult {
  const d = new Decoder();
  const root = FieldPath.root();
  const top = isJSONObject(input) ? input : undefined;
  if (!top) d.errors.push(typeInvalid(root, typeof input === 'string' ? input : jsonKindName(input), 'must be a CustomResourceDefinition object'));
  else d.object(top, root, ['apiVersion', 'kind', 'metadata', 'spec', 'status']);
  const o = top ?? {};
  // The API server serves CustomResourceDefinitions only as apiextensions.k8s.io/v1 (v1beta1 went in 1.22).
  const apiVersion = d.string(o.apiVersion, root.child('apiVersion'));
  if (apiVersion !== undefined && apiVersion !== 'apiextensions.k8s.io/v1') {
    let detail = `no matches for kind "CustomResourceDefinition" in version "${apiVersion}"`;
    if (apiVersion === 'apiextensions.k8s.io/v1beta1') detail += ': apiextensions.k8s.io/v1beta1 is no longer served since Kubernetes 1.22, use apiextensions.k8s.io/v1';
    d.errors.push(invalid(root.child('apiVersion'), apiVersion, detail));
  }
  const metadata = decodeMeta(d, o.metadata);
  const sp = FieldPath.root('spec');
  const s = d.object(o.spec, sp, ['group', 'names', 'scope', 'versions', 'conversion', 'preserveUnknownFields']) ?? {};
  const spec: V1Spec = {
    group: d.string(s.group, sp.child('group')) ?? '',
    names: decodeNames(d, s.names, sp.child('names')),
    scope: d.string(s.scope, sp.child('scope')) ?? '',
    versions: d.array(s.versions, sp.child('versions')).map((v, i) => decodeVersion(d, v, sp.child('versions').index(i))),
  };
  const conv = decodeConversion(d, s.conversion, sp.child('conversion'));
  if (conv) spec.conversion = conv;
  const puf = d.bool(s.preserveUnknownFields, sp.child('preserveUnknownFields'));
  if (puf !== undefined) spec.preserveUnknownFields = puf;
  return { crd: { metadata, spec }, errors: d.errors };
}
