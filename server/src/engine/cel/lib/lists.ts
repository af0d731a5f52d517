/**
 * Kubernetes lists library (apiserver pkg/cel/library/lists.go: isSorted, sum, min, max, indexOf,
 * lastIndexOf, and `includes` from 1.37) and cel-go ext.Lists at version 3 (lists.range, distinct,
 * reverse, slice, flatten, sort, sortBy, first/last come from the optional library).
 */
import type { Environment } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { celCompare, celEquals } from './compare';
import { kindOf } from './convert';
import { fail, num } from './errors';
import { chargeCost } from './guard';
import { durationFromNanos, durationNanos } from '../values';

const S = '__k8s';
const COMPARABLE = ['int', 'uint', 'double', 'bool', 'google.protobuf.Duration', 'google.protobuf.Timestamp', 'string', 'bytes'];
const SUMMABLE = ['int', 'uint', 'double', 'google.protobuf.Duration'];

function arr(l: unknown): unknown[] {
  return Array.isArray(l) ? l : Array.from(l as Iterable<unknown>);
}

const ZERO: Record<string, () => unknown> = {
  int: () => 0n,
  uint: () => new UnsignedInt(0n),
  double: () => 0,
  'google.protobuf.Duration': () => durationFromNanos(0n),
};

/** Sum of a list; an empty list gives the zero of the declared element type (int when unknown). */
function sum(l: unknown, elemType = 'int'): unknown {
  const a = arr(l);
  chargeCost(a.length);
  if (a.length === 0) return ZERO[elemType]();
  const k = kindOf(a[0]);
  switch (k) {
    case 'int': {
      let s = 0n;
      for (const x of a) s += x as bigint;
      if (s > 9223372036854775807n || s < -9223372036854775808n) fail('integer overflow');
      return s;
    }
    case 'uint': {
      let s = 0n;
      for (const x of a) s += (x as UnsignedInt).value;
      if (s > 18446744073709551615n) fail('unsigned integer overflow');
      return new UnsignedInt(s);
    }
    case 'double': {
      let s = 0;
      for (const x of a) s += x as number;
      return s;
    }
    case 'duration': {
      let s = 0n;
      for (const x of a) s += durationNanos(x as Duration);
      return durationFromNanos(s);
    }
  }
  return fail(`no such overload: sum`);
}

function extreme(l: unknown, name: 'min' | 'max'): unknown {
  const a = arr(l);
  if (a.length === 0) fail(`${name} called on empty list`);
  chargeCost(a.length);
  let best = a[0];
  for (let i = 1; i < a.length; i++) {
    const c = celCompare(a[i], best);
    if (name === 'min' ? c < 0 : c > 0) best = a[i];
  }
  return best;
}

function isSorted(l: unknown): boolean {
  const a = arr(l);
  chargeCost(a.length);
  for (let i = 1; i < a.length; i++) if (celCompare(a[i - 1], a[i]) > 0) return false;
  return true;
}

function indexOf(l: unknown, v: unknown, last: boolean): bigint {
  const a = arr(l);
  chargeCost(a.length);
  if (last) {
    for (let i = a.length - 1; i >= 0; i--) if (celEquals(a[i], v)) return BigInt(i);
  } else {
    for (let i = 0; i < a.length; i++) if (celEquals(a[i], v)) return BigInt(i);
  }
  return -1n;
}

function flatten(l: unknown, depth: number): unknown[] {
  if (depth < 0) fail('level must be non-negative');
  const out: unknown[] = [];
  const go = (xs: unknown[], d: number) => {
    chargeCost(xs.length);
    for (const x of xs) {
      if (kindOf(x) === 'list' && d > 0) go(arr(x), d - 1);
      else out.push(x);
    }
  };
  go(arr(l), depth);
  return out;
}

