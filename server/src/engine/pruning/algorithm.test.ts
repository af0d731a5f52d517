import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IntegralFloat } from '../json/lossless';
import { pruneUnknownFields } from './algorithm';
import { coerceObjectMeta } from './objectmeta';

test('prunes a copy and reports removed paths with reasons, sorted', () => {
  const schema = {
    type: 'object',
    properties: {
      spec: { type: 'object', properties: { a: { type: 'string' }, l: { type: 'array', items: { type: 'object', properties: { x: { type: 'integer' } } } } } },
      free: { type: 'object', additionalProperties: true },
      emb: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'string' } } },
    },
  };
  const input = { apiVersion: 'v', kind: 'K', metadata: { name: 'n', junk: 1 }, spec: { a: 'x', b: 1, l: [{ x: 1, y: 2 }] }, free: { k: { deep: 1 } }, emb: { kind: 'K', other: 1 }, top: 1 };
  const before = structuredClone(input);
  const r = pruneUnknownFields(input, schema, { isResourceRoot: true });
  assert.deepEqual(input, before, 'input untouched');
  assert.deepEqual(r.object, { apiVersion: 'v', kind: 'K', metadata: { name: 'n', junk: 1 }, spec: { a: 'x', l: [{ x: 1 }] }, free: { k: {} }, emb: { kind: 'K' } });
  assert.deepEqual(
    r.pruned.map((p) => [p.path, p.reason]),
    [
      ['emb.other', 'unknown field in embedded resource'],
      ['free.k.deep', 'no schema below additionalProperties or items'],
      ['spec.b', 'unknown field'],
      ['spec.l[0].y', 'unknown field'],
      ['top', 'unknown field'],
    ],
  );
  assert.deepEqual(r.pruned[3].segments, [
    { kind: 'field', name: 'spec' },
    { kind: 'field', name: 'l' },
    { kind: 'index', index: 0 },
    { kind: 'field', name: 'y' },
  ]);
});

test('share: the same result as a copy, the input itself where nothing is pruned, unchanged parts shared', () => {
  const schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: { a: { type: 'string' }, l: { type: 'array', items: { type: 'object', properties: { x: { type: 'integer' } } } }, m: { type: 'object', properties: { k: { type: 'string' } } } },
      },
      free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { p: { type: 'object', properties: { q: { type: 'string' } } } } },
    },
  };
  const clean = { apiVersion: 'v', kind: 'K', metadata: { name: 'n' }, spec: { a: 'x', l: [{ x: 1 }, { x: 2 }], m: { k: 'v' } }, free: { any: { deep: 1 }, p: { q: 's' } } };
  const same = pruneUnknownFields(clean, schema, { isResourceRoot: true, dropNulls: true, share: true });
  assert.equal(same.object, clean, 'nothing pruned: the input itself');
  assert.deepEqual(same.pruned, []);
  const dirty = { apiVersion: 'v', kind: 'K', metadata: { name: 'n' }, spec: { a: 'x', l: [{ x: 1 }, { x: 2, y: 3 }], m: { k: 'v' }, z: null }, free: { any: { deep: 1 }, p: { q: 's', r: 1 } }, top: 1 };
  const before = structuredClone(dirty);
  const shared = pruneUnknownFields(dirty, schema, { isResourceRoot: true, dropNulls: true, share: true });
  const copied = pruneUnknownFields(dirty, schema, { isResourceRoot: true, dropNulls: true });
  assert.deepEqual(dirty, before, 'input untouched');
  assert.deepEqual(shared.object, copied.object);
  assert.deepEqual(Object.keys(shared.object as object), Object.keys(copied.object as object), 'keys in the same order');
  assert.deepEqual(shared.pruned, copied.pruned);
  assert.deepEqual(
    shared.pruned.map((p) => p.path),
    ['free.p.r', 'spec.l[1].y', 'top'],
  );
  const o = shared.object as typeof dirty;
  assert.notEqual(o, dirty);
  assert.equal(o.spec.m, dirty.spec.m, 'an unchanged map is shared');
  assert.equal(o.spec.l[0], dirty.spec.l[0], 'an unchanged list item is shared');
  assert.notEqual(o.spec.l, dirty.spec.l, 'a list with a pruned item is new');
  assert.equal(o.free.any, dirty.free.any, 'kept under preserve-unknown-fields: shared');
  assert.ok(!('z' in o.spec), 'null field dropped');
  assert.notEqual(copied.object && (copied.object as typeof dirty).spec.m, dirty.spec.m, 'without share: a copy');
});

