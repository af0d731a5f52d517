/**
 * PruneDefaults (apiextensions-apiserver pkg/apiserver/schema/defaulting/prune.go): the API server serves
 * custom resources with a copy of the structural schema whose defaults have been pruned: each default is
 * placed in its surrounding object (up to the schema root), coerced as ObjectMeta (dropping invalid and
 * unknown metadata fields) and pruned with the root schema, then read back. On a CRD that passed
 * validation this only changes defaults in or around `metadata` (unknown ObjectMeta keys vanish).
 */
import { coerceObjectMetaStructural } from '../pruning/objectmeta';
import { pruneStructural } from '../pruning/algorithm';
import { propertyOf, type Structural } from '../schema/model';
import { newStructural } from '../schema/convert';
import { validateStructural } from '../schema/validation';
import { deepCopyJSON, deepEqualJSON, hasOwn, isJSONObject, isTooDeep, setOwn } from '../json/values';

export interface PruneDefaultsResult {
  /** A copy of the schema with pruned defaults (nodes without defaults below them are shared). */
  structural: Structural;
  /** Go's error ("failed to prune default value: ..."); the defaults it concerns are left as they were. */
  error?: string;
}

type Step = { child: string } | { index: true };

/** PruneDefaults on a copy: the structural schema with its defaults as the API server serves them. */
export function pruneDefaults(s: Structural): PruneDefaultsResult {
  const ctx: { root: Structural; error?: string } = { root: s };
  try {
    const structural = walk(s, [], ctx);
    return ctx.error === undefined ? { structural } : { structural, error: ctx.error };
  } catch (e) {
    if (isTooDeep(e)) return { structural: s, error: 'failed to prune default value: the schema is nested too deeply' };
    throw e;
  }
}

function walk(s: Structural, steps: Step[], ctx: { root: Structural; error?: string }): Structural {
  let out = s;
  const edit = (): Structural => (out === s ? (out = { ...s }) : out);
  if (s.default !== undefined) {
    const r = pruneDefault(s.default, steps, ctx.root);
    if ('error' in r) ctx.error ??= `failed to prune default value: ${r.error}`;
    else {
      const n = edit();
      if (r.found) n.default = r.value;
      else delete n.default;
    }
  }
  const ap = s.additionalProperties?.structural;
  if (ap) {
    const n = walk(ap, [...steps, { child: '*' }], ctx);
    if (n !== ap) edit().additionalProperties = { ...s.additionalProperties!, structural: n };
  }
  if (s.items) {
    const n = walk(s.items, [...steps, { index: true }], ctx);
    if (n !== s.items) edit().items = n;
  }
  if (s.properties) {
    for (const k of Object.keys(s.properties)) {
      const sub = propertyOf(s.properties, k)!;
      const n = walk(sub, [...steps, { child: k }], ctx);
      if (n !== sub) {
        const o = edit();
        if (o.properties === s.properties) o.properties = { ...s.properties };
        setOwn(o.properties as Record<string, unknown>, k, n);
      }
    }
  }
  return out;
}

type Pruned = { found: true; value: unknown } | { found: false } | { error: string };

/** Place the default in its surrounding object, coerce and prune with the root schema, read it back. */
function pruneDefault(dflt: unknown, steps: Step[], root: Structural): Pruned {
  let obj: unknown = deepCopyJSON(dflt);
  for (let i = steps.length - 1; i >= 0; i--) {
    const st = steps[i];
    if ('child' in st) {
      const o: Record<string, unknown> = {};
      setOwn(o, st.child, obj);
      obj = o;
    } else obj = [obj];
  }
  if (!isJSONObject(obj)) return { error: 'object root default value must be of object type' };
  const coerced = coerceObjectMetaStructural(obj, root, { isResourceRoot: true, dropInvalidFields: true }).object;
  let x: unknown = pruneStructural(coerced, root, { isResourceRoot: true }).object;
  // the accessor: walk back down the same steps
  let prefix = '';
  for (const st of steps) {
    if ('child' in st) {
      if (!isJSONObject(x)) return { error: `${prefix}.${st.child} must be of object type` };
      if (!hasOwn(x, st.child)) return { found: false };
      x = x[st.child];
      prefix += `.${st.child}`;
    } else {
      if (!Array.isArray(x)) return { error: `${prefix}[] must be of array type` };
      if (x.length === 0) return { found: false };
      x = x[0];
      prefix += '[]';
    }
  }
  // Go's JSON{nil} is "no default"
  return x === null ? { found: false } : { found: true, value: x };
}

/**
 * schemaHasUnprunedDefaults (pkg/apis/apiextensions/validation): does PruneDefaults change a default of
 * this openAPIV3Schema? False when the schema does not convert, is not structural, or PruneDefaults
 * fails, as in Go. CRD update validation requires pruned defaults only if no old schema has unpruned ones.
 */
export function schemaHasUnprunedDefaults(schema: unknown): boolean {
  try {
    return hasUnprunedDefaults(schema);
  } catch (e) {
    if (isTooDeep(e)) return false;
    throw e;
  }
}

function hasUnprunedDefaults(schema: unknown): boolean {
  const conv = newStructural(schema);
  if (conv.error !== undefined) return false;
  if (validateStructural(conv.structural).length > 0) return false;
  const pruned = pruneDefaults(conv.structural);
  if (pruned.error !== undefined) return false;
  return !sameDefaults(conv.structural, pruned.structural);
}

function sameDefaults(a: Structural | undefined, b: Structural | undefined): boolean {
  if (!a || !b) return a === b;
  if (a === b) return true;
  if ((a.default === undefined) !== (b.default === undefined)) return false;
  if (a.default !== undefined && !deepEqualJSON(a.default, b.default)) return false;
  if (!sameDefaults(a.items, b.items)) return false;
  if (!sameDefaults(a.additionalProperties?.structural, b.additionalProperties?.structural)) return false;
  return Object.keys(a.properties ?? {}).every((k) => sameDefaults(propertyOf(a.properties, k), propertyOf(b.properties, k)));
}
