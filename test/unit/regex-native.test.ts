/**
 * Schema patterns matched by a JavaScript RegExp (engine/regex/native.ts) give re2js's answer (Go's), for
 * every pattern of the real CRDs and the conformance corpus, against the string values of the real
 * samples, their edits and random strings; and only one-pass patterns are matched that way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { compilePattern, compileRE2, matchPattern, RegexBudget } from '../../server/src/engine/regex/re2';
import { jsSourceOfGoRegexp } from '../../server/src/engine/regex/native';
import { needsShared, sharedDir } from '../shared';

const SHARED = sharedDir();

function files(dir: string, ext: RegExp): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(dir).sort()) {
    const p = path.join(dir, e);
    if (fs.statSync(p).isDirectory()) out.push(...files(p, ext));
    else if (ext.test(e)) out.push(p);
  }
  return out;
}

/** Every string under `key` (or every string, without a key) in a JSON value. */
function strings(v: unknown, key: string | undefined, out: Set<string>): void {
  if (Array.isArray(v)) for (const x of v) strings(x, key, out);
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (typeof x === 'string' && (key === undefined || k === key)) out.add(x);
      else strings(x, key, out);
    }
  } else if (typeof v === 'string' && key === undefined) out.add(v);
}

/** Patterns published CRDs and the conformance cases use, and the tricky spellings where Go and JavaScript differ. */
function corpusPatterns(): string[] {
  const found = new Set<string>();
  // The CRDs are 34 MB of YAML: their `pattern:` lines are read one by one.
  for (const f of files(path.join(SHARED, 'realworld', 'crds'), /\.ya?ml$/))
    for (const line of fs.readFileSync(f, 'utf8').split('\n')) {
      const m = /^\s*(?:- )?pattern:\s*(\S.*)$/.exec(line);
      if (!m) continue;
      const v = parse(`p: ${m[1]}`)?.p;
      if (typeof v === 'string') found.add(v);
    }
  for (const f of files(path.join(SHARED, 'conformance'), /\.jsonl$/)) for (const line of fs.readFileSync(f, 'utf8').split('\n')) if (line.includes('"pattern"')) strings(JSON.parse(line), 'pattern', found);
  for (const p of [
    '^a{,5}$',
    '^a{01}$',
    '^a{1}}$',
    '^]$',
    '^[]a]+$',
    '^[^]a]+$',
    '^[a-]+$',
    '^[-a]+$',
    '^[a-c-e]+$',
    '^[\\d-z]+$',
    '^.+$',
    '^\\s+$',
    '^\\S+$',
    '^[\\s.]+$',
    '^\\w+\\W$',
    '^\\A\\d\\z$',
    '^[\\]\\-\\\\]+$',
    '^\\_+$',
    '^(?P<n>a)(?<m>b)$',
    '^a{2}?$',
    '^a{2,}$',
    '^[^\\n]*$',
    '^[\\D]+$',
    '^\\.\\-$',
    '^µs$',
    '^[à-ÿ]+$',
    '^😀{2}$',
    '^[😀-😂]$',
    '^\\t\\v\\f\\a$',
    '^(a|b)*c$',
    '^x(|y)$',
    '^[a-z]{0,253}$',
  ])
    found.add(p);
  return [...found];
}

/** The strings of the real samples and the conformance cases, some edits of them, and odd characters. */
function corpusValues(): string[] {
  const found = new Set<string>();
  for (const f of files(path.join(SHARED, 'realworld', 'samples'), /\.ya?ml$/))
    for (const d of parseAllDocuments(fs.readFileSync(f, 'utf8'), { uniqueKeys: false })) strings(d.toJS({ maxAliasCount: -1 }), undefined, found);
  for (const f of files(path.join(SHARED, 'conformance'), /\.jsonl$/)) for (const line of fs.readFileSync(f, 'utf8').split('\n')) if (line) strings(JSON.parse(line), undefined, found);
  const base = [...found].filter((s) => s.length <= 200);
  const odd = ['', '\n', 'a\n', '\na', 'a\r', '\u2028', '\u00a0', '\v', '\t', ' ', 'é', 'É', '😀', '😀😀', '\ud800', 'a\udc00b', 'ſ', 'K', '-', '.', '_', ']', '}', '{01}', 'a{,5}'];
  const out = new Set([...base, ...odd]);
  let seed = 7;
  const rnd = (k: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % k;
  };
  for (const s of base) {
    if (s.length === 0) continue;
    const at = rnd(s.length + 1);
    out.add(s.slice(0, at) + odd[rnd(odd.length)] + s.slice(at));
    out.add(s.slice(0, at) + s.slice(at + 1));
  }
  return [...out];
}

