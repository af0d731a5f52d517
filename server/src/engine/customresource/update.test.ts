import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCustomResourceUpdate } from './update';
import { checkCustomResourceDefinitionUpdate } from '../crd/update';
import { crdObject } from '../../../../test/crd';

const crd = (maximum: number, versions = [{ name: 'v1', storage: true }], extra: Record<string, unknown> = {}) =>
  crdObject({
    names: { singular: 'widget', listKind: 'WidgetList' },
    versions,
    specProperties: { n: { type: 'integer', maximum, 'x-kubernetes-validations': [{ rule: 'self >= oldSelf', message: 'must not decrease' }] }, ...extra },
  });
const w = (n: number, more: Record<string, unknown> = {}) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { n, ...more } });
const brief = (errs: { field: string; detail: string }[]) => errs.map((e) => `${e.field}: ${e.detail}`);

test('a CR update: transition rule errors apply only on update, unchanged invalid values are relaxed', () => {
  const down = checkCustomResourceUpdate(crd(10), w(2), w(3));
  assert.deepEqual(
    down.errors.map((e) => [e.detail, e.onlyOnUpdate]),
    [['must not decrease', true]],
  );
  assert.deepEqual(down.relaxed, []);
  // n = 30 stayed (over the maximum since the CRD tightened): a create would fail, the update passes.
  const kept = checkCustomResourceUpdate(crd(10), w(30, { x: 1 }), w(30));
  assert.deepEqual(kept.errors, []);
  assert.deepEqual(brief(kept.relaxed), ['spec.n: spec.n in body should be less than or equal to 10']);
  // Changed to another invalid value: reported as on a create (not only on update).
  const changed = checkCustomResourceUpdate(crd(10), w(40), w(30));
  assert.deepEqual(
    changed.errors.map((e) => [e.detail, e.onlyOnUpdate]),
    [['spec.n in body should be less than or equal to 10', undefined]],
  );
});

test('a CRD update: a removed stored version applies only on update; a rule the stored CRD broke is relaxed', () => {
  const removed = checkCustomResourceDefinitionUpdate(crd(10, [{ name: 'v2', storage: true }]), crd(10));
  assert.deepEqual(
    removed.errors.filter((e) => e.onlyOnUpdate).map((e) => e.field),
    ['status.storedVersions[0]'],
  );
  const badType = { t: { type: 'foo' } };
  const kept = checkCustomResourceDefinitionUpdate(crd(10, undefined, badType), crd(10, undefined, badType));
  assert.deepEqual(
    kept.errors.filter((e) => (e.severity ?? 'error') === 'error'),
    [],
  );
  assert.deepEqual(
    kept.relaxed.map((e) => e.field),
    ['spec.validation.openAPIV3Schema.properties[spec].properties[t].type'],
  );
});
