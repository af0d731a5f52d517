/**
 * A JavaScript RegExp that matches exactly the strings a Go regexp matches, in linear time, for the
 * patterns where both can be shown: schema `pattern`s are matched against every string value of a field,
 * and re2js (re2.ts) is slow on cold code (about 15 µs a match, against 1 µs).
 *
 * - Same language. Only a conservative subset of Go's syntax (regexp/syntax with the Perl flags that
 *   regexp.Compile uses) is read, into a small tree written out in JavaScript's `u` (code point) syntax,
 *   with the places where the two differ spelled out: `.` excludes only `\n`, `\s` is ASCII, `{` that is
 *   not a valid Go repeat is a literal, `]` and `}` alone are literals, captures do not capture. Anything
 *   else (flags, `\p`, `\Q`, POSIX classes, hex and octal escapes, `\b`) is left to re2js.
 * - Linear time. V8 backtracks, so the tree as written must be deterministic (one-unambiguous: in its
 *   Glushkov automaton each next character leads to at most one place; Brüggemann-Klein and Wood), with
 *   no optional or repeated part that can match the empty string and at most one empty alternative per
 *   alternation, and anchored at the start. Then at each character only one way on can consume it, every
 *   other way fails before consuming anything, and a match costs O(value length × pattern size) steps.
 *   The check is on the tree as written, not on Go's simplified program: Go reads `(a|a)*` as `a*`, which
 *   backtracks exponentially as written.
 */

/** Code point ranges [lo, hi], sorted and disjoint. */
type Ranges = number[][];

type Node = { op: 'chars'; ranges: Ranges; source: string } | { op: 'begin' | 'end' } | { op: 'concat' | 'alt'; subs: Node[] } | { op: 'repeat'; sub: Node; min: number; max: number; lazy: boolean; counted: boolean };

/** Go's Perl character classes (regexp/syntax perl_groups.go). */
const PERL: Record<string, Ranges> = {
  d: [[0x30, 0x39]],
  s: [
    [0x09, 0x0a],
    [0x0c, 0x0d],
    [0x20, 0x20],
  ],
  w: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x5f, 0x5f],
    [0x61, 0x7a],
  ],
};

/** Control escapes Go accepts (regexp/syntax parse.go parseEscape). */
const CONTROL: Record<string, number> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };

