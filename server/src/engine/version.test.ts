import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorMessage, type FieldError } from './field';
import { featureGates, kubernetesMinor, parseKubernetesVersion, supportedKubernetesVersions } from './version';
import { validateCustomResourceDefinition } from './crd/validation';
import { validateCustomResourceDefinitionUpdate } from './crd/update';
import { validateCustomResource } from './customresource/strategy';
import { crdObject } from '../../../test/crd';

/** A CRD whose spec.tags carries `rule`, optionally with selectable fields. */
function crd(rule: string, selectable = false): any {
  return crdObject({
    versions: [{ name: 'v1', storage: true, ...(selectable ? { selectableFields: [{ jsonPath: '.spec.nope' }] } : {}) }],
    specProperties: { tags: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 20 }, 'x-kubernetes-validations': [{ rule }] } },
  });
}

const errors = (errs: FieldError[]) => errs.filter((e) => (e.severity ?? 'error') === 'error');
const messages = (errs: FieldError[]) => errors(errs).map(errorMessage);

test('versions: 1.X, v1.X and 1.X.Y parse to the minor; outside 1.30 .. 1.37 they do not; options clamp', () => {
  assert.equal(parseKubernetesVersion('1.30'), 30);
  assert.equal(parseKubernetesVersion('v1.37'), 37);
  assert.equal(parseKubernetesVersion(' 1.33.4 '), 33);
  for (const bad of ['1.29', '1.38', '2.30', '', '1.x', '30']) assert.equal(parseKubernetesVersion(bad), undefined, bad);
  assert.deepEqual(supportedKubernetesVersions(), ['1.30', '1.31', '1.32', '1.33', '1.34', '1.35', '1.36', '1.37']);
  assert.equal(kubernetesMinor(undefined), 37);
  assert.equal(kubernetesMinor(12), 30);
  assert.deepEqual(featureGates(30), { CRDValidationRatcheting: true, CustomResourceFieldSelectors: false });
  assert.deepEqual(featureGates(31), { CRDValidationRatcheting: true, CustomResourceFieldSelectors: true });
});

test('new CEL rules compile at the compatibility version: isCIDR from 1.31, ext lists (distinct) from 1.35, lists v1 (includes) never on a 1.37 server by default', () => {
  const at = (rule: string, minor: number, compatibilityMinor?: number) => messages(validateCustomResourceDefinition(crd(rule), { kubernetesMinor: minor, compatibilityMinor }));
  const cidr = 'self.all(v, isCIDR(v))';
  assert.match(at(cidr, 30).join('\n'), /compilation failed: ERROR: <input>:1:19: undeclared reference to 'isCIDR' \(in container ''\)/);
  assert.deepEqual(at(cidr, 31), []);
  const distinct = 'self.distinct().size() == self.size()';
  assert.match(at(distinct, 34).join('\n'), /undeclared reference to 'distinct'/);
  assert.deepEqual(at(distinct, 35), []);
  // A 1.37 binary emulating 1.34 has compatibility version 1.34 (its floor), not 1.33: distinct compiles.
  assert.deepEqual(at(distinct, 34, 34), []);
  const includes = 'self.includes("a")';
  assert.match(at(includes, 37).join('\n'), /undeclared reference to 'includes'/);
  assert.deepEqual(at(includes, 37, 37), []);
  // Two-variable comprehensions from 1.33 (compatibility 1.32): the macro does not exist before.
  const twoVar = 'self.all(i, v, i >= 0)';
  assert.match(at(twoVar, 32).join('\n'), /undeclared reference to 'all'|found no matching overload for 'all'/);
  assert.deepEqual(at(twoVar, 33), []);
});

test('rules the stored CRD already has compile in the stored environment: a 1.30 update keeps an isCIDR rule, a new one is refused', () => {
  const old = crd('self.all(v, isCIDR(v))');
  const same = validateCustomResourceDefinitionUpdate(crd('self.all(v, isCIDR(v))'), old, { kubernetesMinor: 30 });
  assert.deepEqual(messages(same), []);
  const changed = validateCustomResourceDefinitionUpdate(crd('self.all(v, isCIDR(v) && v != "")'), old, { kubernetesMinor: 30 });
  assert.match(messages(changed).join('\n'), /undeclared reference to 'isCIDR'/);
});

test('custom resources run rules in the stored environment of the version: isCIDR runs on a 1.30 server', () => {
  const obj = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { tags: ['10.0.0.0/8', 'nope'] } };
  for (const minor of [30, 37]) {
    const r = validateCustomResource(crd('self.all(v, isCIDR(v))'), obj, { kubernetesMinor: minor });
    assert.deepEqual(messages(r.errors), ['spec.tags: Invalid value: failed rule: self.all(v, isCIDR(v))'], `1.${minor}`);
  }
});

test('CustomResourceFieldSelectors off in 1.30: selectableFields are dropped on create (not validated), kept on an update of a CRD that uses them', () => {
  const create = (minor: number) => messages(validateCustomResourceDefinition(crd('true', true), { kubernetesMinor: minor }));
  assert.ok(
    create(31).some((m) => m.includes('selectableFields[0].jsonPath')),
    create(31).join('\n'),
  );
  assert.deepEqual(create(30), []);
  const fromNone = messages(validateCustomResourceDefinitionUpdate(crd('true', true), crd('true'), { kubernetesMinor: 30 }));
  assert.deepEqual(fromNone, []);
  const inUse = messages(validateCustomResourceDefinitionUpdate(crd('true', true), crd('true', true), { kubernetesMinor: 30 }));
  assert.ok(
    inUse.some((m) => m.includes('selectableFields[0].jsonPath')),
    inUse.join('\n'),
  );
});
