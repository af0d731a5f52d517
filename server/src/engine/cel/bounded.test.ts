/**
 * Issue 3: "No CEL evaluation can take longer than 100 ms or throw past the engine". Pathological rules
 * (deep nesting, huge lists with nested comprehensions, regexes on huge strings, string blow-ups) run
 * through validateCelRules on big values; every single evaluation must end within the bound and report
 * the API server's cost/deadline errors instead of hanging.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateCelRules, RUNTIME_CEL_COST_BUDGET, type RuleEvaluation } from './validator';
import { errorMessage } from '../field';
import type { JSONSchemaProps } from '../schema/types';

/** The bound. The deadline is 50 ms, so this leaves room for a loaded 2-core machine. */
const BOUND_MS = 100;

const N = 100_000;
const ints = Array.from({ length: N }, (_, i) => i);
const strs = Array.from({ length: N }, (_, i) => `item-${i}`);
const huge = 'a'.repeat(1_000_000);

const props: Record<string, JSONSchemaProps> = {
  l: { type: 'array', items: { type: 'integer' } },
  s: { type: 'array', items: { type: 'string' } },
  h: { type: 'string' },
  m: { type: 'object', additionalProperties: { type: 'integer' } },
};
const bigMap = Object.fromEntries(strs.slice(0, 20_000).map((k, i) => [k, i]));

function run(rules: string[], value: Record<string, unknown>) {
  const schema: JSONSchemaProps = { type: 'object', properties: props, 'x-kubernetes-validations': rules.map((rule) => ({ rule })) };
  const seen: RuleEvaluation[] = [];
  let errs: string[] = [];
  assert.doesNotThrow(() => {
    errs = validateCelRules(schema, value, { isResourceRoot: false, observe: (e) => seen.push(e) }).map((e) => errorMessage(e));
  });
  return { errs, seen };
}

/**
 * Runs each rule alone on the value; asserts its evaluation ended within BOUND_MS and returns its
 * errors. Up to two more runs decide when one was slower: wall time on a loaded machine includes time
 * the process was descheduled or collecting garbage; an unbounded evaluation takes seconds every time.
 */
function bounded(rule: string, value: Record<string, unknown>): string[] {
  // Only the fields the rule reads (converting the others would only slow the test down).
  value = Object.fromEntries(Object.entries(value).filter(([k]) => rule.includes(`self.${k}`)));
  let r = run([rule], value);
  const slow = () => r.seen.find((e) => e.ms >= BOUND_MS);
  for (let i = 0; i < 2 && slow(); i++) r = run([rule], value);
  assert.equal(r.seen.length, 1, rule);
  assert.ok(!slow(), `${rule}: ${r.seen[0].ms.toFixed(1)} ms`);
  return r.errs;
}

const STOPPED = /operation cancelled: actual cost limit exceeded|operation interrupted: context deadline exceeded|running out of cost budget/;

function assertStopped(rule: string, value: Record<string, unknown>): void {
  const errs = bounded(rule, value);
  assert.equal(errs.length, 1, `${rule}: ${errs.join(' | ')}`);
  assert.match(errs[0], STOPPED, rule);
  assert.ok(errs[0].endsWith(rule) || errs[0].includes('no further validation rules'), errs[0]);
}

test('huge lists: nested comprehensions, membership and equality are stopped', () => {
  const value = { l: ints, s: strs, m: bigMap };
  for (const rule of [
    'self.l.all(x, self.l.exists(y, y == x))',
    'self.s.all(x, self.s.exists_one(y, y == x))',
    'self.l.all(x, x in self.l)',
    'self.l.all(x, self.l == self.l)',
    'self.l.map(x, self.l).size() > 0',
    'self.l.all(x, self.l.filter(y, y > x).size() >= 0)',
    'self.l.all(x, size(self.l + self.l) > 0)',
    'self.m.all(k, self.m.exists(j, self.m[j] == self.m[k] + 1))',
    'self.l.all(x, self.l.all(y, self.l.all(z, x + y + z >= 0)))',
    'self.s.all(x, self.s.sort() == self.s)',
  ]) {
    assertStopped(rule, value);
  }
});

test('huge strings: regexes (classic catastrophic patterns included) and string blow-ups are stopped', () => {
  const value = { h: huge, s: strs, l: ints };
  for (const rule of [
    "self.h.matches('(a+)+$')",
    "self.h.matches('^(a|aa|aaa|a?a?a?)*(b|c|d|e)$')",
    "self.h.findAll('a').size() > 0",
    "self.l.all(x, !self.h.matches('^a*b'))",
    'self.l.map(x, self.h + self.h).size() > 0',
    "self.l.all(x, self.h.contains(self.h + 'b'))",
    "self.l.all(x, self.h.upperAscii().size() > 0)",
    "self.l.all(x, self.h.replace('a', 'aa').size() > 0)",
    "self.l.all(x, self.h.split('').size() > 0)",
    "self.l.all(x, self.s.join(',').size() > 0)",
    "self.l.all(x, '%s%s'.format([self.h, self.h]).size() > 0)",
  ]) {
    assertStopped(rule, value);
  }
});

