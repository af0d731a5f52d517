/**
 * Update cases for the differential test: custom resource updates (an old object, often already
 * invalid, and a new one that keeps, changes or replaces it: ratcheting, transition rules, metadata
 * update rules) and CRD updates (a stored CRD, with or without status, and a changed one: tightened
 * schemas, version changes, immutable fields, rules the stored CRD already broke).
 */
import type { JSONSchemaProps, ValidationRule } from '../../../server/src/engine/schema/types';
import { genSchema, genValid, mutate, structuredCloneJson } from './generate';
import type { Random } from './random';

type Json = unknown;
type Obj = Record<string, Json>;

const GROUP = 'example.com';

/** Every schema node below (and including) s, with properties, items and additionalProperties. */
function nodes(s: JSONSchemaProps, out: JSONSchemaProps[] = []): JSONSchemaProps[] {
  out.push(s);
  for (const p of Object.values(s.properties ?? {})) nodes(p, out);
  if (s.items && !Array.isArray(s.items)) nodes(s.items, out);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') nodes(s.additionalProperties, out);
  return out;
}

/** A transition rule (oldSelf) fitting the node's type; sometimes with optionalOldSelf. */
function transitionRule(r: Random, s: JSONSchemaProps): ValidationRule {
  if (r.chance(0.25)) {
    return { rule: r.pick(['!oldSelf.hasValue() || self == oldSelf.value()', 'oldSelf.hasValue() || true', 'oldSelf.orValue(self) == self']), optionalOldSelf: true, message: 'is immutable once set' };
  }
  switch (s['x-kubernetes-int-or-string'] ? 'ios' : s.type) {
    case 'integer':
    case 'number':
      return { rule: r.pick(['self >= oldSelf', 'self == oldSelf']), message: r.pick(['must not decrease', 'is immutable']) };
    case 'string':
      return r.chance(0.5) ? { rule: 'self == oldSelf', message: 'is immutable' } : { rule: "oldSelf == '' || self == oldSelf", messageExpression: "'was ' + oldSelf" };
    case 'array':
      return { rule: r.pick(['self.size() >= oldSelf.size()', 'oldSelf.all(x, x in self)']) };
    case 'object':
      return { rule: r.pick(['self == oldSelf', 'oldSelf.size() <= self.size() || true']) };
    default:
      return { rule: 'self == oldSelf' };
  }
}

/** Adds transition rules to a few nodes (not to uncorrelatable ones: the generator keeps it simple). */
function addTransitionRules(r: Random, schema: JSONSchemaProps): void {
  const spec = schema.properties?.spec;
  if (!spec) return;
  const candidates = nodes(spec).filter((n) => n.type !== undefined || n['x-kubernetes-int-or-string']);
  // Items of non-map lists and values of maps are uncorrelatable: keep to direct properties.
  const direct = [spec, ...Object.values(spec.properties ?? {})].filter((n) => candidates.includes(n));
  for (const n of r.subset(direct, 0.35)) {
    if (n['x-kubernetes-preserve-unknown-fields'] && !n.properties) continue;
    n['x-kubernetes-validations'] = [...(n['x-kubernetes-validations'] ?? []), transitionRule(r, n)];
  }
}

function rootSchema(r: Random): JSONSchemaProps {
  const spec = genSchema(r, { depth: 3, rules: true, defaults: true }, 'object');
  const root: JSONSchemaProps = { type: 'object', properties: { spec } };
  if (r.chance(0.3)) root.properties!.status = genSchema(r, { depth: 2, rules: true, defaults: false }, 'object');
  return root;
}

