/**
 * Helpers for JSON values as the engine holds them: plain objects, arrays, strings, booleans, null,
 * numbers, bigints (integers beyond 2^53) and IntegralFloat (a float64 written `1.0`). Go decodes JSON
 * into map[string]interface{} / []interface{} / scalars; these helpers draw the same lines. The floor of
 * the engine's value helpers: everything imports them from here (Go's printing and kinds: json/go.ts).
 */
import { IntegralFloat } from './lossless';

/**
 * A stack overflow from recursing through absurdly deep input (thousands of levels). Entry points catch
 * it and answer without the result rather than throw: the engine never throws on user input.
 */
export function isTooDeep(e: unknown): boolean {
  return e instanceof RangeError;
}

/**
 * A copy of a string value that does not keep alive the text it was read from: V8 keeps the whole parent
 * of a substring (a rule or pattern read from a 3 MB CRD keeps the 3 MB). For strings that outlive their
 * document, such as the keys and sources of module caches. (Concatenation flattens into a new string.)
 */
export function detachedString(s: string): string {
  return s.length < 13 ? s : ` ${s}`.slice(1);
}

/** A JSON object (Go's map[string]interface{}): a plain object, not an array, null or IntegralFloat. */
export function isJSONObject(v: unknown): v is Record<string, unknown> {
  // An IntegralFloat's prototype is its class's: the prototype test excludes it (no `instanceof`, which
  // costs more than the rest of this test where code is not yet optimized, and this runs at every node).
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Whether v is a JSON number in any of its decoded forms (number, bigint, IntegralFloat). */
export function isNumber(v: unknown): boolean {
  return typeof v === 'number' || typeof v === 'bigint' || v instanceof IntegralFloat;
}

/** Whether v is a JSON number written as an integer (Go decodes it into an int field). */
export function isInteger(v: unknown): boolean {
  return (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint';
}

/** Go's name of a JSON kind in decode errors. */
export function jsonKindName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (isNumber(v)) return 'number';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return 'object';
}

/** The number a schema keyword holds (number, bigint or IntegralFloat), or undefined. */
export function jsonNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof IntegralFloat) return v.value;
  return undefined;
}

/**
 * Set an own enumerable property even for keys such as `__proto__`, which a plain assignment would
 * treat as the prototype (JSON input may hold any key).
 */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/**
 * Go's encoding/json reads null as the zero value, without error, whatever the field's type (`env: null`,
 * `creationTimestamp: null`): such fields are as if unset. The value without its null fields, at any depth
 * (nulls in arrays stay); copies what it changes.
 */
export function withoutNullFields(v: unknown, depth = 0): unknown {
  if (depth > 1000) return v;
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    v.forEach((x, i) => {
      const y = withoutNullFields(x, depth + 1);
      if (y !== x) (out ??= [...v])[i] = y;
    });
    return out ?? v;
  }
  if (!isJSONObject(v)) return v;
  let out: Record<string, unknown> | undefined;
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    const x = v[k];
    if (x !== null && typeof x !== 'object') continue;
    const y = x === null ? undefined : withoutNullFields(x, depth + 1);
    if (y === x) continue;
    out ??= { ...v };
    if (y === undefined) delete out[k];
    else setOwn(out, k, y);
  }
  return out ?? v;
}

/** Go's hasOwn lookup of a map key. */
export function hasOwn(obj: object, key: string): boolean {
  return Object.hasOwn(obj, key);
}

/**
 * runtime.DeepCopyJSONValue: a deep copy of objects and arrays; scalars (including the immutable
 * IntegralFloat and bigint) are shared. Values that are not JSON (functions, symbols) are kept as they are.
 */
export function deepCopyJSON<T>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => deepCopyJSON(x)) as unknown as T;
  if (isJSONObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) setOwn(out, k, deepCopyJSON(v[k]));
    return out as T;
  }
  return v;
}

/** reflect.DeepEqual on decoded JSON: int and float kept apart (1 vs 1.0), keys compared as sets. */
export function deepEqualJSON(a: unknown, b: unknown): boolean {
  if (a instanceof IntegralFloat || b instanceof IntegralFloat) {
    if (a instanceof IntegralFloat && b instanceof IntegralFloat) return a.value === b.value;
    // a float64 with a fraction (plain number) equals an IntegralFloat only if both are floats, which
    // an integral plain number is not
    return false;
  }
  if (typeof a === 'bigint' || typeof b === 'bigint') {
    const ia = typeof a === 'bigint' ? a : typeof a === 'number' && Number.isInteger(a) ? BigInt(a) : undefined;
    const ib = typeof b === 'bigint' ? b : typeof b === 'number' && Number.isInteger(b) ? BigInt(b) : undefined;
    return ia !== undefined && ib !== undefined && ia === ib;
  }
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => deepEqualJSON(x, b[i]));
  }
  if (isJSONObject(a)) {
    if (!isJSONObject(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => hasOwn(b, k) && deepEqualJSON(a[k], b[k]));
  }
  return false;
}
