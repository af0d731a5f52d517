import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { compareCustomResourceDefinitions } from './compare';
import { COMPAT_CATEGORIES } from './categories';
import { crdObject } from '../../../../test/crd';

type Version = { name: string; served?: boolean; storage?: boolean; schema?: Record<string, unknown> };

function crd(versions: Version[], extra: { scope?: 'Namespaced' | 'Cluster'; status?: Record<string, unknown> } = {}): Record<string, unknown> {
  return crdObject({ scope: extra.scope, versions: versions.map((v) => ({ ...v, schema: v.schema ?? root({}) })), more: extra.status ? { status: extra.status } : {} });
}

const root = (spec: Record<string, unknown>, required?: string[]) => ({
  type: 'object',
  properties: { spec: { type: 'object', properties: spec, ...(required ? { required } : {}) } },
});

/** The findings as `category path: message`, sorted. */
function diff(oldCrd: unknown, newCrd: unknown): string[] {
  return compareCustomResourceDefinitions(oldCrd, newCrd)
    .map((f) => `${f.category} ${f.path}: ${f.message}`)
    .sort();
}

const v1 = (schema: Record<string, unknown>): Version[] => [{ name: 'v1', storage: true, schema }];
const P = 'spec.versions[0].schema.openAPIV3Schema.properties[spec]';

test('property changes: each tightening is reported with its category and where it is', () => {
  const cases: [string, Record<string, unknown>, Record<string, unknown>, string[]][] = [
    ['unchanged', { a: { type: 'string' } }, { a: { type: 'string' } }, []],
    ['enum narrowed', { m: { type: 'string', enum: ['a', 'b', 'c'] } }, { m: { type: 'string', enum: ['a', 'b'] } }, [`enum ${P}.properties[m].enum: spec.m: enum narrowed: "c" no longer allowed`]],
    ['enum widened is compatible', { m: { type: 'string', enum: ['a'] } }, { m: { type: 'string', enum: ['a', 'b'] } }, []],
    ['enum added', { m: { type: 'string' } }, { m: { type: 'string', enum: ['a'] } }, [`enum ${P}.properties[m].enum: spec.m: an enum was added: only "a" allowed`]],
    ['type changed', { n: { type: 'string' } }, { n: { type: 'integer' } }, [`type ${P}.properties[n].type: spec.n: type changed from string to integer`]],
    ['maximum lowered', { n: { type: 'integer', maximum: 10 } }, { n: { type: 'integer', maximum: 5 } }, [`maximum ${P}.properties[n].maximum: spec.n: maximum lowered from 10 to 5`]],
    ['maximum raised is compatible', { n: { type: 'integer', maximum: 5 } }, { n: { type: 'integer', maximum: 10 } }, []],
    ['minLength added', { s: { type: 'string' } }, { s: { type: 'string', minLength: 2 } }, [`minLength ${P}.properties[s].minLength: spec.s: minLength 2 added`]],
    ['minLength 0 added is compatible', { s: { type: 'string' } }, { s: { type: 'string', minLength: 0 } }, []],
    [
      'maxItems on items',
      { l: { type: 'array', items: { type: 'string' } } },
      { l: { type: 'array', items: { type: 'string', maxLength: 3 } } },
      [`maxLength ${P}.properties[l].items.maxLength: spec.l[*]: maxLength 3 added`],
    ],
    ['pattern changed', { s: { type: 'string', pattern: 'a' } }, { s: { type: 'string', pattern: 'b' } }, [`pattern ${P}.properties[s].pattern: spec.s: pattern changed from "a" to "b"`]],
    [
      'list type',
      { l: { type: 'array', items: { type: 'string' } } },
      { l: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } },
      [`listType ${P}.properties[l].x-kubernetes-list-type: spec.l: list type changed from atomic to set`],
    ],
    [
      'map keys',
      { l: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['a'], items: { type: 'object', required: ['a', 'b'], properties: { a: { type: 'string' }, b: { type: 'string' } } } } },
      { l: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['a', 'b'], items: { type: 'object', required: ['a', 'b'], properties: { a: { type: 'string' }, b: { type: 'string' } } } } },
      [`listMapKeys ${P}.properties[l].x-kubernetes-list-map-keys: spec.l: list map keys changed from ["a"] to ["a","b"]`],
    ],
    [
      'new rule',
      { n: { type: 'integer' } },
      { n: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= oldSelf' }] } },
      [`validationRule ${P}.properties[n].x-kubernetes-validations[0].rule: spec.n: validation rule added or changed: self >= oldSelf`],
    ],
    [
      'same rule elsewhere in the list',
      { n: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0' }] } },
      { n: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self < 9' }, { rule: 'self > 0' }] } },
      [`validationRule ${P}.properties[n].x-kubernetes-validations[0].rule: spec.n: validation rule added or changed: self < 9`],
    ],
    ['default changed', { n: { type: 'integer', default: 1 } }, { n: { type: 'integer', default: 2 } }, [`default ${P}.properties[n].default: spec.n: default changed from 1 to 2`]],
    ['field removed', { a: { type: 'string' }, b: { type: 'string' } }, { a: { type: 'string' } }, [`existingFieldRemoval ${P}.properties: spec.b: field removed (its values are pruned when objects are next written)`]],
  ];
  for (const [name, before, after, expected] of cases) {
    assert.deepEqual(diff(crd(v1(root(before))), crd(v1(root(after)))), expected, name);
  }
});

