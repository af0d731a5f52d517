/**
 * Unknown-field pruning (apiextensions-apiserver pkg/apiserver/schema/pruning/algorithm.go), on a copy,
 * reporting every field it removes.
 */
import { FieldPath, type PathSegment } from '../field';
import { newStructural, toStructural } from '../schema/convert';
import { propertyOf, type Structural } from '../schema/model';
import type { JSONSchemaProps } from '../schema/types';
import { deepCopyJSON, isJSONObject, isTooDeep, setOwn, withoutNullFields } from '../json/values';

export interface PruneOptions {
  /** The value is a whole resource: apiVersion, kind and metadata at its root are skipped. */
  isResourceRoot: boolean;
  /**
   * Null fields are dropped at any depth (nulls in arrays stay), as Go's decoding into a built-in kind's
   * type reads them (json/values.ts withoutNullFields): neither kept nor reported as pruned.
   */
  dropNulls?: boolean;
}

export type PruneReason = 'unknown field' | 'unknown field in embedded resource' | 'no schema below additionalProperties or items';

export interface PrunedField {
  /** The field path as the API server prints it (`spec.foo[0].bar`). */
  path: string;
  segments: PathSegment[];
  reason: PruneReason;
}

export interface PruneResult {
  /** A pruned copy; the input is not changed. */
  object: unknown;
  pruned: PrunedField[];
}

/**
 * apiextensions-apiserver pkg/apiserver/schema/pruning.Prune, reporting what it removed.
 *
 * Unknown keys inside `metadata` of the root and of embedded resources are kept (Go removes them in a
 * separate step, ObjectMeta coercion: see coerceObjectMeta in ./objectmeta). Never throws.
 */
export function pruneUnknownFields(obj: unknown, schema: JSONSchemaProps, opts: PruneOptions): PruneResult {
  const conv = newStructural(schema);
  if (conv.tooDeep) return { object: obj, pruned: [] };
  return pruneStructural(obj, conv.structural, opts);
}

const metaFields = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * PruneWithOptions on an already converted structural schema (s may be undefined: no schema, which
 * empties every object at any depth unless isResourceRoot). Pruned paths are sorted, as Go sorts them.
 * Input nested too deeply to recurse through is returned as it is (not copied), with nothing pruned.
 */
export function pruneStructural(obj: unknown, s: Structural | undefined, opts: PruneOptions): PruneResult {
  const ctx: Ctx = { pruned: [], rootForced: undefined, dropNulls: opts.dropNulls === true };
  if (opts.isResourceRoot) {
    const base: Structural = s ?? toStructural({});
    if (!base.xEmbeddedResource) {
      s = forcedRoots.get(base);
      if (!s) forcedRoots.set(base, (s = { ...base, xEmbeddedResource: true }));
      ctx.rootForced = s;
    } else s = base;
  }
  let object: unknown;
  try {
    object = prune(obj, s, FieldPath.root(), ctx);
  } catch (e) {
    if (isTooDeep(e)) return { object: obj, pruned: [] };
    throw e;
  }
  ctx.pruned.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { object, pruned: ctx.pruned };
}

/** The root schema marked embedded, one per schema (not copied for every object pruned). */
const forcedRoots = new WeakMap<Structural, Structural>();

interface Ctx {
  pruned: PrunedField[];
  /** The clone that marks the resource root as embedded (its unknown fields are plain unknown fields). */
  rootForced: Structural | undefined;
  dropNulls: boolean;
}

/** A copy of what pruning keeps as it is (PruneOptions.dropNulls: without its null fields). */
function copy(v: unknown, ctx: Ctx): unknown {
  return deepCopyJSON(ctx.dropNulls ? withoutNullFields(v) : v);
}

function record(ctx: Ctx, p: FieldPath, reason: PruneReason): void {
  ctx.pruned.push({ path: p.toString(), segments: p.segments(), reason });
}

function prune(x: unknown, s: Structural | undefined, path: FieldPath, ctx: Ctx): unknown {
  if (s?.xPreserveUnknownFields) return skipPrune(x, s, path, ctx);
  if (isJSONObject(x)) {
    const out: Record<string, unknown> = {};
    if (!s) {
      for (const k of Object.keys(x)) if (!(ctx.dropNulls && x[k] === null)) record(ctx, path.child(k), 'no schema below additionalProperties or items');
      return out;
    }
    for (const k of Object.keys(x)) {
      const v = x[k];
      if (v === null && ctx.dropNulls) continue;
      if (s.xEmbeddedResource && metaFields.has(k)) {
        setOwn(out, k, copy(v, ctx));
        continue;
      }
      const prop = propertyOf(s.properties, k);
      if (prop) setOwn(out, k, prune(v, prop, path.child(k), ctx));
      else if (s.additionalProperties) setOwn(out, k, prune(v, s.additionalProperties.structural, path.child(k), ctx));
      else record(ctx, path.child(k), s.xEmbeddedResource && s !== ctx.rootForced ? 'unknown field in embedded resource' : 'unknown field');
    }
    return out;
  }
  if (Array.isArray(x)) return x.map((v, i) => prune(v, s?.items, path.index(i), ctx));
  return x;
}

/** Under x-kubernetes-preserve-unknown-fields: unknown keys stay, specified ones are pruned below. */
function skipPrune(x: unknown, s: Structural | undefined, path: FieldPath, ctx: Ctx): unknown {
  if (!s) return copy(x, ctx);
  if (isJSONObject(x)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(x)) {
      const v = x[k];
      if (v === null && ctx.dropNulls) continue;
      if (s.xEmbeddedResource && metaFields.has(k)) {
        setOwn(out, k, copy(v, ctx));
        continue;
      }
      const prop = propertyOf(s.properties, k);
      if (prop) setOwn(out, k, prune(v, prop, path.child(k), ctx));
      else if (s.additionalProperties) setOwn(out, k, prune(v, s.additionalProperties.structural, path.child(k), ctx));
      else setOwn(out, k, copy(v, ctx));
    }
    return out;
  }
  if (Array.isArray(x)) return x.map((v, i) => skipPrune(v, s.items, path.index(i), ctx));
  return x;
}
