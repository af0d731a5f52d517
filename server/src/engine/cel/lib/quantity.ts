/**
 * Kubernetes quantity library (apiserver pkg/cel/library/quantity.go) over an exact rational value,
 * parsed as resource.ParseQuantity does (suffixes Ki..Ei, n..E, e<exp>), with its error texts.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { fail } from './errors';

// parseQuantityString scans sign, digits, '.', digits, suffix letters, exponent: every part may be empty
// (the documented regex says [0-9.]+, but 'Mi', '+' and '.' parse as 0; '1.2.3' is a format error).
const QUANTITY_RE = /^([+-]?[0-9]*(?:\.[0-9]*)?)([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const BINARY: Record<string, bigint> = { Ki: 1n << 10n, Mi: 1n << 20n, Gi: 1n << 30n, Ti: 1n << 40n, Pi: 1n << 50n, Ei: 1n << 60n };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  while (b) [a, b] = [b, a % b];
  return a;
}

/** A Kubernetes resource.Quantity as an exact fraction num/den (den > 0). */
export class Quantity {
  static celTypeName = 'kubernetes.Quantity';
  readonly num: bigint;
  readonly den: bigint;
  constructor(num: bigint, den: bigint = 1n) {
    const g = gcd(num, den) || 1n;
    this.num = num / g;
    this.den = den / g;
  }
  compareTo(o: Quantity): number {
    const l = this.num * o.den;
    const r = o.num * this.den;
    return l < r ? -1 : l > r ? 1 : 0;
  }
  equals(o: Quantity): boolean {
    return this.compareTo(o) === 0;
  }
  add(o: Quantity): Quantity {
    return new Quantity(this.num * o.den + o.num * this.den, this.den * o.den);
  }
  sub(o: Quantity): Quantity {
    return new Quantity(this.num * o.den - o.num * this.den, this.den * o.den);
  }
}

/** resource.ParseQuantity: the quantity, or Go's error text. */
export function parseQuantity(s: string): Quantity | string {
  if (s.length === 0) return 'quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'';
  const m = QUANTITY_RE.exec(s);
  if (!m) return "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
  const numStr = m[1];
  const suffix = m[2];
  const nm = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(numStr);
  if (!nm) return "unable to parse numeric part of quantity";
  const digits = (nm[2] || '') + (nm[3] || '');
  let num = BigInt(digits || '0');
  if (nm[1] === '-') num = -num;
  let den = 10n ** BigInt((nm[3] || '').length);
  if (suffix in BINARY) num *= BINARY[suffix];
  else if (suffix in DECIMAL) {
    const e = DECIMAL[suffix];
    if (e >= 0) num *= 10n ** BigInt(e);
    else den *= 10n ** BigInt(-e);
  } else {
    const em = /^[eE]([-+]?\d+)$/.exec(suffix);
    if (!em) return "unable to parse quantity's suffix";
    const e = Number(em[1]);
    if (Math.abs(e) > 1000) return "unable to parse quantity's suffix";
    if (e >= 0) num *= 10n ** BigInt(e);
    else den *= 10n ** BigInt(-e);
  }
  // Without digits only ParseQuantity's int64 fast path (scale >= nano) succeeds: inf.Dec rejects the empty value.
  if (digits === '' && den > 1_000_000_000n) return "unable to parse numeric part of quantity";
  // ParseQuantity rounds values finer than nano up to the next nano (away from zero).
  const scaled = num * 1_000_000_000n;
  if (scaled % den !== 0n) {
    let q = scaled / den;
    q += num < 0n ? -1n : 1n;
    return new Quantity(q, 1_000_000_000n);
  }
  return new Quantity(num, den);
}

const MAX_INT = 9223372036854775807n;
const MIN_INT = -9223372036854775808n;

function asInt64(q: Quantity): bigint | undefined {
  if (q.den !== 1n) return undefined;
  if (q.num > MAX_INT || q.num < MIN_INT) return undefined;
  return q.num;
}

function quantityOrFail(s: string): Quantity {
  const q = parseQuantity(s);
  if (typeof q === 'string') fail(q);
  return q;
}

/** Registers the quantity library. */
export function installQuantity(env: Environment): void {
  const f = (sig: string, h: (...a: never[]) => unknown) => env.registerFunction(sig, h as (...a: unknown[]) => unknown);
  const Q = 'kubernetes.Quantity';
  env.registerType(Q, Quantity);
  env.registerOperator(`${Q} == ${Q}`, (a: Quantity, b: Quantity) => a.equals(b));
  f(`quantity(string): ${Q}`, (s: string) => quantityOrFail(s));
  f(`isQuantity(string): bool`, (s: string) => typeof parseQuantity(s) !== 'string');
  f(`sign(${Q}): int`, (q: Quantity) => BigInt(q.num > 0n ? 1 : q.num < 0n ? -1 : 0));
  f(`${Q}.isGreaterThan(${Q}): bool`, (a: Quantity, b: Quantity) => a.compareTo(b) > 0);
  f(`${Q}.isLessThan(${Q}): bool`, (a: Quantity, b: Quantity) => a.compareTo(b) < 0);
  f(`${Q}.compareTo(${Q}): int`, (a: Quantity, b: Quantity) => BigInt(a.compareTo(b)));
  f(`${Q}.asApproximateFloat(): double`, (q: Quantity) => Number(q.num) / Number(q.den));
  f(`${Q}.asInteger(): int`, (q: Quantity) => {
    const i = asInt64(q);
    if (i === undefined) fail('cannot convert value to integer');
    return i;
  });
  f(`${Q}.isInteger(): bool`, (q: Quantity) => asInt64(q) !== undefined);
  f(`${Q}.add(${Q}): ${Q}`, (a: Quantity, b: Quantity) => a.add(b));
  f(`${Q}.add(int): ${Q}`, (a: Quantity, b: bigint) => a.add(new Quantity(b)));
  f(`${Q}.sub(${Q}): ${Q}`, (a: Quantity, b: Quantity) => a.sub(b));
  f(`${Q}.sub(int): ${Q}`, (a: Quantity, b: bigint) => a.sub(new Quantity(b)));
}
