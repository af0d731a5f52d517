import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IntegralFloat } from '../json/lossless';
import { defaultCustomResource } from './algorithm';

const run = (obj: unknown, schema: unknown) => defaultCustomResource(obj, schema as never, { isResourceRoot: false });

test('null handling: nullable keeps null, non-nullable null gets the default or is dropped; array nulls stay', () => {
  const schema = {
    type: 'object',
    properties: {
      n: { type: 'string', nullable: true, default: 'd' },
      d: { type: 'string', default: 'd' },
      x: { type: 'string' },
      p: { 'x-kubernetes-preserve-unknown-fields': true },
      l: { type: 'array', items: { type: 'string' } },
      ld: { type: 'array', items: { type: 'string', default: 'i' } },
      m: { type: 'object', additionalProperties: { type: 'string', default: 'a' } },
      free: { type: 'object', additionalProperties: true },
    },
  };
  const input = { n: null, d: null, x: null, p: null, l: [null], ld: [null, 'v'], m: { k: null }, free: { k: null } };
  const r = run(input, schema);
  assert.deepEqual(r.object, { n: null, d: 'd', l: [null], ld: ['i', 'v'], m: { k: 'a' }, free: { k: null } });
  assert.deepEqual(input.x, null, 'input untouched');
  assert.deepEqual(
    r.defaulted.map((f) => [f.path, f.action]).sort(),
    [
      ['d', 'default'],
      ['ld[0]', 'default'],
      ['m.k', 'default'],
      ['p', 'null removed'],
      ['x', 'null removed'],
    ].sort(),
  );
});

test('defaults nest into defaulted values, never create absent parents, never replace zero values', () => {
  const schema = {
    type: 'object',
    properties: {
      a: { type: 'object', default: {}, properties: { b: { type: 'integer', default: 1 } } },
      c: { type: 'object', properties: { d: { type: 'integer', default: 2 } } },
      z: { type: 'string', default: 'z' },
      o: { type: 'object', default: { q: 1 }, properties: { q: { type: 'integer' }, r: { type: 'integer', default: 3 } } },
    },
  };
  assert.deepEqual(run({ z: '', o: {} }, schema).object, { a: { b: 1 }, z: '', o: { r: 3 } });
});

test('default values are deep-copied and keep int/float apart', () => {
  const dflt = { list: [new IntegralFloat(1)] };
  const schema = { type: 'object', properties: { a: { type: 'object', default: dflt }, b: { type: 'object', default: dflt } } };
  const r = run({}, schema).object as Record<string, { list: unknown[] }>;
  assert.notEqual(r.a, dflt);
  assert.notEqual(r.a, r.b);
  assert.ok(r.a.list[0] instanceof IntegralFloat);
});

test('never throws on arbitrary JSON', () => {
  for (const schema of [null, 5, 'x', [], { properties: { a: null } }, { items: 1 }, { additionalProperties: 'x' }, { properties: { a: { default: null } } }]) {
    for (const obj of [null, 1, 'x', [null], { a: null }, { a: [null] }]) assert.doesNotThrow(() => run(obj, schema));
  }
});

test('pruneDefaults option: metadata defaults lose unknown ObjectMeta keys, as the API server serves them', () => {
  const schema = {
    type: 'object',
    properties: {
      e: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { metadata: { type: 'object', default: { name: 'Bar', unknown: 'u' } } } },
      s: { type: 'object', properties: { x: { type: 'string' } }, default: { x: 'a' } },
    },
  };
  const plain = defaultCustomResource({ e: {} }, schema as never, { isResourceRoot: true }).object;
  const served = defaultCustomResource({ e: {} }, schema as never, { isResourceRoot: true, pruneDefaults: true }).object;
  assert.deepEqual(plain, { e: { metadata: { name: 'Bar', unknown: 'u' } }, s: { x: 'a' } });
  assert.deepEqual(served, { e: { metadata: { name: 'Bar' } }, s: { x: 'a' } });
});
