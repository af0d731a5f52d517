/**
 * List libraries: the Kubernetes lists library (apiserver pkg/cel/library/lists.go: isSorted, sum,
 * min, max, indexOf, lastIndexOf; `includes` in its version 1, Kubernetes 1.37), cel-go ext.Lists at
 * version 3 (Kubernetes 1.34: slice, flatten, lists.range, reverse, distinct, sort, sortBy), and the
 * two-variable comprehension helper cel.@mapInsert (ext.TwoVarComprehensions, Kubernetes 1.32).
 */
import { R, MAX_UINT64 as MAX_COST, mulU, addU, fixed, LIST_CREATE_BASE_COST, STRING_TRAVERSAL_COST_FACTOR, type EstimateNode, type EstimatorContext, type Range } from '../cost/model';
import { celCompare, celEquals, mapLookup } from '../runtime/equality';
import { work } from '../runtime/guard';
import { ensureBudget } from '../runtime/tracker';
import { actualSize } from '../runtime/size';
import { CelError, Duration, fail, isList, listItems, listSize, typeName, type CelList, type Val } from '../runtime/values';
import { MAX_INT64, MAX_UINT64, MIN_INT64, Uint } from '../common/types';
import { fn, overload, type FunctionDecl, type Library, type OverloadDecl } from './decls';
import { LIST_TRAVERSAL } from './strings';

const COMPARABLE: Array<[string, string]> = [
  ['int', 'int'],
  ['uint', 'uint'],
  ['double', 'double'],
  ['bool', 'bool'],
  ['duration', 'duration'],
  ['timestamp', 'timestamp'],
  ['string', 'string'],
  ['bytes', 'bytes'],
];
const SUMMABLE = ['int', 'uint', 'double', 'duration'];
const ZERO: Record<string, Val> = { int: 0n, uint: Uint.of(0n), double: 0, duration: new Duration(0n) };

function compareOrFail(a: Val, b: Val): number {
  if (a instanceof CelError) fail(a.message);
  if (b instanceof CelError) fail(b.message);
  const c = celCompare(a, b);
  if (c === undefined) fail(`no such overload: ${typeName(a)}.compare(${typeName(b)})`);
  return c;
}

function isSorted(l: CelList): boolean {
  const a = listItems(l);
  work(a.length);
  for (let i = 1; i < a.length; i++) if (compareOrFail(a[i - 1], a[i]) > 0) return false;
  return true;
}

function sum(l: CelList, zero: Val): Val {
  const a = listItems(l);
  work(a.length);
  if (a.length === 0) return zero;
  let acc: Val = a[0];
  if (acc instanceof CelError) fail(acc.message);
  for (let i = 1; i < a.length; i++) {
    const x = a[i];
    if (x instanceof CelError) fail(x.message);
    if (typeof acc === 'bigint' && typeof x === 'bigint') {
      acc = acc + x;
      if ((acc as bigint) > MAX_INT64 || (acc as bigint) < MIN_INT64) fail('integer overflow');
    } else if (acc instanceof Uint && x instanceof Uint) {
      const s = acc.value + x.value;
      if (s > MAX_UINT64) fail('unsigned integer overflow');
      acc = Uint.of(s);
    } else if (typeof acc === 'number' && typeof x === 'number') acc = acc + x;
    else if (acc instanceof Duration && x instanceof Duration) {
      const s = acc.nanos + x.nanos;
      if (s > MAX_INT64 || s < MIN_INT64) fail('integer overflow');
      acc = new Duration(s);
    } else fail(`no such overload: ${typeName(acc)}.add(${typeName(x)})`);
  }
  return acc;
}

function extreme(l: CelList, name: 'min' | 'max'): Val {
  const a = listItems(l);
  if (a.length === 0) fail(`${name} called on empty list`);
  work(a.length);
  let best = a[0];
  for (let i = 1; i < a.length; i++) {
    const c = compareOrFail(a[i], best);
    if (name === 'min' ? c < 0 : c > 0) best = a[i];
  }
  return best;
}

function indexOf(l: CelList, v: Val, last: boolean): bigint {
  const a = listItems(l);
  work(a.length);
  if (last) {
    for (let i = a.length - 1; i >= 0; i--) if (celEquals(a[i], v)) return BigInt(i);
  } else {
    for (let i = 0; i < a.length; i++) if (celEquals(a[i], v)) return BigInt(i);
  }
  return -1n;
}

function includes(container: Val, v: Val): boolean {
  if (isList(container)) return indexOf(container, v, false) >= 0n;
  return celEquals(container, v);
}

