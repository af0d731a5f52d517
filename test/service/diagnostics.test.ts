import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LanguageService } from '../../server/src/service/languageService';
import { checkDiagnostics, CRD_URI, docOf, serviceWithCrd, WIDGET_CRD } from './helpers';

const HEAD = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n';

test('a valid CR has no diagnostics', () => {
  checkDiagnostics(serviceWithCrd(), HEAD + 'spec:\n  size: small\n  replicas: 2\n', []);
});

test('OpenAPI errors land on the bad value, with the API server message and field error type', () => {
  const d = checkDiagnostics(serviceWithCrd(), HEAD + 'spec:\n  size: smal\n  replicas: -1\n', [
    { text: 'smal', code: 'FieldValueNotSupported', message: 'spec.size: Unsupported value: "smal": supported values: "small", "medium", "large"', severity: 'error', line: 5 },
    { text: '-1', code: 'FieldValueInvalid', message: 'spec.replicas in body should be greater than or equal to 0', line: 6 },
    // NotSupported blocks CEL rules (strategy.go hasBlockingErr); the root error lands on `kind`.
    { text: 'kind', code: 'FieldValueInvalid', message: '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid' },
  ]);
  // Provenance: the CRD and version, pointing into the CRD file.
  const rel = d[0].relatedInformation?.[0];
  assert.ok(rel && rel.message.includes('widgets.example.com') && rel.message.includes('v1'));
  assert.equal(rel.location.uri, CRD_URI);
});

test('a missing required field is reported at its parent key', () => {
  checkDiagnostics(serviceWithCrd(), HEAD + 'spec:\n  replicas: 1\n', [
    { text: 'spec', code: 'FieldValueRequired', message: 'spec.size: Required value' },
    { text: 'kind', code: 'FieldValueInvalid', message: '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid' },
  ]);
});

test('unknown fields get a pruning warning at their key', () => {
  checkDiagnostics(serviceWithCrd(), HEAD + 'spec:\n  size: small\n  colour: red\n', [
    { text: 'colour', code: 'FieldValuePruned', message: 'spec.colour: field is not in the schema and will be pruned', severity: 'warning' },
  ]);
});

test('a failing CEL rule reports its message and the rule as provenance', () => {
  const d = checkDiagnostics(serviceWithCrd(), HEAD + 'spec:\n  size: small\n  replicas: 9\n', [{ text: 'spec', code: 'FieldValueInvalid', message: 'too many replicas' }]);
  assert.ok(d[0].relatedInformation?.some((r) => r.message.includes('self.replicas <= 5')));
});

test('list-type set duplicates point at the duplicate item', () => {
  checkDiagnostics(serviceWithCrd(), HEAD + 'spec:\n  size: small\n  tags: [a, b, a]\n', [{ text: 'a', code: 'FieldValueDuplicate', message: 'spec.tags[2]: Duplicate value: "a"', line: 6 }]);
});

test('unserved and unknown versions, deprecated versions and wrong kinds', () => {
  const s = serviceWithCrd();
  checkDiagnostics(s, 'apiVersion: example.com/v1alpha1\nkind: Widget\n', [
    { text: 'example.com/v1alpha1', code: 'NotFound', message: 'no matches for kind "Widget" in version "example.com/v1alpha1"' },
  ]);
  checkDiagnostics(s, 'apiVersion: example.com/v9\nkind: Widget\n', [{ text: 'example.com/v9', code: 'NotFound' }]);
  checkDiagnostics(s, 'apiVersion: example.com/v1beta1\nkind: Widget\nmetadata:\n  name: x\n', [
    { text: 'example.com/v1beta1', code: 'Deprecated', message: 'example.com/v1beta1 Widget is deprecated', severity: 'warning' },
  ]);
  checkDiagnostics(s, 'apiVersion: example.com/v1\nkind: Widgett\n', [{ text: 'Widgett', code: 'NotFound', message: 'no matches for kind "Widgett"' }]);
});

