/**
 * The oracle tier: when `go` is on PATH, builds the Go oracle (test/oracle) and checks that it answers
 * a handful of cases as the Kubernetes code is known to answer them. Without Go it is skipped with a
 * message saying so. The comparison helpers are tested without Go.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { goAvailable, ensureOracleBinary, runOracleOnLines, oracleAgrees, oracleErrorsMatch } from './oracle';
import { defaultSharedDir } from '../conformance/runner';
import { IntegralFloat } from '../../server/src/engine/json/lossless';
import { withoutTiedContributions } from './difftest/compare';
import type { FieldError } from '../../server/src/engine/field';

test('oracleErrorsMatch follows FORMAT.md: equal (type, field) sets, details are substrings', () => {
  const actual = [
    { type: 'FieldValueRequired', field: 'spec.a', detail: 'spec.a: Required value' },
    { type: 'FieldValueInvalid', field: '', detail: '<nil>: Invalid value: "object": failed rule: self.x > 0' },
  ];
  assert.equal(
    oracleErrorsMatch(
      [
        { type: 'FieldValueRequired', field: 'spec.a' },
        { type: 'FieldValueInvalid', field: '', detail: 'failed rule' },
      ],
      actual,
    ),
    true,
  );
  assert.equal(oracleErrorsMatch([{ type: 'FieldValueRequired', field: 'spec.a' }], actual), false);
  assert.equal(
    oracleErrorsMatch(
      [
        { type: 'FieldValueRequired', field: 'spec.a' },
        { type: 'FieldValueInvalid', field: '', detail: 'self.y' },
      ],
      actual,
    ),
    false,
  );
});

test('oracleAgrees keeps ints and doubles apart and fails on oracle errors', () => {
  assert.equal(oracleAgrees({ expect: { object: { a: new IntegralFloat(1) } } }, { id: 'x', object: { a: new IntegralFloat(1) } }), true);
  assert.equal(oracleAgrees({ expect: { object: { a: new IntegralFloat(1) } } }, { id: 'x', object: { a: 1 } }), false);
  assert.equal(oracleAgrees({ expect: { error: 'no such key' } }, { id: 'x', error: "no such key: 'b'" }), true);
  assert.equal(oracleAgrees({ expect: { errors: [] } }, { id: 'x', oracleError: 'panic' }), false);
});

test("difftest: the 4 most expensive CEL expressions tied at the cut are as Go's map order lists them", () => {
  const C = 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema';
  const x = (n: string) => `spec.validation.openAPIV3Schema.properties[${n}].x-kubernetes-validations[0].rule`;
  const oracle = (...ns: string[]) => [
    ...ns.map((n) => ({ type: 'FieldValueForbidden', field: x(n), detail: `${x(n)}: Forbidden: ${C}` })),
    { type: 'FieldValueInvalid', field: 'spec.names.plural', detail: 'spec.names.plural: Invalid value' },
  ];
  const engine = (costs: Record<string, number>): FieldError[] => [
    ...Object.entries(costs).map(([n, estimated]): FieldError => ({ type: 'FieldValueForbidden', field: x(n), detail: C, params: { origin: 'celCost', cost: { scope: 'contribution', estimated, limit: 1e8 } } })),
    { type: 'FieldValueInvalid', field: 'spec.names.plural', detail: 'Invalid value' },
  ];
  // The engine lists e where the oracle listed f: e costs as much as the cheapest listed (a tie at the cut).
  const tied = withoutTiedContributions(oracle('a', 'b', 'c', 'f'), engine({ a: 9, b: 5, c: 5, e: 5 }));
  assert.deepEqual([tied.oracle.map((e) => e.field), tied.engine.map((e) => e.field)], [['spec.names.plural'], ['spec.names.plural']]);
  // e costs more than the cut: not a tie, compared as they are.
  const strict = withoutTiedContributions(oracle('a', 'b', 'c', 'f'), engine({ a: 5, b: 5, c: 5, e: 9 }));
  assert.equal(strict.oracle.length, 5);
  assert.equal(strict.engine.length, 5);
  // Different lengths: compared as they are.
  assert.equal(withoutTiedContributions(oracle('a', 'b'), engine({ a: 5, b: 5, e: 5 })).engine.length, 4);
});

const SKIP = goAvailable() ? false : 'the oracle tier did not run: `go` is not on PATH';

test('the Go oracle answers a handful of ops as Kubernetes does', { skip: SKIP, timeout: 15 * 60_000 }, () => {
  const bin = ensureOracleBinary();
  const cases = [
    // structural: a property without type.
    { id: 'structural', op: 'structural', schema: { type: 'object', properties: { a: {} } } },
    // prune: unknown field removed, apiVersion/kind/metadata kept at the root.
    { id: 'prune', op: 'prune', schema: { type: 'object', properties: { a: { type: 'string' } } }, object: { apiVersion: 'v', kind: 'K', metadata: { x: 1 }, a: 's', b: 1 } },
    // default: a double default keeps being a double; null without default removed.
    { id: 'default', op: 'default', schema: { type: 'object', properties: { d: { type: 'number', default: 1.5 }, n: { type: 'string' } } }, object: { n: null }, isResourceRoot: false },
    // validate: maxLength is TooLong; CEL then blocked.
    {
      id: 'validate',
      op: 'validate',
      schema: { type: 'object', properties: { s: { type: 'string', maxLength: 1 } }, 'x-kubernetes-validations': [{ rule: 'self.s == "a"' }] },
      object: { s: 'ab' },
      isResourceRoot: false,
    },
    { id: 'cel-eval', op: 'cel-eval', expr: 'xs.sum() + 1', vars: { xs: [1, 2] } },
    { id: 'cel-eval-err', op: 'cel-eval', expr: '{"a": 1}.b' },
    { id: 'cel-compile', op: 'cel-compile', schema: { type: 'object', properties: { a: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.a == "x"' }] } },
  ];
  const answers = runOracleOnLines(
    cases.map((c) => JSON.stringify(c)),
    defaultSharedDir(),
    bin,
  );
  const by = new Map(answers.map((a) => [a.id, a]));
  for (const a of answers) assert.equal(a.oracleError, undefined, `${a.id}: ${a.oracleError}`);

  assert.deepEqual(
    by.get('structural')!.errors!.map((e) => [e.type, e.field]),
    [['FieldValueRequired', 'properties[a].type']],
  );
  assert.deepEqual(by.get('prune')!.object, { a: 's', apiVersion: 'v', kind: 'K', metadata: { x: 1 } });
  const d = by.get('default')!.object as Record<string, unknown>;
  assert.ok(d.d instanceof IntegralFloat === false && d.d === 1.5 && !('n' in d), JSON.stringify(d));
  assert.deepEqual(
    by
      .get('validate')!
      .errors!.map((e) => [e.type, e.field])
      .sort(),
    [
      ['FieldValueInvalid', ''],
      ['FieldValueTooLong', 's'],
    ],
  );
  assert.deepEqual(by.get('cel-eval')!.value, 4);
  assert.match(by.get('cel-eval-err')!.error!, /no such key/);
  const ce = by.get('cel-compile')!.errors!;
  assert.equal(ce.length, 1);
  assert.equal(ce[0].field, 'x-kubernetes-validations[0].rule');
  assert.match(ce[0].detail, /compilation failed/);
});