test('schema patterns matched natively give re2js (Go) answers on real values, edits and odd characters', { skip: needsShared('realworld', 'crds') || needsShared('conformance') }, () => {
  const patterns = corpusPatterns();
  const values = corpusValues();
  assert.ok(patterns.length > 80, `${patterns.length} patterns`);
  let native = 0;
  let matched = 0;
  let compared = 0;
  const disagreements: string[] = [];
  for (const p of patterns) {
    const c = compilePattern(p);
    if (c.kind !== 'ok' || !c.native) continue;
    native++;
    for (const s of values) {
      const got = matchPattern(c, s, new RegexBudget());
      if (got === undefined) continue;
      const want = c.re.test(s);
      compared++;
      if (want) matched++;
      if (got !== want && disagreements.length < 10) disagreements.push(`${JSON.stringify(p)} on ${JSON.stringify(s)}: native ${got}, re2js ${want}`);
    }
  }
  assert.deepEqual(disagreements, []);
  // Many real patterns are translated (else this compares nothing), and many values match.
  assert.ok(native > patterns.length / 5, `${native} of ${patterns.length} patterns native`);
  assert.ok(matched > 1000 && compared > 100_000, `${matched} matches of ${compared}`);
});

test('patterns a backtracking matcher could take more than linear time on, or outside the translated syntax, stay with re2js', () => {
  // Not anchored at the start, not deterministic (two ways on for one character), an optional or
  // repeated part that matches the empty string, two empty alternatives.
  for (const p of ['[a-z]+', '(a*)*b', '^(a+)+$', '^(a|a)*$', '^(a|ab)(c|bcd)$', '^\\d+\\d+$', '^[-a-z0-9]*[a-z0-9]$', '^(a?)*$', '^(|b|)c$', '^(ms|m)$', '^a$|^b$']) {
    const c = compilePattern(p);
    assert.equal(c.kind === 'ok' && c.native, null, p);
  }
  for (const p of ['^(?i)abc$', '^\\pL+$', '^[[:alpha:]]+$', '^\\x41$', '^\\Qa.b\\E$', '^a\\b$']) assert.equal(jsSourceOfGoRegexp(p), undefined, p);
});

test("a translated pattern keeps Go's meaning of `.`, `\\s`, braces that are not repeats, and classes", () => {
  const native = (p: string) => {
    const c = compilePattern(p);
    assert.ok(c.kind === 'ok' && c.native, `${p} is native`);
    return c.native;
  };
  const cases: [string, string, boolean][] = [
    ['^.$', '\r', true],
    ['^.$', '\n', false],
    ['^.$', '\u2028', true],
    ['^\\s$', '\v', false],
    ['^\\s$', '\u00a0', false],
    ['^\\s$', '\f', true],
    ['^a{,2}$', 'a{,2}', true],
    ['^a{,2}$', 'aa', false],
    ['^a{01}$', 'a{01}', true],
    ['^[]a]+$', ']a]', true],
    ['^[^]a]$', '\n', true],
    ['^[a-c-e]+$', 'b-e', true],
    ['^[a-c-e]+$', 'd', false],
    ['^\\d+\\.\\d+$', '1.5', true],
    ['^x}$', 'x}', true],
    ['^😀{2}$', '😀😀', true],
  ];
  for (const [p, s, want] of cases) {
    const re = native(p);
    const c = compilePattern(p);
    // Go's answer (re2js) and the expectation agree, and so does the translation.
    assert.equal(c.kind === 'ok' && c.re.test(s), want, `re2js ${p} on ${JSON.stringify(s)}`);
    assert.equal(re?.test(s), want, `native ${p} on ${JSON.stringify(s)}`);
  }
});

