/**
 * RE2 regular expressions (Go's regexp syntax and linear-time matching) for schema `pattern`s and CEL.
 *
 * Why re2js: a pure-JS port of RE2 whose syntax errors are worded as Go's `regexp` package words them
 * ("error parsing regexp: missing closing ]: `[a`"), with Go's parser limits (repeat counts over 1000,
 * nested repeats over 1000, nesting depth 1000), and whose matching never backtracks, so no user-typed
 * pattern can hang the server. Compiled patterns are cached (patterns repeat across CRs).
 *
 * Linear is not cheap: a match costs up to (value length × program size) steps, and `.{1000}` ten times
 * is a 10,000-instruction program (a 100 KB value is 10⁹ steps, tens of seconds in JS). Schema patterns
 * therefore go through `compilePattern` and `matchPattern`, which bound both the compile (program size)
 * and each match (a work budget per match and per checked object) and say so when a bound cuts a check.
 */
import { RE2JS } from 're2js';
import { detachedString } from '../json/values';
import { jsSourceOfGoRegexp, nativeMatchable } from './native';

export type CompiledRegex = { ok: true; re: RE2JS } | { ok: false; error: string };

interface Entry {
  /** The pattern, as the cache holds it (a copy: see `cached`). */
  key: string;
  /** re2js's program; for a native pattern, compiled when first asked for (`compiledOf`). */
  compiled?: CompiledRegex;
  /** Program size (instructions) when compiled, or its upper bound for a native pattern; the cache's weight. */
  insts: number;
  /**
   * The same language as a JavaScript RegExp, where native.ts shows that it is and that matching is
   * linear; the pattern then also compiles in Go (native.ts reads only what Go accepts).
   */
  native: RegExp | null;
}

const cache = new Map<string, Entry>();
let cachedInsts = 0;
/**
 * The compile cache holds at most this many patterns and this many instructions. A compiled validator
 * keeps its own patterns; the cache only spares compiling a pattern again for the next CRD, and the CRDs
 * that share patterns come together (a project's, a provider's). 500,000 instructions (2,000,000 before)
 * still grew all along a check of the CRD catalog: at 20,000, its peak is 18 MB lower for the same CPU
 * time (231 MB and 74.7 s against 249 MB and 75.0 s for its 8,295 CRDs; 8.9 s against 8.7 s for a tenth).
 */
const MAX_CACHE = 1000;
const MAX_CACHED_INSTS = 20_000;
/**
 * re2js gives each compiled pattern a lazily built DFA of up to 8 MB; compiled validators keep their
 * patterns for as long as the CRD is known, so that is capped per pattern (a DFA that outgrows it falls
 * back to the NFA, whose cost the match budget already assumes).
 */
const DFA_MAX_BYTES = 256 * 1024;

function cached(pattern: string): Entry {
  const hit = cache.get(pattern);
  if (hit) {
    // Least recently used goes first.
    cache.delete(pattern);
    cache.set(hit.key, hit);
    return hit;
  }
  // The cache outlives the CRD the pattern was read from: a copy of it, not a slice of the CRD's text.
  const own = detachedString(pattern);
  const e = nativeEntry(own) ?? compileEntry(own);
  cache.set(own, e);
  cachedInsts += e.insts;
  while (cache.size > 1 && (cache.size > MAX_CACHE || cachedInsts > MAX_CACHED_INSTS)) {
    const [k, old] = cache.entries().next().value as [string, Entry];
    cache.delete(k);
    cachedInsts -= old.insts;
  }
  return e;
}

/** The program instructions re2js adds to the size bound (the whole match's capture, match, fail). */
const PROGRAM_FRAME = 4;

/** An entry matched natively, without compiling re2js's program (the slow part of a first check). */
function nativeEntry(pattern: string): Entry | undefined {
  const source = jsSourceOfGoRegexp(pattern);
  if (source === undefined) return undefined;
  try {
    return { key: pattern, native: new RegExp(source, 'u'), insts: programSizeBound(pattern) + PROGRAM_FRAME };
  } catch {
    // Not expected (the source is built from the subset JavaScript takes): re2js then matches it.
    return undefined;
  }
}

