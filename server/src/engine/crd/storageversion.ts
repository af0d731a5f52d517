/**
 * What each version keeps under `conversion: {strategy: None}` (apiextensions-apiserver
 * pkg/apiserver/conversion/nop_converter.go): the API server only rewrites `apiVersion`, and its codec
 * prunes by the schema of the version it converts to (customresource_handler.go schemaCoercingConverter
 * and unstructuredSchemaCoercer). So an object written in one version loses, when stored, every field
 * the storage version's schema does not have; and a stored object read back in another version loses
 * every field that version's schema does not have. Objects coming out of storage are defaulted by the
 * storage version's schema (the storage codec's defaulter) before that.
 */
import { defaultCustomResource, type DefaultedField } from '../defaulting/algorithm';
import { pruneStructural, type PrunedField } from '../pruning/algorithm';
import { newStructural } from '../schema/convert';
import type { Structural } from '../schema/model';
import type { JSONSchemaProps } from '../schema/types';
import { deepEqualJSON, deepCopyJSON, isJSONObject, setOwn } from '../json/values';

/** One version of a v1 CRD, as written. */
export interface CrdVersionSchema {
  name: string;
  /** Index in spec.versions (for locating the version in the CRD text). */
  index: number;
  served: boolean;
  storage: boolean;
  deprecated: boolean;
  deprecationWarning?: string;
  schema?: JSONSchemaProps;
}

