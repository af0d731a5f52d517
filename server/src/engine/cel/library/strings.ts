/**
 * cel-go ext.Strings at StringsVersion 2 (Kubernetes base environment from 1.29) and ext.Sets (1.29).
 * Costs are the Kubernetes CostEstimator's (by function name) where it has one, else cel-go's.
 */
import { R, MAX_UINT64, STRING_TRAVERSAL_COST_FACTOR, mulU, addU, type EstimateNode, type EstimatorContext, type Range } from '../cost/model';
import { celEquals } from '../runtime/equality';
import { work } from '../runtime/guard';
import { actualSize, k8sActualSize } from '../runtime/size';
import { fail, listItems, type CelList, type Val } from '../runtime/values';
import { fn, traversal, type Library } from './decls';
import { formatString } from './format-string';
import { asciiMap, goReplace, goSplitN, indexOfOffset, isBmp, joinList, lastIndexOfOffset, lastIndexOfString, quote, runes, trimSpace } from './stringalgo';

/** The Kubernetes traversalCost (isSorted, sum, ..., indexOf): floor(0.1 * len) of strings, summed over lists. */
export function traversalCost(v: Val): number {
  if (typeof v === 'string') return Math.floor(v.length * STRING_TRAVERSAL_COST_FACTOR);
  if (v instanceof Uint8Array) return Math.floor(v.length * STRING_TRAVERSAL_COST_FACTOR);
  if (Array.isArray(v) || (v !== null && typeof v === 'object' && 'items' in (v as object) && typeof (v as { items: unknown }).items === 'function')) {
    let c = 0;
    for (const x of listItems(v as CelList)) c += traversalCost(x);
    return c;
  }
  if (v instanceof Map) {
    let c = 0;
    for (const [k, x] of v) c += traversalCost(k) + traversalCost(x);
    return c;
  }
  return 1;
}

function charAt(s: string, i: bigint): string {
  const n = Number(i);
  if (isBmp(s)) {
    if (n < 0 || n > s.length) fail(`index out of range: ${i}`);
    return n === s.length ? '' : s[n];
  }
  const r = runes(s);
  if (n < 0 || n > r.length) fail(`index out of range: ${i}`);
  return n === r.length ? '' : r[n];
}

function substring(s: string, start: bigint, end?: bigint): string {
  if (end !== undefined && start > end) fail(`invalid substring range. start: ${start}, end: ${end}`);
  const r = isBmp(s) ? undefined : runes(s);
  const len = r ? r.length : s.length;
  const a = Number(start);
  const b = end === undefined ? len : Number(end);
  if (a < 0 || a > len) fail(`index out of range: ${start}`);
  if (b < 0 || b > len) fail(`index out of range: ${end}`);
  return r ? r.slice(a, b).join('') : s.slice(a, b);
}

/** The Kubernetes estimate of a string call whose cost is a traversal of the receiver (and keeps its size). */
function receiverTraversal(ctx: EstimatorContext, t: EstimateNode | undefined) {
  if (!t) return undefined;
  const sz = ctx.sizeEstimate(t);
  return { cost: R.factor(sz, STRING_TRAVERSAL_COST_FACTOR), resultSize: sz };
}

const firstArgTraversal = (_id: string, args: Val[]) => (args.length >= 1 ? traversal(k8sActualSize(args[0])) : undefined);

function replaceEstimate(ctx: EstimatorContext, t: EstimateNode | undefined, args: EstimateNode[]) {
  if (!t || args.length < 2) return undefined;
  const sz = ctx.sizeEstimate(t);
  const toReplace = ctx.sizeEstimate(args[0]);
  const replaceWith = ctx.sizeEstimate(args[1]);
  const count: Range = { min: 0, max: 0 };
  const retained: Range = { min: 0, max: 0 };
  if (toReplace.min === 0) {
    count.max = sz.max < MAX_UINT64 ? addU(sz.max, 1) : sz.max;
    retained.max = sz.max;
  } else if (replaceWith.max <= toReplace.min) {
    count.max = 0;
    retained.max = sz.max;
  } else {
    count.max = Math.ceil(sz.max / toReplace.min);
  }
  if (toReplace.max === 0) {
    count.min = sz.min < MAX_UINT64 ? addU(sz.min, 1) : sz.min;
    retained.min = sz.min;
  } else if (toReplace.max <= replaceWith.min) {
    count.min = 0;
    retained.min = sz.min;
  } else {
    count.min = Math.ceil(sz.min / toReplace.max);
  }
  const size = R.add(R.mul(count, replaceWith), retained);
  return { cost: R.factor(sz, 2 * STRING_TRAVERSAL_COST_FACTOR), resultSize: size };
}