/** %v of a value's ref.Type(): maps and lists of values print as map(dyn, dyn) and list(dyn). */
function runtimeTypeString(v: Val): string {
  const n = typeName(v);
  return n === 'map' ? 'map(dyn, dyn)' : n === 'list' ? 'list(dyn)' : n;
}

function flatten(l: CelList, depth: number): Val[] {
  if (depth < 0) fail('level must be non-negative');
  const out: Val[] = [];
  const go = (xs: readonly Val[], d: number) => {
    work(xs.length);
    for (const x of xs) {
      if (isList(x) && d > 0) go(listItems(x), d - 1);
      else out.push(x);
    }
  };
  go(listItems(l), depth);
  return out;
}

/** Stable sort of values by keys with CEL ordering. */
function sortBy(values: readonly Val[], keys: readonly Val[]): Val[] {
  work(values.length * Math.max(1, Math.ceil(Math.log2(values.length + 1))));
  const idx = values.map((_, i) => i);
  idx.sort((p, q) => compareOrFail(keys[p], keys[q]) || p - q);
  return idx.map((i) => values[i]);
}

function distinct(l: CelList): Val[] {
  const a = listItems(l);
  work(a.length);
  const out: Val[] = [];
  for (const x of a) {
    work(out.length);
    if (!out.some((y) => celEquals(x, y))) out.push(x);
  }
  return out;
}

function slice(l: CelList, s: bigint, e: bigint): Val[] {
  const n = listSize(l);
  if (s < 0n || e < 0n) fail(`cannot slice(${s}, ${e}), negative indexes not supported`);
  if (s > e) fail(`cannot slice(${s}, ${e}), start index must be less than or equal to end index`);
  if (e > BigInt(n)) fail(`cannot slice(${s}, ${e}), list is length ${n}`);
  return listItems(l).slice(Number(s), Number(e));
}

function range(n: bigint): bigint[] {
  if (n < 0n) fail(`lists.range: size must be non-negative, got ${n}`);
  // cel-go builds the list and then charges its size plus the call and the list creation.
  ensureBudget(Number(n) + 1 + LIST_CREATE_BASE_COST);
  const c = Number(n);
  const out: bigint[] = new Array(c);
  for (let i = 0; i < c; i++) out[i] = BigInt(i);
  work(c);
  return out;
}

// ext.Lists cost estimators and trackers (cel-go ext/lists.go, version 3).

/** A literal int argument as uint64 (negative: 0), or the default. */
function literalUint(n: EstimateNode, dflt: number): number {
  const e = n.expr;
  if (e?.kind !== 'literal' || typeof e.value !== 'bigint') return dflt;
  return e.value < 0n ? 0 : Number(e.value);
}

function allocatingList(factor: number, size: Range) {
  return { cost: R.add(R.add(R.factor(size, factor), fixed(1)), fixed(LIST_CREATE_BASE_COST)), resultSize: size };
}

function trackAllocating(factor: number, size: number): number {
  return addU(addU(Math.floor(size * (factor < 0 ? 1 : factor)), 1), LIST_CREATE_BASE_COST);
}

function trackSelfCompare(l: CelList): number {
  const sz = listSize(l);
  let factor = 2;
  if (sz === 0) return trackAllocating(factor, 0);
  const first = listItems(l)[0];
  if (typeof first === 'string' || first instanceof Uint8Array) factor += STRING_TRAVERSAL_COST_FACTOR;
  return trackAllocating(factor, mulU(sz, sz));
}

function sortEstimate(ctx: EstimatorContext, node: EstimateNode, elem: string) {
  const sz = ctx.sizeEstimate(node);
  const factor = elem === 'string' || elem === 'bytes' ? 2 + STRING_TRAVERSAL_COST_FACTOR : 2;
  return allocatingList(factor, R.mul(sz, sz));
}

