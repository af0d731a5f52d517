import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { errorMessage } from '../field';
import { parseJSONLossless } from '../json/lossless';
import type { JSONSchemaProps } from '../schema/types';
import { validateCustomResourceValue } from '../customresource/value';
import { formatGoFloat } from '../json/go';
import { formatChecker } from './formats';
import { validateAgainstSchema } from './schema';

const J = (s: string) => parseJSONLossless(s, { markIntegralFloats: true });
const run = (schema: unknown, obj: string, oldObject?: string) =>
  validateCustomResourceValue(J(obj), schema as JSONSchemaProps, { isResourceRoot: false, oldObject: oldObject === undefined ? undefined : J(oldObject) })
    .map(errorMessage)
    .sort();

test('additionalProperties keys print with a dot, and with a leading dot in the message at the root', () => {
  assert.deepEqual(run({ type: 'object', additionalProperties: { type: 'string' } }, '{"k":1}'), ['k: Invalid value: "integer": .k in body must be of type string: "integer"']);
  assert.deepEqual(run({ type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'string' } } } }, '{"m":{"k":1}}'), [
    'm.k: Invalid value: "integer": m.k in body must be of type string: "integer"',
  ]);
});

test('an integral float passes type integer; a fractional one also fails the path-less range check', () => {
  const s = { type: 'object', properties: { i: { type: 'integer' } } };
  assert.deepEqual(run(s, '{"i":2.0}'), []);
  assert.deepEqual(run(s, '{"i":1.5}'), ['<nil>: Invalid value: "": Checked value must be of type integer (default format) in i', 'i: Invalid value: "number": i in body must be of type integer: "number"']);
});

test('int32 format: overflow is a path-less range error; a float gets the format as type name', () => {
  const s = { type: 'object', properties: { i: { type: 'integer', format: 'int32' } } };
  assert.deepEqual(run(s, '{"i":2147483648}'), ['<nil>: Invalid value: "": Checked value must be of type integer with format int32 in i']);
  assert.ok(run(s, '{"i":1.5}').includes('i: Invalid value: "float64": i in body must be of type int32: "float64"'));
});

test('anyOf reports the first best failing branch (ties keep the first), plus the path-less composite message', () => {
  const s = {
    type: 'object',
    properties: { o: { type: 'object', properties: { a: { type: 'integer' } }, anyOf: [{ required: ['a'] }, { required: ['b'] }] } },
  };
  assert.deepEqual(run(s, '{"o":{"b":1}}'), []);
  assert.deepEqual(run(s, '{"o":{}}'), ['<nil>: Invalid value: "": "o" must validate at least one schema (anyOf)', 'o.a: Required value']);
});

test('enum: null never matches, numbers compare after conversion to the enum value type', () => {
  const s = { type: 'object', properties: { e: { nullable: true, enum: [1, 'a', null] } } };
  assert.deepEqual(run(s, '{"e":1.0}'), []);
  assert.deepEqual(run(s, '{"e":null}'), ['e: Unsupported value: null: supported values: "1", "a", "null"']);
  assert.deepEqual(run(s, '{"e":"b"}'), ['e: Unsupported value: "b": supported values: "1", "a", "null"']);
});

test('list-type set: only the second occurrence of a value is a duplicate; 1 and 1.0 differ as scalars', () => {
  const s = { type: 'object', properties: { l: { type: 'array', items: {}, 'x-kubernetes-list-type': 'set' } } };
  assert.deepEqual(run(s, '{"l":["a","a","a"]}'), ['l[1]: Duplicate value: "a"']);
  assert.deepEqual(run(s, '{"l":[1,1.0]}'), []);
  // ratcheting: an old object that already violates the list types suppresses the new errors
  assert.deepEqual(run(s, '{"l":["a","a"]}', '{"l":["b","b"]}'), []);
});

test('embedded resources need apiVersion and kind; metadata names are path segments', () => {
  const s = { type: 'object', properties: { r: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } } };
  assert.deepEqual(run(s, '{"r":{}}'), ['r.apiVersion: Required value', 'r.kind: Required value']);
  assert.deepEqual(run(s, '{"r":{"apiVersion":"v1","kind":"Pod","metadata":{"name":".."}}}'), ['r.metadata.name: Invalid value: "..": may not be \'..\'']);
});