test('kinds no CRD defines: silent by default, a hint when configured', () => {
  const deployment = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  bogus: 1\n';
  checkDiagnostics(serviceWithCrd(), deployment, []);
  const hint = serviceWithCrd({ unknownKinds: 'hint' });
  checkDiagnostics(hint, 'apiVersion: other.example.org/v1\nkind: Thing\n', [
    { text: 'Thing', code: 'UnknownKind', severity: 'information', message: 'no CustomResourceDefinition known for kind "Thing" in version "other.example.org/v1"' },
  ]);
  // Kubernetes' own kinds (from the API server's discovery) are never hinted; mistakes in them are.
  for (const builtin of [deployment, 'apiVersion: v1\nkind: Service\n', 'apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n', 'apiVersion: v1\nkind: List\n', 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n']) checkDiagnostics(hint, builtin, []);
  checkDiagnostics(hint, 'apiVersion: apps/v1\nkind: Deploymnet\n', [{ text: 'Deploymnet', code: 'UnknownKind', message: 'apps/v1 has no kind "Deploymnet" (Kubernetes built-in group apps)' }]);
  checkDiagnostics(hint, 'apiVersion: extensions/v1beta1\nkind: Ingress\n', [{ text: 'Ingress', code: 'UnknownKind', message: 'extensions/v1beta1 has no kind Ingress: it is served as networking.k8s.io/v1' }]);
  checkDiagnostics(hint, 'apiVersion: apps/v1beta1\nkind: Deployment\n', [{ text: 'Deployment', code: 'UnknownKind', message: 'Deployment is not served in apps/v1beta1 by Kubernetes 1.37: use apps/v1' }]);
});

test('multi-document files: each document checked on its own, syntax errors stay local', () => {
  const text = HEAD + 'spec:\n  size: small\n---\n' + HEAD + 'spec:\n  size: [\n---\n' + HEAD + 'spec:\n  size: huge\n';
  const d = checkDiagnostics(serviceWithCrd(), text, [
    { text: 'huge', code: 'FieldValueNotSupported', line: 19 },
    { text: 'kind', code: 'FieldValueInvalid', line: 15 },
    // The broken document gets its syntax error(s) and nothing else.
    ...syntaxExpectations(text),
  ]);
  assert.ok(d.filter((x) => x.code === 'YAMLSyntax').every((x) => x.range.start.line >= 7 && x.range.start.line <= 12));
});

function syntaxExpectations(text: string) {
  const s = new LanguageService();
  const { td } = docOf(text);
  return s
    .diagnostics(td)
    .filter((d) => d.code === 'YAMLSyntax')
    .map((d) => ({ text: td.getText(d.range), code: 'YAMLSyntax' }));
}

test('a YAML syntax error is reported with code YAMLSyntax', () => {
  const s = new LanguageService();
  const { td } = docOf('a: [1, 2\nb: c\n');
  const d = s.diagnostics(td);
  assert.ok(d.length > 0 && d.every((x) => x.code === 'YAMLSyntax' && x.severity === 1));
});

test('CRD documents: NonStructural findings at the schema node, with the API server path', () => {
  const crd = WIDGET_CRD.replace('            spec:\n              type: object\n', '            spec:\n');
  checkDiagnostics(new LanguageService(), crd, [
    {
      // Versions with different schemas keep their v1 paths; the missing `type` is reported at the node's key.
      text: 'spec',
      code: 'FieldValueRequired',
      message: 'spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields',
      line: 19,
    },
  ]);
});

test('CEL compile errors point inside the rule string', () => {
  const crd = WIDGET_CRD.replace('self.replicas <= 5', 'self.nope <= 5');
  const d = checkDiagnostics(new LanguageService(), crd, [{ text: 'self.nope', code: 'FieldValueInvalid', message: "undefined field 'nope'" }]);
  assert.equal(d[0].range.start.line, 24);
});

test('editing a CRD re-checks the CRs that use it', () => {
  const s = serviceWithCrd();
  const { td } = docOf(HEAD + 'spec:\n  size: small\n  replicas: 4\n');
  s.update(td);
  assert.equal(s.diagnostics(td).length, 0);
  const changed = s.update(TextDocument.create(CRD_URI, 'yaml', 2, WIDGET_CRD.replace('self.replicas <= 5', 'self.replicas <= 3')));
  assert.deepEqual(s.dependents(changed), [td.uri]);
  assert.match(String(s.diagnostics(td)[0]?.message), /too many replicas/);
  // An edit that does not change the CRD's meaning for others still re-resolves, but an unrelated file does not depend on it.
  assert.deepEqual(s.dependents(['other.example.com/Thing']), []);
});

test('CRDs from workspace files are used, and open documents win over them', () => {
  const s = new LanguageService();
  s.indexDiskFile('file:///ws/disk.yaml', WIDGET_CRD.replace('self.replicas <= 5', 'self.replicas <= 1'));
  assert.equal(s.crdCount, 1);
  const cr = HEAD + 'spec:\n  size: small\n  replicas: 2\n';
  checkDiagnostics(s, cr, [{ text: 'spec', code: 'FieldValueInvalid', message: 'too many replicas' }]);
  s.update(TextDocument.create('file:///ws/open.yaml', 'yaml', 1, WIDGET_CRD));
  checkDiagnostics(s, cr, []);
  s.close('file:///ws/open.yaml');
  checkDiagnostics(s, cr, [{ text: 'spec', code: 'FieldValueInvalid' }]);
});

test('an engine failure on one document is reported there and does not hide other findings', () => {
  // A CRD version without a schema is still a CRD (validation reports it); the CR beside it is still checked.
  const s = serviceWithCrd();
  const text = 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: x\nspec: 7\n---\n' + HEAD + 'spec:\n  size: nope\n';
  const { td } = docOf(text);
  s.update(td);
  const d = s.diagnostics(td);
  assert.ok(d.some((x) => x.code === 'FieldValueNotSupported' && x.range.start.line === 11));
});

test('a CRD and its CRs in one file; edits elsewhere move cached findings with their documents', () => {
  const s = new LanguageService();
  const cr = (name: string, size: string) => `---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: ${name}\nspec:\n  size: ${size}\n`;
  const text = WIDGET_CRD + cr('a', 'small') + cr('b', 'huge');
  const td = TextDocument.create('file:///ws/all.yaml', 'yaml', 1, text);
  s.update(td);
  const before = s.diagnostics(td).find((d) => d.code === 'FieldValueNotSupported')!;
  assert.equal(td.getText(before.range), 'huge');
  assert.equal(before.relatedInformation?.[0].location.uri, td.uri);
  const crdLine = (line: number) => text.split('\n')[line];
  assert.equal(crdLine(before.relatedInformation![0].location.range.start.line).trim(), 'size:');
  // Two lines inserted in the middle document: the finding below moves, its CRD location does not.
  const edited = WIDGET_CRD + cr('a', 'small').replace('spec:\n', 'spec:\n  # one\n  # two\n') + cr('b', 'huge');
  const td2 = TextDocument.create(td.uri, 'yaml', 2, edited);
  s.update(td2);
  const after = s.diagnostics(td2).find((d) => d.code === 'FieldValueNotSupported')!;
  assert.equal(td2.getText(after.range), 'huge');
  assert.equal(after.range.start.line, before.range.start.line + 2);
  assert.deepEqual(after.relatedInformation?.[0].location, before.relatedInformation?.[0].location);
});

test('quick pass on a large CRD: previous findings re-mapped onto the new text, full pass pending', () => {
  const s = new LanguageService();
  // A large CRD (long descriptions) with one NonStructural finding.
  const crd = WIDGET_CRD.replace('            spec:\n              type: object\n', '            spec:\n').replace('How big the widget is.', 'x'.repeat(120_000));
  let td = TextDocument.create('file:///ws/big.yaml', 'yaml', 1, crd);
  s.update(td);
  const full = s.diagnostics(td);
  assert.deepEqual(full.map((d) => [d.code, td.getText(d.range)]), [['FieldValueRequired', 'spec']]);
  // Two lines inserted above: the quick pass does not re-run the check but the finding moves with its node.
  td = TextDocument.create(td.uri, 'yaml', 2, crd.replace('  scope: Namespaced\n', '  scope: Namespaced\n  # a\n  # b\n'));
  s.update(td);
  const quick = s.quickDiagnostics(td);
  assert.equal(quick.pending, true);
  assert.deepEqual(quick.diagnostics.map((d) => [d.code, td.getText(d.range), d.range.start.line]), [['FieldValueRequired', 'spec', full[0].range.start.line + 2]]);
  const after = s.diagnostics(td);
  assert.deepEqual(after.map((d) => d.range.start.line), [full[0].range.start.line + 2]);
  // Once checked, the quick pass has nothing pending.
  assert.equal(s.quickDiagnostics(td).pending, false);
});

test('CEL compile errors map into block, folded and single-quoted rule strings', () => {
  const cases: Array<[string, number, number]> = [
    ['- rule: |\n                    self.replicas <= 5 &&\n                    self.nope > 1', 26, 20],
    ['- rule: >-\n                    self.replicas <= 5 &&\n                    self.nope > 1', 26, 20],
    ["- rule: 'self.size == ''a'' && self.nope'", 24, 47],
  ];
  for (const [rule, line, character] of cases) {
    const d = checkDiagnostics(new LanguageService(), WIDGET_CRD.replace('- rule: "self.replicas <= 5"', rule), [{ text: 'self.nope', code: 'FieldValueInvalid', message: "undefined field 'nope'" }]);
    assert.deepEqual(d[0].range.start, { line, character }, rule);
  }
});