function splitEstimate(ctx: EstimatorContext, t: EstimateNode | undefined, args: EstimateNode[]) {
  if (!t) return undefined;
  const sz = ctx.sizeEstimate(t);
  let max = sz.max;
  // A literal limit bounds the number of parts.
  const lim = args[1]?.expr;
  if (args.length > 1 && lim?.kind === 'literal' && typeof lim.value === 'bigint') max = lim.value < 0n ? MAX_UINT64 : Number(lim.value);
  return { cost: R.factor(sz, 2 * STRING_TRAVERSAL_COST_FACTOR), resultSize: { min: 0, max } };
}

function joinEstimate(ctx: EstimatorContext, t: EstimateNode | undefined, args: EstimateNode[]) {
  if (!t) return undefined;
  const listSz = ctx.sizeEstimate(t);
  let sz: Range = { min: 0, max: 0 };
  const el = ctx.listElementNode(t);
  if (el) sz = R.mul(listSz, ctx.sizeEstimate(el));
  if (args.length > 0) {
    const sep = ctx.sizeEstimate(args[0]);
    const seps = { min: listSz.min > 0 ? listSz.min - 1 : 0, max: listSz.max > 0 ? listSz.max - 1 : 0 };
    sz = R.add(sz, R.mul(sep, seps));
  }
  return { cost: R.factor(sz, STRING_TRAVERSAL_COST_FACTOR), resultSize: sz };
}

function indexOfEstimate(ctx: EstimatorContext, t: EstimateNode | undefined) {
  if (!t) return undefined;
  const el = ctx.listElementNode(t);
  if (el) {
    let elCost: Range = { min: 1, max: 1 };
    if (el.type.kind === 'string' || el.type.kind === 'bytes') elCost = R.add(elCost, R.factor(ctx.sizeEstimate(el), STRING_TRAVERSAL_COST_FACTOR));
    return { cost: R.mul(ctx.sizeEstimate(t), elCost) };
  }
  return { cost: R.factor(ctx.sizeEstimate(t), STRING_TRAVERSAL_COST_FACTOR) };
}

/** isSorted, sum, max, min, indexOf, lastIndexOf, includes: one traversal (Kubernetes CostEstimator). */
export const LIST_TRAVERSAL = {
  estimate: (ctx: EstimatorContext, _id: string, t: EstimateNode | undefined) => indexOfEstimate(ctx, t),
  cost: (_id: string, args: Val[]) => (args.length > 0 ? traversalCost(args[0]) : 0),
};

