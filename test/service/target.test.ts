/**
 * One target for every engine call (service/engineCalls.ts engineTarget): the Kubernetes version of the
 * settings reaches the update paths as it reaches the create paths. A CRD at 1.30, where the
 * CustomResourceFieldSelectors gate is off (alpha) and `selectableFields` are dropped on create and on an
 * update whose stored CRD does not use them (the CRD strategy's dropDisabledFields), gets the same
 * findings with a baseline as without one; at 1.37 both report the bad selectable field.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { parse } from 'yaml';
import { LanguageService } from '../../server/src/service/languageService';

const CRD = (description: string, selectable: boolean) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
${selectable ? '    selectableFields:\n    - jsonPath: .spec.nope\n' : ''}    schema:
      openAPIV3Schema:
        type: object
        description: ${description}
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
`;

function findings(minor: number, baseline: boolean): string[] {
  const service = new LanguageService({ kubernetesMinor: minor });
  const td = TextDocument.create('file:///w/crd.yaml', 'yaml', 1, CRD('widgets, edited', true));
  service.update(td);
  // The stored CRD: the same CRD before the edit, without selectableFields.
  if (baseline) service.setBaseline(td.uri, { label: 'HEAD', objects: [parse(CRD('widgets', false))] });
  return service
    .findings(td)
    .filter((f) => f.severity === 'error')
    .map((f) => `${f.code} ${f.field ?? ''}`)
    .sort();
}

test('the Kubernetes version reaches the update path: a CRD at 1.30 with and without a baseline', () => {
  assert.deepEqual(findings(30, true), findings(30, false));
  assert.deepEqual(findings(30, false), [], 'selectableFields are dropped at 1.30');
  // At 1.37 the gate is on: the bad path is an error on create and on update alike.
  const at37 = findings(37, false);
  assert.ok(
    at37.some((f) => f.includes('selectableFields')),
    at37.join('\n'),
  );
  assert.deepEqual(findings(37, true), at37);
});

const SEMVER_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              version:
                type: string
                maxLength: 64
                x-kubernetes-validations:
                - {rule: isSemver(self), message: not a semantic version}
`;

const SEMVER_TEST = `crd: crd.yaml
tests:
- name: a bad version is refused
  object: {apiVersion: example.com/v1, kind: Widget, metadata: {name: w}, spec: {version: x.y}}
  expect:
    errors:
    - {message: not a semantic version}
`;

/** The editor's run of a CRD rule test file (the Run lens), at a Kubernetes version. */
function editorTestRun(minor: number): { passed: number; failed: number } {
  const service = new LanguageService({ kubernetesMinor: minor });
  service.update(TextDocument.create('file:///w/crd.yaml', 'yaml', 1, SEMVER_CRD));
  const td = TextDocument.create('file:///w/w.crdtest.yaml', 'yaml', 1, SEMVER_TEST);
  service.update(td);
  return service.runTests(td);
}

test('the Kubernetes version reaches the editor test runs: isSemver is not in the 1.30 CEL environment', () => {
  // `crd-yaml test --kubernetes-version 1.30` fails the case (the rule does not compile there); the Run lens too.
  assert.deepEqual(editorTestRun(30), { passed: 0, failed: 1 });
  assert.deepEqual(editorTestRun(37), { passed: 1, failed: 0 });
});
