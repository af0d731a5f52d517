/**
 * Schema `pattern`s under hostile input: each match is bounded by a work budget (per match and per
 * object), and a check the bound cuts short is a `NotChecked` information at the value, never an error and
 * never a silent pass. Bounds are asserted on the budget's counters, not on time.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { errorMessage } from '../field';
import { MATCH_WORK_LIMIT, OBJECT_WORK_LIMIT, RegexBudget } from '../regex/re2';
import type { JSONSchemaProps } from '../schema/types';
import { validateCustomResourceValue } from '../customresource/value';
import { validateOpenAPI } from './validation';

const ATTACK = '.{1000}'.repeat(10) + '$';
const obj = (props: Record<string, unknown>): JSONSchemaProps => ({ type: 'object', properties: props as JSONSchemaProps['properties'] });
const messages = (schema: JSONSchemaProps, value: unknown) => validateCustomResourceValue(value, schema, { isResourceRoot: false }).map((e) => `${e.severity ?? 'error'} ${errorMessage(e)}`);

test('the 71-character pattern against a 100 KB value: not run, said so at the value', () => {
  const budget = new RegexBudget();
  const errs = validateOpenAPI({ v: 'a'.repeat(100_000) }, obj({ v: { type: 'string', pattern: ATTACK } }), undefined, { budget });
  assert.deepEqual(
    errs.map((e) => [e.type, e.severity, errorMessage(e)]),
    [['NotChecked', 'information', 'v: Not checked: pattern too expensive for a value of 100000 characters']],
  );
  assert.deepEqual(errs[0].segments, [{ kind: 'field', name: 'v' }]);
  assert.equal(budget.spent, 0);
});

test('short values are still matched against the same pattern, with real errors', () => {
  const schema = obj({ v: { type: 'string', pattern: ATTACK } });
  assert.deepEqual(messages(schema, { v: 'short' }), ['error v: Invalid value: "short": v in body should match \'' + ATTACK + "'"]);
  // A simpler pattern matches a 100 KB value within the limit.
  assert.deepEqual(messages(obj({ v: { type: 'string', pattern: '^[a-z]+$' } }), { v: 'x'.repeat(100_000) }), []);
  assert.deepEqual(messages(obj({ v: { type: 'string', pattern: '^[a-z]+$' } }), { v: 'x'.repeat(100_000) + '1' }).length, 1);
});

test('many values: the object budget is shared, later ones are listed as not checked, then counted', () => {
  const len = 900; // (901 × 10003) per match, under the per-match limit
  const items = Array.from({ length: 60 }, () => 'b'.repeat(len));
  const budget = new RegexBudget();
  const errs = validateOpenAPI({ l: items }, obj({ l: { type: 'array', items: { type: 'string', pattern: ATTACK } } }), undefined, { budget });
  const perMatch = (len + 1) * 10_003;
  assert.ok(perMatch < MATCH_WORK_LIMIT);
  const run = Math.floor(OBJECT_WORK_LIMIT / perMatch);
  assert.ok(budget.spent <= OBJECT_WORK_LIMIT);
  // Every value that ran failed the pattern (shorter than 10,000): one error each.
  assert.equal(errs.filter((e) => e.type === 'FieldValueInvalid').length, run);
  const notChecked = errs.filter((e) => e.type === 'NotChecked');
  assert.equal(notChecked.length, 21);
  assert.equal(errorMessage(notChecked[0]), `l[${run}]: Not checked: pattern too expensive for a value of ${len} characters`);
  assert.equal(errorMessage(notChecked[20]), `<nil>: Not checked: ${60 - run - 20} more pattern checks cut short by the work bound`);
});

test('a pattern too large to compile is neither an error in the CRD nor a silent pass in the CR', () => {
  const huge = '[a-z]{1000}'.repeat(60);
  assert.deepEqual(messages(obj({ v: { type: 'string', pattern: huge } }), { v: 'abc' }), ['information v: Not checked: pattern too large to check here (a program of about 60000 instructions)']);
});

test('not / oneOf: a branch that passes only because a bound cut its check gives no verdict', () => {
  const big = 'a'.repeat(100_000);
  // `not: {pattern}`: cannot tell whether the value matches, so no "must not validate" error.
  const notSchema = obj({ v: { type: 'string', not: { pattern: ATTACK } } });
  assert.deepEqual(messages(notSchema, { v: big }), ['information v: Not checked: pattern too expensive for a value of 100000 characters']);
  // Checked normally when small: the value matches nothing in `not`, fine; a matching value fails.
  assert.deepEqual(messages(obj({ v: { type: 'string', not: { pattern: '^a' } } }), { v: 'abc' }), ['error <nil>: Invalid value: "": "v" must not validate the schema (not)']);
  // oneOf with two branches that "pass" because one is unchecked: no "more than one" error.
  const oneOf = obj({ v: { type: 'string', oneOf: [{ pattern: ATTACK }, { maxLength: 200_000 }] } });
  assert.deepEqual(messages(oneOf, { v: big }), ['information v: Not checked: pattern too expensive for a value of 100000 characters']);
});

test('patternProperties keys are matched within the same bounds', () => {
  const key = 'k'.repeat(100_000);
  const schema: JSONSchemaProps = { type: 'object', patternProperties: { [ATTACK]: { type: 'integer' } } } as JSONSchemaProps;
  const errs = validateOpenAPI({ [key]: 'x' }, schema);
  assert.deepEqual(
    errs.map((e) => e.type),
    ['NotChecked'],
  );
  assert.match(errs[0].detail, /^patternProperties: pattern too expensive for a key of 100000 characters$/);
});
