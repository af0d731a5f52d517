import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CEL_SKIPPED_MESSAGE, hasCelValidator, validateCustomResourceValue } from './value';
import { errorMessage } from '../field';
import { correlatedDeepEqual } from '../validation/ratcheting';
import type { JSONSchemaProps } from '../schema/types';

const rule = (extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'string', 'x-kubernetes-validations': [{ rule: 'self.size() > 1' }], ...extra });
const enumB: JSONSchemaProps = { type: 'string', enum: ['x'] };

test('hasCelValidator: rules count only where the validator reaches them (typed spine)', () => {
  assert.equal(hasCelValidator({ type: 'object', properties: { a: rule() } }, false), true);
  // Untyped root: no CEL type, so no validator below it.
  assert.equal(hasCelValidator({ properties: { a: rule() } }, false), false);
  // Below a preserve-unknown-fields node without type.
  assert.equal(hasCelValidator({ type: 'object', properties: { a: { 'x-kubernetes-preserve-unknown-fields': true, properties: { c: rule() } } } }, false), false);
  // Unescapable property names get their own type.
  assert.equal(hasCelValidator({ type: 'object', properties: { 'a-b': { type: 'object', properties: { c: rule() } } } }, false), true);
  assert.equal(hasCelValidator({ type: 'object', properties: { a: { type: 'array', items: rule() } } }, false), true);
  assert.equal(hasCelValidator({ type: 'object', properties: { b: enumB } }, false), false);
});

test('the skipped-rules error needs a reachable rule, whether or not the object has the field', () => {
  const run = (schema: JSONSchemaProps) => validateCustomResourceValue({ b: 'y' }, schema, { isResourceRoot: false }).map(errorMessage);
  assert.deepEqual(run({ type: 'object', properties: { a: rule(), b: enumB } }), ['b: Unsupported value: "y": supported values: "x"', `<nil>: Invalid value: null: ${CEL_SKIPPED_MESSAGE}`]);
  assert.deepEqual(run({ properties: { a: rule(), b: enumB } }), ['b: Unsupported value: "y": supported values: "x"']);
  // And an untyped root runs no rule at all.
  assert.deepEqual(validateCustomResourceValue({ a: 'y' }, { properties: { a: rule() } }, { isResourceRoot: false }), []);
});

test('correlatedDeepEqual: undeclared keys never correlate (CorrelatedObject.Key needs a schema)', () => {
  const root: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'integer' } } } } };
  const obj = { apiVersion: 'v1', kind: 'K', metadata: { name: 'w' }, spec: { a: 1 } };
  assert.equal(correlatedDeepEqual(obj, structuredClone(obj), root), false);
  assert.equal(correlatedDeepEqual(obj.spec, { a: 1 }, root.properties!.spec), true);
  assert.equal(correlatedDeepEqual(obj.spec, { a: 2 }, root.properties!.spec), false);
  const pu: JSONSchemaProps = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  assert.equal(correlatedDeepEqual({ x: 1 }, { x: 1 }, pu), false);
  assert.equal(correlatedDeepEqual({}, {}, pu), true);
});