const MAX_CODE_POINT = 0x10ffff;
const isPunct = (c: string | undefined) => c !== undefined && c.length === 1 && /[!-/:-@[-`{-~]/.test(c);
const cp = (n: number) => `\\u{${n.toString(16)}}`;

function normalize(r: Ranges): Ranges {
  const s = [...r].sort((a, b) => a[0] - b[0]);
  const out: Ranges = [];
  for (const [lo, hi] of s) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function negate(r: Ranges): Ranges {
  const out: Ranges = [];
  let next = 0;
  for (const [lo, hi] of r) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

const overlap = (a: Ranges, b: Ranges) => {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i][1] < b[j][0]) i++;
    else if (b[j][1] < a[i][0]) j++;
    else return true;
  }
  return false;
};

/** A class's JavaScript source from its ranges. */
const classSource = (r: Ranges) => `[${r.map(([lo, hi]) => (lo === hi ? cp(lo) : `${cp(lo)}-${cp(hi)}`)).join('')}]`;
const chars = (ranges: Ranges): Node => ({ op: 'chars', ranges, source: classSource(ranges) });

/** A lone surrogate: Go's strings hold none (JSON decoding makes it U+FFFD), so re2js decides those. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Reads a Go regexp in the translated subset; undefined outside it. The pattern must already have
 * compiled in Go's syntax (re2js): errors are not looked for, only what the subset does not cover.
 */
class Reader {
  i = 0;
  constructor(readonly c: string[]) {}

  alternation(): Node | undefined {
    const subs: Node[] = [];
    for (;;) {
      const seq = this.sequence();
      if (!seq) return undefined;
      subs.push(seq);
      if (this.c[this.i] !== '|') break;
      this.i++;
    }
    return subs.length === 1 ? subs[0] : { op: 'alt', subs };
  }

  sequence(): Node | undefined {
    const subs: Node[] = [];
    while (this.i < this.c.length && this.c[this.i] !== '|' && this.c[this.i] !== ')') {
      const atom = this.atom();
      if (!atom) return undefined;
      const rep = this.repeat(atom);
      if (!rep) return undefined;
      subs.push(rep);
    }
    return { op: 'concat', subs };
  }

  atom(): Node | undefined {
    const c = this.c[this.i++];
    if (c === '\\') {
      const x = this.c[this.i++];
      if (x === 'A') return { op: 'begin' };
      if (x === 'z') return { op: 'end' };
      const perl = x === undefined ? undefined : PERL[x.toLowerCase()];
      if (perl) return chars(x === x.toLowerCase() ? perl : negate(perl));
      const e = escaped(x);
      return e === undefined ? undefined : chars([[e, e]]);
    }
    if (c === '[') return this.charClass();
    if (c === '(') {
      if (this.c[this.i] === '?') {
        if (this.c[this.i + 1] === ':') this.i += 2;
        else {
          // A named capture, (?P<name> or (?<name>; flags and anything else are not translated.
          const open = this.c[this.i + 1] === 'P' ? this.i + 2 : this.i + 1;
          if (this.c[open] !== '<') return undefined;
          const close = this.c.indexOf('>', open);
          // Go's isValidCaptureName: letters, digits and underscores, at least one.
          if (close < 0 || !/^[A-Za-z0-9_]+$/.test(this.c.slice(open + 1, close).join(''))) return undefined;
          this.i = close + 1;
        }
      }
      const inner = this.alternation();
      if (!inner || this.c[this.i] !== ')') return undefined;
      this.i++;
      return inner;
    }
    if (c === '^') return { op: 'begin' };
    if (c === '$') return { op: 'end' };
    if (c === '.') return chars(negate([[0x0a, 0x0a]]));
    // A repeat with nothing before it is Go's "missing argument to repetition operator".
    if (c === '*' || c === '+' || c === '?' || c === ')' || c === '|') return undefined;
    if (c === '{') {
      this.i--;
      const repeat = this.countedAhead();
      this.i++;
      if (repeat) return undefined;
    }
    // Any other character is itself, `]`, `}` and a `{` that is not a repeat included.
    const n = c.codePointAt(0)!;
    return chars([[n, n]]);
  }

  /** Go's parseClass with the Perl flags: `^` negates, `]` first is a literal, `-` last is a literal. */
  charClass(): Node | undefined {
    let negated = false;
    if (this.c[this.i] === '^') {
      negated = true;
      this.i++;
    }
    const ranges: Ranges = [];
    let first = true;
    while (this.i < this.c.length && (this.c[this.i] !== ']' || first)) {
      first = false;
      if (this.c[this.i] === '[' && this.c[this.i + 1] === ':') return undefined;
      if (this.c[this.i] === '\\') {
        const x = this.c[this.i + 1];
        const perl = x === undefined ? undefined : PERL[x.toLowerCase()];
        if (perl) {
          ranges.push(...(x === x.toLowerCase() ? perl : negate(perl)));
          this.i += 2;
          continue;
        }
      }
      const lo = this.classChar();
      if (lo === undefined) return undefined;
      let hi = lo;
      if (this.c[this.i] === '-' && this.c[this.i + 1] !== undefined && this.c[this.i + 1] !== ']') {
        this.i++;
        const h = this.classChar();
        if (h === undefined || h < lo) return undefined;
        hi = h;
      }
      ranges.push([lo, hi]);
    }
    if (this.c[this.i] !== ']') return undefined;
    this.i++;
    const r = normalize(ranges);
    return chars(negated ? negate(r) : r);
  }

  classChar(): number | undefined {
    const c = this.c[this.i++];
    if (c === undefined) return undefined;
    if (c !== '\\') return c.codePointAt(0);
    return escaped(this.c[this.i++]);
  }

  /** Go's parseRepeat for `{`: decimal numbers without leading zeros, else the brace is a literal. */
  repeat(atom: Node): Node | undefined {
    let node = atom;
    const c = this.c[this.i];
    let min: number;
    let max: number;
    if (c === '*' || c === '+' || c === '?') {
      this.i++;
      [min, max] = c === '*' ? [0, -1] : c === '+' ? [1, -1] : [0, 1];
    } else if (c === '{') {
      const r = this.counted();
      if (r === 'error') return undefined;
      if (!r) return node;
      [min, max] = r;
    } else return node;
    const lazy = this.c[this.i] === '?';
    if (lazy) this.i++;
    node = { op: 'repeat', sub: atom, min, max, lazy, counted: c === '{' };
    // A repeat of a repeat is Go's "invalid nested repetition operator".
    const next = this.c[this.i];
    if (next === '*' || next === '+' || next === '?' || (next === '{' && this.countedAhead())) return undefined;
    return node;
  }

  /**
   * Go's parseRepeat at `{`: `{n}`, `{n,}` or `{n,m}`, decimal without leading zeros; undefined when it is
   * not one (the brace is then a literal); 'error' for Go's "invalid repeat count" (over 1000, min > max).
   */
  counted(): [number, number] | 'error' | undefined {
    const save = this.i;
    this.i++;
    const num = (): number | undefined => {
      const from = this.i;
      while (this.c[this.i] >= '0' && this.c[this.i] <= '9') this.i++;
      const s = this.c.slice(from, this.i).join('');
      return s === '' || (s.length > 1 && s[0] === '0') ? undefined : Number(s);
    };
    const min = num();
    let max = min;
    if (min !== undefined && this.c[this.i] === ',') {
      this.i++;
      max = this.c[this.i] === '}' ? -1 : num();
    }
    if (min === undefined || max === undefined || this.c[this.i] !== '}') {
      this.i = save;
      return undefined;
    }
    this.i++;
    if (min > 1000 || max > 1000 || (max >= 0 && min > max)) return 'error';
    return [min, max];
  }

  countedAhead(): boolean {
    const save = this.i;
    const r = this.counted();
    this.i = save;
    return r !== undefined;
  }
}

/** A single-character escape (punctuation or control) as its code point; undefined for anything else. */
function escaped(x: string | undefined): number | undefined {
  if (x === undefined) return undefined;
  if (isPunct(x)) return x.charCodeAt(0);
  return x in CONTROL ? CONTROL[x] : undefined;
}

function source(n: Node): string {
  switch (n.op) {
    case 'chars':
      return n.source;
    case 'begin':
      return '^';
    case 'end':
      return '$';
    case 'concat':
      return n.subs.map(source).join('');
    case 'alt':
      return `(?:${n.subs.map(source).join('|')})`;
    case 'repeat': {
      const q = n.max === -1 ? (n.min === 0 ? '*' : n.min === 1 ? '+' : `{${n.min},}`) : n.min === 0 && n.max === 1 ? '?' : n.min === n.max ? `{${n.min}}` : `{${n.min},${n.max}}`;
      return `(?:${source(n.sub)})${q}${n.lazy ? '?' : ''}`;
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Determinism (Glushkov positions): each consuming leaf, with counted repeats unrolled, is a position.

/** Positions analysed at most: beyond, the pattern is left to re2js. */
const MAX_POSITIONS = 2000;

interface Glushkov {
  nullable: boolean;
  first: number[];
  last: number[];
}

class Determinism {
  readonly ranges: Ranges[] = [];
  readonly follow: number[][] = [];
  ok = true;

  /** nullable / first / last of n, adding follow edges inside it; one unrolled copy per call. */
  walk(n: Node): Glushkov {
    if (!this.ok) return { nullable: true, first: [], last: [] };
    switch (n.op) {
      case 'chars': {
        if (this.ranges.length >= MAX_POSITIONS) this.ok = false;
        const p = this.ranges.push(n.ranges) - 1;
        this.follow.push([]);
        return { nullable: false, first: [p], last: [p] };
      }
      case 'begin':
      case 'end':
        // Placed by `check` (only first and last at the top): nothing to consume.
        return { nullable: true, first: [], last: [] };
      case 'concat': {
        let acc: Glushkov = { nullable: true, first: [], last: [] };
        for (const s of n.subs) acc = this.seq(acc, this.walk(s));
        return acc;
      }
      case 'alt': {
        const parts = n.subs.map((s) => this.walk(s));
        if (parts.filter((p) => p.nullable).length > 1) this.ok = false;
        return { nullable: parts.some((p) => p.nullable), first: parts.flatMap((p) => p.first), last: parts.flatMap((p) => p.last) };
      }
      case 'repeat': {
        // x{n,m} as n copies of x then m-n nested optional copies; x{n,} as n copies then x*.
        let acc: Glushkov = { nullable: true, first: [], last: [] };
        for (let k = 0; k < n.min; k++) acc = this.seq(acc, this.walk(n.sub));
        if (n.max === -1) {
          const x = this.walk(n.sub);
          if (x.nullable) this.ok = false;
          this.edges(x.last, x.first);
          return this.seq(acc, { nullable: true, first: x.first, last: x.last });
        }
        const opt: Glushkov[] = [];
        for (let k = n.min; k < n.max; k++) {
          const x = this.walk(n.sub);
          if (x.nullable) this.ok = false;
          opt.push(x);
        }
        // x(x(x)?)?: each optional copy follows the one before it.
        let tail: Glushkov = { nullable: true, first: [], last: [] };
        for (let k = opt.length - 1; k >= 0; k--) {
          const inner = this.seq(opt[k], tail);
          tail = { nullable: true, first: inner.first, last: inner.last };
        }
        return this.seq(acc, tail);
      }
    }
  }

  seq(a: Glushkov, b: Glushkov): Glushkov {
    this.edges(a.last, b.first);
    return { nullable: a.nullable && b.nullable, first: a.nullable ? [...a.first, ...b.first] : a.first, last: b.nullable ? [...a.last, ...b.last] : b.last };
  }

  edges(from: number[], to: number[]): void {
    for (const f of from) this.follow[f].push(...to);
  }

  /** Whether no two positions of a set can take the same character. */
  disjoint(ps: number[]): boolean {
    const set = [...new Set(ps)];
    if (set.length !== ps.length) return false;
    for (let i = 0; i < set.length; i++) for (let j = i + 1; j < set.length; j++) if (overlap(this.ranges[set[i]], this.ranges[set[j]])) return false;
    return true;
  }
}

/** Whether backtracking on the tree costs linear time (see the module comment). */
function deterministic(root: Node): boolean {
  // Anchored at the start, and assertions only at the ends: `^...`, `^...$`.
  const top = root.op === 'concat' ? root.subs : [root];
  if (top[0]?.op !== 'begin') return false;
  const rest = top.slice(1, top[top.length - 1]?.op === 'end' ? -1 : undefined);
  const hasAssertion = (n: Node): boolean => n.op === 'begin' || n.op === 'end' || (n.op === 'repeat' ? hasAssertion(n.sub) : n.op === 'concat' || n.op === 'alt' ? n.subs.some(hasAssertion) : false);
  if (rest.some(hasAssertion)) return false;
  const d = new Determinism();
  const g = d.walk({ op: 'concat', subs: rest });
  if (!d.ok || !d.disjoint(g.first)) return false;
  return d.follow.every((f) => d.disjoint(f));
}

/**
 * The JavaScript source (for `new RegExp(source, 'u')`) of a Go regexp that a backtracking matcher
 * matches in linear time with Go's answers, or undefined (then re2js matches it).
 */
export function jsSourceOfGoRegexp(pattern: string): string | undefined {
  // Go refuses invalid UTF-8; a lone surrogate is not translated. Up to MAX_PATTERN characters, Go's
  // nesting and size limits cannot be reached.
  if (pattern.length > MAX_PATTERN || LONE_SURROGATE.test(pattern)) return undefined;
  const r = new Reader([...pattern]);
  const root = r.alternation();
  if (!root || r.i !== r.c.length || !repeatsValid(root) || !deterministic(root)) return undefined;
  return source(root);
}

/** Longest pattern translated. */
const MAX_PATTERN = 1000;

/**
 * Go's repeatIsValid, checked where its parser checks it (each counted repeat of 2 or more): nested
 * counted repeats may not make more than 1000 copies of what they repeat ("invalid repeat count").
 */
function repeatsValid(n: Node): boolean {
  const within = (x: Node, budget: number): boolean => {
    if (x.op === 'repeat' && x.counted) {
      const m = x.max === -1 ? x.min : x.max;
      if (m === 0) return true;
      if (m > budget) return false;
      budget = Math.floor(budget / m);
    }
    return x.op === 'repeat' ? within(x.sub, budget) : x.op === 'concat' || x.op === 'alt' ? x.subs.every((s) => within(s, budget)) : true;
  };
  const walk = (x: Node): boolean => {
    if (x.op === 'repeat' && x.counted && (x.min >= 2 || x.max >= 2) && !within(x, 1000)) return false;
    return x.op === 'repeat' ? walk(x.sub) : x.op === 'concat' || x.op === 'alt' ? x.subs.every(walk) : true;
  };
  return walk(n);
}

/** Whether a string can be matched by a translated RegExp with Go's answer. */
export function nativeMatchable(s: string): boolean {
  return !LONE_SURROGATE.test(s);
}