function compiledOf(e: Entry): CompiledRegex {
  return (e.compiled ??= compileEntry(e.key).compiled!);
}

function compileEntry(pattern: string): Entry {
  try {
    const re = RE2JS.compile(pattern);
    capDfa(re);
    return { key: pattern, compiled: { ok: true, re }, insts: re.programSize(), native: null };
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    if (msg.startsWith('error parsing regexp: duplicate capture group name')) {
      // Go 1.22+ (Kubernetes 1.37 builds with Go 1.26) accepts duplicate group names; names never
      // change what matches, so compile without them.
      try {
        const re = RE2JS.compile(pattern.replace(/(^|[^\\])\(\?P?<[A-Za-z0-9_]+>/g, '$1('));
        capDfa(re);
        return { key: pattern, compiled: { ok: true, re }, insts: re.programSize(), native: null };
      } catch {
        /* keep the first error */
      }
    }
    return { key: pattern, compiled: { ok: false, error: goRegexpError(msg, pattern) }, insts: 1, native: null };
  }
}

/** Lowers the DFA memory of one compiled pattern (re2js keeps the budget on the DFA instance). */
function capDfa(re: RE2JS): void {
  const dfa = (re as unknown as { re2Input?: { dfa?: { stateBudget?: number; memBudget?: number } } }).re2Input?.dfa;
  if (dfa && typeof dfa.stateBudget === 'number' && typeof dfa.memBudget === 'number') {
    dfa.stateBudget = DFA_MAX_BYTES;
    dfa.memBudget = Math.min(dfa.memBudget, DFA_MAX_BYTES);
  }
}

/** Compile with Go regexp semantics; the error is Go's message. */
export function compileRE2(pattern: string): CompiledRegex {
  return compiledOf(cached(pattern));
}

/** Go's regexp.MatchString: does the pattern match anywhere in s? Throws on a bad pattern. */
export function re2Test(pattern: string, s: string): boolean {
  const c = compileRE2(pattern);
  if (!c.ok) throw new Error(c.error);
  return c.re.test(s);
}

/**
 * re2js words errors as Go does, except two: Go quotes an empty expression for a trailing backslash,
 * and quotes the whole pattern for the limits it checks after parsing (regexp/syntax parse: `ErrLarge`,
 * `ErrNestingDepth` carry `Expr: s`).
 */
function goRegexpError(msg: string, pattern: string): string {
  if (msg === 'error parsing regexp: trailing backslash at end of expression') return msg + ': ``';
  if (msg === 'error parsing regexp: expression too large' || msg === 'error parsing regexp: expression nests too deeply') return `${msg}: \`${pattern}\``;
  return msg;
}

// ---------------------------------------------------------------------------------------------------
// Bounded compile and match for schema patterns.

/**
 * Largest program compiled for a schema pattern. Go accepts up to 3,355,443 instructions (regexp/syntax
 * maxSize); compiling that in JS takes seconds and hundreds of MB, so larger patterns are not checked
 * (and said so). Real patterns are far below: a DNS-1123 subdomain is 40 instructions, `.{0,253}` 500.
 */
export const MAX_PROGRAM_SIZE = 50_000;

const TOO_LARGE = 'error parsing regexp: expression too large';

/**
 * Work bounds, in steps of (value length × program size): the most an RE2 match can cost (each character
 * through each instruction, the NFA's worst case). Per match, and per checked object (a CR, a default),
 * so that neither one huge value nor many big ones hold a check for long (10⁷ steps is well under a
 * second of re2js at its slowest).
 */
export const MATCH_WORK_LIMIT = 10_000_000;
export const OBJECT_WORK_LIMIT = 40_000_000;

/** A schema pattern, compiled within the bounds. */
export type BoundedPattern =
  | { kind: 'ok'; re: RE2JS; insts: number; native: RegExp | null }
  /** Go's regexp.Compile error. */
  | { kind: 'invalid'; error: string }
  /** Over MAX_PROGRAM_SIZE by its size bound: not compiled, so neither checked as valid nor matched. */
  | { kind: 'tooLarge'; size: number };

/** compileRE2 for a schema pattern: patterns whose program would exceed MAX_PROGRAM_SIZE are not compiled. */
export function compilePattern(pattern: string): BoundedPattern {
  if (!cache.has(pattern)) {
    const scan = scanPattern(pattern);
    // Nested repeats over 1000 are Go's parse error, found by the parser before it builds anything.
    if (scan.size > MAX_PROGRAM_SIZE && !scan.repeatInvalid) return { kind: 'tooLarge', size: scan.size };
  }
  const entry = cached(pattern);
  if (entry.native) {
    const native = entry.native;
    return {
      kind: 'ok',
      get re() {
        const c = compiledOf(entry);
        if (!c.ok) throw new Error(`internal: ${pattern} read as a Go regexp, yet re2js says ${c.error}`);
        return c.re;
      },
      insts: entry.insts,
      native,
    };
  }
  const compiled = compiledOf(entry);
  if (!compiled.ok) {
    // re2js stops at 1,398,101 instructions, Go at 3,355,443: between the two Go compiles the pattern.
    if (compiled.error.startsWith(TOO_LARGE)) return { kind: 'tooLarge', size: scanPattern(pattern).size };
    return { kind: 'invalid', error: compiled.error };
  }
  return { kind: 'ok', re: compiled.re, insts: entry.insts, native: null };
}

/**
 * Pattern work of this thread so far, added once per match and per budget (no cost per step): tests bound
 * the steps by the budgets made (counters, never the clock). `refused`: matches not run (over a bound).
 */
export const patternWork = { steps: 0, budgets: 0, refused: 0 };

/** The work budget of one checked object; shared by all its pattern matches. */
export class RegexBudget {
  /** Steps spent, for tests and logs. */
  spent = 0;
  constructor(public remaining = OBJECT_WORK_LIMIT) {
    patternWork.budgets++;
  }
}

/**
 * Go's regexp.MatchString within the budget: `undefined` when the match could cost more than the
 * per-match limit or the object's remaining budget (it is then not run at all, so nothing is spent).
 */
export function matchPattern(p: Extract<BoundedPattern, { kind: 'ok' }>, s: string, budget: RegexBudget): boolean | undefined {
  const work = (s.length + 1) * p.insts;
  if (work > MATCH_WORK_LIMIT || work > budget.remaining) {
    patternWork.refused++;
    return undefined;
  }
  budget.remaining -= work;
  budget.spent += work;
  patternWork.steps += work;
  if (p.native && nativeMatchable(s)) {
    try {
      return p.native.test(s);
    } catch {
      // V8's backtrack stack has a limit (a value of millions of characters): re2js has none.
    }
  }
  return p.re.test(s);
}

/**
 * An upper bound of the program size Go's parser computes (regexp/syntax calcSize), from the pattern
 * text in one pass, without building anything: literal characters, classes and other atoms count 1,
 * a capture 2 more, `x*` 2 + x, `x+`/`x?` 1 + x, `x{n,m}` m·x + (m − n), `x{n,}` 1 + n·x, alternation
 * one per `|`. Errors in the pattern are left to the real parser (the bound only decides whether to run it).
 */
export function programSizeBound(p: string): number {
  return scanPattern(p).size;
}

/**
 * programSizeBound, and whether nested counted repeats multiply past 1000 (Go's repeatIsValid: then
 * `invalid repeat count`, however small the program).
 */
function scanPattern(p: string): { size: number; repeatInvalid: boolean } {
  // Each open group: sizes of finished alternatives, the current concatenation, the size of the last
  // atom (what a repeat applies to), the product of counted repeats inside it, and whether it captures.
  type Frame = { alts: number; nalts: number; cur: number; last: number; rep: number; lastRep: number; capture: boolean };
  const frame = (capture: boolean): Frame => ({ alts: 0, nalts: 0, cur: 0, last: 0, rep: 1, lastRep: 1, capture });
  const stack: Frame[] = [frame(false)];
  let top = stack[0];
  let repeatInvalid = false;
  const atom = (n: number, rep = 1) => {
    top.cur += n;
    top.last = n;
    top.lastRep = rep;
    top.rep = Math.max(top.rep, rep);
  };
  const close = (f: Frame) => Math.max(1, f.alts + f.cur + f.nalts + (f.capture ? 2 : 0));
  let i = 0;
  while (i < p.length) {
    const c = p[i];
    if (c === '\\') {
      const n = p[i + 1];
      if (n === 'Q') {
        const end = p.indexOf('\\E', i + 2);
        const lit = end < 0 ? p.length - (i + 2) : end - (i + 2);
        top.cur += lit;
        top.last = 1;
        i = end < 0 ? p.length : end + 2;
        continue;
      }
      if ((n === 'p' || n === 'P' || n === 'x') && p[i + 2] === '{') {
        const end = p.indexOf('}', i + 3);
        i = end < 0 ? p.length : end + 1;
      } else if (n === 'p' || n === 'P') i += 3;
      else if (n === 'x') i += 4;
      else i += 2;
      atom(1);
      continue;
    }
    if (c === '[') {
      let j = i + 1;
      if (p[j] === '^') j++;
      if (p[j] === ']') j++;
      while (j < p.length && p[j] !== ']') {
        if (p[j] === '\\') j += 2;
        else if (p[j] === '[' && p[j + 1] === ':') {
          const end = p.indexOf(':]', j + 2);
          j = end < 0 ? j + 1 : end + 2;
        } else j++;
      }
      i = j + 1;
      atom(1);
      continue;
    }
    if (c === '(') {
      let capture = true;
      if (p[i + 1] === '?') {
        if (p[i + 2] === 'P' || (p[i + 2] === '<' && p[i + 3] !== '=' && p[i + 3] !== '!')) {
          const end = p.indexOf('>', i);
          i = end < 0 ? p.length : end + 1;
        } else {
          // (?flags) sets flags: no group; (?flags:re) groups without capturing.
          let j = i + 2;
          while (j < p.length && p[j] !== ')' && p[j] !== ':') j++;
          i = j + 1;
          if (p[j] !== ':') continue;
          capture = false;
        }
      } else i++;
      top = frame(capture);
      stack.push(top);
      continue;
    }
    if (c === ')' && stack.length > 1) {
      const f = stack.pop()!;
      top = stack[stack.length - 1];
      atom(close(f), f.rep);
      i++;
      continue;
    }
    if (c === '|') {
      top.alts += top.cur;
      top.nalts++;
      top.cur = 0;
      top.last = 0;
      top.lastRep = 1;
      i++;
      continue;
    }
    if (c === '*' || c === '+' || c === '?') {
      top.cur += c === '*' ? 2 : 1;
      i++;
      if (p[i] === '?') i++; // non-greedy
      continue;
    }
    if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i, i + 24));
      if (m) {
        const min = Math.min(Number(m[1]), 1001);
        const max = m[2] === undefined ? min : m[3] === '' ? -1 : Math.min(Number(m[3]), 1001);
        const sub = top.last;
        top.cur -= sub;
        const size = max === -1 ? (min === 0 ? 2 + sub : 1 + min * sub) : max * sub + Math.max(0, max - min);
        top.cur += size;
        top.last = size;
        if (min >= 2 || max >= 2) {
          const rep = top.lastRep * (max === -1 ? Math.max(min, 1) : Math.max(max, 1));
          if (rep > 1000) repeatInvalid = true;
          top.lastRep = rep;
          top.rep = Math.max(top.rep, rep);
        }
        i += m[0].length;
        if (p[i] === '?') i++;
        continue;
      }
    }
    // A literal character (a surrogate pair counts twice: still an upper bound), `.`, `^`, `$`.
    atom(1);
    i++;
  }
  while (stack.length > 1) {
    const f = stack.pop()!;
    top = stack[stack.length - 1];
    atom(close(f), f.rep);
  }
  return { size: close(stack[0]), repeatInvalid };
}
