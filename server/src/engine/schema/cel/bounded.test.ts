/**
 * Pathological rules over big values stop exactly where the API server stops them: by cel-go's
 * per-call cost limit or the per-object runtime budget, with the cost cel-go's tracker counts. No
 * assertion here depends on time: the wall-clock safety net is off (safetyTimeoutMs: Infinity), and
 * the work each evaluation did is bounded by the cost it was charged (a machine-independent counter).
 *
 * Costs marked "oracle" are the Go oracle's answers (test/oracle cel-cost: k8s.io/apiextensions-apiserver
 * v0.37.2 compiling the rule on the schema and evaluating it on the same value).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateCelRules, RUNTIME_CEL_COST_BUDGET, type RuleEvaluation } from './validator';
import { PER_CALL_LIMIT, WORK_PER_COST, WORK_PER_EVALUATION } from '../../cel/environment';
import { errorMessage } from '../../field';
import type { JSONSchemaProps } from '../types';

const N = 100_000;
const ints = Array.from({ length: N }, (_, i) => i);
const strs = Array.from({ length: N }, (_, i) => `item-${i}`);
const huge = 'a'.repeat(1_000_000);
const bigMap = Object.fromEntries(strs.slice(0, 20_000).map((k, i) => [k, i]));

const props: Record<string, JSONSchemaProps> = {
  l: { type: 'array', items: { type: 'integer' } },
  s: { type: 'array', items: { type: 'string' } },
  h: { type: 'string' },
  m: { type: 'object', additionalProperties: { type: 'integer' } },
};
const value: Record<string, unknown> = { l: ints, s: strs, h: huge, m: bigMap };

function run(rules: string[], v: Record<string, unknown>) {
  const schema: JSONSchemaProps = { type: 'object', properties: props, 'x-kubernetes-validations': rules.map((rule) => ({ rule })) };
  const seen: RuleEvaluation[] = [];
  let errs: string[] = [];
  assert.doesNotThrow(() => {
    errs = validateCelRules(schema, v, { isResourceRoot: false, observe: (e) => seen.push(e), safetyTimeoutMs: Infinity }).map((e) => errorMessage(e));
  });
  return { errs, seen };
}

/** Runs one rule alone on the fields it reads; checks its cost and that its work was bounded by it. */
function evaluateAlone(rule: string): { errs: string[]; e: RuleEvaluation } {
  const v = Object.fromEntries(Object.entries(value).filter(([k]) => rule.includes(`self.${k}`)));
  const { errs, seen } = run([rule], v);
  assert.equal(seen.length, 1, rule);
  const e = seen[0];
  assert.ok(e.work <= WORK_PER_COST * e.cost + WORK_PER_EVALUATION, `${rule}: work ${e.work} for cost ${e.cost}`);
  return { errs, e };
}

const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';
const LIMIT_ERROR = "'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ";

test('runaway rules over big lists and maps stop at the per-call limit, at the cost cel-go counts', () => {
  const stopped: Array<[string, number]> = [
    ['self.l.all(x, self.l.exists(y, y == x))', 1_000_001],
    ['self.s.all(x, self.s.exists_one(y, y == x))', 1_000_001],
    ['self.l.all(x, x in self.l)', 1_000_062],
    ['self.l.all(x, self.l == self.l)', 1_000_702],
    ['self.l.map(x, self.l).size() > 0', 1_000_007],
    ['self.l.map(x, x * 2).size() > 0', 1_000_007],
    ['self.l.all(x, self.l.filter(y, y > x).size() >= 0)', 1_000_009],
    ['self.m.all(k, self.m.exists(j, self.m[j] == self.m[k] + 1))', 1_000_001],
    ['self.l.all(x, self.l.all(y, self.l.all(z, x + y + z >= 0)))', 1_000_001],
    ['self.s.all(x, self.s.sort() == self.s)', 21_000_000_018],
  ]; // costs: oracle
  for (const [rule, cost] of stopped) {
    const { errs, e } = evaluateAlone(rule);
    // A stop that cost more than the object's whole budget is reported as the budget running out
    // (validation.go checks the budget before the evaluation error).
    const msg = cost > RUNTIME_CEL_COST_BUDGET ? OUT_OF_BUDGET : `${LIMIT_ERROR}${rule}`;
    assert.deepEqual(errs, [`<nil>: Invalid value: "object": ${msg}`], rule);
    assert.equal(e.cost, cost, rule);
  }
});

test('string-heavy rules: what the API server completes completes, what it stops is stopped at the same cost', () => {
  const cases: Array<[string, number, 'ok' | 'stopped']> = [
    ["self.h.matches('(a+)+$')", 200_004, 'ok'],
    ["self.l.all(x, !self.h.matches('^a*b'))", 1_000_071, 'stopped'],
    ['self.l.map(x, self.h + self.h).size() > 0', 1_000_071, 'stopped'],
    ["self.l.all(x, self.h.contains(self.h + 'b'))", 10_000_200_010, 'stopped'],
    ['self.l.all(x, self.h.upperAscii().size() > 0)', 1_000_070, 'stopped'],
    ["self.l.all(x, self.h.replace('a', 'aa').size() > 0)", 1_000_035, 'stopped'],
    ["self.l.all(x, self.h.split('').size() > 0)", 1_000_035, 'stopped'],
    ["self.l.all(x, self.s.join(',').size() > 0)", 1_088_925, 'stopped'],
    ["[self.h, self.h, self.h, self.h, self.h, self.h, self.h, self.h, self.h].all(x, x.startsWith('a'))", 74, 'ok'],
  ]; // costs: oracle
  for (const [rule, cost, outcome] of cases) {
    const { errs, e } = evaluateAlone(rule);
    assert.equal(e.cost, cost, rule);
    if (outcome === 'ok') assert.deepEqual(errs, [], rule);
    else assert.deepEqual(errs, [`<nil>: Invalid value: "object": ${cost > RUNTIME_CEL_COST_BUDGET ? OUT_OF_BUDGET : LIMIT_ERROR + rule}`], rule);
  }
});

