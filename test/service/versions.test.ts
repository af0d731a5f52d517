/**
 * A CRD's versions in completion and hover: kubectl's order of preference, the storage, deprecated and
 * unserved versions marked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completionsAt, hoverAt, serviceWithCrd } from './helpers';

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gadgets, kind: Gadget}
  versions:
  - name: v1alpha1
    served: true
    storage: false
    deprecated: true
    schema: {openAPIV3Schema: {type: object}}
  - name: v1beta1
    served: false
    storage: false
    schema: {openAPIV3Schema: {type: object}}
  - name: v1beta2
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object}}
  - name: v1
    served: true
    storage: false
    schema: {openAPIV3Schema: {type: object}}
  - name: v2beta1
    served: true
    storage: false
    deprecated: true
    deprecationWarning: "example.com/v2beta1 Gadget is going away"
    schema: {openAPIV3Schema: {type: object}}
`;

test("apiVersion completion lists the served versions in kubectl's order, storage and deprecated marked", () => {
  const items = completionsAt(serviceWithCrd({}, CRD), 'apiVersion: <|>\nkind: Gadget\n').filter((i) => i.label !== 'apiextensions.k8s.io/v1');
  const sorted = [...items].sort((a, b) => String(a.sortText).localeCompare(String(b.sortText)));
  assert.deepEqual(
    sorted.map((i) => [i.label, i.detail]),
    [
      ['example.com/v1', 'Gadget (preferred)'],
      ['example.com/v2beta1', 'Gadget (deprecated)'],
      ['example.com/v1beta2', 'Gadget (storage version)'],
      ['example.com/v1alpha1', 'Gadget (deprecated)'],
    ],
  );
  assert.equal(sorted[1].documentation, 'example.com/v2beta1 Gadget is going away');
  assert.equal(sorted[3].documentation, 'example.com/v1alpha1 Gadget is deprecated; use example.com/v1 Gadget');
  assert.deepEqual(sorted[1].tags, [1]);
});

test("hover on a custom resource's apiVersion lists its CRD's versions the same way", () => {
  const md = hoverAt(serviceWithCrd({}, CRD), 'apiVersion: example.com/v1be<|>ta2\nkind: Gadget\nmetadata: {name: g}\n');
  assert.equal(
    md,
    [
      '**Gadget** versions (gadgets.example.com), in the order kubectl prefers them:',
      '',
      '- `v1`: preferred',
      '- `v2beta1`: deprecated: example.com/v2beta1 Gadget is going away',
      '- `v1beta2`: storage version (this object)',
      '- `v1beta1`: not served',
      '- `v1alpha1`: deprecated: example.com/v1alpha1 Gadget is deprecated; use example.com/v1 Gadget',
    ].join('\n'),
  );
});