function crdOf(schema: JSONSchemaProps, opts: { status?: boolean; scope?: string; versions?: Obj[] } = {}): Obj {
  const version: Obj = { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } };
  if (opts.status) version.subresources = { status: {} };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${GROUP}` },
    spec: {
      group: GROUP,
      scope: opts.scope ?? 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: opts.versions ?? [version],
    },
  };
}

/** A body that keeps apiVersion, kind and metadata (a malformed one is refused before validation). */
function mutateBody(r: Random, obj: Obj, schema: JSONSchemaProps): Obj {
  const meta = { apiVersion: obj.apiVersion, kind: obj.kind, metadata: obj.metadata };
  const body = structuredCloneJson(obj);
  for (const k of Object.keys(meta)) delete body[k];
  return { ...structuredCloneJson(meta), ...(mutate(r, body, schema) as Obj) };
}

/** Metadata changes an update may make. */
function mutateMetadata(r: Random, meta: Obj): void {
  switch (r.int(0, 5)) {
    case 0:
      meta.finalizers = [r.pick(['example.com/cleanup', 'a b', 'orphan', 'cleanup', 'x/y/z'])];
      break;
    case 1:
      meta.labels = { [r.pick(['app', 'a b', 'example.com/x'])]: r.pick(['v', 'bad value', '']) };
      break;
    case 2:
      meta.ownerReferences = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: 'u1', controller: true }];
      if (r.chance(0.5)) (meta.ownerReferences as Obj[]).push(structuredCloneJson((meta.ownerReferences as Obj[])[0]));
      break;
    case 3:
      meta.annotations = { [r.pick(['note', 'Bad Key'])]: 'x' };
      break;
    case 4:
      meta.generation = r.pick([1, 5]);
      break;
    default:
      meta.uid = r.pick(['other-uid', 'u']);
  }
}

/** A custom resource update: the stored object (valid, or already invalid) and the new body. */
export function genCustomResourceUpdate(r: Random, id: string): Obj {
  const schema = rootSchema(r);
  if (r.chance(0.6)) addTransitionRules(r, schema);
  const statusSub = r.chance(0.4);
  const crd = crdOf(schema, { status: statusSub, scope: r.pick(['Namespaced', 'Namespaced', 'Cluster']) });
  const base = genValid(r, schema) as Obj;
  Object.assign(base, { apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name: 'w' } });
  // The stored object: half the time already invalid (stored before the CRD tightened), which is what
  // ratcheting is about.
  const old = r.chance(0.5) ? mutateBody(r, base, schema) : structuredCloneJson(base);
  let obj: Obj;
  switch (
    r.weighted([
      [3, 'same'],
      [5, 'changed'],
      [1, 'fresh'],
    ] as const)
  ) {
    case 'same':
      obj = structuredCloneJson(old);
      break;
    case 'changed':
      obj = mutateBody(r, old, schema);
      break;
    default:
      obj = mutateBody(r, base, schema);
  }
  if (r.chance(0.2)) {
    const meta = { ...((obj.metadata as Obj) ?? {}) };
    mutateMetadata(r, meta);
    obj.metadata = meta;
  }
  if (r.chance(0.1)) (old.metadata as Obj).deletionTimestamp = '2024-01-01T00:00:00Z';
  return { id, op: 'validate', crd, version: 'v1', object: obj, oldObject: old };
}

/** A schema change a CRD author makes (mostly tightening); in place. */
function changeSchema(r: Random, schema: JSONSchemaProps): void {
  const all = nodes(schema.properties?.spec ?? schema);
  const n = r.pick(all);
  switch (r.int(0, 11)) {
    case 0:
      if (Array.isArray(n.enum) && n.enum.length > 1) n.enum = n.enum.slice(1);
      else if (n.type === 'string') n.enum = ['a', 'b'];
      else n.maximum = 3;
      break;
    case 1: {
      const props = Object.keys(n.properties ?? {});
      if (props.length) n.required = [...new Set([...(n.required ?? []), r.pick(props)])];
      break;
    }
    case 2:
      if (n.type && n.type !== 'object') n.type = r.pick(['string', 'integer', 'boolean'].filter((t) => t !== n.type));
      break;
    case 3:
      if (n.type === 'string') n.maxLength = r.int(0, 3);
      else if (n.type === 'array') n.maxItems = r.int(0, 2);
      else if (n.type === 'integer' || n.type === 'number') n.minimum = 50;
      break;
    case 4:
      if (n.type === 'string') n.pattern = '^a';
      break;
    case 5:
      n['x-kubernetes-validations'] = [...(n['x-kubernetes-validations'] ?? []), transitionRule(r, n)];
      break;
    case 6:
      if (n.properties && Object.keys(n.properties).length > 1) delete n.properties[r.pick(Object.keys(n.properties))];
      break;
    case 7:
      if (n.type && n.type !== 'object' && n.type !== 'array') n.type = 'foo';
      break;
    case 8:
      if (n.type === 'array' && n.items && !Array.isArray(n.items) && n.items.type === 'object') n['x-kubernetes-list-type'] = 'set';
      else if (n.properties) n.properties.added = { type: 'string', default: 'x' };
      break;
    case 9:
      if (n.type === 'array' && n.items && !Array.isArray(n.items) && n.items.type === 'object') {
        n['x-kubernetes-list-type'] = 'map';
        n.items.properties = { ...(n.items.properties ?? {}), key: { type: 'string' } };
        n['x-kubernetes-list-map-keys'] = ['key'];
      } else n.nullable = true;
      break;
    case 10:
      // A rule expensive enough to pass only when its cost is not checked (unchanged schemas).
      if (n.type === 'array') n['x-kubernetes-validations'] = [{ rule: 'self.all(x, self.all(y, self.all(z, x == y || y == z)))' }];
      break;
    default:
      if (n.type === 'string' || n.type === 'integer') n.default = n.type === 'string' ? 'd' : 1;
  }
}

/** A CRD update: the stored CRD (with the status a cluster gives it, sometimes) and the new one. */
export function genCustomResourceDefinitionUpdate(r: Random, id: string): Obj {
  const schema = rootSchema(r);
  const old = crdOf(schema, { status: r.chance(0.3) });
  // Sometimes the stored CRD already breaks a rule an update would enforce on new CRDs.
  if (r.chance(0.25)) changeSchema(r, schema);
  if (r.chance(0.5)) {
    old.status = { storedVersions: r.pick([['v1'], ['v1alpha1', 'v1']]), conditions: [{ type: 'Established', status: r.pick(['True', 'True', 'False']) }] };
  }
  const nu = structuredCloneJson(old);
  delete nu.status;
  const spec = nu.spec as Obj;
  const versions = spec.versions as Obj[];
  const n = r.int(1, 2);
  for (let i = 0; i < n; i++) {
    switch (
      r.weighted([
        [6, 'schema'],
        [2, 'version'],
        [1, 'scope'],
        [1, 'names'],
        [1, 'other'],
      ] as const)
    ) {
      case 'schema':
        changeSchema(r, ((versions[0].schema as Obj).openAPIV3Schema as JSONSchemaProps) ?? {});
        break;
      case 'version': {
        const v2 = structuredCloneJson(versions[0]);
        // A name no version has yet (duplicate names are a create-time mistake, not an update's).
        v2.name = ['v2', 'v3', 'v4'].find((name) => !versions.some((v) => v.name === name)) ?? 'v5';
        switch (r.int(0, 2)) {
          case 0: // a new storage version
            versions[0].storage = false;
            versions.push({ ...v2, storage: true });
            break;
          case 1: // v1 replaced by v2
            versions.splice(0, 1, v2);
            break;
          default: // v1 unserved
            versions[0].served = false;
        }
        break;
      }
      case 'scope':
        spec.scope = spec.scope === 'Cluster' ? 'Namespaced' : 'Cluster';
        break;
      case 'names':
        if (r.chance(0.5)) (spec.names as Obj).kind = 'Gadget';
        else (spec.names as Obj).shortNames = [r.pick(['wg', 'Bad'])];
        break;
      default:
        switch (r.int(0, 2)) {
          case 0:
            spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: [r.pick(['v1', 'v9'])], clientConfig: { url: 'https://conv.example.com/c' } } };
            break;
          case 1:
            spec.preserveUnknownFields = true;
            break;
          default:
            (nu.metadata as Obj).labels = { a: 'b' };
        }
    }
  }
  if (r.chance(0.3)) {
    // The change applied to the stored CRD too: an unchanged CRD (exemptions for what it already has).
    return { id, op: 'crd', crd: structuredCloneJson(nu), oldCrd: { ...structuredCloneJson(nu), ...(old.status ? { status: old.status } : {}) } };
  }
  return { id, op: 'crd', crd: nu, oldCrd: old };
}
