import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { errorMessage } from '../field';
import { validateCustomResource, CEL_SKIPPED_MESSAGE } from './strategy';
import { compareKubeAwareVersionStrings } from '../crd/versions';
import { crdObject } from '../../../../test/crd';

const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: { replicas: { type: 'integer', maximum: 5 }, mode: { type: 'string', enum: ['a', 'b'] } },
      'x-kubernetes-validations': [{ rule: 'true' }],
    },
    status: { type: 'object', properties: { ready: { type: 'boolean' } } },
  },
};
const crd = crdObject({
  schema,
  versions: [
    { name: 'v1alpha1', deprecated: true },
    { name: 'v1', storage: true, subresources: { status: {} } },
    { name: 'v2', served: false },
  ],
});
const cr = (apiVersion: string, extra: Record<string, unknown> = {}) => ({ apiVersion, kind: 'Widget', metadata: { name: 'w' }, ...extra });

test('a valid create: status dropped with the status subresource, unknown fields pruned', () => {
  const r = validateCustomResource(crd, cr('example.com/v1', { spec: { replicas: 1, extra: 1 }, status: { ready: true } }));
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.object, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { replicas: 1 } });
});

test('unknown and unserved versions are errors; a deprecated version warns with the default text', () => {
  assert.match(errorMessage(validateCustomResource(crd, cr('example.com/v3')).errors[0]), /version "v3" is not defined/);
  assert.match(errorMessage(validateCustomResource(crd, cr('example.com/v2')).errors[0]), /is not served/);
  const w = validateCustomResource(crd, cr('example.com/v1alpha1')).warnings;
  assert.equal(w[0].detail, 'example.com/v1alpha1 Widget is deprecated; use example.com/v1 Widget');
});

test('kind and name are checked at the root', () => {
  const errs = validateCustomResource(crd, { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'W_1' } }).errors.map(errorMessage);
  assert.ok(errs.includes('kind: Invalid value: "Gadget": must be Widget'));
  const errs2 = validateCustomResource(crd, cr('example.com/v1', { metadata: { name: 'W_1' } })).errors.map(errorMessage);
  assert.ok(errs2.some((m) => m.startsWith('metadata.name: Invalid value: "W_1": a lowercase RFC 1123 subdomain')));
});

test('a blocking error skips CEL with the one path-less message', () => {
  const errs = validateCustomResource(crd, cr('example.com/v1', { spec: { mode: 'c' } })).errors;
  assert.deepEqual(
    errs.map((e) => [e.type, e.field]),
    [
      ['FieldValueNotSupported', 'spec.mode'],
      ['FieldValueInvalid', ''],
    ],
  );
  assert.equal(errs[1].detail, CEL_SKIPPED_MESSAGE);
  // a non-blocking (Invalid) error does not
  assert.equal(validateCustomResource(crd, cr('example.com/v1', { spec: { replicas: 9 } })).errors.length, 1);
  // and without any rule in the schema nothing is said about CEL
  const noRules = structuredClone(crd);
  delete (noRules.spec.versions[1].schema.openAPIV3Schema.properties.spec as Record<string, unknown>)['x-kubernetes-validations'];
  assert.equal(validateCustomResource(noRules, cr('example.com/v1', { spec: { mode: 'c' } })).errors.length, 1);
});

test('bad input is reported, never thrown', () => {
  assert.equal(validateCustomResource('nope', {}).errors.length, 1);
  assert.equal(validateCustomResource(crd, 'a string').errors.length, 1);
  assert.equal(validateCustomResource(null, null).errors.length, 1);
});

test('kube-aware version order', () => {
  assert.ok(compareKubeAwareVersionStrings('v1', 'v1beta2') > 0);
  assert.ok(compareKubeAwareVersionStrings('v1beta1', 'v1alpha3') > 0);
  assert.ok(compareKubeAwareVersionStrings('v2', 'v10') < 0);
  assert.ok(compareKubeAwareVersionStrings('foo', 'v1alpha1') < 0);
});

test('an update: status kept from the old object, name immutable, unchanged invalid values ratcheted', () => {
  const old = cr('example.com/v1', { spec: { replicas: 9 }, status: { ready: true } });
  const same = validateCustomResource(crd, cr('example.com/v1', { spec: { replicas: 9 }, status: { ready: false } }), { oldObject: old });
  assert.deepEqual(same.errors, []);
  assert.deepEqual((same.object as Record<string, unknown>).status, { ready: true });
  const renamed = validateCustomResource(crd, { ...cr('example.com/v1', { spec: { replicas: 10 } }), metadata: { name: 'other' } }, { oldObject: old });
  assert.deepEqual(renamed.errors.map(errorMessage).sort(), ['metadata.name: Invalid value: "other": field is immutable', 'spec.replicas: Invalid value: 10: spec.replicas in body should be less than or equal to 5']);
});

