/**
 * JSON value helpers for CRD validation: kinds of numbers as decoded losslessly (number, bigint,
 * IntegralFloat) and Go's apiequality.Semantic.DeepEqual on decoded JSON (empty lists/maps equal absent).
 */
import { IntegralFloat } from '../json/lossless';
import { isObject } from '../schema/types';
import { memoPair } from '../field/memo';

/** Whether v is a JSON number in any of its decoded forms. */
export function isNumber(v: unknown): boolean {
  return typeof v === 'number' || typeof v === 'bigint' || v instanceof IntegralFloat;
}

/** Whether v is a JSON number written as an integer (Go decodes it into an int field). */
export function isInteger(v: unknown): boolean {
  return (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint';
}

/** A plain JSON object (not an IntegralFloat wrapper). */
export function isJSONObject(v: unknown): v is Record<string, unknown> {
  return isObject(v) && !(v instanceof IntegralFloat);
}

function isEmptyish(v: unknown): boolean {
  return v === undefined || v === null || (Array.isArray(v) && v.length === 0);
}

/**
 * Semantic.DeepEqual over decoded JSON: absent, null and empty lists are equal (Go nil vs empty slices);
 * ints and floats stay apart (Go int64 vs float64 after decoding).
 */
export function semanticDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // Objects compared before (per-version schemas of an edited CRD share their unchanged subtrees).
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) return memoPair('crd.semanticDeepEqual', a, b, () => deepEqualNodes(a, b));
  return deepEqualNodes(a, b);
}

function deepEqualNodes(a: unknown, b: unknown): boolean {
  if (isEmptyish(a) && isEmptyish(b)) return true;
  if (a instanceof IntegralFloat || b instanceof IntegralFloat) {
    return a instanceof IntegralFloat && b instanceof IntegralFloat && a.value === b.value;
  }
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    if (typeof a === 'number' && typeof b === 'number') return a === b;
    try {
      return BigInt(a) === BigInt(b);
    } catch {
      return false;
    }
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => semanticDeepEqual(x, b[i]));
  }
  if (isJSONObject(a) && isJSONObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!semanticDeepEqual(a[k], b[k])) return false;
    return true;
  }
  return a === b;
}

/** Sets an own property, also for keys like `__proto__` that plain assignment would misread. */
export function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
}

/** A deep copy of decoded JSON that keeps IntegralFloat and bigint values. */
export function cloneJSON<T>(v: T): T {
  if (Array.isArray(v)) return v.map(cloneJSON) as T;
  if (isJSONObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) setOwn(out, k, cloneJSON(x));
    return out as T;
  }
  return v;
}

/** Go's printing of a JSON kind in decode errors. */
export function jsonKindName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (isNumber(v)) return 'number';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return 'object';
}
