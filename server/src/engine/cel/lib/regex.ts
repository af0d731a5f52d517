/**
 * RE2 regular expressions for CEL: the standard `matches` (replacing cel-js' JS RegExp, which
 * backtracks and speaks another dialect) and the Kubernetes regex library (find, findAll), all on
 * re2js through engine/regex/re2 so matching is linear-time and errors read as Go's.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { RE2JS } from 're2js';
import { compileRE2 } from '../../regex/re2';
import { fail, num } from './errors';
import { chargeCost, chargeWork } from './guard';

/**
 * cel-go's runtime cost of a regex call (interpreter/runtimecost.go MatchesString, and the Kubernetes
 * CostEstimator's find/findAll): ceil(0.1 * (1 + len(s))) * ceil(0.25 * len(pattern)).
 */
function chargeRegex(s: string, pattern: string): void {
  chargeCost(Math.ceil((1 + s.length) * 0.1) * Math.ceil(pattern.length * 0.25), 0);
}

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
    if ((++this.n & 1023) === 0) chargeWork(1024);
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
    guardedCache.set(pattern, own);
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
export function matches(s: string, pattern: string): boolean {
  chargeRegex(s, pattern);
  return guarded(pattern, () => matcherFor(pattern, s).find());
}

function find(s: string, pattern: string): string {
  chargeRegex(s, pattern);
  return guarded(pattern, () => {
    const m = matcherFor(pattern, s);
    return m.find() ? (m.group() ?? '') : '';
  });
}

/** Go's FindAllString(s, n): non-overlapping matches; an empty match right after a match is skipped. */
function findAll(s: string, pattern: string, limit: number): string[] {
  chargeRegex(s, pattern);
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
    chargeCost(1);
  }
  return out;
}

/** Registers matches (both call styles) and the Kubernetes regex library. */
export function installRegex(env: Environment): void {
  const f = (sig: string, h: (...a: never[]) => unknown) => env.registerFunction(sig, h as (...a: unknown[]) => unknown);
  f('string.matches__k8s(string): bool', (s: string, p: string) => matches(s, p));
  f('matches__k8s(string, string): bool', (s: string, p: string) => matches(s, p));
  f('string.find(string): string', (s: string, p: string) => find(s, p));
  f('string.findAll(string): list<string>', (s: string, p: string) => findAll(s, p, -1));
  f('string.findAll(string, int): list<string>', (s: string, p: string, n: bigint) => findAll(s, p, num(n)));
}
