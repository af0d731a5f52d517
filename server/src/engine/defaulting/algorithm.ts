/**
 * Defaulting of custom resources (apiextensions-apiserver pkg/apiserver/schema/defaulting: prunenulls.go
 * and algorithm.go), on a copy, reporting every change.
 */
import { FieldPath, type PathSegment } from '../field';
import { newStructural } from '../schema/convert';
import { propertyOf, type Structural } from '../schema/model';
import type { JSONSchemaProps } from '../schema/types';
import { pruneDefaults } from './prune';
import { deepCopyJSON, hasOwn, isJSONObject, isTooDeep, setOwn } from '../json/values';

export interface DefaultOptions {
  isResourceRoot: boolean;
  /**
   * Apply the defaults as the API server serves them: after PruneDefaults (customresource_handler.go
   * prunes the defaults of the schema it serves, which drops unknown ObjectMeta keys inside metadata
   * defaults). Off by default: the conformance `default` op is the defaulting step on the schema as written.
   * The create pipeline should turn it on.
   */
  pruneDefaults?: boolean;
}

export interface DefaultedField {
  path: string;
  segments: PathSegment[];
  /** `default` when a default was applied, `null removed` when a non-nullable null without default was dropped. */
  action: 'default' | 'null removed';
  value?: unknown;
}

export interface DefaultResult {
  /** A defaulted copy; the input is not changed. */
  object: unknown;
  defaulted: DefaultedField[];
}

/**
 * The API server's defaulting step: PruneNonNullableNullsWithoutDefaults, then Default
 * (apiextensions-apiserver pkg/apiserver/schema/defaulting). Unknown fields are not pruned here.
 * Go's Default treats the resource root like any object, so isResourceRoot changes nothing. Never throws.
 */
export function defaultCustomResource(obj: unknown, schema: JSONSchemaProps, opts: DefaultOptions): DefaultResult {
  const conv = newStructural(schema);
  if (conv.tooDeep) return { object: obj, defaulted: [] };
  return defaultStructural(obj, conv.structural, opts);
}

/** defaultCustomResource on an already converted structural schema. */
export function defaultStructural(obj: unknown, s: Structural | undefined, opts?: DefaultOptions): DefaultResult {
  if (s && opts?.pruneDefaults) s = servedSchema(s);
  try {
    const object = deepCopyJSON(obj);
    const defaulted: DefaultedField[] = [];
    pruneNonNullableNullsWithoutDefaults(object, s, FieldPath.root(), defaulted);
    applyDefaults(object, s, FieldPath.root(), defaulted);
    return { object, defaulted };
  } catch (e) {
    // input nested too deeply to recurse through: returned as it is, not defaulted
    if (isTooDeep(e)) return { object: obj, defaulted: [] };
    throw e;
  }
}

const served = new WeakMap<Structural, Structural>();

/** The structural schema with pruned defaults, cached per schema (PruneDefaults errors leave defaults as written). */
function servedSchema(s: Structural): Structural {
  let r = served.get(s);
  if (!r) served.set(s, (r = pruneDefaults(s).structural));
  return r;
}

function note(out: DefaultedField[], p: FieldPath, action: DefaultedField['action'], value?: unknown): void {
  const f: DefaultedField = { path: p.toString(), segments: p.segments(), action };
  if (action === 'default') f.value = value;
  out.push(f);
}

/** The schema of a field of an object: its property, else additionalProperties' schema. */
function schemaForField(k: string, s: Structural | undefined): Structural | undefined {
  if (!s) return undefined;
  return propertyOf(s.properties, k) ?? s.additionalProperties?.structural;
}

/**
 * PruneNonNullableNullsWithoutDefaults (in place): drop object fields that are null although their schema
 * is not nullable and has no default. Nulls inside arrays are never dropped.
 */
export function pruneNonNullableNullsWithoutDefaults(x: unknown, s: Structural | undefined, path: FieldPath = FieldPath.root(), out: DefaultedField[] = []): void {
  if (isJSONObject(x)) {
    for (const k of Object.keys(x)) {
      const v = x[k];
      const fs = schemaForField(k, s);
      if (v === null && fs && !fs.nullable && fs.default === undefined) {
        delete x[k];
        note(out, path.child(k), 'null removed');
      } else pruneNonNullableNullsWithoutDefaults(v, fs, path.child(k), out);
    }
  } else if (Array.isArray(x)) {
    x.forEach((v, i) => pruneNonNullableNullsWithoutDefaults(v, s?.items, path.index(i), out));
  }
}

const isNonNullableNull = (x: unknown, s: Structural | undefined): boolean => x === null && !!s && !s.nullable;

/**
 * Default (in place): apply the defaults of s top-down, descending into defaulted values. Absent fields
 * and non-nullable nulls get the default; present values (including zero values) are never replaced.
 */
export function applyDefaults(x: unknown, s: Structural | undefined, path: FieldPath = FieldPath.root(), out: DefaultedField[] = []): void {
  if (!s) return;
  if (isJSONObject(x)) {
    for (const [k, prop] of Object.entries(s.properties ?? {})) {
      if (prop.default === undefined) continue;
      if (!hasOwn(x, k) || isNonNullableNull(x[k], prop)) {
        setOwn(x, k, deepCopyJSON(prop.default));
        note(out, path.child(k), 'default', prop.default);
      }
    }
    for (const k of Object.keys(x)) {
      const prop = propertyOf(s.properties, k);
      if (prop) applyDefaults(x[k], prop, path.child(k), out);
      else if (s.additionalProperties) {
        const ap = s.additionalProperties.structural;
        // Go copies the additionalProperties default here even when there is none (a null stays null)
        if (isNonNullableNull(x[k], ap) && ap!.default !== undefined) {
          setOwn(x, k, deepCopyJSON(ap!.default));
          note(out, path.child(k), 'default', ap!.default);
        }
        applyDefaults(x[k], ap, path.child(k), out);
      }
    }
  } else if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      if (isNonNullableNull(x[i], s.items) && s.items!.default !== undefined) {
        x[i] = deepCopyJSON(s.items!.default);
        note(out, path.index(i), 'default', s.items!.default);
      }
      applyDefaults(x[i], s.items, path.index(i), out);
    }
  }
}