test('Go %v of float64 and the string formats', () => {
  assert.equal(formatGoFloat(1e7), '1e+07');
  assert.equal(formatGoFloat(123456), '123456');
  assert.equal(formatGoFloat(0.00001), '1e-05');
  assert.equal(formatGoFloat(1.5), '1.5');
  const date = formatChecker('date')!;
  assert.equal(date('2024-02-29'), true);
  assert.equal(date('2023-02-29'), false);
  assert.equal(formatChecker('duration')!('3 days'), true);
  assert.equal(formatChecker('duration')!('1h30m'), true);
  assert.equal(formatChecker('duration')!('5x'), false);
  assert.equal(formatChecker('ipv4')!('::ffff:1.2.3.4'), true);
  assert.equal(formatChecker('int32'), undefined);
});

test('ratcheting: errors of values unchanged from the correlated old value are dropped', () => {
  const s = {
    type: 'object',
    properties: {
      a: { type: 'integer', maximum: 5 },
      lm: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', properties: { k: { type: 'string' }, v: { type: 'integer', maximum: 1 } } } },
      la: { type: 'array', items: { type: 'integer', maximum: 1 } },
    },
  };
  assert.deepEqual(run(s, '{"a":9}', '{"a":9}'), []);
  assert.deepEqual(run(s, '{"a":8}', '{"a":9}'), ['a: Invalid value: 8: a in body should be less than or equal to 5']);
  // list-map items correlate by key, whatever their position
  assert.deepEqual(run(s, '{"lm":[{"k":"b","v":0},{"k":"a","v":3}]}', '{"lm":[{"k":"a","v":3}]}'), []);
  // atomic list items do not correlate: a changed list reports all its items
  assert.deepEqual(run(s, '{"la":[3,0]}', '{"la":[3]}'), ['la[0]: Invalid value: 3: la[0] in body should be less than or equal to 1']);
});

test('the CEL-skipped message comes only with rules in the schema and a blocking error', () => {
  const withRule = { type: 'object', properties: { s: { type: 'string', maxLength: 2 } }, 'x-kubernetes-validations': [{ rule: 'true' }] };
  assert.deepEqual(
    run(withRule, '{"s":"abc"}'),
    ['<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation', 's: Too long: may not be more than 2 bytes'].sort(),
  );
  const noRule = { type: 'object', properties: { s: { type: 'string', maxLength: 2 } } };
  assert.equal(run(noRule, '{"s":"abc"}').length, 1);
});

test('junctor messages: not, oneOf with none valid, allOf with none validated; additionalProperties false', () => {
  const s = {
    type: 'object',
    properties: {
      n: { type: 'string', not: { enum: ['bad'] } },
      o: { type: 'integer', oneOf: [{ minimum: 10 }, { maximum: -10 }] },
      a: { type: 'string', allOf: [{ minLength: 5 }, { pattern: '^x' }] },
      f: { type: 'object', additionalProperties: false },
    },
  };
  assert.deepEqual(run(s, '{"n":"bad","o":0,"a":"ab","f":{"k":1}}'), [
    '<nil>: Invalid value: "": "a" must validate all the schemas (allOf). None validated',
    '<nil>: Invalid value: "": "n" must not validate the schema (not)',
    '<nil>: Invalid value: "": "o" must validate one and only one schema (oneOf). Found none valid',
    'a: Invalid value: "ab": a in body should be at least 5 chars long',
    'a: Invalid value: "ab": a in body should match \'^x\'',
    'f: Invalid value: "k": f.k in body is a forbidden property',
    'o: Invalid value: 0: o in body should be greater than or equal to 10',
  ]);
});

test('an invalid pattern is reported with Go regexp error text', () => {
  assert.deepEqual(run({ type: 'object', properties: { s: { type: 'string', pattern: '(' } } }, '{"s":"x"}'), [
    's: Invalid value: "x": s in body should match \'(, but pattern is invalid: error parsing regexp: missing closing ): `(`\'',
  ]);
});

test('MAC addresses as Go 1.26 net.ParseMAC reads them', () => {
  const mac = formatChecker('mac')!;
  for (const ok of ['00:11:22:33:44:55', '00-11-22-33-44-55', '0011.2233.4455', '001122334455', '0011223344556677']) assert.equal(mac(ok), true, ok);
  for (const bad of ['00:11:22:33:44', '00:11-22:33:44:55', '0011223344', '00112233445g']) assert.equal(mac(bad), false, bad);
});

