import { test } from 'node:test';
import assert from 'node:assert/strict';
import { costErrorMessage } from './celcontext';
import { validateCustomResourceDefinitionValidation } from './schema';
import { FieldPath, errorMessage } from '../field';
import type { JSONSchemaProps } from '../schema/types';

const P = FieldPath.root('spec', 'validation');
/** The CEL part of a schema's validation (the schemas below are structural, so CEL runs). */
const check = (s: JSONSchemaProps) => validateCustomResourceDefinitionValidation({ openAPIV3Schema: s }, false, P).map((e) => [e.type, e.field, errorMessage(e)] as const);

test('rule field checks: required rule, messages, reason, fieldPath', () => {
  const errs = check({
    type: 'object',
    properties: { a: { type: 'string' } },
    'x-kubernetes-validations': [{ rule: ' ' }, { rule: 'true', message: 'a\nb' }, { rule: 'true', reason: 'Nope' as never }, { rule: 'true', fieldPath: '.b' }],
  });
  assert.deepEqual(
    errs.map(([t, f]) => [t, f]),
    [
      ['FieldValueRequired', 'spec.validation.openAPIV3Schema.x-kubernetes-validations[0].rule'],
      ['FieldValueInvalid', 'spec.validation.openAPIV3Schema.x-kubernetes-validations[1].message'],
      ['FieldValueNotSupported', 'spec.validation.openAPIV3Schema.x-kubernetes-validations[2].reason'],
      ['FieldValueInvalid', 'spec.validation.openAPIV3Schema.x-kubernetes-validations[3].fieldPath'],
    ],
  );
});

test('oldSelf is forbidden under atomic list items but allowed under list-type map items', () => {
  const item = (lt?: string): JSONSchemaProps => ({
    type: 'array',
    ...(lt ? { 'x-kubernetes-list-type': lt, 'x-kubernetes-list-map-keys': ['k'] } : {}),
    items: { type: 'object', required: ['k'], properties: { k: { type: 'string' } }, 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] },
    maxItems: 10,
  });
  const errs = check({ type: 'object', properties: { a: item(), m: item('map') } });
  assert.equal(errs.length, 1);
  assert.equal(errs[0][1], 'spec.validation.openAPIV3Schema.properties[a].items.x-kubernetes-validations[0].rule');
  assert.match(errs[0][2], /within spec\.validation\.openAPIV3Schema\.properties\[a\]$/);
});