test('dropNulls: null fields are dropped at any depth, neither kept nor reported; nulls in arrays stay', () => {
  const schema = {
    type: 'object',
    properties: {
      spec: { type: 'object', properties: { a: { type: 'string' }, l: { type: 'array', items: { type: 'object', properties: { x: { type: 'integer' } } } } } },
      free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      m: { type: 'object', additionalProperties: { type: 'object' } },
    },
  };
  const input = { metadata: { name: 'n', labels: null, x: { y: null } }, spec: { a: null, b: null, l: [null, { x: null, y: null }] }, free: { k: { deep: null, keep: [null] } }, m: { k: { z: null } }, top: null };
  const before = structuredClone(input);
  const r = pruneUnknownFields(input, schema, { isResourceRoot: true, dropNulls: true });
  assert.deepEqual(input, before, 'input untouched');
  assert.deepEqual(r.object, { metadata: { name: 'n', x: {} }, spec: { l: [null, {}] }, free: { k: { keep: [null] } }, m: { k: {} } });
  assert.deepEqual(r.pruned, []);
  // Without it nulls are values like any other: kept where known, reported where not.
  const kept = pruneUnknownFields(input, schema, { isResourceRoot: true });
  assert.deepEqual(
    kept.pruned.map((p) => p.path),
    ['m.k.z', 'spec.b', 'spec.l[1].y', 'top'],
  );
});

test('preserve-unknown-fields passes on to array items but not to properties', () => {
  const schema = {
    type: 'object',
    properties: {
      arr: { type: 'array', 'x-kubernetes-preserve-unknown-fields': true, items: { type: 'object', properties: { p: { type: 'object', properties: {} } } } },
      obj: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { p: { type: 'object' } } },
    },
  };
  const r = pruneUnknownFields({ arr: [{ u: 1, p: { q: 1 } }], obj: { u: 1, p: { q: 1 } } }, schema, { isResourceRoot: false });
  assert.deepEqual(r.object, { arr: [{ u: 1, p: {} }], obj: { u: 1, p: {} } });
});

test('below a non-embedded root, apiVersion/kind/metadata are ordinary fields', () => {
  const r = pruneUnknownFields({ apiVersion: 'v', spec: { kind: 'x' } }, { type: 'object', properties: { spec: { type: 'object' } } }, { isResourceRoot: false });
  assert.deepEqual(r.object, { spec: {} });
});

test('keeps scalars as they are (IntegralFloat, bigint) and never throws on odd input', () => {
  const f = new IntegralFloat(1);
  const r = pruneUnknownFields({ a: f, b: 2n ** 70n }, { type: 'object', properties: { a: { type: 'number' }, b: { type: 'integer' } } }, { isResourceRoot: false });
  assert.equal((r.object as Record<string, unknown>).a, f);
  assert.equal((r.object as Record<string, unknown>).b, 2n ** 70n);
  for (const schema of [null, 5, 'x', [], { properties: 7 }, { items: [1] }]) {
    for (const obj of [null, 1, 'x', [null, [1]], { a: { b: [] } }]) {
      assert.doesNotThrow(() => pruneUnknownFields(obj, schema as never, { isResourceRoot: true }));
    }
  }
});

test('a __proto__ key is pruned like any other key and does not alter prototypes', () => {
  const obj = JSON.parse('{"__proto__":{"polluted":1},"a":1}');
  const r = pruneUnknownFields(obj, JSON.parse('{"type":"object","properties":{"__proto__":{"type":"object"},"a":{"type":"integer"}}}'), { isResourceRoot: false });
  assert.deepEqual(Object.keys(r.object as object), ['__proto__', 'a']);
  assert.equal(Object.getPrototypeOf(r.object), Object.prototype);
});

test('coerceObjectMeta drops unknown and empty metadata fields at the root and in embedded resources', () => {
  const schema = { type: 'object', properties: { spec: { type: 'object', properties: { tpl: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } } } } };
  const obj = {
    metadata: { name: 'n', Name: 'x', junk: { a: 1 }, labels: {}, generation: 0, creationTimestamp: '2024-01-01T01:00:00+01:00', ownerReferences: [{ name: 'o', extra: 1 }] },
    spec: { tpl: { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'ns', bogus: true }, spec: { bogus: 1 } } },
  };
  const r = coerceObjectMeta(obj, schema, { isResourceRoot: true });
  assert.equal(r.error, undefined);
  assert.deepEqual(r.object, {
    metadata: { name: 'n', creationTimestamp: '2024-01-01T00:00:00Z', ownerReferences: [{ apiVersion: '', kind: '', name: 'o', uid: '' }] },
    spec: { tpl: { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'ns' }, spec: { bogus: 1 } } },
  });
  assert.deepEqual(
    r.pruned.map((p) => p.path),
    ['metadata.Name', 'metadata.junk', 'metadata.ownerReferences[0].extra', 'spec.tpl.metadata.bogus'],
  );
});

