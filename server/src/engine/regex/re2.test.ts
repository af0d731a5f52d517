import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { compilePattern, compileRE2, matchPattern, MATCH_WORK_LIMIT, MAX_PROGRAM_SIZE, OBJECT_WORK_LIMIT, programSizeBound, re2Test, RegexBudget } from './re2';

test('Go error wording for unsupported syntax and a trailing backslash', () => {
  const look = compileRE2('(?=a)');
  assert.equal(look.ok, false);
  assert.equal(!look.ok && look.error, 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`');
  const tb = compileRE2('a\\');
  assert.equal(!tb.ok && tb.error, 'error parsing regexp: trailing backslash at end of expression: ``');
});

test('duplicate group names compile as in Go 1.22+', () => {
  assert.equal(compileRE2('(?P<n>a)(?P<n>b)').ok, true);
  assert.equal(re2Test('(?P<n>a)(?P<n>b)', 'xab'), true);
  assert.equal(re2Test('(?P<n>a)(?P<n>b)', 'xba'), false);
});

// Go 1.26 regexp.Compile's answers for these patterns (run through a Go program; the API server prints
// them after "must be a valid regular expression, but isn't: ").
const GO_ERRORS: [string, string | null][] = [
  ['a{1000}', null],
  ['a{1001}', 'error parsing regexp: invalid repeat count: `{1001}`'],
  ['a{2,1001}', 'error parsing regexp: invalid repeat count: `{2,1001}`'],
  ['x{1001,}', 'error parsing regexp: invalid repeat count: `{1001,}`'],
  ['x{0,1001}', 'error parsing regexp: invalid repeat count: `{0,1001}`'],
  ['(a{10}){100}', null],
  ['(a{100}){100}', 'error parsing regexp: invalid repeat count: `{100}`'],
  ['(?:a{1000}){2}', 'error parsing regexp: invalid repeat count: `{2}`'],
  ['(a{1000}){1000}', 'error parsing regexp: invalid repeat count: `{1000}`'],
  ['('.repeat(1001) + 'a' + ')'.repeat(1001), 'error parsing regexp: expression nests too deeply: `' + '('.repeat(1001) + 'a' + ')'.repeat(1001) + '`'],
  ['(?:'.repeat(1001) + 'a' + ')'.repeat(1001), null],
  ['.{1000}'.repeat(10) + '$', null],
  ['a{,5}', null],
];

test("Go's parser limits: repeat counts over 1000, nested repeats over 1000, nesting depth, with Go's text", () => {
  for (const [p, want] of GO_ERRORS) {
    const c = compilePattern(p);
    if (want === null) assert.equal(c.kind, 'ok', p.slice(0, 40));
    else assert.deepEqual(c, { kind: 'invalid', error: want }, p.slice(0, 40));
  }
});

test('programs over the compile bound are not compiled, including those re2js refuses but Go accepts', () => {
  // 1.3 M instructions: Go compiles it (maxSize 3,355,443), re2js would too (~0.7 s, 70 MB): not here.
  const big = compilePattern('[a-z]{1000}'.repeat(1300));
  assert.equal(big.kind, 'tooLarge');
  assert.ok(big.kind === 'tooLarge' && big.size >= 1_300_000);
  // 2 M: re2js says "expression too large" (its limit is 1,398,101), Go compiles it: no false error.
  assert.equal(compileRE2('[a-z]{1000}'.repeat(2000)).ok, false);
  assert.equal(compilePattern('[a-z]{1000}'.repeat(2000)).kind, 'tooLarge');
  // Just under the bound compiles.
  const under = compilePattern('[a-z]{1000}'.repeat(Math.floor(MAX_PROGRAM_SIZE / 1000) - 1));
  assert.equal(under.kind, 'ok');
});

/** Random patterns over Go's syntax (some invalid), deterministic. */
function* randomPatterns(n: number): Generator<string> {
  let seed = 12345;
  const rnd = (k: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % k;
  };
  const atoms = ['a', 'b', '.', '[a-z]', '[^0-9]', '\\d', '\\pL', '\\x{41}', '\\Qa.b\\E', '^', '$', '\\b', '[[:alpha:]]', 'é', '😀'];
  const ops = ['', '', '*', '+', '?', '{2}', '{0,3}', '{2,}', '*?', '{1,5}?'];
  const gen = (depth: number): string => {
    let s = '';
    const len = 1 + rnd(4);
    for (let i = 0; i < len; i++) {
      const r = rnd(10);
      if (r < 2 && depth < 4) s += ['(', '(?:', '(?P<g>', '(?i:'][rnd(4)] + gen(depth + 1) + (rnd(3) === 0 ? '|' + gen(depth + 1) : '') + ')';
      else s += atoms[rnd(atoms.length)];
      s += ops[rnd(ops.length)];
    }
    return s;
  };
  for (let i = 0; i < n; i++) yield gen(0);
}

test('the size bound is an upper bound of the compiled program (random patterns)', () => {
  let compiled = 0;
  for (const p of randomPatterns(3000)) {
    const c = compileRE2(p);
    if (!c.ok) continue;
    compiled++;
    // The program adds its frame (capture of the whole match, match, fail) to Go's calcSize.
    assert.ok(c.re.programSize() <= programSizeBound(p) + 4, `${p}: ${c.re.programSize()} > ${programSizeBound(p)} + 4`);
  }
  assert.ok(compiled > 1000, `only ${compiled} random patterns compiled`);
});

test('a match costs (length + 1) × program size of the budget; beyond the per-match limit it is not run', () => {
  const p = compilePattern('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$');
  assert.equal(p.kind, 'ok');
  if (p.kind !== 'ok') return;
  const budget = new RegexBudget();
  assert.equal(matchPattern(p, 'abc-def', budget), true);
  assert.equal(budget.spent, 8 * p.insts);
  assert.equal(budget.remaining, OBJECT_WORK_LIMIT - 8 * p.insts);
  assert.equal(matchPattern(p, 'abc-', budget), false);

  // The 71-character pattern from the issue against a 100 KB value: 10⁹ steps, not run, nothing spent.
  const attack = compilePattern('.{1000}'.repeat(10) + '$');
  assert.equal(attack.kind, 'ok');
  if (attack.kind !== 'ok') return;
  assert.ok(attack.insts > 10_000);
  const b2 = new RegexBudget();
  assert.equal(matchPattern(attack, 'a'.repeat(100_000), b2), undefined);
  assert.equal(b2.spent, 0);
  // The largest value it may still check: under the per-match limit.
  const most = Math.floor(MATCH_WORK_LIMIT / attack.insts) - 1;
  assert.equal(matchPattern(attack, 'a'.repeat(most), b2), false);
  assert.ok(b2.spent <= MATCH_WORK_LIMIT);
});

test('the object budget bounds many matches together, then each further match is not run', () => {
  const p = compilePattern('.{1000}'.repeat(10) + '$');
  if (p.kind !== 'ok') return assert.fail('compiles');
  const budget = new RegexBudget();
  const value = 'a'.repeat(Math.floor(MATCH_WORK_LIMIT / p.insts) - 1);
  let run = 0;
  let skipped = 0;
  for (let i = 0; i < 20; i++) {
    const m = matchPattern(p, value, budget);
    if (m === undefined) skipped++;
    else run++;
  }
  assert.equal(run, Math.floor(OBJECT_WORK_LIMIT / ((value.length + 1) * p.insts)));
  assert.equal(skipped, 20 - run);
  assert.ok(budget.spent <= OBJECT_WORK_LIMIT);
});

test('matching never backtracks: a catastrophic pattern for backtracking engines answers on a long value', () => {
  const p = compilePattern('^(a+)+$');
  if (p.kind !== 'ok') return assert.fail('compiles');
  assert.equal(matchPattern(p, 'a'.repeat(30000) + 'b', new RegexBudget()), false);
  assert.equal(matchPattern(p, 'a'.repeat(30000), new RegexBudget()), true);
});