test('deep nesting: deeply nested values and expressions stay bounded and never throw', () => {
  // A value 150 levels deep with a rule at every level.
  const depth = 150;
  const leaf: JSONSchemaProps = { type: 'object', properties: { v: { type: 'integer' } } };
  let schema: JSONSchemaProps = leaf;
  let v: Record<string, unknown> = { v: 1 };
  for (let i = 0; i < depth; i++) {
    schema = { type: 'object', properties: { c: schema, v: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'has(self.c) && self.v >= 0' }] };
    v = { c: v, v: i };
  }
  const seen: RuleEvaluation[] = [];
  let errs: unknown[] = [];
  assert.doesNotThrow(() => {
    errs = validateCelRules(schema, v, { isResourceRoot: false, observe: (e) => seen.push(e), safetyTimeoutMs: Infinity });
  });
  assert.deepEqual(errs, []);
  assert.equal(seen.length, depth);
  // has(self.c) 1, self.v 2, >= 1: 4 each.
  assert.ok(seen.every((e) => e.cost === 4));

  // Lists of lists of lists, every level iterated: stopped by cost.
  const cube = Array.from({ length: 100 }, () => Array.from({ length: 100 }, () => Array.from({ length: 100 }, (_, i) => i)));
  const cubeSchema: JSONSchemaProps = {
    type: 'object',
    properties: { x: { type: 'array', items: { type: 'array', items: { type: 'array', items: { type: 'integer' } } } } },
    'x-kubernetes-validations': [{ rule: 'self.x.all(a, a.all(b, b.all(c, self.x.exists(d, d.size() != c))))' }],
  };
  const obs: RuleEvaluation[] = [];
  const cubeErrs = validateCelRules(cubeSchema, { x: cube }, { isResourceRoot: false, observe: (e) => obs.push(e), safetyTimeoutMs: Infinity }).map((e) => errorMessage(e));
  assert.equal(obs.length, 1);
  assert.ok(obs[0].cost > PER_CALL_LIMIT && obs[0].work <= WORK_PER_COST * obs[0].cost);
  assert.equal(cubeErrs.length, 1);
  assert.match(cubeErrs[0], /actual cost limit exceeded/);

  // An expression nested beyond the parser's depth limit is a compile error, not a crash.
  const deepRule = '('.repeat(300) + 'self.v == 1' + ')'.repeat(300);
  const r = validateCelRules({ type: 'object', properties: { v: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: deepRule }] }, { v: 1 }, { isResourceRoot: false });
  assert.equal(r.length, 1);
  assert.match(errorMessage(r[0]), /rule compile error: compilation failed: ERROR: <input>:-1:0: expression recursion limit exceeded: 250/);
});

test('the runtime cost budget is shared by all rules of an object', () => {
  // Each rule costs 900,046 (oracle: a 100,000-element list's membership test, 9 times), so eleven rules fit
  // the 10,000,000 budget and the twelfth runs out: the API server stops once the sum passes the budget.
  const rule = '[1, 2, 3, 4, 5, 6, 7, 8, 9].all(i, 99999 in self.l)';
  const rules = Array.from({ length: 14 }, () => rule);
  const { errs, seen } = run(rules, { l: ints });
  assert.ok(
    seen.slice(0, -1).every((e) => e.cost === 900_046),
    seen.map((e) => e.cost).join(','),
  );
  assert.deepEqual(errs, ['<nil>: Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run']);
  const spent = seen.reduce((a, e) => a + e.cost, 0);
  // The last evaluation is the one that overran; none ran after it.
  assert.ok(spent > RUNTIME_CEL_COST_BUDGET && spent - seen[seen.length - 1].cost <= RUNTIME_CEL_COST_BUDGET);
  assert.equal(seen.length, 12);
});

test('the budget carries over to nested nodes, which report it at their own path', () => {
  const item: JSONSchemaProps = { type: 'string', 'x-kubernetes-validations': [{ rule: "(self + 'x').contains(self)" }] };
  const schema: JSONSchemaProps = { type: 'object', properties: { items: { type: 'array', items: item } } };
  const errs = validateCelRules(schema, { items: Array.from({ length: 120 }, () => 'a'.repeat(3_000)) }, { isResourceRoot: false, safetyTimeoutMs: Infinity }).map((e) => errorMessage(e));
  assert.equal(errs.length, 1);
  assert.match(errs[0], /^items\[\d+\]: Invalid value: "string": validation failed due to running out of cost budget/);
});
