/**
 * CEL ordering and equality on runtime values, as cel-go's traits.Comparer and heterogeneous equality
 * define them (numbers compare across int/uint/double; lists and maps compare deeply).
 */
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { Optional } from '@marcbachmann/cel-js';
import { kindOf } from './convert';
import { fail, invalidDataOf } from './errors';

function numeric(v: unknown): number | bigint | undefined {
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  if (v instanceof UnsignedInt) return v.value;
  return undefined;
}

function cmpNum(a: number | bigint, b: number | bigint): number {
  if (typeof a === 'number' && Number.isNaN(a)) return NaN;
  if (typeof b === 'number' && Number.isNaN(b)) return NaN;
  // eslint-disable-next-line eqeqeq
  return a < b ? -1 : a > b ? 1 : 0;
}

function cmpBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length - b.length === 0 ? 0 : a.length < b.length ? -1 : 1;
}

/** Go string ordering (UTF-8 bytes = code points). */
export function cmpString(a: string, b: string): number {
  if (a === b) return 0;
  const ai = a[Symbol.iterator]();
  const bi = b[Symbol.iterator]();
  for (;;) {
    const x = ai.next();
    const y = bi.next();
    if (x.done) return y.done ? 0 : -1;
    if (y.done) return 1;
    const cx = x.value.codePointAt(0)!;
    const cy = y.value.codePointAt(0)!;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

/** Orders two values of a comparable CEL type; throws "no such overload" for others. */
export function celCompare(a: unknown, b: unknown): number {
  const bad = invalidDataOf(a) ?? invalidDataOf(b);
  if (bad !== undefined) fail(bad);
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) return cmpNum(na, nb);
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (ka !== kb) fail('no such overload');
  switch (ka) {
    case 'string': return cmpString(a as string, b as string);
    case 'bool': return a === b ? 0 : a ? 1 : -1;
    case 'bytes': return cmpBytes(a as Uint8Array, b as Uint8Array);
    case 'timestamp': {
      const d = (a as Date).getTime() - (b as Date).getTime();
      return d < 0 ? -1 : d > 0 ? 1 : 0;
    }
    case 'duration': {
      const x = (a as Duration).seconds * 1_000_000_000n + BigInt((a as Duration).nanos);
      const y = (b as Duration).seconds * 1_000_000_000n + BigInt((b as Duration).nanos);
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 'object': {
      const c = (a as { compareTo?: (o: unknown) => number }).compareTo;
      if (c && (a as object).constructor === (b as object).constructor) return c.call(a, b);
    }
  }
  return fail('no such overload');
}

function mapEntries(m: unknown): [unknown, unknown][] {
  if (m instanceof Map) return [...m.entries()];
  return Object.entries(m as Record<string, unknown>);
}

function mapGet(m: unknown, k: unknown): { found: boolean; value?: unknown } {
  for (const [mk, mv] of mapEntries(m)) if (celEquals(mk, k)) return { found: true, value: mv };
  return { found: false };
}

/** CEL heterogeneous equality (cel-go runtime semantics). */
export function celEquals(a: unknown, b: unknown): boolean {
  const bad = invalidDataOf(a) ?? invalidDataOf(b);
  if (bad !== undefined) fail(bad);
  if (a === b) return typeof a !== 'number' || !Number.isNaN(a);
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) return cmpNum(na, nb) === 0;
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (ka !== kb) return false;
  switch (ka) {
    case 'string':
    case 'bool':
      return a === b;
    case 'null':
      return true;
    case 'bytes':
      return cmpBytes(a as Uint8Array, b as Uint8Array) === 0;
    case 'timestamp':
    case 'duration':
      return celCompare(a, b) === 0;
    case 'type':
      return (a as { name: string }).name === (b as { name: string }).name;
    case 'list': {
      const x = Array.from(a as unknown[]);
      const y = Array.from(b as unknown[]);
      return x.length === y.length && x.every((e, i) => celEquals(e, y[i]));
    }
    case 'map': {
      const ea = mapEntries(a);
      const eb = mapEntries(b);
      if (ea.length !== eb.length) return false;
      return ea.every(([k, v]) => {
        const g = mapGet(b, k);
        return g.found && celEquals(v, g.value);
      });
    }
    case 'optional': {
      const oa = a as Optional;
      const ob = b as Optional;
      if (oa.hasValue() !== ob.hasValue()) return false;
      return !oa.hasValue() || celEquals(oa.value(), ob.value());
    }
    case 'object': {
      const eq = (a as { equals?: (o: unknown) => boolean }).equals;
      if (eq && (a as object).constructor === (b as object).constructor) return eq.call(a, b);
      return false;
    }
  }
  return false;
}
