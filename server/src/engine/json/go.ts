/**
 * How Go's decoder (k8s.io/apimachinery/pkg/util/json) types JSON values, and how Go prints them
 * (strconv.Quote, %v of numbers, encoding/json.Marshal): the one place for the Go printing that
 * field errors, kube-openapi's messages and CEL depend on.
 *
 * Integers written without fraction or exponent are int64; everything else numeric is float64
 * (IntegralFloat, and integers outside the int64 range, which Go's decoder falls back to float64 for).
 */
import { IntegralFloat } from './lossless';

export type GoKind = 'nil' | 'bool' | 'int' | 'float' | 'string' | 'slice' | 'map' | 'invalid';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

const TWO_63 = 2 ** 63;

/** The reflect.Kind Go would see for a decoded JSON value. */
export function goKind(v: unknown): GoKind {
  if (v === null || v === undefined) return 'nil';
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'string':
      return 'string';
    case 'number':
      return Number.isInteger(v) && v >= -TWO_63 && v < TWO_63 ? 'int' : 'float';
    case 'bigint':
      return v >= INT64_MIN && v <= INT64_MAX ? 'int' : 'float';
    case 'object':
      // By prototype, not `instanceof` (slower where code is not yet optimized; this runs at every node).
      if (Array.isArray(v)) return 'slice';
      return Object.getPrototypeOf(v) === IntegralFloat.prototype ? 'float' : 'map';
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

/** |f| of a finite float64 exactly as digits * 10^-scale. */
function exactDecimal(f: number): { digits: bigint; scale: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, f);
  const hi = view.getUint32(0);
  const biased = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(view.getUint32(4));
  let exp = -1074;
  if (biased !== 0) {
    m |= 1n << 52n;
    exp = biased - 1075;
  }
  // m * 2^exp; for exp < 0, m * 2^exp = m * 5^-exp / 10^-exp.
  return exp >= 0 ? { digits: m << BigInt(exp), scale: 0 } : { digits: m * 5n ** BigInt(-exp), scale: -exp };
}

/** digits * 10^-scale rounded half to even to `keep` decimals, times 10^keep. */
function roundHalfEven(digits: bigint, scale: number, keep: number): bigint {
  if (keep >= scale) return digits * 10n ** BigInt(keep - scale);
  const div = 10n ** BigInt(scale - keep);
  const q = digits / div;
  const twice = (digits % div) * 2n;
  return twice > div || (twice === div && q % 2n === 1n) ? q + 1n : q;
}

/**
 * strconv.FormatFloat(|f|, 'f', prec, 64) of a finite f: the exact binary value rounded half to even
 * (JavaScript's toFixed rounds ties away from zero and switches to exponent form from 1e21).
 */
export function formatGoFixedAbs(f: number, prec: number): string {
  const { digits, scale } = exactDecimal(f);
  const s = roundHalfEven(digits, scale, prec)
    .toString()
    .padStart(prec + 1, '0');
  return prec === 0 ? s : `${s.slice(0, s.length - prec)}.${s.slice(s.length - prec)}`;
}

