/**
 * cel-go's type conversions (common/types ConvertToType): int(), uint(), double(), string(), bytes(),
 * with Go's strconv parsing and printing and cel-go's error messages.
 */
import { formatDurationSeconds, formatTimestamp } from './time';
import { Duration, Timestamp, TypeValue, fail, isOpaque, type Val } from './values';
import { MAX_INT64, MAX_UINT64, MIN_INT64, Uint } from '../common/types';

/** Go's fmt %g / strconv.FormatFloat(x, 'g', -1, 64): shortest digits, exponent form when exp < -4 || exp >= 6 (shortest precision decides as precision 6). */
export function formatDouble(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mant, expStr] = x.toExponential().split('e');
  const exp = Number(expStr);
  if (exp < -4 || exp >= 6) {
    const e = Math.abs(exp);
    return `${mant}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' + e : e}`;
  }
  // Plain decimal with the shortest round-trip digits.
  const digits = mant.replace('.', '').replace('-', '');
  const neg = x < 0 ? '-' : '';
  if (exp >= 0) {
    const intLen = exp + 1;
    if (digits.length <= intLen) return neg + digits + '0'.repeat(intLen - digits.length);
    return neg + digits.slice(0, intLen) + '.' + digits.slice(intLen);
  }
  return neg + '0.' + '0'.repeat(-exp - 1) + digits;
}

/** cel-go's string(x) for scalar values; undefined when the value has no string conversion. */
export function toCelString(v: Val): string | undefined {
  switch (typeof v) {
    case 'string':
      return v;
    case 'bigint':
      return v.toString();
    case 'number':
      return formatDouble(v);
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (v instanceof Uint) return v.value.toString();
  if (v instanceof Timestamp) return formatTimestamp(v);
  if (v instanceof Duration) return formatDurationSeconds(v);
  if (v instanceof TypeValue) return v.name;
  if (v instanceof Uint8Array) return bytesToString(v);
  if (isOpaque(v) && typeof (v as { toCelString?: () => string }).toCelString === 'function') return (v as unknown as { toCelString(): string }).toCelString();
  return undefined;
}

/** string(bytes): the bytes must be valid UTF-8. */
export function bytesToString(b: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    return fail('invalid UTF-8 in bytes, cannot convert to string');
  }
}

/** Go's strconv.ParseInt(s, 10, 64). */
export function parseGoInt(s: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n > MAX_INT64 || n < MIN_INT64 ? undefined : n;
}

/** Go's strconv.ParseUint(s, 10, 64). */
export function parseGoUint(s: string): bigint | undefined {
  if (!/^\d+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n > MAX_UINT64 ? undefined : n;
}

/** Go's strconv.ParseFloat(s, 64): decimal and exponent forms, inf/infinity/nan in any case. */
export function parseGoFloat(s: string): number | undefined {
  const t = s.toLowerCase();
  if (/^[+-]?(inf|infinity)$/.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  if (/^[+-]?nan$/.test(t)) return NaN;
  let f: number | undefined;
  if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(t)) f = Number(s);
  else {
    // Hexadecimal mantissa with a binary exponent (0x1.8p1); the exponent is required.
    const m = /^([+-]?)0x([0-9a-f]*)(?:\.([0-9a-f]*))?p([+-]?\d+)$/.exec(t);
    if (m && (m[2] + (m[3] ?? '')).length > 0) {
      const frac = m[3] ?? '';
      const mant = parseInt(m[2] + frac || '0', 16);
      f = (m[1] === '-' ? -1 : 1) * mant * 2 ** (Number(m[4]) - 4 * frac.length);
    }
  }
  // Out of range (more than half a ULP beyond the largest double) is ErrRange: an error, not ±Inf.
  if (f === undefined || !Number.isFinite(f)) return undefined;
  return f;
}

/** int(double): truncation; cel-go's bounds -9223372036854775809.0 and 9223372036854775807.0 are the doubles -2^63 and 2^63. */
export function doubleToInt(d: number): bigint {
  if (!Number.isFinite(d) || d <= -(2 ** 63) || d >= 2 ** 63) fail('integer overflow');
  return BigInt(Math.trunc(d));
}

/** uint(double): truncation, valid for 0 <= d < 2^64. */
export function doubleToUint(d: number): Uint {
  if (!Number.isFinite(d) || d <= -1 || d >= 2 ** 64) fail('unsigned integer overflow');
  return Uint.of(BigInt(Math.trunc(d)));
}

/** Checks an int64 result. */
export function checkInt(n: bigint): bigint {
  if (n > MAX_INT64 || n < MIN_INT64) fail('integer overflow');
  return n;
}

/** Checks a uint64 result. */
export function checkUint(n: bigint): Uint {
  if (n > MAX_UINT64 || n < 0n) fail('unsigned integer overflow');
  return Uint.of(n);
}
