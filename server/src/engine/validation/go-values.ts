/**
 * How Go's decoder (k8s.io/apimachinery/pkg/util/json) types JSON values, and the Go number printing
 * and conversion rules kube-openapi's messages depend on.
 *
 * Integers written without fraction or exponent are int64; everything else numeric is float64
 * (IntegralFloat, and integers outside the int64 range, which Go's decoder falls back to float64 for).
 */
import { IntegralFloat } from '../json/lossless';

export type GoKind = 'nil' | 'bool' | 'int' | 'float' | 'string' | 'slice' | 'map' | 'invalid';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The reflect.Kind Go would see for a decoded JSON value. */
export function goKind(v: unknown): GoKind {
  if (v === null || v === undefined) return 'nil';
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'string':
      return 'string';
    case 'number':
      return Number.isInteger(v) ? 'int' : 'float';
    case 'bigint':
      return v >= INT64_MIN && v <= INT64_MAX ? 'int' : 'float';
    case 'object':
      if (v instanceof IntegralFloat) return 'float';
      return Array.isArray(v) ? 'slice' : 'map';
    default:
      return 'invalid';
  }
}

/** The float64 value of a numeric JSON value (valueHelper.asFloat64). */
export function asFloat64(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof IntegralFloat) return v.value;
  return 0;
}

/** The int64 value of an int-kind value, as bigint (exact). */
export function asInt64(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return BigInt(Math.trunc(v));
  if (v instanceof IntegralFloat) return BigInt(Math.trunc(v.value));
  return 0n;
}

/** Go's int64(f) for a float64 (truncation; out of range saturates like amd64's 0x8000000000000000). */
export function floatToInt64(f: number): bigint {
  if (!Number.isFinite(f)) return INT64_MIN;
  const t = BigInt(Math.trunc(f));
  return t < INT64_MIN || t > INT64_MAX ? INT64_MIN : t;
}

const MAX_JSON_FLOAT = 2 ** 53 - 1;
const EPSILON = 1e-9;

/** swag.IsFloat64AJSONInteger: is f an integer as far as JSON (±2^53) is concerned, with a relative tolerance. */
export function isFloat64AJSONInteger(f: number): boolean {
  if (Number.isNaN(f) || !Number.isFinite(f) || f < -MAX_JSON_FLOAT || f > MAX_JSON_FLOAT) return false;
  if (Number.isInteger(f)) return true;
  // g = float64(uint64(f)): for negative f amd64 goes through int64, giving 2^64 + trunc(f).
  const g = f >= 0 ? Math.trunc(f) : 2 ** 64 + Math.trunc(f);
  const fa = Math.abs(f);
  const ga = Math.abs(g);
  const diff = Math.abs(f - g);
  if (f === 0 || g === 0 || diff < Number.MIN_VALUE) return diff < EPSILON * Number.MIN_VALUE;
  return diff / Math.min(fa + ga, Number.MAX_VALUE) < EPSILON;
}

/** Go's %v of a float64: strconv 'g' with the shortest digits, exponent form when exp < -4 || exp >= 6 (1e+06). */
export function formatGoFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mant, expStr] = f.toExponential().split('e');
  const exp = Number(expStr);
  const neg = mant.startsWith('-');
  const digits = mant.replace('-', '').replace('.', '');
  if (exp < -4 || exp >= 6) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp);
    return `${neg ? '-' : ''}${m}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' + e : e}`;
  }
  // Fixed notation with the shortest digits.
  let s: string;
  const dp = exp + 1;
  if (dp <= 0) s = '0.' + '0'.repeat(-dp) + digits;
  else if (dp >= digits.length) s = digits + '0'.repeat(dp - digits.length);
  else s = digits.slice(0, dp) + '.' + digits.slice(dp);
  return (neg ? '-' : '') + s;
}

/** swag.FormatFloat64: strconv.FormatFloat(f, 'f', -1, 64). */
export function formatFloatF(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  const [mant, expStr] = f.toExponential().split('e');
  const exp = Number(expStr);
  const neg = mant.startsWith('-');
  const digits = mant.replace('-', '').replace('.', '');
  const dp = exp + 1;
  let s: string;
  if (dp <= 0) s = '0.' + '0'.repeat(-dp) + digits;
  else if (dp >= digits.length) s = digits + '0'.repeat(dp - digits.length);
  else s = digits.slice(0, dp) + '.' + digits.slice(dp);
  return (neg ? '-' : '') + s;
}

/** Go's %v of any decoded JSON scalar number (int64 plain, float64 as formatGoFloat). */
export function formatGoNumber(v: unknown): string {
  return goKind(v) === 'int' ? asInt64(v).toString() : formatGoFloat(asFloat64(v));
}

/** Number of runes (code points) in s, as utf8.RuneCountInString. */
export function runeCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** Length of s in UTF-8 bytes (Go's len(string)). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/**
 * reflect.DeepEqual on decoded JSON values: int64 and float64 differ even when numerically equal.
 */
export function goDeepEqual(a: unknown, b: unknown): boolean {
  const ka = goKind(a);
  const kb = goKind(b);
  if (ka !== kb) return false;
  switch (ka) {
    case 'nil':
      return true;
    case 'int':
      return asInt64(a) === asInt64(b);
    case 'float':
      return asFloat64(a) === asFloat64(b);
    case 'slice': {
      const x = a as unknown[];
      const y = b as unknown[];
      return x.length === y.length && x.every((v, i) => goDeepEqual(v, y[i]));
    }
    case 'map': {
      const x = a as Record<string, unknown>;
      const y = b as Record<string, unknown>;
      const kx = Object.keys(x);
      if (kx.length !== Object.keys(y).length) return false;
      return kx.every((k) => Object.hasOwn(y, k) && goDeepEqual(x[k], y[k]));
    }
    default:
      return a === b;
  }
}

/**
 * encoding/json.Marshal of a decoded JSON value with sorted keys; float64 printed like Go
 * (integral floats without fraction), so equal Go encodings give equal strings.
 */
export function goJSON(v: unknown): string {
  switch (goKind(v)) {
    case 'nil':
      return 'null';
    case 'bool':
      return v ? 'true' : 'false';
    case 'int':
      return asInt64(v).toString();
    case 'float': {
      const f = asFloat64(v);
      const a = Math.abs(f);
      if (a !== 0 && (a < 1e-6 || a >= 1e21)) {
        // Go switches to 'e' here and trims e-07 to e-7, which is exactly JS's exponential form.
        return f.toExponential();
      }
      return formatFloatF(f);
    }
    case 'string':
      return JSON.stringify(v);
    case 'slice':
      return '[' + (v as unknown[]).map(goJSON).join(',') + ']';
    case 'map': {
      const o = v as Record<string, unknown>;
      return (
        '{' +
        Object.keys(o)
          .sort()
          .map((k) => JSON.stringify(k) + ':' + goJSON(o[k]))
          .join(',') +
        '}'
      );
    }
    default:
      return 'null';
  }
}

/** A JS-plain copy of a value for printing (IntegralFloat -> number, bigint kept). */
export function plainValue(v: unknown): unknown {
  if (v instanceof IntegralFloat) return v.value;
  return v;
}

/** A decoded JSON object (map[string]interface{}); IntegralFloat boxes are numbers, not objects. */
export function isGoMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof IntegralFloat);
}