test('finalizers added by the request that are not domain-qualified are warned about', () => {
  const r = validateCustomResource(crd, cr('example.com/v1', { metadata: { name: 'w', finalizers: ['cleanup', 'example.com/cleanup', 'kubernetes'] } }));
  assert.deepEqual(r.errors, []);
  assert.deepEqual(
    r.warnings.map((w) => [w.field, w.badValue, w.detail]),
    [['metadata.finalizers', 'cleanup', 'prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers']],
  );
  const old = cr('example.com/v1', { metadata: { name: 'w', finalizers: ['cleanup'] } });
  assert.deepEqual(validateCustomResource(crd, old, { oldObject: old }).warnings, []);
});

test('update: the old object is pruned and defaulted like the stored object before ratcheting', () => {
  const s = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: { n: { type: 'integer' }, name: { type: 'string', maxLength: 3, default: 'too-long' } },
        'x-kubernetes-validations': [{ rule: 'self.n >= 2' }],
      },
    },
  };
  const c = structuredClone(crd);
  c.spec.versions = [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: s } }] as never;
  const body = cr('example.com/v1', { spec: { n: 1 } });
  // Unchanged once the old object's unknown field is pruned and its default applied: both ratchet.
  assert.deepEqual(validateCustomResource(c, body, { oldObject: cr('example.com/v1', { spec: { n: 1, unknown: {} } }) }).errors, []);
  // A real change is still validated (the defaulted name is unchanged, so it stays ratcheted).
  const changed = validateCustomResource(c, body, { oldObject: cr('example.com/v1', { spec: { n: 3 } }) }).errors;
  assert.deepEqual(
    changed.map((e) => `${e.type} ${e.field}`),
    ['FieldValueInvalid spec'],
  );
  // On create nothing ratchets.
  const created = validateCustomResource(c, body)
    .errors.map((e) => `${e.type} ${e.field}`)
    .sort();
  assert.deepEqual(created, ['FieldValueInvalid ', 'FieldValueTooLong spec.name']);
});

test('update: root rules never ratchet (apiVersion/kind/metadata are not schema properties); spec rules do', () => {
  const s = {
    type: 'object',
    properties: { spec: { type: 'object', properties: { n: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.n >= 2' }] } },
    'x-kubernetes-validations': [{ rule: 'has(self.spec.n) && self.spec.n > 5' }],
  };
  const c = structuredClone(crd);
  c.spec.versions = [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: s } }] as never;
  const body = cr('example.com/v1', { spec: { n: 1 } });
  const errs = validateCustomResource(c, body, { oldObject: structuredClone(body) }).errors.map(errorMessage);
  assert.deepEqual(errs, ['<nil>: Invalid value: failed rule: has(self.spec.n) && self.spec.n > 5']);
});

test('the object and old object given are left as they were (callers pass cached parses, not copies)', () => {
  const s = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: { n: { type: 'integer', maximum: 5 }, mode: { type: 'string', default: 'a' }, list: { type: 'array', items: { type: 'object', properties: { k: { type: 'string', default: 'x' } } } } },
      },
      status: { type: 'object', properties: { ready: { type: 'boolean' } } },
    },
  };
  const c = structuredClone(crd);
  c.spec.versions = [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: s }, subresources: { status: {} } }] as never;
  const owner = { apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: 'u' };
  const body = cr('example.com/v1', {
    metadata: { name: 'w', ownerReferences: [owner, owner], creationTimestamp: null, unknownMeta: 1 },
    spec: { n: 9, list: [{}], gone: true, nullField: null },
    status: { ready: true },
  });
  const old = cr('example.com/v1', { metadata: { name: 'w', ownerReferences: [owner, owner] }, spec: { n: 1, extra: {} }, status: { ready: false } });
  const [bodyBefore, oldBefore] = [structuredClone(body), structuredClone(old)];
  for (const opts of [{}, { oldObject: old }, { partial: true }]) {
    const r = validateCustomResource(c, body, opts);
    // The check did its work (pruned, defaulted, dropped status, found the error) on its own copy.
    assert.ok(r.pruned.length > 0 && r.defaulted.length > 0 && r.errors.length > 0, JSON.stringify(opts));
    assert.notEqual(r.object, body);
  }
  assert.deepEqual(body, bodyBefore);
  assert.deepEqual(old, oldBefore);
});
