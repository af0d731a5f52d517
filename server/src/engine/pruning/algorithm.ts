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
  /**
   * The result may be the input itself, or share the parts pruning leaves as they are, for a caller that
   * changes neither (a built-in object's checks): nothing is copied where nothing is pruned.
   */
  share?: boolean;
}

export type PruneReason = 'unknown field' | 'unknown field in embedded resource' | 'no schema below additionalProperties or items';

export interface PrunedField {
  /** The field path as the API server prints it (`spec.foo[0].bar`). */
  path: string;
  segments: PathSegment[];
  reason: PruneReason;
}

export interface PruneResult {
  /** A pruned copy (PruneOptions.share: the input where nothing was pruned); the input is not changed. */
  object: unknown;
  pruned: PrunedField[];
  /** The input was nested too deeply to prune: `object` is the input, not a copy. */
  tooDeep?: true;
}

/**
 * apiextensions-apiserver pkg/apiserver/schema/pruning.Prune, reporting what it removed.
 *
 * Unknown keys inside `metadata` of the root and of embedded resources are kept (Go removes them in a
 * separate step, ObjectMeta coercion: see coerceObjectMeta in ./objectmeta). Never throws.
 */
export function pruneUnknownFields(obj: unknown, schema: JSONSchemaProps, opts: PruneOptions): PruneResult {
  const conv = newStructural(schema);
  if (conv.tooDeep) return { object: obj, pruned: [], tooDeep: true };
  return pruneStructural(obj, conv.structural, opts);
}

const metaFields = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * PruneWithOptions on an already converted structural schema (s may be undefined: no schema, which
 * empties every object at any depth unless isResourceRoot). Pruned paths are sorted, as Go sorts them.
 * Input nested too deeply to recurse through is returned as it is (not copied), with nothing pruned.
 */
export function pruneStructural(obj: unknown, s: Structural | undefined, opts: PruneOptions): PruneResult {
  const ctx: Ctx = { pruned: [], rootForced: undefined, dropNulls: opts.dropNulls === true, share: opts.share === true, steps: [] };
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
    object = prune(obj, s, ctx);
  } catch (e) {
    if (isTooDeep(e)) return { object: obj, pruned: [], tooDeep: true };
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
  share: boolean;
  /** The fields (names) and list items (indexes) from the root to the value being pruned. */
  steps: Array<string | number>;
}

/** A copy of what pruning keeps as it is (PruneOptions.dropNulls: without its null fields; share: not copied). */
function copy(v: unknown, ctx: Ctx): unknown {
  const kept = ctx.dropNulls ? withoutNullFields(v) : v;
  return ctx.share ? kept : deepCopyJSON(kept);
}

/**
 * The object a pruned map is written to: a new one, or with PruneOptions.share none until the first key
 * that is dropped or changed (then the keys before it, which stayed as they were).
 */
function outFor(x: Record<string, unknown>, keys: string[], i: number, out: Record<string, unknown> | undefined): Record<string, unknown> {
  if (out) return out;
  out = {};
  for (let j = 0; j < i; j++) setOwn(out, keys[j], x[keys[j]]);
  return out;
}

/**
 * An array's elements pruned (each at its index on the path): a new array, or with PruneOptions.share the
 * array itself when none changed.
 */
function pruneItems(x: unknown[], s: Structural | undefined, ctx: Ctx, each: typeof prune): unknown[] {
  let out: unknown[] | undefined = ctx.share ? undefined : [];
  for (let i = 0; i < x.length; i++) {
    ctx.steps.push(i);
    const y = each(x[i], s, ctx);
    ctx.steps.pop();
    if (out) out.push(y);
    else if (y !== x[i]) (out = x.slice(0, i)).push(y);
  }
  return out ?? x;
}

/**
 * A pruned field, at the path of the fields and indexes being walked (ctx.steps) and then `key`: the
 * path is made only here (most values prune nothing).
 */
function record(ctx: Ctx, key: string, reason: PruneReason): void {
  let p = FieldPath.root();
  for (const step of ctx.steps) p = typeof step === 'number' ? p.index(step) : p.child(step);
  p = p.child(key);
  ctx.pruned.push({ path: p.toString(), segments: p.segments(), reason });
}

/** A field's value pruned below its schema, its key on the path while it is walked. */
function pruneField(v: unknown, s: Structural | undefined, key: string, ctx: Ctx): unknown {
  ctx.steps.push(key);
  const y = prune(v, s, ctx);
  ctx.steps.pop();
  return y;
}

function prune(x: unknown, s: Structural | undefined, ctx: Ctx): unknown {
  if (s?.xPreserveUnknownFields) return skipPrune(x, s, ctx);
  if (isJSONObject(x)) {
    const keys = Object.keys(x);
    if (!s) {
      for (const k of keys) if (!(ctx.dropNulls && x[k] === null)) record(ctx, k, 'no schema below additionalProperties or items');
      return ctx.share && keys.length === 0 ? x : {};
    }
    let out: Record<string, unknown> | undefined = ctx.share ? undefined : {};
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      const v = x[k];
      let y: unknown;
      if (v === null && ctx.dropNulls) {
        out = outFor(x, keys, i, out);
        continue;
      }
      if (s.xEmbeddedResource && metaFields.has(k)) y = copy(v, ctx);
      else {
        const prop = propertyOf(s.properties, k);
        if (prop) y = pruneField(v, prop, k, ctx);
        else if (s.additionalProperties) y = pruneField(v, s.additionalProperties.structural, k, ctx);
        else {
          record(ctx, k, s.xEmbeddedResource && s !== ctx.rootForced ? 'unknown field in embedded resource' : 'unknown field');
          out = outFor(x, keys, i, out);
          continue;
        }
      }
      if (out || y !== v) setOwn((out = outFor(x, keys, i, out)), k, y);
    }
    return out ?? x;
  }
  if (Array.isArray(x)) return pruneItems(x, s?.items, ctx, prune);
  return x;
}

/** Under x-kubernetes-preserve-unknown-fields: unknown keys stay, specified ones are pruned below. */
function skipPrune(x: unknown, s: Structural | undefined, ctx: Ctx): unknown {
  if (!s) return copy(x, ctx);
  if (isJSONObject(x)) {
    const keys = Object.keys(x);
    let out: Record<string, unknown> | undefined = ctx.share ? undefined : {};
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      const v = x[k];
      if (v === null && ctx.dropNulls) {
        out = outFor(x, keys, i, out);
        continue;
      }
      let y: unknown;
      if (s.xEmbeddedResource && metaFields.has(k)) y = copy(v, ctx);
      else {
        const prop = propertyOf(s.properties, k);
        if (prop) y = pruneField(v, prop, k, ctx);
        else if (s.additionalProperties) y = pruneField(v, s.additionalProperties.structural, k, ctx);
        else y = copy(v, ctx);
      }
      if (out || y !== v) setOwn((out = outFor(x, keys, i, out)), k, y);
    }
    return out ?? x;
  }
  if (Array.isArray(x)) return pruneItems(x, s.items, ctx, skipPrune);
  return x;
}
