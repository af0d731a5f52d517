import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readBack, storedObject, versionFieldLoss } from './storageversion';
import { validateCustomResource } from '../customresource/strategy';

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });

/** CronTab with v1 (storage) and v1beta1 of different shapes, conversion None unless given. */
function crontab(conversion?: unknown, more: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural: 'crontabs', kind: 'CronTab' },
      ...(conversion ? { conversion } : {}),
      versions: [
        {
          name: 'v1beta1',
          served: true,
          storage: false,
          schema: {
            openAPIV3Schema: obj({
              spec: obj({ cronSpec: { type: 'string' }, image: { type: 'string' }, replicas: { type: 'integer' }, tags: { type: 'array', items: obj({ name: { type: 'string' }, colour: { type: 'string' } }) } }),
            }),
          },
        },
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: obj({
              spec: obj({ schedule: { type: 'string' }, image: { type: 'string', default: 'busybox' }, replicas: { type: 'integer' }, tags: { type: 'array', items: obj({ name: { type: 'string' } }) } }),
            }),
          },
        },
        { name: 'v1alpha1', served: false, storage: false, schema: { openAPIV3Schema: obj({ spec: obj({ old: { type: 'string' } }) }) } },
      ],
      ...more,
    },
  };
}

test('conversion None with differing schemas: the fields each served version loses on the way to storage and back', () => {
  assert.deepEqual(versionFieldLoss(crontab()), [
    {
      explicitNone: false,
      version: 'v1beta1',
      versionIndex: 0,
      storageVersion: 'v1',
      storageIndex: 1,
      lostWhenStored: ['spec.cronSpec', 'spec.tags[*].colour'],
      lostWhenRead: ['spec.schedule'],
    },
  ]);
  // Conversion None written out is the same as left out (and says so).
  assert.deepEqual(
    versionFieldLoss(crontab({ strategy: 'None' })).map((l) => [l.explicitNone, l.lostWhenStored]),
    [[true, ['spec.cronSpec', 'spec.tags[*].colour']]],
  );
});

test('nothing is lost with a webhook, with identical schemas, or where the storage schema keeps unknown fields', () => {
  assert.deepEqual(versionFieldLoss(crontab({ strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'] } })), []);
  const same = crontab();
  const versions = (same.spec as any).versions;
  versions[0].schema = versions[1].schema;
  assert.deepEqual(versionFieldLoss(same), []);
  const preserving = crontab();
  (preserving.spec as any).versions[1].schema.openAPIV3Schema.properties.spec['x-kubernetes-preserve-unknown-fields'] = true;
  // spec keeps what it does not declare; tags items still declare their fields and prune the others.
  assert.deepEqual(
    versionFieldLoss(preserving).map((l) => l.lostWhenStored),
    [['spec.tags[*].colour']],
  );
  for (const x of [null, 'crd', {}, { spec: { versions: 'x' } }]) assert.deepEqual(versionFieldLoss(x), []);
});

test('the stored object: storage apiVersion, pruned by the storage schema, defaulted by it; read back per version', () => {
  const crd = crontab();
  const written = { apiVersion: 'stable.example.com/v1beta1', kind: 'CronTab', metadata: { name: 'c' }, spec: { cronSpec: '* * * * */5', replicas: 2, tags: [{ name: 'a', colour: 'red' }] } };
  const created = validateCustomResource(crd, written);
  assert.deepEqual(created.errors, []);
  const stored = storedObject(crd, created.object)!;
  assert.equal(stored.storageVersion, 'v1');
  assert.deepEqual(stored.object, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'c' }, spec: { replicas: 2, tags: [{ name: 'a' }], image: 'busybox' } });
  assert.deepEqual(
    stored.pruned.map((p) => p.path),
    ['spec.cronSpec', 'spec.tags[0].colour'],
  );
  assert.deepEqual(
    stored.defaulted.map((d) => d.path),
    ['spec.image'],
  );
  const back = readBack(crd, stored.object, 'v1beta1')!;
  assert.deepEqual(back.object, { apiVersion: 'stable.example.com/v1beta1', kind: 'CronTab', metadata: { name: 'c' }, spec: { replicas: 2, tags: [{ name: 'a' }], image: 'busybox' } });
  assert.deepEqual(readBack(crd, stored.object, 'v1alpha1'), undefined, 'not served');
  assert.equal(storedObject(crontab({ strategy: 'Webhook' }), created.object), undefined);
});
