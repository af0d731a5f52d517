/**
 * Conversion between the conformance corpus' JSON value encoding (FORMAT.md "Values") and cel-js runtime
 * values: int = bigint, uint = UnsignedInt, double = number, bytes = Uint8Array, timestamp = Date,
 * duration = Duration, list = Array, map = Map (string-keyed JSON objects become Maps too, so keys such
 * as `constructor` or `__proto__` are plain data).
 */
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { Optional } from '@marcbachmann/cel-js';
import { IntegralFloat } from '../json/lossless';

const DURATION_UNITS: Record<string, bigint> = {
  h: 3_600_000_000_000n,
  m: 60_000_000_000n,
  s: 1_000_000_000n,
  ms: 1_000_000n,
  us: 1_000n,
  'µs': 1_000n,
  ns: 1n,
};

/** Go's time.ParseDuration (what CEL's duration() accepts) into total nanoseconds; undefined when invalid. */
export function parseGoDuration(s: string): bigint | undefined {
  let rest = s;
  let sign = 1n;
  if (rest[0] === '-' || rest[0] === '+') {
    if (rest[0] === '-') sign = -1n;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0n;
  if (rest === '') return undefined;
  let total = 0n;
  const re = /^(\d*)(?:\.(\d*))?(h|ms|us|µs|ns|m|s)/;
  while (rest.length) {
    const m = re.exec(rest);
    if (!m || (m[1] === '' && (m[2] === undefined || m[2] === ''))) return undefined;
    const unit = DURATION_UNITS[m[3]];
    const whole = BigInt(m[1] || '0') * unit;
    let frac = 0n;
    if (m[2]) {
      const digits = m[2].slice(0, 18);
      frac = (BigInt(digits) * unit) / 10n ** BigInt(digits.length);
    }
    total += whole + frac;
    rest = rest.slice(m[0].length);
  }
  if (total > 9_223_372_036_854_775_807n) return undefined;
  return sign * total;
}

/** A cel-js Duration from nanoseconds. */
export function durationFromNanos(ns: bigint): Duration {
  const seconds = ns / 1_000_000_000n;
  const nanos = Number(ns % 1_000_000_000n);
  return new Duration(seconds, nanos);
}

/** Total nanoseconds of a cel-js Duration. */
export function durationNanos(d: Duration): bigint {
  return d.seconds * 1_000_000_000n + BigInt(d.nanos);
}

function base64ToBytes(s: string): Uint8Array {
  return new Uint8Array(Buffer.from(s, 'base64'));
}

/** A corpus JSON value (vars) as a CEL value. */
export function fromConformanceValue(v: unknown): unknown {
  if (v === null || typeof v === 'boolean' || typeof v === 'string' || typeof v === 'bigint') return v;
  if (v instanceof IntegralFloat) return v.value;
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map(fromConformanceValue);
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 1 && keys[0].startsWith('$') && typeof o[keys[0]] === 'string') {
      const s = o[keys[0]] as string;
      switch (keys[0]) {
        case '$bytes':
          return base64ToBytes(s);
        case '$uint':
          return new UnsignedInt(BigInt(s));
        case '$double':
          return Number(s === 'Infinity' || s === '+Inf' ? Infinity : s === '-Infinity' || s === '-Inf' ? -Infinity : s);
        case '$timestamp':
          return new Date(s);
        case '$duration': {
          const ns = parseGoDuration(s);
          if (ns === undefined) throw new Error(`invalid duration ${s}`);
          return durationFromNanos(ns);
        }
      }
    }
    const m = new Map<string, unknown>();
    for (const k of keys) m.set(k, fromConformanceValue(o[k]));
    return m;
  }
  return v;
}

/** Go's time.Duration.String() of nanoseconds (e.g. "1h2m0s"). */
export function formatGoDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const neg = ns < 0n;
  let u = neg ? -ns : ns;
  let out: string;
  if (u < 1_000_000_000n) {
    const [unit, div] = u < 1_000n ? ['ns', 1n] : u < 1_000_000n ? ['µs', 1_000n] : ['ms', 1_000_000n];
    out = fracString(u, div) + unit;
  } else {
    const h = u / 3_600_000_000_000n;
    u -= h * 3_600_000_000_000n;
    const m = u / 60_000_000_000n;
    u -= m * 60_000_000_000n;
    out = (h ? `${h}h` : '') + (h || m ? `${m}m` : '') + fracString(u, 1_000_000_000n) + 's';
  }
  return (neg ? '-' : '') + out;
}

function fracString(v: bigint, div: bigint): string {
  const whole = v / div;
  const frac = v % div;
  if (frac === 0n) return `${whole}`;
  const width = div.toString().length - 1;
  return `${whole}.${frac.toString().padStart(width, '0').replace(/0+$/, '')}`;
}

/** A CEL value as corpus JSON (what the runner compares with expect.value). */
export function toConformanceValue(v: unknown): unknown {
  if (v === null || v === undefined || typeof v === 'boolean' || typeof v === 'string' || typeof v === 'bigint') return v ?? null;
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return { $double: 'NaN' };
    if (!Number.isFinite(v)) return { $double: v > 0 ? '+Inf' : '-Inf' };
    return Number.isInteger(v) ? new IntegralFloat(v) : v;
  }
  if (v instanceof UnsignedInt) return { $uint: v.value.toString() };
  if (v instanceof Uint8Array) return { $bytes: Buffer.from(v).toString('base64') };
  if (v instanceof Date) return { $timestamp: v.toISOString().replace('.000Z', 'Z') };
  if (v instanceof Duration) return { $duration: formatGoDuration(durationNanos(v)) };
  if (v instanceof Optional) return v.hasValue() ? { $optional: toConformanceValue(v.value()) } : { $optional: null };
  if (Array.isArray(v)) return v.map(toConformanceValue);
  if (v instanceof Map) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of v) o[String(toMapKey(k))] = toConformanceValue(x);
    return o;
  }
  if (typeof v === 'object') {
    const ctorName = (v as object).constructor?.name;
    if (ctorName === 'Type') {
      const name = (v as { name: string }).name;
      return { $type: name === 'null' ? 'null_type' : name };
    }
    if (ctorName === 'Object') {
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) o[k] = toConformanceValue(x);
      return o;
    }
    const str = (v as { toString?: () => string }).toString?.();
    return { $opaque: str };
  }
  return String(v);
}

function toMapKey(k: unknown): unknown {
  if (k instanceof UnsignedInt) return k.value;
  return k;
}
