/**
 * Kubernetes notions the service needs on top of the index: what a document is (CRD, CR, other), which
 * CRD version a CR names, and the schema node at a CR path (for hover, completion, definition).
 */
import { crdVersionSchemas, type CrdVersionSchema } from '../engine';
import type { PathSegment } from '../engine';
import type { JSONSchemaProps } from '../engine';
import type { CrdIndex, IndexedCrd } from '../workspace/crdIndex';
import { isJSONObject } from '../engine';
import { identifyObject } from '../yaml';

export type DocumentRole = { role: 'crd'; crd: Record<string, unknown> } | { role: 'cr'; group: string; version: string; kind: string; apiVersion: string } | { role: 'other' };

/** A document value's role, in the service's shape: the YAML layer's one classification (identifyObject). */
export function roleOf(value: unknown): DocumentRole {
  if (!isJSONObject(value)) return OTHER;
  // Asked several times for each document (findings, coverage, the index): a decoded value is never changed.
  let role = roles.get(value);
  if (!role) roles.set(value, (role = identifiedRole(value)));
  return role;
}

const OTHER: DocumentRole = { role: 'other' };
const roles = new WeakMap<object, DocumentRole>();

function identifiedRole(value: Record<string, unknown>): DocumentRole {
  const id = identifyObject(value);
  if (id.kind === 'crd') return { role: 'crd', crd: value };
  if (id.kind === 'cr') return { role: 'cr', group: id.group ?? '', version: id.version ?? '', kind: id.objectKind ?? '', apiVersion: id.apiVersion ?? '' };
  return OTHER;
}

/** A version of a CRD (v1 shape). */
export type CrdVersion = CrdVersionSchema;

/** The versions of a CRD (v1 shape). */
export function crdVersions(crd: Record<string, unknown>): CrdVersion[] {
  return crdVersionSchemas(crd);
}

/** The CRD and version a CR document resolves to. */
export interface Resolution {
  crd: IndexedCrd;
  version?: CrdVersion;
}

/** Resolves a CR role against the index (version may be missing or unserved: the caller reports it). */
export function resolveCr(index: CrdIndex, role: Extract<DocumentRole, { role: 'cr' }>): Resolution | undefined {
  const crd = index.lookupOrBuiltin(role.group, role.kind);
  if (!crd) return undefined;
  const version = resolveVersion(crd, role.version);
  // A built-in version without a schema at the target version is not served: unknownKind.ts says so.
  if (crd.builtin && !version) return undefined;
  return { crd, version };
}

const builtinVersions = new WeakMap<IndexedCrd, CrdVersion[]>();

/** A version of a CRD by name (a built-in kind's versions read once: its CRD never changes). */
export function resolveVersion(crd: IndexedCrd, name: string): CrdVersion | undefined {
  if (!crd.builtin) return crdVersions(crd.crd).find((v) => v.name === name);
  let versions = builtinVersions.get(crd);
  if (!versions) builtinVersions.set(crd, (versions = crdVersions(crd.crd)));
  return versions.find((v) => v.name === name);
}

/**
 * What the index knows of an apiVersion and kind: `served` by a readable known CRD, `known` (a CRD of its
 * group, or of its kind with other versions, is known), or `unknown` (templates.ts IdentityLookup).
 */
export function lookupIdentity(index: CrdIndex, apiVersion: string, kind: string): 'served' | 'known' | 'unknown' {
  const role = roleOf({ apiVersion, kind });
  if (role.role !== 'cr') return 'unknown';
  const res = resolveCr(index, role);
  if (res?.version?.served && !res.crd.broken) return 'served';
  return res || (role.group !== '' && index.all().some((c) => c.group === role.group)) ? 'known' : 'unknown';
}

/** A step into a schema: which keyword led there, so the node can be found in the CRD text. */
export type SchemaStep = { keyword: 'properties'; name: string } | { keyword: 'additionalProperties' } | { keyword: 'items' };

export interface SchemaAt {
  schema: JSONSchemaProps;
  steps: SchemaStep[];
  /** Whether the last field is in its parent's `required` list. */
  required: boolean;
  name?: string;
  /** The node is one of the API server's own root fields (no node in the CRD text). */
  builtin: boolean;
}

/** Built-in metadata and type fields every resource root has (no schema in the CRD for them). */
export const RESOURCE_ROOT_FIELDS: Record<string, JSONSchemaProps> = {
  apiVersion: {
    type: 'string',
    description: 'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.',
  },
  kind: {
    type: 'string',
    description: 'Kind is a string value representing the REST resource this object represents. In CamelCase.',
  },
  metadata: {
    type: 'object',
    description: "Standard object's metadata (ObjectMeta): name, namespace, labels, annotations, ...",
    properties: {
      name: { type: 'string', description: 'Name must be unique within a namespace.' },
      namespace: { type: 'string', description: 'Namespace defines the space within which each name must be unique.' },
      generateName: { type: 'string', description: 'Optional prefix used by the server to generate a unique name.' },
      labels: { type: 'object', additionalProperties: { type: 'string' }, description: 'Map of string keys and values that can be used to organize and categorize objects.' },
      annotations: { type: 'object', additionalProperties: { type: 'string' }, description: 'Unstructured key value map stored with a resource.' },
      finalizers: { type: 'array', items: { type: 'string' }, description: 'Must be empty before the object is deleted from the registry.' },
      ownerReferences: { type: 'array', items: { type: 'object' }, description: 'List of objects depended by this object.' },
    },
  },
};

