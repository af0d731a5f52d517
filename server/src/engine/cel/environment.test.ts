/**
 * The CEL pipeline (parse, check, plan, evaluate) and its runtime bounds. Limits are decided by cost,
 * as cel-go's tracker counts it; the wall-clock safety net is disabled here (timeoutMs: Infinity), so
 * no outcome depends on how fast the machine is. Exact costs marked "oracle" were answered by the Go
 * oracle's cel-cost / cel-eval ops (k8s.io/apiserver v0.37.2, cel-go v0.29.2).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PER_CALL_LIMIT, celEnvironment, evaluate, type Evaluation } from './environment';
import { T, formatCelType, type CelType } from './common/types';
import { fromConformanceValue } from '../../../../test/cel/values';

function run(expr: string, vars: Record<string, unknown> = {}, opts: { costLimit?: number; kind?: 'new' | 'stored'; minor?: number } = {}): Evaluation | { compileError: string } {
  const env = celEnvironment({ kind: opts.kind ?? 'stored', kubernetesMinor: opts.minor });
  const decls = new Map<string, CelType>(Object.keys(vars).map((k) => [k, T.dyn]));
  const c = env.compile(expr, decls);
  if (c.issuesText !== undefined) return { compileError: c.issuesText };
  assert.deepEqual(c.programErrors, []);
  const act = Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, fromConformanceValue(v)]));
  return evaluate(c.program!, act, { costLimit: opts.costLimit ?? PER_CALL_LIMIT, timeoutMs: Infinity });
}

test('a runaway nested comprehension stops at the per-call limit, with the cost cel-go counts there', () => {
  const r = run('lists.range(100000).all(i, lists.range(100000).all(j, i + j >= 0))');
  assert.ok('kind' in r && r.kind === 'limit', JSON.stringify(r));
  assert.equal((r as { error: string }).error, 'operation cancelled: actual cost limit exceeded');
  assert.equal(r.cost, 1_000_040); // oracle
});

test('map() over 100,000 elements appends to its accumulator in place and stops by cost (issue 11)', () => {
  const l = Array.from({ length: 100_000 }, (_, i) => i);
  const r = run('l.map(x, l).size() > 0', { l });
  assert.ok('kind' in r && r.kind === 'limit', JSON.stringify(r).slice(0, 200));
  // 14 per iteration (accumulator 1, list literal 10 + its element 1, `+` 1, plus the range variable 1):
  // the limit is crossed within one iteration of 1,000,000.
  assert.ok(r.cost > PER_CALL_LIMIT && r.cost <= PER_CALL_LIMIT + 14, String(r.cost));
});

test('a list built in one call larger than the remaining budget is refused before it is built', () => {
  const r = run('size(lists.range(1000000000)) > 0');
  assert.ok('kind' in r && r.kind === 'limit', JSON.stringify(r));
});

test("costs of calls, attributes and constants are cel-go's", () => {
  // oracle: cel-cost of the same expressions over the same values.
  const cases: Array<[string, Record<string, unknown>, number]> = [
    ['self.a.b == 1', { self: { a: { b: 1 } } }, 4],
    ["'x' in ['a', 'b', 'x']", {}, 0],
    ['[1, 2, 3].all(x, x > 0)', {}, 16],
    ["self.s.matches('^h.*x$')", { self: { s: 'hello/world/x' } }, 6],
    ['self.o.?a.orValue(1) == 1', { self: { o: { a: 1 } } }, 4],
  ];
  for (const [expr, vars, cost] of cases) {
    const r = run(expr, vars);
    assert.ok('value' in r && r.value === true, `${expr}: ${JSON.stringify(r)}`);
    assert.equal(r.cost, cost, expr);
  }
});

test('when both sides of || fail, the left error is reported (cel-go evalOr)', () => {
  const r = run('self.a == 1 || self.b == 1', { self: {} });
  assert.ok('error' in r && r.error === 'no such key: a', JSON.stringify(r));
  const l = run('self.a == 1 && self.b == 1', { self: {} });
  assert.ok('error' in l && l.error === 'no such key: a', JSON.stringify(l));
  // A true side wins over an error on either side.
  const t = run('self.a == 1 || true', { self: {} });
  assert.ok('value' in t && t.value === true);
});

test('catastrophic-backtracking pattern runs in linear time through RE2, charged as cel-go charges regexes', () => {
  const s = 'a'.repeat(10_000) + '!';
  const r = run("s.matches('^(a+)+$')", { s });
  assert.ok('value' in r && r.value === false, JSON.stringify(r));
  // ceil(0.1 * (1 + 10001)) * ceil(0.25 * 8) + the variable (1)
  assert.equal(r.cost, 1001 * 2 + 1);
});

test('deeply nested expression is rejected without throwing', () => {
  // oracle: cel-go's ANTLR recursion listener.
  const r = run('('.repeat(400) + '1' + ')'.repeat(400));
  assert.ok('compileError' in r && r.compileError === 'ERROR: <input>:-1:0: expression recursion limit exceeded: 250', JSON.stringify(r));
  assert.ok('compileError' in run('['.repeat(300) + '1' + ']'.repeat(300)));
  // Runs of the same unary operator cancel in pairs (cel-go's visitor), however long.
  const neg = run('-'.repeat(300) + '1');
  assert.ok('value' in neg && neg.value === 1n);
});

test('cel-go error wording for missing keys, indexes and operator overloads', () => {
  const k = run('self.b', { self: { a: 1 } });
  assert.ok('error' in k && k.error === 'no such key: b' && k.kind === 'runtime' && k.cost === 2, JSON.stringify(k));
  const i = run('self[3]', { self: [1] });
  assert.ok('error' in i && i.error === 'index out of bounds: 3');
  const b = run('1 + 1.0');
  assert.ok('compileError' in b && b.compileError.includes("found no matching overload for '_+_' applied to '(int, double)'"));
});

test('libraries follow the version: includes (1.37) in stored expressions of 1.37, not in new ones', () => {
  const stored = run('[1].includes(1)');
  assert.ok('value' in stored && stored.value === true);
  const fresh = run('[1].includes(1)', {}, { kind: 'new' });
  assert.ok('compileError' in fresh && /undeclared reference to 'includes'/.test(fresh.compileError), JSON.stringify(fresh));
  const old = run("isCIDR('10.0.0.0/8')", {}, { kind: 'new', minor: 30 });
  assert.ok('compileError' in old && /undeclared reference to 'isCIDR'/.test(old.compileError));
  const newer = run("isCIDR('10.0.0.0/8')", {}, { kind: 'new', minor: 31 });
  assert.ok('value' in newer && newer.value === true);
});

test('no input makes compile or evaluation throw', () => {
  const pieces = [
    'self',
    '.',
    '?',
    '[',
    ']',
    '{',
    '}',
    '(',
    ')',
    ',',
    ':',
    "'a'",
    '1',
    '1.5',
    'u',
    '+',
    '==',
    '&&',
    '!',
    'size',
    'all',
    'x',
    'optional',
    'format',
    'quantity',
    '"%s"',
    'b"',
    'r"',
    '\\',
    '.?',
    '[?',
    '`',
    'in',
    'has',
  ];
  let seed = 7;
  const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
  const self = { a: [1, 'x', {}], b: null };
  for (let i = 0; i < 400; i++) {
    let expr = '';
    const len = 1 + rnd(12);
    for (let j = 0; j < len; j++) expr += pieces[rnd(pieces.length)] + (rnd(3) ? '' : ' ');
    assert.doesNotThrow(() => run(expr, { self }), expr);
  }
});

test("int and uint against double compare as cel-go's compareIntDouble: the integer converted to double (Go oracle answers)", () => {
  const ev = (src: string) => {
    const c = celEnvironment().compile(src, new Map());
    const r = evaluate(c.program!, {});
    return 'value' in r ? r.value : r.error;
  };
  // 2^63 - 1 is 2^63 as a double: equal, not less.
  assert.equal(ev('dyn(9223372036854775807) < 9223372036854775808.0'), false);
  assert.equal(ev('dyn(9223372036854775807) == 9223372036854775808.0'), true);
  assert.equal(ev('dyn(9007199254740993) == 9007199254740992.0'), true);
  assert.equal(ev('dyn(18446744073709551615u) == 18446744073709551616.0'), true);
  // int against uint stays exact.
  assert.equal(ev('dyn(9223372036854775807) < dyn(9223372036854775808u)'), true);
});

test('errors cel-go raises when it plans the program: constant index keys of other kinds, constant regex patterns (Go oracle answers)', () => {
  const programErrors = (src: string) => celEnvironment({ kind: 'new' }).compile(src, new Map()).programErrors;
  assert.deepEqual(programErrors("dyn({0: 1})[dyn(b'')] || true"), ['invalid qualifier type: types.Bytes']);
  assert.deepEqual(programErrors('{null: false}[null]'), ['invalid qualifier type: types.Null']);
  assert.deepEqual(programErrors('{0: 1}[dyn([1])]'), ['invalid qualifier type: *types.baseList']);
  // dyn('(') is folded to a constant first, as OptOptimize does; then the regex optimization compiles it.
  assert.deepEqual(programErrors("[1].exists(x, 'a'.matches(dyn('(')))"), ['error parsing regexp: missing closing ): `(`']);
  assert.deepEqual(programErrors("'a'.matches(dyn(1)) || {1: 2}[dyn(1.0)] == 2"), []);
});

test("open operand types are bound by the first fitting overload in cel-go's declaration order (Go oracle answers)", () => {
  const type = (src: string) => formatCelType(celEnvironment({ kind: 'new' }).compile(src, new Map()).checked!.type);
  assert.equal(type('{}.transformMap(k, v, k + v)'), 'map(bytes, bytes)');
  assert.equal(type('{}.transformMap(k, v, k - v)'), 'map(double, double)');
  assert.equal(type('{}.transformMap(k, v, k < v)'), 'map(bool, bool)');
});

test('a match the safety net interrupts was charged its cost first (matches, find, findAll: cost from the arguments, paid before the work)', () => {
  // timeoutMs 0: the deadline has passed when the guard first reads the clock (after a batch of work), so
  // the interruption comes at the same point on any machine. The cost is the one the API server charges a
  // completed match: (1 + 0.1 * 50,000) * ceil(0.25 * pattern length).
  const env = celEnvironment({ kind: 'stored' });
  // A digit nowhere in the string: the search reads all of it.
  const pattern = '[0-9]';
  for (const expr of [`s.matches('${pattern}')`, `s.find('${pattern}') == ''`, `s.findAll('${pattern}').size() == 0`]) {
    const c = env.compile(expr, new Map<string, CelType>([['s', T.string]]));
    assert.equal(c.issuesText, undefined);
    const r = evaluate(c.program!, { s: 'a'.repeat(50_000) }, { costLimit: PER_CALL_LIMIT, timeoutMs: 0 });
    assert.ok('kind' in r && r.kind === 'timeout', `${expr}: ${JSON.stringify(r)}`);
    assert.ok(r.cost >= 5001 * Math.ceil(0.25 * pattern.length), `${expr}: cost ${r.cost}`);
  }
});