test('never throws on malformed schemas or values', () => {
  const junk: unknown[] = [null, 1, 'x', [], {}, { type: 5 }, { properties: 3 }, { items: [1] }, { enum: 'a' }, { pattern: 7 }, { allOf: {} }, { required: 'a' }];
  const values: unknown[] = [null, 0, 1.5, 'x', [1, { a: null }], { a: [null] }, 10n ** 30n];
  for (const s of junk) {
    for (const v of values) {
      assert.doesNotThrow(() => validateCustomResourceValue(v, s as JSONSchemaProps, { isResourceRoot: true, oldObject: v }));
      assert.doesNotThrow(() => validateCustomResourceValue(v, { type: 'object', properties: { a: s as JSONSchemaProps } }, { isResourceRoot: false }));
    }
  }
});

test('error paths as kube-openapi spells them, with their segments, in its order, through every kind of step', () => {
  const s = {
    type: 'object',
    properties: {
      a: { type: 'array', items: { type: 'object', additionalProperties: { type: 'object', required: ['r'], properties: { n: { type: 'integer', maximum: 1 } } } } },
      d: { type: 'object', dependencies: { x: { required: ['y'] } } },
    },
    additionalProperties: { type: 'string' },
  };
  const r = validateAgainstSchema(s as JSONSchemaProps, J('{"a":[{},{"k":{"n":2}}],"d":{"x":1},"top":1}'));
  assert.deepEqual(
    r.errors.map((e) => [e.name, JSON.stringify(e.segments), e.message]),
    [
      ['.top', '[{"kind":"key","key":"top"}]', '.top in body must be of type string: "integer"'],
      ['a[1].k.n', '[{"kind":"field","name":"a"},{"kind":"index","index":1},{"kind":"key","key":"k"},{"kind":"field","name":"n"}]', 'a[1].k.n in body should be less than or equal to 1'],
      ['a[1].k.r', '[{"kind":"field","name":"a"},{"kind":"index","index":1},{"kind":"key","key":"k"},{"kind":"field","name":"r"}]', 'a[1].k.r in body is required'],
      ['d.x.y', '[{"kind":"field","name":"d"},{"kind":"field","name":"x"},{"kind":"field","name":"y"}]', 'd.x.y in body is required'],
    ],
  );
  // The path starts again at the root for the next call.
  assert.deepEqual(
    validateAgainstSchema({ type: 'string' }, 1).errors.map((e) => [e.name, e.segments]),
    [['', undefined]],
  );
});

test('properties report in the schema order, whatever the order of the value and however many properties the schema has', () => {
  for (const count of [3, 32, 33, 64, 65, 70]) {
    const properties = Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, { type: 'string' }]));
    const set = [count - 1, 0, 31, 32, count >> 1].filter((i) => i < count);
    const value = Object.fromEntries([['other', 1], ...set.map((i) => [`p${i}`, i])]);
    const names = validateAgainstSchema({ type: 'object', properties }, value).errors.map((e) => e.name);
    assert.deepEqual(
      names,
      [...new Set(set)].sort((a, b) => a - b).map((i) => `p${i}`),
      `${count} properties`,
    );
  }
});

test('a Quantity-like oneOf: the branches after one passed leave nothing behind, the errors after them keep their path', () => {
  const s = { type: 'object', properties: { q: { oneOf: [{ type: 'string' }, { type: 'number' }], pattern: '^[0-9]+$', not: { enum: ['13'] } } } };
  assert.deepEqual(run(s, '{"q":"12"}'), []);
  assert.deepEqual(run(s, '{"q":"x"}'), ['q: Invalid value: "x": q in body should match \'^[0-9]+$\'']);
  assert.deepEqual(run(s, '{"q":"13"}'), ['<nil>: Invalid value: "": "q" must not validate the schema (not)']);
  assert.deepEqual(run(s, '{"q":true}'), ['<nil>: Invalid value: "": "q" must validate one and only one schema (oneOf). Found none valid', 'q: Invalid value: "boolean": q in body must be of type string: "boolean"']);
});

test('enum: a string matches only an equal string; an int converts to the string of its rune', () => {
  const s = (values: unknown[]) => ({ type: 'object', properties: { e: { enum: values } } });
  assert.deepEqual(run(s(['a', 'b']), '{"e":"b"}'), []);
  assert.deepEqual(run(s([49, null]), '{"e":"1"}'), ['e: Unsupported value: "1": supported values: "49", "null"']);
  assert.deepEqual(run(s(['1']), '{"e":49}'), []);
});
