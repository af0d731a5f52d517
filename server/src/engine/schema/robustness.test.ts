/**
 * Editors feed half-typed schemas and objects: every entry point of the schema engine must answer,
 * never throw, and never change its inputs, whatever JSON it is given.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FieldPath } from '../field';
import { IntegralFloat } from '../json/lossless';
import { defaultCustomResource } from '../defaulting/algorithm';
import { validateDefaults } from '../defaulting/validation';
import { pruneUnknownFields } from '../pruning/algorithm';
import { coerceObjectMeta } from '../pruning/objectmeta';
import { newStructural, validateStructuralSchema } from './structural';
import { deepCopyJSON } from '../json/values';

function rng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}

const KEYS = [
  'type',
  'properties',
  'items',
  'additionalProperties',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'default',
  'nullable',
  'required',
  'enum',
  'pattern',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-validations',
  '$ref',
  'metadata',
  'kind',
  'apiVersion',
  'name',
  'labels',
  'creationTimestamp',
  '__proto__',
];
const SCALARS: unknown[] = [null, true, false, 0, 1, -1.5, new IntegralFloat(2), 2n ** 64n, '', 'object', 'array', 'string', 'integer', '(', '2024-01-01T00:00:00Z'];

function value(r: () => number, depth: number): unknown {
  const c = r();
  if (depth <= 0 || c < 0.4) return SCALARS[Math.floor(r() * SCALARS.length)];
  if (c < 0.6) return Array.from({ length: Math.floor(r() * 3) }, () => value(r, depth - 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(r() * 5); i > 0; i--) Object.defineProperty(o, KEYS[Math.floor(r() * KEYS.length)], { value: value(r, depth - 1), enumerable: true, writable: true, configurable: true });
  return o;
}

test('no entry point throws or mutates its inputs on random JSON', () => {
  const r = rng(42);
  for (let i = 0; i < 400; i++) {
    const schema = value(r, 5);
    const obj = value(r, 5);
    const s0 = deepCopyJSON(schema);
    const o0 = deepCopyJSON(obj);
    const ctx = JSON.stringify({ i });
    for (const isResourceRoot of [true, false]) {
      assert.doesNotThrow(() => validateStructuralSchema(schema as never), ctx);
      assert.doesNotThrow(() => pruneUnknownFields(obj, schema as never, { isResourceRoot }), ctx);
      assert.doesNotThrow(() => coerceObjectMeta(obj, schema as never, { isResourceRoot }), ctx);
      assert.doesNotThrow(() => defaultCustomResource(obj, schema as never, { isResourceRoot }), ctx);
      assert.doesNotThrow(() => validateDefaults(FieldPath.root(), newStructural(schema).structural, schema, { isResourceRoot, requirePrunedDefaults: true }, { validateValue: () => [] }), ctx);
    }
    assert.deepStrictEqual(schema, s0, ctx);
    assert.deepStrictEqual(obj, o0, ctx);
  }
});

test('input nested too deeply for the stack gives an answer, not an exception', () => {
  let s: Record<string, unknown> = { type: 'string' };
  let o: unknown = 'x';
  for (let i = 0; i < 20000; i++) {
    s = { type: 'object', properties: { a: s } };
    o = { a: o };
  }
  const shallow = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  assert.equal(validateStructuralSchema(s as never)[0].type, 'InternalError');
  for (const schema of [s, shallow]) {
    for (const isResourceRoot of [true, false]) {
      assert.equal(pruneUnknownFields(o, schema as never, { isResourceRoot }).object, o);
      assert.equal(defaultCustomResource(o, schema as never, { isResourceRoot }).object, o);
      assert.equal(coerceObjectMeta(o, schema as never, { isResourceRoot }).object, o);
    }
  }
  assert.doesNotThrow(() => validateDefaults(FieldPath.root(), newStructural(s).structural, s, { isResourceRoot: true, requirePrunedDefaults: true }, { validateValue: () => [] }));
});
