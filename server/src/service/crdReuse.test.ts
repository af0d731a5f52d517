/**
 * Findings derived for a description-only edit of a CRD must equal a fresh check; any other edit must
 * not be derived.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseYamlDocuments } from '../yaml';
import { validateCustomResourceDefinition } from '../engine/crd/validation';
import { errorMessage } from '../engine/field';
import { deriveCrdFindings, isSchemaDescriptionPath } from './crdReuse';

// A CRD with findings: a description inside a value validation (forbidden), a bad pattern, a bad rule.
const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        description: root text
        properties:
          spec:
            type: object
            description: spec text
            allOf:
            - description: inside a junctor
            properties:
              a:
                type: string
                description: field a
                pattern: "a("
              b:
                type: integer
                description: field b
                x-kubernetes-validations:
                - rule: "self > "
`;

function check(text: string) {
  const f = parseYamlDocuments(text);
  const v = f.documents[0].value;
  return { value: v, errors: validateCustomResourceDefinition(structuredClone(v)) };
}

const show = (errs: { errors: Parameters<typeof errorMessage>[0][] }) => errs.errors.map((e) => `${e.type} ${errorMessage(e)}`).sort();

test('description edits: derived findings = fresh findings', () => {
  const base = check(CRD);
  assert.ok(base.errors.length >= 2, 'the fixture has findings');
  const edits: [string, string][] = [
    ['description: field a', 'description: field a, longer now'],
    ['description: root text', 'description: "quoted: root"'],
    ['description: inside a junctor', 'description: still inside'],
    ['description: spec text', 'description: |\n              block text'],
  ];
  for (const [from, to] of edits) {
    const next = CRD.replace(from, to);
    // Through the incremental parse (values shared copy-on-write) and through a fresh one.
    const f1 = parseYamlDocuments(CRD);
    void f1.documents[0].value;
    const spliced = parseYamlDocuments(next, { previous: f1, consumePrevious: true, spliceMinChars: 0 }).documents[0].value;
    const fresh = check(next);
    for (const v of [spliced, fresh.value]) {
      const derived = deriveCrdFindings(base.value, base, v);
      assert.ok(derived, `derived for ${to}`);
      assert.deepEqual(show(derived), show(fresh), to);
    }
  }
});

test('other edits are not derived', () => {
  const base = check(CRD);
  const edits: [string, string][] = [
    ['type: string', 'type: strin'],
    ['pattern: "a("', 'pattern: "a"'],
    ['description: field b', "description: ''"], // emptiness changes what the structural checks say
    ['name: widgets.example.com', 'name: widget.example.com'],
    ['description: field a', 'description: 12'],
    ['- description: inside a junctor', '- description: x\n              title: t'],
  ];
  for (const [from, to] of edits) {
    const next = check(CRD.replace(from, to));
    assert.equal(deriveCrdFindings(base.value, base, next.value), undefined, to);
  }
});

test('schema description paths', () => {
  const p = (...s: (string | number)[]) => ['spec', 'versions', 0, 'schema', 'openAPIV3Schema', ...s];
  assert.ok(isSchemaDescriptionPath(p('description')));
  assert.ok(isSchemaDescriptionPath(p('properties', 'x', 'items', 'allOf', 2, 'additionalProperties', 'description')));
  assert.ok(isSchemaDescriptionPath(p('items', 1, 'description')));
  // A property called description, a default value, a rule, externalDocs: not a schema's description.
  assert.ok(!isSchemaDescriptionPath(p('properties', 'description')));
  assert.ok(!isSchemaDescriptionPath(p('default', 'description')));
  assert.ok(!isSchemaDescriptionPath(p('x-kubernetes-validations', 0, 'description')));
  assert.ok(!isSchemaDescriptionPath(p('externalDocs', 'description')));
  assert.ok(!isSchemaDescriptionPath(['spec', 'versions', 0, 'additionalPrinterColumns', 0, 'description']));
  assert.ok(!isSchemaDescriptionPath(['metadata', 'annotations', 'description']));
});
