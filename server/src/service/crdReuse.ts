/**
 * Findings of a CRD derived from the findings of an earlier version of the same CRD, without running the
 * API server checks again, when the two differ only in schema `description` texts.
 *
 * Why this is exact: the engine reads a schema's `description` only as "is it a string" (decoding) and
 * "is it empty" (structural checks forbid descriptions inside value validations); nothing else depends on
 * its text except messages that print a whole schema as the bad value. So a change of one description
 * text that keeps its emptiness gives the same findings, provided no previous finding prints an object
 * (which could embed the text) and the CRD has one version (with several, identical per-version schemas
 * are hoisted by the v1 conversion, which changes the paths findings are reported at).
 *
 * The values come from the YAML layer, which rebuilds a spliced value copy-on-write: unchanged subtrees
 * are the same objects, so the comparison below only walks the path to the edit.
 */
import type { FieldError } from '../engine/field';

/** One place where two JSON values differ. */
interface Difference {
  path: (string | number)[];
  a: unknown;
  b: unknown;
}

const MAX_DIFFERENCES = 16;
/** Beyond this many visited values (unrelated CRDs, a full re-parse) a full check is as good. */
const MAX_VISITS = 3_000_000;

/** The places where a and b differ (undefined when too many or too costly to tell). */
export function jsonDifferences(a: unknown, b: unknown): Difference[] | undefined {
  const out: Difference[] = [];
  let visits = 0;
  const stack: { a: unknown; b: unknown; path: (string | number)[] }[] = [{ a, b, path: [] }];
  while (stack.length) {
    const { a: x, b: y, path } = stack.pop()!;
    if (x === y) continue;
    if (++visits > MAX_VISITS) return undefined;
    if (Array.isArray(x) && Array.isArray(y) && x.length === y.length) {
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) stack.push({ a: x[i], b: y[i], path: [...path, i] });
      continue;
    }
    if (isPlainObject(x) && isPlainObject(y)) {
      const kx = Object.keys(x);
      const ky = Object.keys(y);
      if (kx.length === ky.length && kx.every((k, i) => k === ky[i])) {
        for (const k of kx) if (x[k] !== y[k]) stack.push({ a: x[k], b: y[k], path: [...path, k] });
        continue;
      }
    }
    out.push({ path, a: x, b: y });
    if (out.length > MAX_DIFFERENCES) return undefined;
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}

/** Keywords whose value is a map of schemas, a list of schemas, or one schema (JSONSchemaProps). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', 'dependencies']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf']);
const SCHEMAS = new Set(['additionalProperties', 'additionalItems', 'not']);

/** True when `path` is the `description` of a schema node of spec.versions[i].schema.openAPIV3Schema. */
export function isSchemaDescriptionPath(path: readonly (string | number)[]): boolean {
  if (path[0] !== 'spec' || path[1] !== 'versions' || typeof path[2] !== 'number' || path[3] !== 'schema' || path[4] !== 'openAPIV3Schema') return false;
  let i = 5;
  while (i < path.length - 1) {
    const k = path[i];
    if (typeof k !== 'string') return false;
    if (SCHEMA_MAPS.has(k)) {
      if (typeof path[i + 1] !== 'string') return false;
      i += 2;
    } else if (SCHEMA_LISTS.has(k)) {
      if (typeof path[i + 1] !== 'number') return false;
      i += 2;
    } else if (k === 'items') i += typeof path[i + 1] === 'number' ? 2 : 1;
    else if (SCHEMAS.has(k)) i += 1;
    else return false;
  }
  return i === path.length - 1 && path[i] === 'description';
}

function printsNoObject(e: FieldError): boolean {
  const v = e.badValue;
  return v === null || (typeof v !== 'object' && typeof v !== 'function');
}

/**
 * The findings of `next` from those of `prev` (a CRD value already checked), or undefined when they may
 * differ (then a full check is needed).
 */
export function deriveCrdFindings<T extends { errors: FieldError[] }>(prev: unknown, prevCheck: T, next: unknown): T | undefined {
  if (!isPlainObject(prev) || !isPlainObject(next) || prev.apiVersion !== 'apiextensions.k8s.io/v1' || next.apiVersion !== 'apiextensions.k8s.io/v1') return undefined;
  const versions = (v: Record<string, unknown>) => (isPlainObject(v.spec) && Array.isArray(v.spec.versions) ? v.spec.versions.length : -1);
  if (versions(prev) !== 1 || versions(next) !== 1) return undefined;
  if (!prevCheck.errors.every(printsNoObject)) return undefined;
  const diffs = jsonDifferences(prev, next);
  if (!diffs) return undefined;
  for (const d of diffs) {
    if (typeof d.a !== 'string' || typeof d.b !== 'string' || (d.a === '') !== (d.b === '')) return undefined;
    if (!isSchemaDescriptionPath(d.path)) return undefined;
  }
  return prevCheck;
}