/** Stable sort with CEL ordering; all elements must be mutually comparable. */
export function sortValues<T>(a: T[], key: (x: T) => unknown): T[] {
  chargeCost(a.length * Math.max(1, Math.ceil(Math.log2(a.length + 1))));
  const withKeys = a.map((x, i) => ({ x, k: key(x), i }));
  if (withKeys.length > 1) {
    const k0 = kindOf(withKeys[0].k);
    for (const w of withKeys) {
      const kk = kindOf(w.k);
      const numericPair = ['int', 'uint', 'double'].includes(k0) && ['int', 'uint', 'double'].includes(kk);
      if (kk !== k0 && !numericPair) fail('list elements must have the same type');
      if (!['int', 'uint', 'double', 'string', 'bool', 'bytes', 'timestamp', 'duration'].includes(kk)) {
        fail(`list elements must be comparable`);
      }
    }
  }
  withKeys.sort((p, q) => celCompare(p.k, q.k) || p.i - q.i);
  return withKeys.map((w) => w.x);
}

function distinct(l: unknown): unknown[] {
  const a = arr(l);
  chargeCost(a.length * a.length / 10 + a.length);
  const out: unknown[] = [];
  for (const x of a) if (!out.some((y) => celEquals(x, y))) out.push(x);
  return out;
}

class ListsNamespace {}

/** Registers the Kubernetes lists library and cel-go's ext.Lists v3 (sortBy is a macro: see comprehensions). */
export function installLists(env: Environment, opts: { includes: boolean }): void {
  const f = (sig: string, h: (...a: never[]) => unknown) => env.registerFunction(sig, h as (...a: unknown[]) => unknown);
  for (const t of COMPARABLE) {
    f(`list<${t}>.isSorted(): bool`, (l: unknown) => isSorted(l));
    f(`list<${t}>.min(): ${t}`, (l: unknown) => extreme(l, 'min'));
    f(`list<${t}>.max(): ${t}`, (l: unknown) => extreme(l, 'max'));
  }
  // One handler per element type: a statically typed empty list sums to its own zero (cel-js binds the
  // overload at check time); a dyn empty list dispatches to the first one, int, as cel-go's [].sum() == 0.
  for (const t of SUMMABLE) f(`list<${t}>.sum(): ${t}`, (l: unknown) => sum(l, t));
  f(`list<A>.indexOf${S}(A): int`, (l: unknown, v: unknown) => indexOf(l, v, false));
  f(`list<A>.lastIndexOf${S}(A): int`, (l: unknown, v: unknown) => indexOf(l, v, true));
  if (opts.includes) {
    f(`dyn.includes(dyn): bool`, (r: unknown, v: unknown) => {
      if (kindOf(r) === 'list') return indexOf(r, v, false) >= 0n;
      return celEquals(r, v);
    });
  }
  env.registerType('ListsNamespace', ListsNamespace);
  env.registerConstant('lists', 'ListsNamespace', new ListsNamespace());
  f(`ListsNamespace.range(int): list<int>`, (_n: unknown, n: bigint) => {
    const c = num(n);
    chargeCost(Math.max(0, c));
    const out: bigint[] = [];
    for (let i = 0; i < c; i++) out.push(BigInt(i));
    return out;
  });
  f(`list<A>.distinct(): list<A>`, (l: unknown) => distinct(l));
  f(`list<A>.reverse(): list<A>`, (l: unknown) => {
    const a = arr(l).slice();
    chargeCost(a.length);
    return a.reverse();
  });
  f(`list<A>.slice(int, int): list<A>`, (l: unknown, s: bigint, e: bigint) => {
    const a = arr(l);
    if (s < 0n || e < 0n) fail(`cannot slice(${s}, ${e}), negative indexes not supported`);
    if (s > e) fail(`cannot slice(${s}, ${e}), start index must be less than or equal to end index`);
    if (e > BigInt(a.length)) fail(`cannot slice(${s}, ${e}), list is length ${a.length}`);
    chargeCost(num(e - s));
    return a.slice(num(s), num(e));
  });
  f(`list.flatten(): list`, (l: unknown) => flatten(l, 1));
  f(`list.flatten(int): list`, (l: unknown, d: bigint) => flatten(l, num(d)));
  for (const t of COMPARABLE) f(`list<${t}>.sort(): list<${t}>`, (l: unknown) => sortValues(arr(l), (x) => x));
}