/** Fields lost between one served version and the storage version. */
export interface VersionFieldLoss {
  /**
   * The CRD says `conversion: {strategy: None}`; false when it has no `conversion` at all (None by default,
   * but generated CRDs often get a conversion webhook only when deployed, e.g. from a kustomize patch).
   */
  explicitNone: boolean;
  /** The served version (not the storage version). */
  version: string;
  versionIndex: number;
  storageVersion: string;
  storageIndex: number;
  /** Fields an object written as `version` loses when stored (the storage schema does not have them). */
  lostWhenStored: string[];
  /** Fields of a stored object dropped when it is read as `version` (its schema does not have them). */
  lostWhenRead: string[];
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** The named versions of a v1 CRD (JSON), with their schemas; empty for anything else. */
export function crdVersionSchemas(crd: unknown): CrdVersionSchema[] {
  if (!isJSONObject(crd) || !isJSONObject(crd.spec) || !Array.isArray(crd.spec.versions)) return [];
  const out: CrdVersionSchema[] = [];
  crd.spec.versions.forEach((v, index) => {
    if (!isJSONObject(v) || typeof v.name !== 'string') return;
    const s = isJSONObject(v.schema) && isJSONObject(v.schema.openAPIV3Schema) ? (v.schema.openAPIV3Schema as JSONSchemaProps) : undefined;
    out.push({
      name: v.name,
      index,
      served: v.served === true,
      storage: v.storage === true,
      deprecated: v.deprecated === true,
      deprecationWarning: typeof v.deprecationWarning === 'string' ? v.deprecationWarning : undefined,
      schema: s,
    });
  });
  return out;
}

/**
 * Whether the API server converts between the CRD's versions by changing `apiVersion` only (strategy
 * None, also when `conversion` is left out) and prunes by each version's schema (preserveUnknownFields
 * is not true).
 */
export function convertsByApiVersionOnly(crd: unknown): boolean {
  if (!isJSONObject(crd) || !isJSONObject(crd.spec)) return false;
  const conv = crd.spec.conversion;
  const strategy = isJSONObject(conv) ? str(conv.strategy) : 'None';
  return (strategy === 'None' || strategy === '') && crd.spec.preserveUnknownFields !== true;
}

/** The structural model of a version's schema, or undefined when it has none or it is not structural enough to prune by. */
function structuralOf(v: CrdVersionSchema): Structural | undefined {
  if (!v.schema) return undefined;
  const conv = newStructural(v.schema);
  return conv.error || conv.tooDeep ? undefined : conv.structural;
}

/**
 * For each served version other than the storage version, the fields lost on the way to storage and
 * back (only for `conversion: None` CRDs whose schemas differ). Versions without a usable schema are
 * skipped: nothing can be said about them.
 */
export function versionFieldLoss(crd: unknown): VersionFieldLoss[] {
  if (!convertsByApiVersionOnly(crd)) return [];
  const versions = crdVersionSchemas(crd);
  const storage = versions.find((v) => v.storage);
  // Cheap exits first: one version, or every served version with the storage version's very schema.
  if (!storage || versions.every((v) => v === storage || !v.served || deepEqualJSON(v.schema, storage.schema))) return [];
  const storageSchema = structuralOf(storage);
  if (!storageSchema) return [];
  const explicitNone = isJSONObject(crd) && isJSONObject(crd.spec) && isJSONObject(crd.spec.conversion);
  const out: VersionFieldLoss[] = [];
  for (const v of versions) {
    if (v === storage || !v.served || deepEqualJSON(v.schema, storage.schema)) continue;
    const s = structuralOf(v);
    if (!s) continue;
    const lostWhenStored = fieldsPrunedBy(s, storageSchema);
    const lostWhenRead = fieldsPrunedBy(storageSchema, s);
    if (lostWhenStored.length || lostWhenRead.length) {
      out.push({ explicitNone, version: v.name, versionIndex: v.index, storageVersion: storage.name, storageIndex: storage.index, lostWhenStored, lostWhenRead });
    }
  }
  return out;
}

/** Bound on the sample objects built from schemas (nodes), so that a huge schema cannot run away. */
const MAX_SAMPLE_NODES = 20_000;

/**
 * The fields of objects shaped by `from` that pruning by `by` removes: a sample object with every
 * field `from` declares is pruned by `by` (the API server's pruning, reused), arrays and maps shown as `[*]`.
 */
function fieldsPrunedBy(from: Structural, by: Structural): string[] {
  const budget = { nodes: MAX_SAMPLE_NODES };
  const sample = sampleOf(from, budget, 0);
  const pruned = pruneStructural(sample, by, { isResourceRoot: true }).pruned;
  return [...new Set(pruned.map(showPath))];
}

/** A placeholder key for "any key" of an additionalProperties map. */
const ANY_KEY = '\u0000*';

function showPath(p: PrunedField): string {
  let s = '';
  for (const seg of p.segments) {
    if (seg.kind === 'index') s += '[*]';
    else {
      const name = seg.kind === 'field' ? seg.name : seg.key;
      s += name === ANY_KEY ? '[*]' : s === '' ? name : `.${name}`;
    }
  }
  return s;
}

/** An object with every field the schema declares (one item per list, one key per map). */
function sampleOf(s: Structural, budget: { nodes: number }, depth: number): unknown {
  if (--budget.nodes < 0 || depth > 100) return null;
  if (s.properties || s.type === 'object' || s.additionalProperties) {
    const o: Record<string, unknown> = {};
    for (const [k, p] of Object.entries(s.properties ?? {})) setOwn(o, k, sampleOf(p, budget, depth + 1));
    const ap = s.additionalProperties?.structural;
    if (ap) o[ANY_KEY] = sampleOf(ap, budget, depth + 1);
    return o;
  }
  if (s.type === 'array') return s.items ? [sampleOf(s.items, budget, depth + 1)] : [];
  return s.type === 'boolean' ? false : s.type === 'integer' || s.type === 'number' ? 0 : '';
}

/** The object in storage, and how it got there. */
export interface StoredObject {
  storageVersion: string;
  /** As stored (storage apiVersion, pruned by the storage schema), then defaulted by it as every read does. */
  object: unknown;
  /** Fields the conversion to the storage version dropped. */
  pruned: PrunedField[];
  /** Defaults of the storage version applied when the object is read from storage. */
  defaulted: DefaultedField[];
}

function withApiVersion(obj: unknown, group: string, version: string): unknown {
  const o = deepCopyJSON(obj);
  if (isJSONObject(o)) o.apiVersion = group ? `${group}/${version}` : version;
  return o;
}

function groupOf(crd: unknown): string {
  return isJSONObject(crd) && isJSONObject(crd.spec) ? str(crd.spec.group) : '';
}

/**
 * The object as stored, from the object the create path produced at its own version (pruned and
 * defaulted by that version's schema): undefined when the CRD converts by webhook (unknowable offline)
 * or has no storage version.
 */
export function storedObject(crd: unknown, created: unknown): StoredObject | undefined {
  if (!isJSONObject(crd) || !isJSONObject(crd.spec)) return undefined;
  const conv = crd.spec.conversion;
  const strategy = isJSONObject(conv) ? str(conv.strategy) : 'None';
  if (strategy !== 'None' && strategy !== '') return undefined;
  const storage = crdVersionSchemas(crd).find((v) => v.storage);
  if (!storage) return undefined;
  let object = withApiVersion(created, groupOf(crd), storage.name);
  let pruned: PrunedField[] = [];
  let defaulted: DefaultedField[] = [];
  if (storage.schema && crd.spec.preserveUnknownFields !== true) {
    const p = pruneStructural(object, newStructural(storage.schema).structural, { isResourceRoot: true });
    object = p.object;
    pruned = p.pruned;
  }
  if (storage.schema) {
    const d = defaultCustomResource(object, storage.schema, { isResourceRoot: true, pruneDefaults: true });
    object = d.object;
    defaulted = d.defaulted;
  }
  return { storageVersion: storage.name, object, pruned, defaulted };
}

/** A stored object as a client reading `version` gets it: apiVersion rewritten, pruned by that version's schema. */
export function readBack(crd: unknown, stored: unknown, version: string): { object: unknown; pruned: PrunedField[] } | undefined {
  const v = crdVersionSchemas(crd).find((x) => x.name === version);
  if (!v?.served) return undefined;
  const object = withApiVersion(stored, groupOf(crd), version);
  const preserve = isJSONObject(crd) && isJSONObject(crd.spec) && crd.spec.preserveUnknownFields === true;
  if (!v.schema || preserve) return { object, pruned: [] };
  return pruneStructural(object, newStructural(v.schema).structural, { isResourceRoot: true });
}