test('a catastrophic pattern for backtracking stays with re2js and answers on a long value', () => {
  const p = compilePattern('^(a|a)*$');
  if (p.kind !== 'ok') return assert.fail('compiles');
  assert.equal(p.native, null);
  assert.equal(matchPattern(p, 'a'.repeat(20000) + 'b', new RegexBudget()), false);
});

test('random anchored patterns over the translated syntax: the native answer is re2js answer on random strings', () => {
  let seed = 99;
  const rnd = (k: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % k;
  };
  const atoms = ['a', 'b', '-', '.', '\\.', '[a-c]', '[^a]', '[]b-]', '\\d', '\\s', '\\S', '\\w', '[\\d.]', '{', '}', ']', 'é', '😀', '\\n'];
  const ops = ['', '', '', '*', '+', '?', '{2}', '{0,2}', '{1,}', '{,2}', '{02}', '*?', '??'];
  const gen = (depth: number): string => {
    let s = '';
    for (let i = 0, n = 1 + rnd(3); i < n; i++) {
      s += rnd(6) === 0 && depth < 3 ? `(${gen(depth + 1)}${rnd(2) ? `|${gen(depth + 1)}` : ''})` : atoms[rnd(atoms.length)];
      s += ops[rnd(ops.length)];
    }
    return s;
  };
  const alphabet = ['a', 'b', 'c', '-', '.', '1', ' ', '\n', '\r', '{', '}', ']', ',', '2', 'é', '😀', '_'];
  let native = 0;
  let matched = 0;
  for (let k = 0; k < 4000; k++) {
    const p = `^${gen(0)}${rnd(2) ? '$' : ''}`;
    const c = compilePattern(p);
    if (c.kind !== 'ok' || !c.native) continue;
    native++;
    for (let t = 0; t < 40; t++) {
      let s = '';
      for (let i = 0, n = rnd(7); i < n; i++) s += alphabet[rnd(alphabet.length)];
      const want: boolean = c.re.test(s);
      if (want) matched++;
      assert.equal(c.native.test(s), want, `${JSON.stringify(p)} on ${JSON.stringify(s)}`);
    }
  }
  assert.ok(native > 500 && matched > 1000, `${native} native patterns, ${matched} matches`);
});

test("what native.ts reads, Go compiles: the native path never passes a pattern Go refuses (random patterns with Go's errors)", () => {
  let seed = 2024;
  const rnd = (k: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % k;
  };
  // Go's errors in the syntax native.ts reads: repeat counts, nested repeats, missing arguments, bad names.
  const atoms = ['a', '[a-c]', '\\d', '.', '{', '}', '{2}', '{1001}', '{3,2}', '{2,1001}', '*', '(?P<>a)', '(?P<a-b>x)', '(?P<ok>x)', '(?<ok2>y)', '\\q', '\\', '[z-a]', '[a', ')', '(', '|'];
  const ops = ['', '', '*', '+', '?', '{2}', '{0,2}', '{1001}', '{10}', '{200}', '**', '*{2}', '{2}{3}', '??'];
  const gen = (depth: number): string => {
    let s = '';
    for (let i = 0, n = 1 + rnd(3); i < n; i++) {
      s += rnd(5) === 0 && depth < 3 ? `(${gen(depth + 1)})` : atoms[rnd(atoms.length)];
      s += ops[rnd(ops.length)];
    }
    return s;
  };
  let read = 0;
  let refused = 0;
  for (let k = 0; k < 20000; k++) {
    const p = `^${gen(0)}${rnd(2) ? '$' : ''}`;
    const go = compileRE2(p);
    if (!go.ok) refused++;
    if (jsSourceOfGoRegexp(p) === undefined) continue;
    read++;
    assert.ok(go.ok, `${JSON.stringify(p)} read by native.ts, but Go says ${!go.ok && go.error}`);
    const c = compilePattern(p);
    assert.equal(c.kind, 'ok', p);
  }
  assert.ok(read > 300 && refused > 5000, `${read} read, ${refused} refused by Go`);
});