test('coerceObjectMeta reports Go decoding errors, or drops the field when asked', () => {
  const schema = { type: 'object', properties: { e: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } } };
  const bad = { e: { kind: 5, metadata: {} } };
  const r = coerceObjectMeta(bad, schema, { isResourceRoot: false });
  assert.equal(r.error?.field, 'e.kind');
  assert.equal(r.error?.detail, 'must be a string');
  const m = coerceObjectMeta({ e: { metadata: { labels: { a: 1 } } } }, schema, { isResourceRoot: false });
  assert.equal(m.error?.field, 'e.metadata');
  assert.equal(m.error?.detail, 'json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string');
  const d = coerceObjectMeta({ e: { metadata: { labels: { a: 1 }, name: 'x' } } }, schema, { isResourceRoot: false, dropInvalidFields: true });
  assert.equal(d.error, undefined);
  assert.deepEqual(d.object, { e: { metadata: { name: 'x' } } });
});

test('coerceObjectMeta: timestamps as Go parses RFC 3339 (messages checked against the Go oracle)', () => {
  const schema = { type: 'object', properties: { e: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } } };
  const ts = (t: string) => coerceObjectMeta({ e: { metadata: { creationTimestamp: t } } }, schema, { isResourceRoot: false });
  assert.deepEqual(ts('2024-02-29T00:30:00.5+01:00').object, { e: { metadata: { creationTimestamp: '2024-02-28T23:30:00Z' } } });
  const cases: Array<[string, string]> = [
    ['2024-1-01T00:00:00Z', 'parsing time "2024-1-01T00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse "1-01T00:00:00Z" as "01"'],
    ['2023-02-29T00:00:00Z', 'parsing time "2023-02-29T00:00:00Z": day out of range'],
    ['2024-01-01t00:00:00z', 'parsing time "2024-01-01t00:00:00z" as "2006-01-02T15:04:05Z07:00": cannot parse "t00:00:00z" as "T"'],
    ['2024-01-01T00:00:00+0100', 'parsing time "2024-01-01T00:00:00+0100" as "2006-01-02T15:04:05Z07:00": cannot parse "+0100" as "Z07:00"'],
    ['2024-01-01T00:00:00Zjunk', 'parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk"'],
  ];
  for (const [t, msg] of cases) assert.equal(ts(t).error?.detail, msg, t);
});

test('coerceObjectMeta: errorText is what the decoder returns (bare message for the root metadata)', () => {
  const root = coerceObjectMeta({ metadata: { uid: 1 } }, { type: 'object' }, { isResourceRoot: true });
  assert.equal(root.errorText, 'json: cannot unmarshal number into Go struct field ObjectMeta.uid of type types.UID');
  const schema = { type: 'object', properties: { e: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } } };
  const emb = coerceObjectMeta({ e: { metadata: 'x' } }, schema, { isResourceRoot: true });
  assert.equal(emb.errorText, 'e.metadata: Invalid value: "x": json: cannot unmarshal string into Go value of type v1.ObjectMeta');
});

test('coerceObjectMeta: a metav1.Time error wins over an earlier type mismatch (encoding/json order)', () => {
  const r = coerceObjectMeta({ metadata: { annotations: 0, deletionTimestamp: 'ok', labels: 1 } }, { type: 'object' }, { isResourceRoot: true });
  assert.equal(r.errorText, 'parsing time "ok" as "2006-01-02T15:04:05Z07:00": cannot parse "ok" as "2006"');
  const s = coerceObjectMeta({ metadata: { labels: 1, annotations: 0 } }, { type: 'object' }, { isResourceRoot: true });
  assert.equal(s.errorText, 'json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type map[string]string');
});

test('coerceObjectMeta share: the same result, the root copied and the rest shared unless an embedded resource is below', () => {
  const input = { apiVersion: 'v', kind: 'K', metadata: { name: 'n', junk: 1, labels: { b: '2', a: '1' } }, spec: { x: { y: 1 } } };
  const before = structuredClone(input);
  const shared = coerceObjectMeta(input, {}, { isResourceRoot: true, share: true });
  const copied = coerceObjectMeta(input, {}, { isResourceRoot: true });
  assert.deepEqual(input, before, 'input untouched');
  assert.deepEqual(shared, copied);
  assert.deepEqual(Object.keys((shared.object as typeof input).metadata.labels), ['a', 'b'], 'labels in Go order');
  assert.equal((shared.object as typeof input).spec, input.spec, 'below the root: shared');
  assert.notEqual((copied.object as typeof input).spec, input.spec, 'without share: a copy');
  const withEmbedded = { type: 'object', properties: { spec: { type: 'object', properties: { x: { type: 'object', 'x-kubernetes-embedded-resource': true } } } } };
  const emb = { apiVersion: 'v', kind: 'K', metadata: { name: 'n' }, spec: { x: { apiVersion: 'w', kind: 'L', metadata: { name: 'm', junk: 1 } } } };
  const embBefore = structuredClone(emb);
  const r = coerceObjectMeta(emb, withEmbedded, { isResourceRoot: true, share: true });
  assert.deepEqual(emb, embBefore, 'an embedded resource below: the input is not changed');
  assert.deepEqual(r, coerceObjectMeta(emb, withEmbedded, { isResourceRoot: true }));
  assert.deepEqual(
    r.pruned.map((p) => p.path),
    ['spec.x.metadata.junk'],
  );
});
