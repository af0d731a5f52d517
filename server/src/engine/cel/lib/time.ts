/**
 * Strict timestamp()/duration() parsing (Go's time.Parse(RFC3339) and time.ParseDuration, which
 * cel-go uses; cel-js' Date parsing accepts far more) and cel-go's string() conversions.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { celString } from './convert';
import { fail } from './errors';
import { durationFromNanos, parseGoDuration } from '../values';

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function daysIn(y: number, m: number): number {
  return [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
}

/** Go's time.Parse(time.RFC3339, s) as a Date (ms precision); undefined when invalid. */
export function parseRFC3339(s: string): Date | undefined {
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
  const frac = m[7] ? m[7].slice(1, 10).padEnd(9, '0') : '000000000';
  const ms = Number(frac.slice(0, 3));
  const base = new Date(Date.UTC(2000, mo - 1, d, h, mi, se, ms));
  base.setUTCFullYear(y);
  const date = new Date(base.getTime() - offset * 60_000);
  // CEL timestamps range over years 0001..9999.
  if (date.getUTCFullYear() < 1 || date.getUTCFullYear() > 9999) return undefined;
  // Go's time.Time keeps nanoseconds and the parsed zone offset; string(ts) prints both back.
  return Object.assign(date, { nanos: Number(frac), tzOffset: offset });
}

/** Registers the overriding timestamp(string), duration(string) and string(x) overloads. */
export function installTime(env: Environment): void {
  const f = (sig: string, h: (...a: never[]) => unknown) => env.registerFunction(sig, h as (...a: unknown[]) => unknown);
  f('timestamp__k8s(string): google.protobuf.Timestamp', (s: string) => {
    const t = parseRFC3339(s);
    if (!t) fail(`timestamp conversion error: parsing time "${s}" as "2006-01-02T15:04:05Z07:00": cannot parse`);
    return t;
  });
  f('timestamp__k8s(google.protobuf.Timestamp): google.protobuf.Timestamp', (t: Date) => t);
  f('timestamp__k8s(int): google.protobuf.Timestamp', (n: bigint) => {
    const d = new Date(Number(n) * 1000);
    if (Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1 || d.getUTCFullYear() > 9999) fail('timestamp overflow');
    return d;
  });
  f('duration__k8s(string): google.protobuf.Duration', (s: string) => {
    const ns = parseGoDuration(s);
    if (ns === undefined) fail(`invalid duration argument: time: invalid duration "${s}"`);
    return durationFromNanos(ns);
  });
  f('duration__k8s(google.protobuf.Duration): google.protobuf.Duration', (d: unknown) => d);
  for (const t of ['string', 'bool', 'int', 'uint', 'double', 'bytes', 'google.protobuf.Timestamp', 'google.protobuf.Duration']) {
    f(`string__k8s(${t}): string`, (v: unknown) => {
      if (t === 'bytes') {
        const b = Buffer.from(v as Uint8Array);
        const s = b.toString('utf8');
        if (!Buffer.from(s, 'utf8').equals(b)) fail('invalid UTF-8 in bytes, cannot convert to string');
        return s;
      }
      const s = celString(v);
      if (s === undefined) fail(`type conversion error from '${t}' to 'string'`);
      return s;
    });
  }
}

/** The wall-clock fields of t in tz (IANA name, or a "[+-]HH:MM" offset as cel-go accepts). */
function fieldsIn(t: Date, tz?: string): { y: number; mo: number; d: number; h: number; mi: number; s: number; ms: number; dow: number; doy: number } {
  let shifted: Date;
  if (tz === undefined || tz === 'UTC') shifted = t;
  else {
    const m = /^([+-])?(\d{1,2}):(\d{2})$/.exec(tz);
    if (m) {
      const mins = (Number(m[2]) * 60 + Number(m[3])) * (m[1] === '-' ? -1 : 1);
      shifted = new Date(t.getTime() + mins * 60_000);
    } else {
      let parts: Intl.DateTimeFormatPart[];
      try {
        parts = new Intl.DateTimeFormat('en-US', {
          timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
        }).formatToParts(t);
      } catch {
        return fail(`unknown time zone ${tz}`);
      }
      const get = (k: string) => Number(parts.find((p) => p.type === k)?.value ?? 0);
      shifted = new Date(Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'), t.getUTCMilliseconds()));
    }
  }
  const y = shifted.getUTCFullYear();
  const start = Date.UTC(y, 0, 1);
  return {
    y, mo: shifted.getUTCMonth(), d: shifted.getUTCDate(), h: shifted.getUTCHours(), mi: shifted.getUTCMinutes(),
    s: shifted.getUTCSeconds(), ms: shifted.getUTCMilliseconds(), dow: shifted.getUTCDay(),
    doy: Math.floor((Date.UTC(y, shifted.getUTCMonth(), shifted.getUTCDate()) - start) / 86_400_000),
  };
}

const TS_GETTERS: Record<string, (f: ReturnType<typeof fieldsIn>) => number> = {
  getFullYear: (f) => f.y,
  getMonth: (f) => f.mo,
  getDate: (f) => f.d,
  getDayOfMonth: (f) => f.d - 1,
  getDayOfWeek: (f) => f.dow,
  getDayOfYear: (f) => f.doy,
  getHours: (f) => f.h,
  getMinutes: (f) => f.mi,
  getSeconds: (f) => f.s,
  getMilliseconds: (f) => f.ms,
};

/** Accessor names routed to installTimeAccessors' implementations. */
export const TIME_ACCESSOR_OVERRIDES = Object.keys(TS_GETTERS);

/** Timestamp accessors with cel-go's time zone forms, and the duration accessors (same names). */
export function installTimeAccessors(env: Environment): void {
  const f = (sig: string, h: (...a: never[]) => unknown) => env.registerFunction(sig, h as (...a: unknown[]) => unknown);
  const TS = 'google.protobuf.Timestamp';
  const D = 'google.protobuf.Duration';
  for (const [name, get] of Object.entries(TS_GETTERS)) {
    f(`${TS}.${name}__k8s(): int`, (t: Date) => BigInt(get(fieldsIn(t))));
    f(`${TS}.${name}__k8s(string): int`, (t: Date, tz: string) => BigInt(get(fieldsIn(t, tz))));
  }
  const nanos = (d: { seconds: bigint; nanos: number }) => d.seconds * 1_000_000_000n + BigInt(d.nanos);
  f(`${D}.getHours__k8s(): int`, (d: never) => nanos(d) / 3_600_000_000_000n);
  f(`${D}.getMinutes__k8s(): int`, (d: never) => nanos(d) / 60_000_000_000n);
  f(`${D}.getSeconds__k8s(): int`, (d: never) => nanos(d) / 1_000_000_000n);
  f(`${D}.getMilliseconds__k8s(): int`, (d: never) => nanos(d) / 1_000_000n);
}
