import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createKubernetesEnvironment, evaluateWithLimits } from './environment';

// Build the shared base environment once so timings below measure evaluation only.
createKubernetesEnvironment({ compatibilityVersion: '1.37' });

// The guards aim at < 100 ms on an idle machine (50 ms deadline); the bound here leaves room for a
// loaded CI box while still failing for anything unguarded (those run for seconds to minutes).
const LIMIT_MS = 500;

function run(expr: string, ctx: Record<string, unknown> = {}, limits = {}) {
  const env = createKubernetesEnvironment({ compatibilityVersion: '1.37' });
  for (const k of Object.keys(ctx)) env.registerVariable(k, 'dyn');
  const t0 = Date.now();
  const { cost, ...r } = evaluateWithLimits(env, expr, ctx, limits);
  return { r, ms: Date.now() - t0, cost };
}

test('huge comprehension is stopped by the cost limit, not run to completion', () => {
  // 10^10 steps if unguarded. cel-js' quantifier loops absorb errors and finish their current list, so the
  // bound is the outer list's length after the stop, not the 80 ms deadline (known limitation).
  const { r, ms } = run('lists.range(100000).all(i, lists.range(100000).all(j, i + j >= 0))');
  assert.ok('error' in r && /cost limit|deadline exceeded/.test(r.error), JSON.stringify(r));
  assert.ok(ms < LIMIT_MS, `took ${ms}ms`);
});

test('allocating a huge list in one call is charged before allocation', () => {
  const { r, ms } = run('size(lists.range(1000000000)) > 0');
  assert.ok('error' in r && /cost limit/.test(r.error), JSON.stringify(r));
  assert.ok(ms < LIMIT_MS, `took ${ms}ms`);
});

test('catastrophic-backtracking pattern runs in linear time through RE2', () => {
  // 40 characters already take a backtracking engine (JS RegExp) minutes.
  const s = 'a'.repeat(40) + '!';
  const { r, ms } = run("s.matches('^(a+)+$')", { s });
  assert.deepEqual(r, { value: false });
  assert.ok(ms < LIMIT_MS, `took ${ms}ms`);
});

test('deeply nested expression is rejected without throwing', () => {
  const expr = '('.repeat(400) + '1' + ')'.repeat(400);
  const { r } = run(expr);
  assert.ok('error' in r);
});

test('wall-clock guard stops string blow-up', () => {
  const { r, ms } = run("lists.range(200000).map(i, 'x' + string(i)).size() > 0", {}, { costLimit: 1e12, timeoutMs: 30 });
  assert.ok('error' in r && /deadline exceeded|cost/.test(r.error), JSON.stringify(r));
  assert.ok(ms < LIMIT_MS, `took ${ms}ms`);
});

test('RE2 syntax: Go-only constructs work, constant bad patterns fail at compile time', () => {
  assert.deepEqual(run("'abc'.matches('\\\\Aabc\\\\z')").r, { value: true });
  const bad = run("'abc'.matches('(a')").r;
  assert.ok('error' in bad && bad.error.startsWith('invalid matches argument'), JSON.stringify(bad));
});

test('cel-go error wording for missing keys and operator overloads', () => {
  const a = run('self.b', { self: new Map([['a', 1n]]) }).r;
  assert.deepEqual(a, { error: 'no such key: b', kind: 'runtime' });
  const b = run('1 + 1.0').r;
  assert.ok('error' in b && b.error.includes("found no matching overload for '_+_' applied to '(int, double)'"));
});

test('includes is gated to compatibility 1.37', () => {
  const env = createKubernetesEnvironment({ compatibilityVersion: '1.36' });
  const r = evaluateWithLimits(env, '[1].includes(1)', {});
  assert.ok('error' in r);
});

test('no input makes compile or evaluation throw', () => {
  const env = createKubernetesEnvironment({ compatibilityVersion: '1.37' });
  env.registerVariable('self', 'dyn');
  const pieces = ['self', '.', '?', '[', ']', '{', '}', '(', ')', ',', ':', "'a'", '1', '1.5', 'u', '+', '==', '&&', '!', 'size', 'all', 'x', 'optional', 'format', 'quantity', '"%s"', 'b"', 'r"', '\\', '.?', '[?', '`'];
  let seed = 7;
  const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
  const selfValue = new Map<string, unknown>([['a', [1n, 'x', new Map()]], ['b', null]]);
  for (let i = 0; i < 400; i++) {
    let expr = '';
    const len = 1 + rnd(12);
    for (let j = 0; j < len; j++) expr += pieces[rnd(pieces.length)] + (rnd(3) ? '' : ' ');
    assert.doesNotThrow(() => evaluateWithLimits(env, expr, { self: selfValue }), expr);
  }
});