export const STRINGS: Library = {
  name: 'cel.lib.ext.strings',
  since: 29,
  functions: [
    fn('charAt', 'the character at a code point index (the empty string at the end)', [['string_char_at_int', 'string.charAt(int): string', charAt]]),
    fn(
      'indexOf',
      'the code point index of the first occurrence of the substring (from an offset), or -1; of an element in a list',
      [
        ['string_index_of_string', 'string.indexOf(string): int', (s: string, sub: string) => indexOfOffset(s, sub, 0n)],
        ['string_index_of_string_int', 'string.indexOf(string, int): int', (s: string, sub: string, o: bigint) => indexOfOffset(s, sub, o)],
      ],
      LIST_TRAVERSAL,
    ),
    fn(
      'lastIndexOf',
      'the code point index of the last occurrence of the substring (up to an offset), or -1; of an element in a list',
      [
        ['string_last_index_of_string', 'string.lastIndexOf(string): int', (s: string, sub: string) => lastIndexOfString(s, sub)],
        ['string_last_index_of_string_int', 'string.lastIndexOf(string, int): int', (s: string, sub: string, o: bigint) => lastIndexOfOffset(s, sub, o)],
      ],
      LIST_TRAVERSAL,
    ),
    fn('lowerAscii', 'the string with ASCII letters in lower case', [['string_lower_ascii', 'string.lowerAscii(): string', (s: string) => asciiMap(s, false)]], {
      estimate: (ctx, _id, t) => receiverTraversal(ctx, t),
      cost: firstArgTraversal,
    }),
    fn('upperAscii', 'the string with ASCII letters in upper case', [['string_upper_ascii', 'string.upperAscii(): string', (s: string) => asciiMap(s, true)]], {
      estimate: (ctx, _id, t) => receiverTraversal(ctx, t),
      cost: firstArgTraversal,
    }),
    fn(
      'replace',
      'the string with occurrences of a substring replaced (at most n)',
      [
        ['string_replace_string_string', 'string.replace(string, string): string', (s: string, a: string, b: string) => goReplace(s, a, b, -1)],
        ['string_replace_string_string_int', 'string.replace(string, string, int): string', (s: string, a: string, b: string, n: bigint) => goReplace(s, a, b, Number(n))],
      ],
      {
        estimate: (ctx, _id, t, args) => replaceEstimate(ctx, t, args),
        cost: (_id, args) => (args.length >= 1 ? Math.ceil(k8sActualSize(args[0]) * 2 * STRING_TRAVERSAL_COST_FACTOR) : undefined),
      },
    ),
    fn(
      'split',
      'the parts of the string between separators (at most n)',
      [
        ['string_split_string', 'string.split(string): list<string>', (s: string, sep: string) => goSplitN(s, sep, -1)],
        ['string_split_string_int', 'string.split(string, int): list<string>', (s: string, sep: string, n: bigint) => goSplitN(s, sep, Number(n))],
      ],
      {
        estimate: (ctx, _id, t, args) => splitEstimate(ctx, t, args),
        cost: (_id, args) => (args.length >= 1 ? Math.ceil(k8sActualSize(args[0]) * 2 * STRING_TRAVERSAL_COST_FACTOR) : undefined),
      },
    ),
    fn(
      'substring',
      'the characters between code point indexes',
      [
        ['string_substring_int', 'string.substring(int): string', (s: string, a: bigint) => substring(s, a)],
        ['string_substring_int_int', 'string.substring(int, int): string', (s: string, a: bigint, b: bigint) => substring(s, a, b)],
      ],
      {
        estimate: (ctx, _id, t) => receiverTraversal(ctx, t),
        cost: firstArgTraversal,
      },
    ),
    fn('trim', 'the string without leading and trailing white space', [['string_trim', 'string.trim(): string', (s: string) => trimSpace(s)]], {
      estimate: (ctx, _id, t) => receiverTraversal(ctx, t),
      cost: firstArgTraversal,
    }),
    fn('format', 'the string with %s %d %f %e %b %o %x %X clauses filled from the list', [['string_format', 'string.format(list<dyn>): string', (s: string, l: CelList) => formatString(s, l)]], {
      estimate: (ctx, _id, t) => (t ? { cost: R.factor(ctx.sizeEstimate(t), STRING_TRAVERSAL_COST_FACTOR) } : undefined),
      cost: (_id, args) => traversal(actualSize(args[0])),
    }),
    fn('strings.quote', 'the string as a double-quoted CEL string literal', [['strings_quote', 'strings.quote(string): string', (s: string) => quote(s)]], {
      estimate: (ctx, _id, _t, args) => {
        if (args.length !== 1) return undefined;
        const sz = ctx.sizeEstimate(args[0]);
        return { cost: R.factor(sz, STRING_TRAVERSAL_COST_FACTOR), resultSize: { min: addU(sz.min, 2), max: addU(mulU(sz.max, 2), 2) } };
      },
      cost: (_id, args) => traversal(actualSize(args[0])),
    }),
    fn(
      'join',
      'the strings of the list joined (with a separator)',
      [
        ['list_join', 'list<string>.join(): string', (l: CelList) => joinList(l, '')],
        ['list_join_string', 'list<string>.join(string): string', (l: CelList, sep: string) => joinList(l, sep)],
      ],
      {
        estimate: (ctx, _id, t, args) => joinEstimate(ctx, t, args),
        cost: (_id, args, result) => (args.length >= 1 ? Math.ceil(k8sActualSize(result) * 2 * STRING_TRAVERSAL_COST_FACTOR) : undefined),
      },
    ),
  ],
};

function setContains(a: CelList, b: CelList): boolean {
  const x = listItems(a);
  const y = listItems(b);
  work(x.length * y.length);
  return y.every((e) => x.some((v) => celEquals(v, e)));
}

/** ext.Sets costs: |a| * |b| * factor comparisons plus the call. */
function setsCost(factor: number) {
  return {
    estimate: (ctx: EstimatorContext, _id: string, _t: EstimateNode | undefined, args: EstimateNode[]) =>
      args.length === 2 ? { cost: R.add(R.factor(R.mul(ctx.sizeEstimate(args[0]), ctx.sizeEstimate(args[1])), factor), { min: 1, max: 1 }) } : undefined,
    cost: (_id: string, args: Val[]) => addU(1, Math.floor(mulU(actualSize(args[0]), actualSize(args[1])) * factor)),
    costFromArgs: true as const,
  };
}

export const SETS: Library = {
  name: 'cel.lib.ext.sets',
  since: 29,
  functions: [
    fn('sets.contains', 'whether the first list contains every element of the second', [['list_sets_contains_list', 'sets.contains(list<T>, list<T>): bool', setContains]], setsCost(1)),
    fn(
      'sets.equivalent',
      'whether the lists contain the same elements (ignoring order and duplicates)',
      [['list_sets_equivalent_list', 'sets.equivalent(list<T>, list<T>): bool', (a: CelList, b: CelList) => setContains(a, b) && setContains(b, a)]],
      setsCost(2),
    ),
    fn(
      'sets.intersects',
      'whether the lists have an element in common',
      [
        [
          'list_sets_intersects_list',
          'sets.intersects(list<T>, list<T>): bool',
          (a: CelList, b: CelList) => {
            const x = listItems(a);
            const y = listItems(b);
            work(x.length * y.length);
            return y.some((e) => x.some((v) => celEquals(v, e)));
          },
        ],
      ],
      setsCost(1),
    ),
  ],
};
