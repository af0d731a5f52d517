import { test } from 'node:test';
import assert from 'node:assert/strict';
import { schemaDeclType } from './model';
import { escapeName, assignTypeName, formatCelType, maxCardinality } from '../../cel/common/types';
import { toCelValue } from './unstructured';
import { IntegralFloat } from '../../json/lossless';
import { Timestamp } from '../../cel/runtime/values';

test('escapeName follows k8s cel.Escape', () => {
  assert.equal(escapeName('a-b.c/d'), 'a__dash__b__dot__c__slash__d');
  assert.equal(escapeName('a__b'), 'a__underscores__b');
  assert.equal(escapeName('namespace'), '__namespace__');
  assert.equal(escapeName('true'), '__true__');
  assert.equal(escapeName('self'), 'self');
  assert.equal(escapeName('1a'), undefined);
  assert.equal(escapeName('a@b'), undefined);
});

test('schemaDeclType: objects, maps, lists, formats, int-or-string, untyped', () => {
  const d = schemaDeclType(
    {
      type: 'object',
      properties: {
        l: { type: 'array', items: { type: 'string', maxLength: 10 }, maxItems: 3, 'x-kubernetes-list-type': 'set' },
        m: { type: 'object', additionalProperties: { type: 'integer' } },
        t: { type: 'string', format: 'date-time' },
        b: { type: 'string', format: 'byte' },
        d: { type: 'number' },
        ios: { 'x-kubernetes-int-or-string': true },
        any: { 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
    false,
  )!;
  const named = assignTypeName(d, 'self');
  const f = (n: string) => formatCelType(named.fields!.get(n)!.type.cel);
  assert.equal(f('l'), 'list(string)');
  assert.equal(f('m'), 'map(string, int)');
  assert.equal(f('t'), 'timestamp');
  assert.equal(f('b'), 'bytes');
  assert.equal(f('d'), 'double');
  assert.equal(f('ios'), 'dyn');
  assert.equal(named.fields!.has('any'), false);
  assert.equal(named.fields!.get('l')!.type.maxElements, 3);
  assert.equal(named.fields!.get('l')!.type.elemType!.maxElements, 40);
  assert.equal(formatCelType(named.cel), 'self');
});

test('resource roots get apiVersion, kind and capped metadata.name', () => {
  const d = schemaDeclType({ type: 'object', properties: { spec: { type: 'object' } } }, true)!;
  assert.deepEqual([...d.fields!.keys()].sort(), ['apiVersion', 'kind', 'metadata', 'spec']);
  assert.equal(d.fields!.get('metadata')!.type.fields!.get('name')!.type.maxElements, 253 * 4);
  assert.equal(maxCardinality(2), 1048576);
});

test('toCelValue types values by schema', () => {
  const v = toCelValue(
    { i: 1, n: 1, f: new IntegralFloat(2), s: null, 'a-b': 'x', t: '2020-01-01T00:00:00Z' },
    {
      type: 'object',
      properties: { i: { type: 'integer' }, n: { type: 'number' }, f: { type: 'number' }, s: { type: 'string' }, 'a-b': { type: 'string' }, t: { type: 'string', format: 'date-time' } },
    },
  ) as Map<string, unknown>;
  assert.equal(v.get('i'), 1n);
  assert.equal(v.get('n'), 1);
  assert.equal(v.get('f'), 2);
  assert.equal(v.has('s'), false);
  assert.equal(v.get('a__dash__b'), 'x');
  assert.ok(v.get('t') instanceof Timestamp);
});
