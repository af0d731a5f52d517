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
  const ms = m[7] ? Math.floor(Number('0' + m[7]) * 1000 + 1e-9) : 0;
  const t = Date.UTC(y, mo - 1, d, h, mi, se, ms) - offset * 60_000;
  const date = new Date(t);
  if (y < 100) date.setUTCFullYear(y);
  // CEL timestamps range over years 0001..9999.
  if (date.getUTCFullYear() < 1 || date.getUTCFullYear() > 9999) return undefined;
  return date;
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
