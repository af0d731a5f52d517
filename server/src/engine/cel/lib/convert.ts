/**
 * CEL value classification and cel-go's string conversions (string(x), %s formatting), shared by
 * the libraries: doubles print as Go's %g, durations as seconds ("6347s"), timestamps as RFC 3339.
 */
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { Optional } from '@marcbachmann/cel-js';

export type CelKind =
  | 'int' | 'uint' | 'double' | 'string' | 'bool' | 'null' | 'bytes' | 'timestamp' | 'duration'
  | 'list' | 'map' | 'type' | 'optional' | 'object';

/** The CEL type of a runtime value. */
export function kindOf(v: unknown): CelKind {
  switch (typeof v) {
    case 'bigint': return 'int';
    case 'number': return 'double';
    case 'string': return 'string';
    case 'boolean': return 'bool';
  }
  if (v === null || v === undefined) return 'null';
  if (v instanceof UnsignedInt) return 'uint';
  if (v instanceof Uint8Array) return 'bytes';
  if (v instanceof Date) return 'timestamp';
  if (v instanceof Duration) return 'duration';
  if (Array.isArray(v) || v instanceof Set) return 'list';
  if (v instanceof Optional) return 'optional';
  if (v instanceof Map) return 'map';
  const ctor = (v as object).constructor;
  if (ctor === Object || ctor === undefined) return 'map';
  if (ctor?.name === 'Type') return 'type';
  return 'object';
}

/** cel-go's type name of a value, for messages ("int", "list", "google.protobuf.Duration", ...). */
export function typeNameOf(v: unknown): string {
  const k = kindOf(v);
  switch (k) {
    case 'timestamp': return 'google.protobuf.Timestamp';
    case 'duration': return 'google.protobuf.Duration';
    case 'null': return 'null_type';
    case 'object': return (v as { constructor: { celTypeName?: string; name: string } }).constructor.celTypeName ?? 'object';
    default: return k;
  }
}

/** Go's fmt %g of a float64 (shortest digits; exponent form when exp < -4 or exp >= 6). */
export function formatGoG(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mant, expStr] = x.toExponential().split('e');
  const exp = Number(expStr);
  // strconv 'g' with shortest precision uses %e when exp < -4 || exp >= 6.
  if (exp < -4 || exp >= 6) {
    const e = Math.abs(exp);
    return `${mant}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' + e : e}`;
  }
  return String(x);
}

/** Seconds of a duration as Go's FormatFloat(d.Seconds(), 'f', -1) + "s". */
export function durationToString(d: Duration): string {
  const ns = d.seconds * 1_000_000_000n + BigInt(d.nanos);
  const neg = ns < 0n;
  const u = neg ? -ns : ns;
  const whole = u / 1_000_000_000n;
  const frac = u % 1_000_000_000n;
  const f = frac === 0n ? '' : '.' + frac.toString().padStart(9, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${f}s`;
}

/** Go's time.Format(RFC3339Nano), in the zone offset the timestamp was parsed with (UTC otherwise). */
export function timestampToString(t: Date): string {
  const extra = t as Date & { nanos?: number; tzOffset?: number };
  const offset = extra.tzOffset ?? 0;
  const local = new Date(t.getTime() + offset * 60_000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const y = local.getUTCFullYear();
  const base = `${pad(y, 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
  // Sub-millisecond digits survive only on timestamps we parsed ourselves and did not shift.
  const nanos = extra.nanos !== undefined && Math.floor(extra.nanos / 1e6) === t.getUTCMilliseconds() ? extra.nanos : t.getUTCMilliseconds() * 1e6;
  const frac = nanos ? '.' + String(nanos).padStart(9, '0').replace(/0+$/, '') : '';
  let zone = 'Z';
  if (offset) {
    const a = Math.abs(offset);
    zone = `${offset < 0 ? '-' : '+'}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
  }
  return `${base}${frac}${zone}`;
}

/** cel-go's string(x) conversion for scalar values; undefined when there is no conversion. */
export function celString(v: unknown): string | undefined {
  switch (kindOf(v)) {
    case 'string': return v as string;
    case 'int': return (v as bigint).toString();
    case 'uint': return (v as UnsignedInt).value.toString();
    case 'double': return formatGoG(v as number);
    case 'bool': return (v as boolean) ? 'true' : 'false';
    case 'bytes': return Buffer.from(v as Uint8Array).toString('utf8');
    case 'timestamp': return timestampToString(v as Date);
    case 'duration': return durationToString(v as Duration);
    case 'type': return (v as { name: string }).name;
    case 'object': {
      const s = (v as { celString?: () => string }).celString;
      return s ? s.call(v) : undefined;
    }
  }
  return undefined;
}