test('a newly required field is reported at the required list, a kept one is not', () => {
  const before = crd(v1(root({ a: { type: 'string' }, b: { type: 'string' } }, ['a'])));
  const after = crd(v1(root({ a: { type: 'string' }, b: { type: 'string' } }, ['a', 'b'])));
  assert.deepEqual(diff(before, after), [`required ${P}.required: spec.b: now required`]);
});

test('versions: a stored version removed, a served one removed or unserved, the scope changed', () => {
  const before = crd([{ name: 'v1alpha1', served: true }, { name: 'v1beta1', storage: true }, { name: 'v1' }]);
  // v1beta1 (stored: storage version, no status) removed; v1alpha1 (served) removed; v1 no longer served.
  const after = crd([{ name: 'v1', storage: true, served: false }], { scope: 'Cluster' });
  assert.deepEqual(diff(before, after), [
    'scope spec.scope: scope changed from Namespaced to Cluster: existing objects cannot be read at the new paths',
    'servedVersionRemoval spec.versions: served version v1alpha1 was removed: clients using example.com/v1alpha1 break',
    'servedVersionRemoval spec.versions[0].served: version v1 is no longer served: clients using example.com/v1 break',
    'storedVersionRemoval spec.versions: version v1beta1 was removed, but objects may still be stored in it (status.storedVersions): the API server rejects this until a storage migration removes it from status.storedVersions',
  ]);
  // The stored CRD's status.storedVersions, when it has them, are the stored versions.
  const stored = crd([{ name: 'v1alpha1' }, { name: 'v1', storage: true }], { status: { storedVersions: ['v1alpha1', 'v1'] } });
  const dropped = crd([{ name: 'v1', storage: true }]);
  assert.deepEqual(
    diff(stored, dropped).map((l) => l.split(':')[0]),
    ['storedVersionRemoval spec.versions'],
  );
});

test('every category used has a description and a default severity', () => {
  for (const code of [
    'storedVersionRemoval',
    'servedVersionRemoval',
    'scope',
    'existingFieldRemoval',
    'type',
    'enum',
    'required',
    'maximum',
    'minLength',
    'pattern',
    'listType',
    'listMapKeys',
    'validationRule',
    'default',
  ]) {
    const c = COMPAT_CATEGORIES.get(code);
    assert.ok(c && c.title.length > 0 && c.defaultSeverity, code);
  }
});
