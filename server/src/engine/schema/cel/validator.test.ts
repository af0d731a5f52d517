import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateCelRules } from './validator';
import { errorMessage } from '../../field';
import type { JSONSchemaProps } from '../types';

const run = (schema: JSONSchemaProps, obj: unknown, oldObject?: unknown) => validateCelRules(schema, obj, { isResourceRoot: false, oldObject }).map((e) => errorMessage(e));

test('failing rules report message, default message, reason and fieldPath', () => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      n: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 1' }] },
      m: { type: 'object', additionalProperties: { type: 'string' } },
    },
    'x-kubernetes-validations': [
      { rule: 'self.n > 5', message: ' too small ', reason: 'FieldValueForbidden', fieldPath: '.n' },
      { rule: "'foo' in self.m", messageExpression: "'missing foo in ' + string(size(self.m)) + ' keys'", fieldPath: '.m.foo' },
    ],
  };
  assert.deepEqual(run(schema, { n: 1, m: { a: 'x' } }), ['n: Forbidden: too small', 'm[foo]: Invalid value: missing foo in 1 keys', 'n: Invalid value: 1: failed rule: self > 1']);
});

test('runtime errors are reported with the rule', () => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: { l: { type: 'array', items: { type: 'integer' } } },
    'x-kubernetes-validations': [{ rule: 'self.l[3] == 0' }, { rule: 'self.x == 1' }],
  };
  const errs = run({ ...schema, properties: { ...schema.properties, x: { type: 'integer' } } }, { l: [1] });
  assert.deepEqual(errs, ['<nil>: Invalid value: "object": index out of bounds: 3 evaluating rule: self.l[3] == 0', '<nil>: Invalid value: "object": no such key: x evaluating rule: self.x == 1']);
});

test('transition rules run only with an old value, correlated through list-type map keys', () => {
  const schema: JSONSchemaProps = {
    type: 'array',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['k'],
    items: {
      type: 'object',
      required: ['k'],
      properties: { k: { type: 'string' }, v: { type: 'integer' } },
      'x-kubernetes-validations': [{ rule: 'self.v >= oldSelf.v', message: 'v may not decrease' }],
    },
  };
  const wrap: JSONSchemaProps = { type: 'object', properties: { l: schema } };
  const now = {
    l: [
      { k: 'b', v: 1 },
      { k: 'a', v: 5 },
    ],
  };
  assert.deepEqual(run(wrap, now), []);
  assert.deepEqual(
    run(wrap, now, {
      l: [
        { k: 'a', v: 4 },
        { k: 'b', v: 2 },
      ],
    }),
    ['l[0]: Invalid value: v may not decrease'],
  );
});

test('ratcheting: unchanged invalid values do not fail non-transition rules', () => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: { s: { type: 'string', 'x-kubernetes-validations': [{ rule: "self.startsWith('a')" }] } },
  };
  assert.equal(run(schema, { s: 'b' }, { s: 'b' }).length, 0);
  assert.equal(run(schema, { s: 'b' }, { s: 'c' }).length, 1);
  assert.equal(validateCelRules(schema, { s: 'b' }, { isResourceRoot: false, oldObject: { s: 'b' }, ratcheting: false }).length, 1);
});

test('optionalOldSelf rules also run on create', () => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: { v: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'oldSelf.hasValue() ? self >= oldSelf.value() : self > 10', optionalOldSelf: true }] } },
  };
  assert.equal(run(schema, { v: 5 }).length, 1);
  assert.equal(run(schema, { v: 5 }, { v: 4 }).length, 0);
});

test('set and map lists compare without order and concatenate as unions', () => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: { s: { type: 'array', items: { type: 'integer' }, 'x-kubernetes-list-type': 'set' } },
    'x-kubernetes-validations': [{ rule: 'self.s == [2, 1]' }, { rule: 'self.s + [3, 1] == [1, 2, 3]' }, { rule: 'has(self.s) && [self][0].s.size() == 2' }],
  };
  assert.deepEqual(run(schema, { s: [1, 2] }), []);
});

test('resource roots expose only apiVersion, kind, metadata.name and generateName', () => {
  const schema: JSONSchemaProps = { type: 'object', 'x-kubernetes-validations': [{ rule: "self.metadata.name.startsWith('x')" }] };
  const errs = validateCelRules(schema, { apiVersion: 'v1', kind: 'K', metadata: { name: 'y', namespace: 'n' } }, { isResourceRoot: true });
  assert.deepEqual(
    errs.map((e) => [e.field, e.detail]),
    [['', "failed rule: self.metadata.name.startsWith('x')"]],
  );
});

test('optionalOldSelf: messageExpression sees oldSelf as the plain value, unbound without an old object', () => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: { a: { type: 'integer' } },
    'x-kubernetes-validations': [
      { rule: 'oldSelf.hasValue() ? self.a >= oldSelf.value().a : self.a > 100', optionalOldSelf: true, messageExpression: "oldSelf == oldSelf ? 'bound' : 'x'" },
      { rule: 'oldSelf.hasValue() ? self.a >= oldSelf.value().a : self.a > 100', optionalOldSelf: true, messageExpression: "oldSelf.hasValue() ? 'optional' : 'none'" },
    ],
  };
  // On update, the plain oldSelf: it is bound, optional methods fail on it (the message falls back).
  // (Answers checked against the API server's code through the test oracle.)
  assert.deepEqual(run(schema, { a: 1 }, { a: 5 }), ['<nil>: Invalid value: bound', '<nil>: Invalid value: failed rule: oldSelf.hasValue() ? self.a >= oldSelf.value().a : self.a > 100']);
  // On create, oldSelf is not bound for the messageExpression: both fall back.
  assert.deepEqual(run(schema, { a: 1 }), [
    '<nil>: Invalid value: failed rule: oldSelf.hasValue() ? self.a >= oldSelf.value().a : self.a > 100',
    '<nil>: Invalid value: failed rule: oldSelf.hasValue() ? self.a >= oldSelf.value().a : self.a > 100',
  ]);
});