function listsExt(): FunctionDecl[] {
  const sortOverloads: OverloadDecl[] = COMPARABLE.map(([t]) => overload(`list_${t}_sort`, `list<${t}>.sort(): list<${t}>`, (l: CelList) => sortBy(listItems(l), listItems(l))));
  const sortByOverloads: OverloadDecl[] = COMPARABLE.map(([t]) =>
    overload(`list_${t}_sortByAssociatedKeys`, `list<T>.@sortByAssociatedKeys(list<${t}>): list<T>`, (l: CelList, keys: CelList) => {
      if (listSize(l) !== listSize(keys)) fail('@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got different sizes');
      return sortBy(listItems(l), listItems(keys));
    }),
  );
  return [
    fn('slice', 'the elements between two indexes', [['list_slice', 'list<T>.slice(int, int): list<T>', slice]], {
      estimate: (ctx, _id, t, args) => {
        if (!t || args.length !== 2) return undefined;
        const sz = ctx.sizeEstimate(t);
        const start = literalUint(args[0], 0);
        const end = literalUint(args[1], sz.max);
        return allocatingList(1, fixed(Math.max(0, end - start)));
      },
      cost: (_id, _args, result) => trackAllocating(1, actualSize(result)),
    }),
    fn(
      'flatten',
      'the list with nested lists spliced in (to a depth)',
      [
        // Its type guards are off: the binding checks for a list and names the value's type (map(dyn, dyn)).
        ['list_flatten', 'list<list<T>>.flatten(): list<T>', (l: CelList) => (isList(l) ? flatten(l, 1) : fail(`no such overload: ${runtimeTypeString(l)}.flatten()`)), { typeGuards: false }],
        [
          'list_flatten_int',
          'list<dyn>.flatten(int): list<dyn>',
          (l: CelList, d: bigint) => (isList(l) && typeof d === 'bigint' ? flatten(l, Number(d)) : fail(`no such overload: ${runtimeTypeString(l)}.flatten(${runtimeTypeString(d)})`)),
          { typeGuards: false },
        ],
      ],
      {
        estimate: (ctx, _id, t, args) => (t && args.length <= 1 ? allocatingList(args.length === 1 ? literalUint(args[0], MAX_COST) : 1, ctx.sizeEstimate(t)) : undefined),
        cost: (_id, args) => trackAllocating(args.length === 2 ? Number(args[1] as bigint) : 1, actualSize(args[0])),
      },
    ),
    fn('lists.range', 'the list [0, 1, ..., n-1]', [['lists_range', 'lists.range(int): list<int>', range]], {
      estimate: (_ctx, _id, t, args) => (!t && args.length === 1 ? allocatingList(1, fixed(literalUint(args[0], MAX_COST))) : undefined),
      cost: (_id, _args, result) => trackAllocating(1, actualSize(result)),
    }),
    fn('reverse', 'the list in reverse order', [['list_reverse', 'list<T>.reverse(): list<T>', (l: CelList) => [...listItems(l)].reverse()]], {
      estimate: (ctx, _id, t, args) => (t && args.length === 0 ? allocatingList(1, ctx.sizeEstimate(t)) : undefined),
      cost: (_id, _args, result) => trackAllocating(1, actualSize(result)),
    }),
    fn('distinct', 'the list without duplicates (first occurrences kept)', [['list_distinct', 'list<T>.distinct(): list<T>', distinct]], {
      estimate: (ctx, _id, t, args) => {
        if (!t || args.length !== 0) return undefined;
        const sz = ctx.sizeEstimate(t);
        return allocatingList(2, R.mul(sz, sz));
      },
      cost: (_id, args) => trackSelfCompare(args[0] as CelList),
      costFromArgs: true,
    }),
    {
      name: 'sort',
      doc: 'the list sorted',
      overloads: sortOverloads,
      estimate: (ctx, id, t, args) => (t && args.length === 0 ? sortEstimate(ctx, t, id.slice(5, -5)) : undefined),
      cost: (_id, args) => trackSelfCompare(args[0] as CelList),
      costFromArgs: true,
    },
    {
      name: '@sortByAssociatedKeys',
      doc: 'internal: sortBy',
      overloads: sortByOverloads,
      estimate: (ctx, id, t, args) => (t && args.length === 1 ? sortEstimate(ctx, args[0], id.slice(5, -'_sortByAssociatedKeys'.length)) : undefined),
      cost: (_id, args) => trackSelfCompare(args[1] as CelList),
      costFromArgs: true,
    },
  ];
}

export const LISTS_EXT: Library = {
  name: 'cel.lib.ext.lists',
  since: 34,
  macros: [{ name: 'sortBy', signature: 'list.sortBy(x, keyExpr)', doc: 'the list sorted by the key of each element', receivers: ['list'] }],
  functions: listsExt(),
};

