/**
 * Timestamps and durations as Go's time package reads and prints them (what cel-go uses):
 * time.Parse(RFC3339), time.ParseDuration, Duration.String(), and calendar fields in a time zone.
 */
import { type Duration, MAX_TIMESTAMP_NANOS, MIN_TIMESTAMP_NANOS, Timestamp, fail } from './values';

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function daysIn(y: number, m: number): number {
  return [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
}

/** Days from 1970-01-01 to y-m-d (proleptic Gregorian), for any year. */
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Go's time.Parse(time.RFC3339, s); undefined when invalid or outside CEL's range. */
export function parseRFC3339(s: string): Timestamp | undefined {
  const t = parseRFC3339Unbounded(s);
  return t && t.nanos >= MIN_TIMESTAMP_NANOS && t.nanos <= MAX_TIMESTAMP_NANOS ? t : undefined;
}

/** time.Parse(RFC3339) without CEL's timestamp range (years 1 to 9999): what parses, in or out of range. */
export function parseRFC3339Unbounded(s: string): Timestamp | undefined {
  const m = RFC3339.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h, mi, se] = m.slice(1, 7).map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || se > 59) return undefined;
  let offset = 0;
  if (m[8] !== 'Z' && m[8] !== 'z') {
    const oh = Number(m[8].slice(1, 3));
    const om = Number(m[8].slice(4, 6));
    if (oh > 23 || om > 59) return undefined;
    offset = (oh * 60 + om) * (m[8][0] === '-' ? -1 : 1);
  }
  const frac = m[7] ? BigInt(m[7].slice(1, 10).padEnd(9, '0')) : 0n;
  const secs = BigInt(daysFromCivil(y, mo, d)) * 86400n + BigInt(h * 3600 + mi * 60 + se) - BigInt(offset * 60);
  const nanos = secs * 1_000_000_000n + frac;
  return new Timestamp(nanos, offset);
}

/** A `date` (YYYY-MM-DD) as the timestamp of its midnight UTC. */
export function parseDate(s: string): Timestamp | undefined {
  return /^\d{4}-\d{2}-\d{2}$/.test(s) ? parseRFC3339(`${s}T00:00:00Z`) : undefined;
}

/** Whether n nanoseconds since the epoch is a valid CEL timestamp. */
export function timestampInRange(n: bigint): boolean {
  return n >= MIN_TIMESTAMP_NANOS && n <= MAX_TIMESTAMP_NANOS;
}

interface Civil {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
  nanos: number;
  dow: number;
  doy: number;
}

/** Calendar fields of t shifted by offset minutes. */
function civil(t: Timestamp, offsetMinutes: number): Civil {
  const total = t.nanos + BigInt(offsetMinutes) * 60_000_000_000n;
  let secs = total / 1_000_000_000n;
  let nanos = Number(total % 1_000_000_000n);
  if (nanos < 0) {
    nanos += 1_000_000_000;
    secs -= 1n;
  }
  let days = Number(secs / 86400n);
  let rem = Number(secs % 86400n);
  if (rem < 0) {
    rem += 86400;
    days -= 1;
  }
  // civil_from_days (Howard Hinnant)
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doyMar = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doyMar + 2) / 153);
  const d = doyMar - Math.floor((153 * mp + 2) / 5) + 1;
  const mo = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (mo <= 2 ? 1 : 0);
  const dow = ((days % 7) + 7 + 4) % 7; // 1970-01-01 was a Thursday
  const doy = days - daysFromCivil(y, 1, 1);
  return { y, mo, d, h: Math.floor(rem / 3600), mi: Math.floor((rem % 3600) / 60), s: rem % 60, nanos, dow, doy };
}

/** The zone offset (minutes) of an IANA zone at instant t, or of a "[+-]HH:MM" string. */
function zoneOffset(t: Timestamp, tz: string): number {
  const m = /^([+-])?(\d{1,2}):(\d{2})$/.exec(tz);
  if (m) return (Number(m[2]) * 60 + Number(m[3])) * (m[1] === '-' ? -1 : 1);
  if (tz === 'UTC' || tz === '') return 0;
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    }).formatToParts(new Date(t.millis));
  } catch {
    return fail(`unknown time zone ${tz}`);
  }
  const get = (k: string) => Number(parts.find((p) => p.type === k)?.value ?? 0);
  const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  const utc = Math.floor(t.millis / 1000) * 1000;
  return Math.round((local - utc) / 60_000);
}