test('optionalOldSelf without oldSelf is invalid', () => {
  const errs = check({ type: 'object', properties: { v: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0', optionalOldSelf: false }] } } });
  assert.deepEqual(
    errs.map(([, f]) => f),
    ['spec.validation.openAPIV3Schema.properties[v].x-kubernetes-validations[0].optionalOldSelf'],
  );
});

test('cost: unbounded nested iteration exceeds the per-rule and per-CRD budgets; limits fix it', () => {
  const schema = (bounded: boolean): JSONSchemaProps => ({
    type: 'object',
    properties: {
      foo: {
        type: 'array',
        ...(bounded ? { maxItems: 25 } : {}),
        items: { type: 'string', ...(bounded ? { maxLength: 10 } : {}) },
        'x-kubernetes-validations': [{ rule: "self.all(x, x.contains('a string'))" }],
      },
    },
  });
  const errs = check(schema(false));
  assert.deepEqual(
    errs.map(([t, f]) => [t, f]),
    [
      ['FieldValueForbidden', 'spec.validation.openAPIV3Schema.properties[foo].x-kubernetes-validations[0].rule'],
      ['FieldValueForbidden', 'spec.validation.openAPIV3Schema.properties[foo].x-kubernetes-validations[0].rule'],
      ['FieldValueForbidden', 'spec.validation.openAPIV3Schema'],
    ],
  );
  assert.match(errs[0][2], /estimated rule cost exceeds budget by factor of more than 100x/);
  assert.match(errs[1][2], /contributed to estimated rule cost total/);
  assert.deepEqual(check(schema(true)), []);
});

test('cost factor formatting follows Go', () => {
  assert.match(costErrorMessage('c', 10_485_760, 10_000_000), /factor of 1\.048576x/);
  assert.match(costErrorMessage('c', 25_000_000, 10_000_000), /factor of 2\.5x/);
});

test('a compile error prints the rule as the internal ValidationRule struct (Go field order, nil pointers as null)', () => {
  const errs = check({
    type: 'object',
    properties: { a: { type: 'string' } },
    'x-kubernetes-validations': [
      { rule: 'self.a > 1', message: 'm', reason: 'FieldValueForbidden' },
      { rule: 'true', messageExpression: '1', optionalOldSelf: false },
    ],
  });
  assert.deepEqual(
    errs.map(([, , m]) => m.split(': ').slice(0, 3).join(': ')),
    [
      'spec.validation.openAPIV3Schema.x-kubernetes-validations[0].rule: Invalid value: {"Rule":"self.a \\u003e 1","Message":"m","MessageExpression":"","Reason":"FieldValueForbidden","FieldPath":"","OptionalOldSelf":null}',
      'spec.validation.openAPIV3Schema.x-kubernetes-validations[1].messageExpression: Invalid value: {"Rule":"true","Message":"","MessageExpression":"1","Reason":null,"FieldPath":"","OptionalOldSelf":false}',
      'spec.validation.openAPIV3Schema.x-kubernetes-validations[1].optionalOldSelf: Invalid value: false',
    ],
  );
});

test('rules on an untyped preserve-unknown-fields node: one InternalError (no CEL type information), not compiled', () => {
  const errs = check({ type: 'object', properties: { a: { 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-validations': [{ rule: 'true' }, { rule: 'self.x' }] } } });
  assert.deepEqual(errs, [
    [
      'InternalError',
      'spec.validation.openAPIV3Schema.properties[a].x-kubernetes-validations',
      'spec.validation.openAPIV3Schema.properties[a].x-kubernetes-validations: Internal error: internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations',
    ],
  ]);
});

test('additionalProperties: false still makes the object a map of unbounded cardinality for cost', () => {
  const node = (ap: unknown): JSONSchemaProps => ({
    type: 'object',
    ...(ap === undefined ? {} : { additionalProperties: ap as never }),
    properties: { s: { type: 'string', 'x-kubernetes-validations': [{ rule: "self.matches('^[a-z-]*$')" }] } },
  });
  const costErrs = (ap: unknown) => check({ type: 'object', properties: { m: node(ap) } }).filter(([t]) => t === 'FieldValueForbidden').length;
  assert.equal(costErrs(undefined), 0);
  assert.ok(costErrs(false) > 0);
});

test('inside a rule scope a failed TypeInfo is inherited: typed children of an untyped node with rules fail too', () => {
  const errs = check({
    type: 'object',
    properties: {
      a: {
        'x-kubernetes-preserve-unknown-fields': true,
        'x-kubernetes-validations': [{ rule: 'true' }],
        properties: { in: { type: 'object', 'x-kubernetes-validations': [{ rule: 'true' }] } },
      },
      // Outside any rule scope the typed child converts its own schema and compiles.
      b: { 'x-kubernetes-preserve-unknown-fields': true, properties: { in: { type: 'object', 'x-kubernetes-validations': [{ rule: 'true' }] } } },
    },
  });
  assert.deepEqual(
    errs.map(([t, f]) => `${t} ${f}`),
    ['InternalError spec.validation.openAPIV3Schema.properties[a].properties[in].x-kubernetes-validations', 'InternalError spec.validation.openAPIV3Schema.properties[a].x-kubernetes-validations'],
  );
});

test("string(dyn) keeps bytes_to_string's result size, so concatenating it is bounded (no cost error)", () => {
  const ios = (messageExpression: string): JSONSchemaProps => ({
    type: 'object',
    properties: { v: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-validations': [{ rule: 'true', messageExpression }] } },
  });
  assert.deepEqual(check(ios("'bad: ' + string(self)")), []);
});