function k8sLists(withIncludes: boolean): FunctionDecl[] {
  const decls: FunctionDecl[] = [
    fn(
      'isSorted',
      'whether the list is sorted',
      COMPARABLE.map(([t, n]) => [`list_${n}_is_sorted_bool`, `list<${t}>.isSorted(): bool`, isSorted]),
      LIST_TRAVERSAL,
    ),
    fn(
      'sum',
      'the sum of the elements (0 for an empty list)',
      SUMMABLE.map((t) => [`list_${t}_sum_${t}`, `list<${t}>.sum(): ${t}`, (l: CelList) => sum(l, ZERO[t])]),
      LIST_TRAVERSAL,
    ),
    fn(
      'max',
      'the largest element',
      COMPARABLE.map(([t, n]) => [`list_${n}_max_${n}`, `list<${t}>.max(): ${t}`, (l: CelList) => extreme(l, 'max')]),
      LIST_TRAVERSAL,
    ),
    fn(
      'min',
      'the smallest element',
      COMPARABLE.map(([t, n]) => [`list_${n}_min_${n}`, `list<${t}>.min(): ${t}`, (l: CelList) => extreme(l, 'min')]),
      LIST_TRAVERSAL,
    ),
    fn('indexOf', 'the index of the first element equal to the value, or -1', [['list_a_index_of_int', 'list<A>.indexOf(A): int', (l: CelList, v: Val) => indexOf(l, v, false)]], LIST_TRAVERSAL),
    fn('lastIndexOf', 'the index of the last element equal to the value, or -1', [['list_a_last_index_of_int', 'list<A>.lastIndexOf(A): int', (l: CelList, v: Val) => indexOf(l, v, true)]], LIST_TRAVERSAL),
  ];
  if (withIncludes) decls.push(fn('includes', 'whether the list contains the value', [['list_includes_dyn_dyn', 'dyn.includes(dyn): bool', includes]], LIST_TRAVERSAL));
  return decls;
}

/** The Kubernetes lists library, version 0 (removed from new expressions at 1.37). */
export const K8S_LISTS_V0: Library = { name: 'kubernetes.lists', since: 0, until: 37, functions: k8sLists(false) };
/** Version 1 adds `includes` (1.37). */
export const K8S_LISTS_V1: Library = { name: 'kubernetes.lists', since: 37, functions: k8sLists(true) };

function mapInsert(m: Val, k: Val, v?: Val): Val {
  if (!(m instanceof Map)) return fail('no such overload');
  if (v === undefined) {
    // cel.@mapInsert(map, map): merge, every key new.
    if (!(k instanceof Map)) return fail('no such overload');
    const out = new Map(m);
    for (const [kk, vv] of k) {
      if (mapLookup(out, kk).found) fail(`insert failed: key ${String(kk)} already exists`);
      out.set(kk, vv);
    }
    return out;
  }
  if (mapLookup(m, k).found) fail(`insert failed: key ${String(k)} already exists`);
  return new Map(m).set(k, v);
}

/** cel-go ext.TwoVarComprehensions (Kubernetes 1.32): the macros are syntax/parse.ts; this is their helper. */
export const TWO_VAR_COMPREHENSIONS: Library = {
  name: 'cel.lib.ext.comprev2',
  since: 32,
  macros: [
    { name: 'all', signature: 'list.all(i, v, predicate) / map.all(k, v, predicate)', doc: 'whether the predicate holds for every index (key) and value', receivers: ['list', 'map'] },
    { name: 'exists', signature: 'list.exists(i, v, predicate) / map.exists(k, v, predicate)', doc: 'whether the predicate holds for some index (key) and value', receivers: ['list', 'map'] },
    { name: 'existsOne', signature: 'list.existsOne(i, v, predicate)', doc: 'whether the predicate holds for exactly one index (key) and value', receivers: ['list', 'map'] },
    { name: 'transformList', signature: 'x.transformList(i, v, [filter,] expr)', doc: 'a list of expr for each index (key) and value', receivers: ['list', 'map'] },
    { name: 'transformMap', signature: 'x.transformMap(k, v, [filter,] expr)', doc: 'a map from each index (key) to expr', receivers: ['list', 'map'] },
    { name: 'transformMapEntry', signature: 'x.transformMapEntry(k, v, [filter,] mapExpr)', doc: 'a map merged from the one-entry maps expr returns', receivers: ['list', 'map'] },
  ],
  functions: [
    fn('cel.@mapInsert', 'internal: transformMap', [
      ['@mapInsert_map_key_value', 'cel.@mapInsert(map<K, V>, K, V): map<K, V>', (m: Val, k: Val, v: Val) => mapInsert(m, k, v)],
      ['@mapInsert_map_map', 'cel.@mapInsert(map<K, V>, map<K, V>): map<K, V>', (m: Val, o: Val) => mapInsert(m, o)],
    ]),
  ],
};

export { CelError };