/** The calendar accessors of timestamps (getFullYear, ...), in UTC or the given zone. */
export const TIMESTAMP_ACCESSORS: Record<string, (c: Civil) => number> = {
  getFullYear: (c) => c.y,
  getMonth: (c) => c.mo - 1,
  getDate: (c) => c.d,
  getDayOfMonth: (c) => c.d - 1,
  getDayOfWeek: (c) => c.dow,
  getDayOfYear: (c) => c.doy,
  getHours: (c) => c.h,
  getMinutes: (c) => c.mi,
  getSeconds: (c) => c.s,
  getMilliseconds: (c) => Math.floor(c.nanos / 1e6),
};

/** One calendar field of t in tz (UTC when undefined). */
export function timestampField(t: Timestamp, name: string, tz?: string): bigint {
  return BigInt(TIMESTAMP_ACCESSORS[name](civil(t, tz === undefined ? 0 : zoneOffset(t, tz))));
}

/** Go's time.Format(RFC3339Nano) in the zone the timestamp was written with. */
export function formatTimestamp(t: Timestamp): string {
  const c = civil(t, t.offsetMinutes);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const frac = c.nanos ? '.' + String(c.nanos).padStart(9, '0').replace(/0+$/, '') : '';
  let zone = 'Z';
  if (t.offsetMinutes) {
    const a = Math.abs(t.offsetMinutes);
    zone = `${t.offsetMinutes < 0 ? '-' : '+'}${pad(Math.floor(a / 60))}:${pad(a % 60)}`;
  }
  return `${pad(c.y, 4)}-${pad(c.mo)}-${pad(c.d)}T${pad(c.h)}:${pad(c.mi)}:${pad(c.s)}${frac}${zone}`;
}

const DURATION_UNITS: Record<string, bigint> = {
  h: 3_600_000_000_000n,
  m: 60_000_000_000n,
  s: 1_000_000_000n,
  ms: 1_000_000n,
  us: 1_000n,
  'µs': 1_000n,
  'μs': 1_000n,
  ns: 1n,
};

/** Go's time.ParseDuration in nanoseconds; undefined when invalid or out of int64 range. */
export function parseGoDuration(s: string): bigint | undefined {
  let rest = s;
  let neg = false;
  if (rest[0] === '-' || rest[0] === '+') {
    neg = rest[0] === '-';
    rest = rest.slice(1);
  }
  if (rest === '0') return 0n;
  if (rest === '') return undefined;
  let total = 0n;
  const re = /^(\d*)(?:\.(\d*))?(h|ms|us|µs|μs|ns|m|s)/;
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
    if (total > 9_223_372_036_854_775_808n) return undefined;
    rest = rest.slice(m[0].length);
  }
  if (neg) total = -total;
  if (total > 9_223_372_036_854_775_807n || total < -9_223_372_036_854_775_808n) return undefined;
  return total;
}

/** Go's time.Duration.String() (e.g. "1h2m0s", "1.5s", "300ms"). */
export function formatGoDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const neg = ns < 0n;
  let u = neg ? -ns : ns;
  let out: string;
  if (u < 1_000_000_000n) {
    const [unit, div] = u < 1_000n ? ['ns', 1n] : u < 1_000_000n ? ['µs', 1_000n] : ['ms', 1_000_000n];
    out = fracString(u, div as bigint) + unit;
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

/** cel-go's string(duration): seconds with the fraction as needed, e.g. "3600s", "1.5s". */
export function formatDurationSeconds(d: Duration): string {
  const neg = d.nanos < 0n;
  const u = neg ? -d.nanos : d.nanos;
  const whole = u / 1_000_000_000n;
  const frac = u % 1_000_000_000n;
  const f = frac === 0n ? '' : '.' + frac.toString().padStart(9, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${f}s`;
}