/** strconv.FormatFloat(|f|, 'e', prec, 64) of a finite f, as mantissa digits ("1.234500") and exponent. */
export function formatGoExpAbs(f: number, prec: number): { mantissa: string; exp: number } {
  const { digits, scale } = exactDecimal(f);
  if (digits === 0n) return { mantissa: prec ? `0.${'0'.repeat(prec)}` : '0', exp: 0 };
  let exp = digits.toString().length - 1 - scale;
  let s = roundHalfEven(digits, scale, prec - exp).toString();
  if (s.length > prec + 1) {
    // Rounding carried into a new digit (9.9999995 -> 10.000000).
    exp++;
    s = s.slice(0, prec + 1);
  }
  return { mantissa: prec ? `${s[0]}.${s.slice(1)}` : s, exp };
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

/** Go's %T of a decoded JSON value (`int64`, `[]interface {}`, ...; `<nil>` for null). */
export function goTypeName(v: unknown): string {
  switch (goKind(v)) {
    case 'int':
      return 'int64';
    case 'float':
      return 'float64';
    case 'string':
      return 'string';
    case 'bool':
      return 'bool';
    case 'slice':
      return '[]interface {}';
    case 'map':
      return 'map[string]interface {}';
    default:
      return '<nil>';
  }
}

/** Go's %v of a decoded JSON value (`<nil>`, `[a 1]`, `map[a:1 b:[x]]` with its keys sorted, floats as Go prints them). */
export function formatGoValue(v: unknown): string {
  switch (goKind(v)) {
    case 'nil':
      return '<nil>';
    case 'int':
      return asInt64(v).toString();
    case 'float':
      return formatGoFloat(asFloat64(v));
    case 'slice':
      return '[' + (v as unknown[]).map(formatGoValue).join(' ') + ']';
    case 'map': {
      const o = v as Record<string, unknown>;
      return (
        'map[' +
        Object.keys(o)
          .sort()
          .map((k) => `${k}:${formatGoValue(o[k])}`)
          .join(' ') +
        ']'
      );
    }
    default:
      return String(v);
  }
}

/** A Go struct as a bad value: json.Marshal writes its fields in declaration order (maps are sorted). */
export class GoStruct {
  constructor(readonly fields: ReadonlyArray<readonly [string, unknown]>) {}
}

/**
 * encoding/json.Marshal of a decoded value: map keys sorted, int64 and float64 as Go writes them, and
 * <, >, &, U+2028 and U+2029 escaped (\u003c ...). NaN and infinities, which Marshal refuses, print null.
 */
export function goJSON(v: unknown): string {
  return marshal(v).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function marshal(v: unknown): string {
  if (v instanceof GoStruct) return '{' + v.fields.map(([k, f]) => JSON.stringify(k) + ':' + marshal(f)).join(',') + '}';
  switch (goKind(v)) {
    case 'nil':
      return 'null';
    case 'bool':
      return v ? 'true' : 'false';
    case 'int':
      return asInt64(v).toString();
    case 'float': {
      const f = asFloat64(v);
      if (!Number.isFinite(f)) return 'null';
      const a = Math.abs(f);
      // Go switches to 'e' here and trims e-07 to e-7, which is exactly JS's exponential form.
      if (a !== 0 && (a < 1e-6 || a >= 1e21)) return f.toExponential();
      return formatFloatF(f);
    }
    case 'string':
      return JSON.stringify(v);
    case 'slice':
      return '[' + (v as unknown[]).map(marshal).join(',') + ']';
    case 'map': {
      const o = v as Record<string, unknown>;
      return (
        '{' +
        Object.keys(o)
          .sort()
          .map((k) => JSON.stringify(k) + ':' + marshal(o[k]))
          .join(',') +
        '}'
      );
    }
    default:
      return 'null';
  }
}

/**
 * strconv.Quote (fmt's %q): Go's backslash escapes, \x for the other ASCII control characters, \u or \U
 * for the runes unicode.IsPrint rejects (other controls, format characters, separators but the space,
 * private use, unassigned). A lone surrogate is the U+FFFD Go's JSON decoder puts in its place.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    const esc = QUOTE_ESCAPES[ch];
    if (esc !== undefined) out += esc;
    else if (c >= 0xd800 && c <= 0xdfff) out += '\ufffd';
    else if (c === 0x20 || !NOT_PRINTABLE.test(ch)) out += ch;
    else if (c < 0x80) out += '\\x' + c.toString(16).padStart(2, '0');
    else if (c < 0x10000) out += '\\u' + c.toString(16).padStart(4, '0');
    else out += '\\U' + c.toString(16).padStart(8, '0');
  }
  return out + '"';
}

const QUOTE_ESCAPES: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '\\': '\\\\', '"': '\\"' };
const NOT_PRINTABLE = /^[\p{C}\p{Z}]$/u;

/** A JS-plain copy of a value for printing (IntegralFloat -> number, bigint kept). */
export function plainValue(v: unknown): unknown {
  if (v instanceof IntegralFloat) return v.value;
  return v;
}