/** The sub-schema at a value path (`spec.a[0].b`), following properties, additionalProperties and items. */
export function schemaAtPath(root: JSONSchemaProps, segs: PathSegment[]): SchemaAt | undefined {
  let cur: JSONSchemaProps = root;
  const steps: SchemaStep[] = [];
  let required = false;
  let name: string | undefined;
  let builtin = false;
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i];
    if (s.kind === 'index') {
      const items = cur.items;
      if (!isJSONObject(items) || Array.isArray(items)) return undefined;
      cur = items as JSONSchemaProps;
      steps.push({ keyword: 'items' });
      required = false;
      continue;
    }
    const key = s.kind === 'field' ? s.name : s.key;
    if (i === 0 && key in RESOURCE_ROOT_FIELDS) {
      // apiVersion, kind and metadata are the API server's, whatever the CRD schema says about them.
      cur = RESOURCE_ROOT_FIELDS[key];
      builtin = true;
      name = key;
      required = key !== 'metadata';
      continue;
    }
    const props = isJSONObject(cur.properties) ? (cur.properties as Record<string, JSONSchemaProps>) : undefined;
    if (props && isJSONObject(props[key])) {
      required = Array.isArray(cur.required) && cur.required.includes(key);
      cur = props[key];
      steps.push({ keyword: 'properties', name: key });
      name = key;
    } else if (isJSONObject(cur.additionalProperties)) {
      cur = cur.additionalProperties as JSONSchemaProps;
      steps.push({ keyword: 'additionalProperties' });
      required = false;
      name = key;
    } else {
      return undefined;
    }
  }
  return { schema: cur, steps, required, name, builtin };
}

/** The path of a schema node inside the CRD object (to find it in the CRD's text). */
export function schemaStepsToCrdPath(version: CrdVersion, steps: SchemaStep[]): PathSegment[] {
  const out: PathSegment[] = [
    { kind: 'field', name: 'spec' },
    { kind: 'field', name: 'versions' },
    { kind: 'index', index: version.index },
    { kind: 'field', name: 'schema' },
    { kind: 'field', name: 'openAPIV3Schema' },
  ];
  for (const s of steps) {
    out.push({ kind: 'field', name: s.keyword });
    if (s.keyword === 'properties') out.push({ kind: 'key', key: s.name });
  }
  return out;
}

/** What a place inside an openAPIV3Schema is: a schema node, a map of named schemas, a list of schemas, rules... */
export type SchemaPlace = 'schema' | 'propertyMap' | 'schemaList' | 'rules' | 'rule' | 'other';

/** The kind of place a path below `openAPIV3Schema` leads to (the path's first segment follows openAPIV3Schema). */
export function schemaPlace(segs: Array<PathSegment | string>): SchemaPlace {
  let state: SchemaPlace = 'schema';
  for (const s of segs) {
    const name = typeof s === 'string' ? s : s.kind === 'field' ? s.name : s.kind === 'key' ? s.key : null;
    switch (state) {
      case 'schema':
        if (name === 'properties' || name === 'patternProperties' || name === 'definitions' || name === 'dependencies') state = 'propertyMap';
        else if (name === 'items' || name === 'additionalProperties' || name === 'not' || name === 'additionalItems') state = 'schema';
        else if (name === 'allOf' || name === 'anyOf' || name === 'oneOf') state = 'schemaList';
        else if (name === 'x-kubernetes-validations') state = 'rules';
        else state = 'other';
        break;
      case 'propertyMap':
        state = 'schema';
        break;
      case 'schemaList':
      case 'rules':
        state = name === null || name === '#' || /^\d+$/.test(name) ? (state === 'rules' ? 'rule' : 'schema') : 'other';
        break;
      default:
        state = 'other';
    }
  }
  return state;
}

/** Index of the segment `openAPIV3Schema` in a CRD path (under spec.versions[i].schema), or -1. */
export function openAPISchemaIndex(segs: Array<PathSegment | string>): number {
  return segs.findIndex((s) => (typeof s === 'string' ? s : s.kind === 'field' ? s.name : '') === 'openAPIV3Schema');
}

/** Walks a JSON value along path segments. */
export function valueAt(v: unknown, segs: Array<PathSegment | string>): unknown {
  let cur = v;
  for (const s of segs) {
    if (cur === null || typeof cur !== 'object') return undefined;
    const k = typeof s === 'string' ? s : s.kind === 'field' ? s.name : s.kind === 'key' ? s.key : s.index;
    cur = (cur as Record<string | number, unknown>)[k as string];
  }
  return cur;
}
