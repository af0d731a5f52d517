/**
 * RE2 regular expressions for CEL: the standard `matches` and the Kubernetes regex library
 * (apiserver pkg/cel/library/regex.go: find, findAll), all on re2js through engine/regex/re2, so
 * matching is linear-time and errors read as Go's.
 */
import { RE2JS } from 're2js';
import { compileRE2 } from '../../regex/re2';
import { fail } from '../runtime/values';
import { work } from '../runtime/guard';
import { k8sActualSize } from '../runtime/size';
import { R, REGEX_STRING_LENGTH_COST_FACTOR, STRING_TRAVERSAL_COST_FACTOR, fixed, type EstimateNode, type EstimatorContext } from '../cost/model';
import { fn, type Library } from './decls';
import { regexCost } from './cost';
import { detachedString } from '../../json/values';

function compile(pattern: string): RE2JS {
  const c = compileRE2(pattern);
  if (!c.ok) fail(c.error);
  return c.re;
}

/**
 * Above this size (input length × pattern length) a match may take long enough in re2js (~0.01-2 µs
 * per character, growing with the pattern's automaton) to matter, so it runs on a guarded input.
 */
const GUARD_THRESHOLD = 50_000;

/**
 * A string stand-in for re2js' UTF-16 machine input that reports its reads as work, so the deadline is
 * checked while re2js scans (matching is linear, but a megabyte through a large NFA is seconds in JS).
 * re2js reads its input only through these methods (MachineUTF16Input, Matcher.group).
 */
class GuardedChars {
  private n = 0;
  constructor(private readonly s: string) {}
  /** re2js' input check accepts strings by their Object.prototype.toString tag. */
  get [Symbol.toStringTag](): string {
    return 'String';
  }
  get length(): number {
    return this.s.length;
  }
  charCodeAt(i: number): number {
    if ((++this.n & 1023) === 0) work(1024);
    return this.s.charCodeAt(i);
  }
  codePointAt(i: number): number | undefined {
    return this.s.codePointAt(i);
  }
  indexOf(sub: string, from?: number): number {
    return this.s.indexOf(sub, from);
  }
  substring(a: number, b?: number): string {
    return this.s.substring(a, b);
  }
  toString(): string {
    return this.s;
  }
}

let utf16InputProto: object | undefined;
/** Private compiled copies for guarded matching: an interrupted match never touches the shared cache. */
const guardedCache = new Map<string, RE2JS>();

/** A matcher for s; on large work, one reading s through GuardedChars. */
function matcherFor(pattern: string, s: string): ReturnType<RE2JS['matcher']> {
  const re = compile(pattern);
  if (s.length * Math.max(1, pattern.length) < GUARD_THRESHOLD) return re.matcher(s);
  let own = guardedCache.get(pattern);
  if (!own) {
    if (guardedCache.size > 100) guardedCache.clear();
    own = RE2JS.compile(re.pattern());
    guardedCache.set(detachedString(pattern), own);
  }
  // re2js accepts any MatcherInputBase; borrow the prototype of its own UTF-16 input.
  utf16InputProto ??= Object.getPrototypeOf((own.matcher('') as unknown as { matcherInput: object }).matcherInput) as object;
  const input = Object.create(utf16InputProto) as { charSequence: unknown };
  input.charSequence = new GuardedChars(s);
  return own.matcher(input as unknown as string);
}

/** Runs a match step; an interruption drops the private compiled copy (its caches may be mid-update). */
function guarded<T>(pattern: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    guardedCache.delete(pattern);
    throw e;
  }
}

/** Go's regexp.MatchString. */
export function matchRegex(s: string, pattern: string): boolean {
  return guarded(pattern, () => matcherFor(pattern, s).find());
}

export function findRegex(s: string, pattern: string): string {
  return guarded(pattern, () => {
    const m = matcherFor(pattern, s);
    return m.find() ? (m.group() ?? '') : '';
  });
}

/** Go's FindAllString(s, n): non-overlapping matches; an empty match right after a match is skipped. */
export function findAllRegex(s: string, pattern: string, limit: number): string[] {
  if (limit === 0) return [];
  return guarded(pattern, () => findAllWith(matcherFor(pattern, s), limit));
}

function findAllWith(m: ReturnType<RE2JS['matcher']>, limit: number): string[] {
  const out: string[] = [];
  let prevEnd = -1;
  while (limit < 0 || out.length < limit) {
    if (!m.find()) break;
    const start = m.start();
    const end = m.end();
    if (end === start && start === prevEnd) continue;
    out.push(m.group() ?? '');
    prevEnd = end;
    work(16);
  }
  return out;
}

/** The Kubernetes regex library. */
export const REGEX: Library = {
  name: 'kubernetes.regex',
  since: 0,
  functions: [
    fn('find', 'the first match of the RE2 regular expression in the string, or ""', [['string_find_string', 'string.find(string): string', (s: string, p: string) => findRegex(s, p)]], {
      estimate: (ctx, _id, t, args) => (t && args.length >= 1 ? findEstimate(ctx, t, args[0]) : undefined),
      cost: (_id, args) => (args.length >= 2 ? regexCost(k8sActualSize(args[0]), k8sActualSize(args[1])) : undefined),
      // Charged before the match (as matches): a long match the safety net interrupts was paid for.
      costFromArgs: true,
    }),
    fn(
      'findAll',
      'all matches of the RE2 regular expression in the string (at most n)',
      [
        ['string_find_all_string', 'string.findAll(string): list<string>', (s: string, p: string) => findAllRegex(s, p, -1)],
        ['string_find_all_string_int', 'string.findAll(string, int): list<string>', (s: string, p: string, n: bigint) => findAllRegex(s, p, Number(n))],
      ],
      {
        estimate: (ctx, _id, t, args) => (t && args.length >= 1 ? findEstimate(ctx, t, args[0]) : undefined),
        cost: (_id, args) => (args.length >= 2 ? regexCost(k8sActualSize(args[0]), k8sActualSize(args[1])) : undefined),
        // Charged before the match (as matches): a long match the safety net interrupts was paid for.
        costFromArgs: true,
      },
    ),
  ],
};

function findEstimate(ctx: EstimatorContext, t: EstimateNode, re: EstimateNode) {
  const sz = ctx.sizeEstimate(t);
  const strCost = R.factor(R.add(sz, fixed(1)), STRING_TRAVERSAL_COST_FACTOR);
  const reCost = R.factor(ctx.sizeEstimate(re), REGEX_STRING_LENGTH_COST_FACTOR);
  return { cost: R.mul(strCost, reCost), resultSize: { min: 0, max: sz.max } };
}