test('deep nesting: deeply nested values and expressions stay bounded and never throw', () => {
  // A value 150 levels deep with a rule at every level.
  const depth = 150;
  const leaf: JSONSchemaProps = { type: 'object', properties: { v: { type: 'integer' } } };
  let schema: JSONSchemaProps = leaf;
  let value: Record<string, unknown> = { v: 1 };
  for (let i = 0; i < depth; i++) {
    schema = { type: 'object', properties: { c: schema, v: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'has(self.c) && self.v >= 0' }] };
    value = { c: value, v: i };
  }
  const seen: RuleEvaluation[] = [];
  let errs: unknown[] = [];
  assert.doesNotThrow(() => {
    errs = validateCelRules(schema, value, { isResourceRoot: false, observe: (e) => seen.push(e) });
  });
  assert.deepEqual(errs, []);
  assert.equal(seen.length, depth);
  assert.ok(seen.every((e) => e.ms < BOUND_MS));

  // Lists of lists of lists, every level iterated.
  const cube = Array.from({ length: 100 }, () => Array.from({ length: 100 }, () => Array.from({ length: 100 }, (_, i) => i)));
  const cubeSchema: JSONSchemaProps = {
    type: 'object',
    properties: { x: { type: 'array', items: { type: 'array', items: { type: 'array', items: { type: 'integer' } } } } },
    'x-kubernetes-validations': [{ rule: 'self.x.all(a, a.all(b, b.all(c, self.x.exists(d, d.size() != c))))' }],
  };
  const obs: RuleEvaluation[] = [];
  const cubeErrs = validateCelRules(cubeSchema, { x: cube }, { isResourceRoot: false, observe: (e) => obs.push(e) }).map((e) => errorMessage(e));
  assert.equal(obs.length, 1);
  assert.ok(obs[0].ms < BOUND_MS * 2, `${obs[0].ms} ms`);
  assert.equal(cubeErrs.length, 1);
  assert.match(cubeErrs[0], STOPPED);

  // An expression nested beyond the parser's depth limit is a compile error, not a crash.
  const deepRule = '('.repeat(300) + 'self.v == 1' + ')'.repeat(300);
  const r = validateCelRules({ type: 'object', properties: { v: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: deepRule }] }, { v: 1 }, { isResourceRoot: false });
  assert.equal(r.length, 1);
  assert.match(errorMessage(r[0]), /rule compile error/);
});

test('the runtime cost budget is shared by all rules of an object', () => {
  // Each rule costs ~900,000 (nine prefix checks of a 1 MB string at ceil(0.1 * 1e6) each, quick to run), so eleven rules fit the
  // 10,000,000 budget and the twelfth runs out (it is stopped as soon as it has spent the rest).
  const rule = "[self.h, self.h, self.h, self.h, self.h, self.h, self.h, self.h, self.h].all(x, x.startsWith('a'))";
  const rules = Array.from({ length: 14 }, () => rule);
  const { errs, seen } = run(rules, { h: huge });
  const spent = seen.reduce((a, e) => a + e.cost, 0);
  assert.ok(seen.slice(0, -1).every((e) => e.cost < 1_000_000 && e.cost > 800_000), seen.map((e) => e.cost).join(','));
  assert.deepEqual(errs, ['<nil>: Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run']);
  // The last evaluation is the one that overran; none ran after it.
  assert.ok(spent > RUNTIME_CEL_COST_BUDGET && spent - seen[seen.length - 1].cost <= RUNTIME_CEL_COST_BUDGET);
  assert.ok(seen.length < rules.length);
});

test('the budget carries over to nested nodes, which report it at their own path', () => {
  const item: JSONSchemaProps = { type: 'string', 'x-kubernetes-validations': [{ rule: 'self.startsWith(self)' }] };
  const schema: JSONSchemaProps = { type: 'object', properties: { items: { type: 'array', items: item } } };
  const errs = validateCelRules(schema, { items: Array.from({ length: 120 }, () => huge) }, { isResourceRoot: false }).map((e) => errorMessage(e));
  assert.equal(errs.length, 1);
  assert.match(errs[0], /^items\[\d+\]: Invalid value: "string": validation failed due to running out of cost budget/);
});
