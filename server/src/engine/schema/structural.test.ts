import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorMessage, FieldPath } from '../field';
import { newStructural, validateStructuralSchema } from './structural';

const pairs = (schema: unknown, p?: FieldPath) => validateStructuralSchema(schema as never, p).map((e) => `${e.type} ${e.field}`);
const messages = (schema: unknown) => validateStructuralSchema(schema as never).map(errorMessage);

test('errors are sorted by their Go message and rooted at fldPath', () => {
  const errs = messages({ type: 'object', properties: { b: {}, a: {} } });
  assert.deepEqual(errs, ['properties[a].type: Required value: must not be empty for specified object fields', 'properties[b].type: Required value: must not be empty for specified object fields']);
  assert.deepEqual(pairs({ type: 'object', properties: { a: {} } }, FieldPath.root('spec', 'validation', 'openAPIV3Schema')), ['FieldValueRequired spec.validation.openAPIV3Schema.properties[a].type']);
});

test('int-or-string anyOf shape is exact: order and extra keywords matter', () => {
  assert.deepEqual(pairs({ type: 'object', properties: { a: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] } } }), []);
  assert.deepEqual(pairs({ type: 'object', properties: { a: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'string' }, { type: 'integer' }] } } }), [
    'FieldValueForbidden properties[a].anyOf[0].type',
    'FieldValueForbidden properties[a].anyOf[1].type',
  ]);
  // an empty `properties` in a branch is a non-nil map in Go and breaks the shape
  assert.equal(pairs({ type: 'object', properties: { a: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer', properties: {} }, { type: 'string' }] } } }).length, 2);
});

test('root metadata: only name/generateName; empty required is still "specified" as in Go', () => {
  const meta = (m: unknown) => pairs({ type: 'object', properties: { metadata: m } });
  assert.deepEqual(meta({ type: 'object', properties: { name: { type: 'string', maxLength: 3 } } }), []);
  assert.deepEqual(meta({ type: 'object', properties: {} }), []);
  assert.deepEqual(meta({ type: 'object', required: [] }), ['FieldValueForbidden properties[metadata]']);
  assert.deepEqual(meta({ type: 'object', enum: [] }), []);
  assert.deepEqual(meta({ type: 'object', additionalProperties: false }), ['FieldValueForbidden properties[metadata]']);
});

test('junctor additionalProperties: false is dropped, true is forbidden', () => {
  assert.deepEqual(pairs({ type: 'object', properties: { a: { type: 'object', allOf: [{ additionalProperties: false }] } } }), []);
  assert.deepEqual(pairs({ type: 'object', properties: { a: { type: 'object', allOf: [{ additionalProperties: true }] } } }), ['FieldValueForbidden properties[a].allOf[0].additionalProperties']);
});

test('pattern errors carry Go regexp messages', () => {
  const [m] = messages({ type: 'object', properties: { a: { type: 'string', pattern: '(?=a)' } } });
  assert.match(m, /^properties\[a\]\.pattern: Invalid value: "\(\?=a\)": must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax/);
});

test('newStructural reports Go conversion errors and still builds a lenient model', () => {
  const r = newStructural({ type: 'object', properties: { a: { $ref: '#/x' }, b: { type: 'array', items: [{ type: 'string' }] } } });
  assert.equal(r.error, "OpenAPIV3Schema '$ref' is not supported");
  assert.equal(r.structural.properties?.b.type, 'array');
  assert.equal(newStructural({ type: 'object', 'x-kubernetes-preserve-unknown-fields': false }).error, "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined");
  assert.equal(newStructural({ type: 'object', items: [{}] }).error, "OpenAPIV3Schema 'items' must be a schema, but is an array");
  assert.equal(newStructural({ type: 'object', items: [] }).error, undefined);
  assert.equal(newStructural({ type: 'object', default: null }).structural.default, undefined);
});

test('a __proto__ property is an ordinary property', () => {
  const schema = JSON.parse('{"type":"object","properties":{"__proto__":{}}}');
  assert.deepEqual(pairs(schema), ['FieldValueRequired properties[__proto__].type']);
});

test('never throws on arbitrary JSON', () => {
  const weird: unknown[] = [
    null,
    1,
    'x',
    [],
    true,
    { type: 5 },
    { properties: 'x' },
    { properties: { a: null } },
    { items: 'x' },
    { allOf: 'x' },
    { anyOf: [null, 1] },
    { not: [] },
    { additionalProperties: 'x' },
    { required: 'x' },
    { enum: {} },
    { 'x-kubernetes-validations': {} },
    { pattern: 5 },
    { properties: { metadata: null } },
    { 'x-kubernetes-list-map-keys': [1, null] },
  ];
  for (const w of weird) assert.doesNotThrow(() => validateStructuralSchema(w as never), JSON.stringify(w));
  assert.deepEqual(pairs(null), ['FieldValueRequired type']);
});
