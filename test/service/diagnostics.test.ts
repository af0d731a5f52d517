import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LanguageService } from '../../server/src/service/languageService';
import { checkFindings, CRD_URI, docOf, serviceWithCrd, WIDGET_CRD } from './helpers';

const HEAD = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n';

test('a valid CR has no findings', () => {
  checkFindings(serviceWithCrd(), HEAD + 'spec:\n  size: small\n  replicas: 2\n', []);
});

test('OpenAPI errors land on the bad value: a short message, the API server message and the field error type', () => {
  const d = checkFindings(serviceWithCrd(), HEAD + 'spec:\n  size: smal\n  replicas: -1\n', [
    {
      text: 'smal',
      code: 'FieldValueNotSupported',
      message: 'Unsupported value "smal": supported values: "small", "medium", "large"',
      apiMessage: 'spec.size: Unsupported value: "smal": supported values: "small", "medium", "large"',
      severity: 'error',
      line: 5,
    },
    {
      text: '-1',
      code: 'FieldValueInvalid',
      message: 'Invalid value -1: should be greater than or equal to 0',
      apiMessage: 'spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0',
      line: 6,
    },
  ]);
  const notSupported = d.find((x) => x.code === 'FieldValueNotSupported')!;
  assert.deepEqual(notSupported.params?.supportedValues, ['small', 'medium', 'large']);
  // NotSupported blocks CEL rules (strategy.go hasBlockingErr): the API server's note rides on it, no row of its own.
  assert.deepEqual(notSupported.notes, ['some validation rules were not checked because the object was invalid; correct the existing errors to complete validation']);
  assert.equal(d.find((x) => x.code === 'FieldValueInvalid')!.notes, undefined);
  // Provenance: the CRD and version, pointing into the CRD file.
  const rel = d[0].related?.[0];
  assert.ok(rel);
  assert.ok(rel.message.includes('widgets.example.com') && rel.message.includes('v1'));
  assert.equal(rel.location.uri, CRD_URI);
});

test('a missing required field is reported at its parent key, by name', () => {
  checkFindings(serviceWithCrd(), HEAD + 'spec:\n  replicas: 1\n', [{ text: 'spec', code: 'FieldValueRequired', message: 'missing required field "size"', apiMessage: 'spec.size: Required value' }]);
});

test('unknown fields: an error in the strict-decoding wording (as kubectl apply), a warning with Warn, nothing with Ignore', () => {
  const cr = HEAD + 'spec:\n  size: small\n  colour: red\n';
  const [strict] = checkFindings(serviceWithCrd(), cr, [
    {
      text: 'colour',
      code: 'UnknownField',
      message: 'unknown field "spec.colour": rejected by strict field validation (kubectl apply); other clients drop it (pruning)',
      apiMessage: 'Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.colour"',
      severity: 'error',
    },
  ]);
  assert.equal(strict.field, 'spec.colour');
  checkFindings(serviceWithCrd({ fieldValidation: 'Warn' }), cr, [
    { text: 'colour', code: 'UnknownField', message: 'unknown field "spec.colour": dropped when stored (pruning)', apiMessage: 'unknown field "spec.colour"', severity: 'warning' },
  ]);
  checkFindings(serviceWithCrd({ fieldValidation: 'Ignore' }), cr, []);
});

test('an unknown field close to a declared one says which', () => {
  checkFindings(serviceWithCrd(), HEAD + 'spec:\n  size: small\n  replica: 2\n', [{ text: 'replica', code: 'UnknownField', message: 'unknown field "spec.replica" (did you mean "replicas"?)' }]);
  // A property already present is not suggested.
  checkFindings(serviceWithCrd(), HEAD + 'spec:\n  size: small\n  replicas: 2\n  replica: 2\n', [{ text: 'replica', code: 'UnknownField', message: 'unknown field "spec.replica":' }]);
});

test('a failing CEL rule reports its message and the rule as provenance', () => {
  const d = checkFindings(serviceWithCrd(), HEAD + 'spec:\n  size: small\n  replicas: 9\n', [{ text: 'spec', code: 'FieldValueInvalid', message: 'too many replicas' }]);
  assert.ok(d[0].related?.some((r) => r.message.includes('self.replicas <= 5')));
});

test('list-type set duplicates point at the duplicate item', () => {
  checkFindings(serviceWithCrd(), HEAD + 'spec:\n  size: small\n  tags: [a, b, a]\n', [
    { text: 'a', code: 'FieldValueDuplicate', message: 'Duplicate value "a"', apiMessage: 'spec.tags[2]: Duplicate value: "a"', line: 6 },
  ]);
});

test('unserved and unknown versions, deprecated versions and wrong kinds', () => {
  const s = serviceWithCrd();
  checkFindings(s, 'apiVersion: example.com/v1alpha1\nkind: Widget\n', [
    {
      text: 'example.com/v1alpha1',
      code: 'NoKindMatch',
      message: 'no matches for kind "Widget" in version "example.com/v1alpha1": widgets.example.com does not serve v1alpha1 (served: v1, v1beta1)',
      apiMessage: 'no matches for kind "Widget" in version "example.com/v1alpha1"',
      severity: 'error',
    },
  ]);
  checkFindings(s, 'apiVersion: example.com/v9\nkind: Widget\n', [{ text: 'example.com/v9', code: 'NoKindMatch', message: 'widgets.example.com has no version v9' }]);
  const [dep] = checkFindings(s, 'apiVersion: example.com/v1beta1\nkind: Widget\nmetadata:\n  name: x\n', [
    { text: 'example.com/v1beta1', code: 'DeprecatedVersion', message: 'example.com/v1beta1 Widget is deprecated', severity: 'warning' },
  ]);
  assert.equal(dep.apiMessage, dep.message);
  // A kind of a known CRD's group that no known CRD defines: another project's CRD of the same group may
  // define it in the cluster, so it is not checked (issue 22); a close kind of the group's is hinted.
  checkFindings(s, 'apiVersion: example.com/v1\nkind: Widgett\n', []);
  checkFindings(serviceWithCrd({ unknownKinds: 'hint' }), 'apiVersion: example.com/v1\nkind: Widgett\n', [
    { text: 'Widgett', code: 'UnknownKind', severity: 'information', message: 'example.com/Widgett not checked: no CRD known for it (did you mean "Widget"?)' },
  ]);
  checkFindings(serviceWithCrd({ unknownKinds: 'hint' }), 'apiVersion: example.com/v1\nkind: Gadget\n', [
    { text: 'Gadget', code: 'UnknownKind', severity: 'information', message: 'example.com/Gadget not checked: no CRD known for it' },
  ]);
});

test('kinds no CRD defines: silent by default, a hint when configured; a kind a built-in group does not have is an error', () => {
  const deployment = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  bogus: 1\n';
  // (With crdYaml.builtins off: built-in objects are not checked, test/service/builtins.test.ts checks them.)
  checkFindings(serviceWithCrd({ builtins: false }), deployment, []);
  checkFindings(serviceWithCrd(), 'apiVersion: other.example.org/v1\nkind: Thing\n', []);
  const hint = serviceWithCrd({ unknownKinds: 'hint', builtins: false });
  const [thing] = checkFindings(hint, 'apiVersion: other.example.org/v1\nkind: Thing\n', [
    { text: 'Thing', code: 'UnknownKind', severity: 'information', message: 'other.example.org/Thing not checked: no CRD known for it' },
  ]);
  assert.equal(thing.message, 'other.example.org/Thing not checked: no CRD known for it');
  // Kubernetes' own kinds (from the API server's discovery) are never hinted, nor client-side tools' files.
  for (const builtin of [
    deployment,
    'apiVersion: v1\nkind: Service\n',
    'apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n',
    'apiVersion: v1\nkind: List\n',
    'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n',
    'apiVersion: kind.x-k8s.io/v1alpha4\nkind: Cluster\n',
    'apiVersion: skaffold/v4beta11\nkind: Config\n',
  ])
    checkFindings(hint, builtin, []);
  // What the API server answers for a kind or version of a built-in group it does not serve (kubectl apply:
  // `no matches for kind "Deploymnet" in version "apps/v1"`): an error whatever unknownKinds says.
  for (const s of [serviceWithCrd(), hint]) {
    checkFindings(s, 'apiVersion: apps/v1\nkind: Deploymnet\n', [
      {
        text: 'Deploymnet',
        code: 'NoKindMatch',
        severity: 'error',
        message: 'no matches for kind "Deploymnet" in version "apps/v1" (did you mean "Deployment"?)',
        apiMessage: 'no matches for kind "Deploymnet" in version "apps/v1"',
      },
    ]);
    checkFindings(s, 'apiVersion: extensions/v1beta1\nkind: Ingress\n', [{ text: 'Ingress', code: 'NoKindMatch', severity: 'error', message: '(removed in Kubernetes 1.22: use networking.k8s.io/v1 Ingress)' }]);
    checkFindings(s, 'apiVersion: apps/v1beta1\nkind: Deployment\n', [{ text: 'Deployment', code: 'NoKindMatch', severity: 'error', message: '(removed in Kubernetes 1.16: use apps/v1 Deployment)' }]);
    checkFindings(s, 'apiVersion: v1\nkind: Servce\n', [{ text: 'Servce', code: 'NoKindMatch', severity: 'error', message: '(did you mean "Service"?)' }]);
    // kubectl maps the kind in lower case, and the API server refuses it when decoding (kube-apiserver 1.37:
    // `pod in version "v1" cannot be handled as a Pod: no kind "pod" is registered for version "v1" ...`);
    // another casing is not mapped at all (`no matches for kind "DEPLOYMENT" in version "apps/v1"`).
    checkFindings(s, 'apiVersion: v1\nkind: pod\n', [
      {
        text: 'pod',
        code: 'NoKindMatch',
        message: 'no kind "pod" is registered for version "v1" (did you mean "Pod"?)',
        apiMessage: 'pod in version "v1" cannot be handled as a Pod: no kind "pod" is registered for version "v1" in scheme "pkg/runtime/scheme.go:111"',
      },
    ]);
    checkFindings(s, 'apiVersion: apps/v1\nkind: DEPLOYMENT\n', [
      { text: 'DEPLOYMENT', code: 'NoKindMatch', apiMessage: 'no matches for kind "DEPLOYMENT" in version "apps/v1"', message: '(did you mean "Deployment"?)' },
    ]);
  }
});

test('multi-document files: each document checked on its own, syntax errors stay local', () => {
  const text = HEAD + 'spec:\n  size: small\n---\n' + HEAD + 'spec:\n  size: [\n---\n' + HEAD + 'spec:\n  size: huge\n';
  const d = checkFindings(serviceWithCrd(), text, [
    { text: 'huge', code: 'FieldValueNotSupported', line: 19 },
    // The broken document gets its syntax error(s) and nothing else.
    ...syntaxExpectations(text),
  ]);
  assert.ok(d.filter((x) => x.code === 'YAMLSyntax').every((x) => x.range.start.line >= 7 && x.range.start.line <= 12));
});

function syntaxExpectations(text: string) {
  const s = new LanguageService();
  const { td } = docOf(text);
  return s
    .findings(td)
    .filter((d) => d.code === 'YAMLSyntax')
    .map((d) => ({ text: td.getText(d.range), code: 'YAMLSyntax' }));
}

test('a YAML syntax error is reported with code YAMLSyntax', () => {
  const s = new LanguageService();
  const { td } = docOf('a: [1, 2\nb: c\n');
  const d = s.findings(td);
  assert.ok(d.length > 0 && d.every((x) => x.code === 'YAMLSyntax' && x.severity === 'error'));
});

test('CRD documents: NonStructural findings at the schema node, named in the message, with the API server path', () => {
  const crd = WIDGET_CRD.replace('            spec:\n              type: object\n', '            spec:\n');
  checkFindings(new LanguageService(), crd, [
    {
      // Versions with different schemas keep their v1 paths; the missing `type` is reported at the node's key.
      text: 'spec',
      code: 'FieldValueRequired',
      message: 'missing "type": must not be empty for specified object fields',
      apiMessage: 'spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields',
      line: 19,
    },
  ]);
});

test('single-version CRDs: the API server path is internal (spec.validation), the finding names the v1 path as written', () => {
  const text = readFileSync(join(__dirname, '../../examples/nonstructural-crd.yaml'), 'utf8');
  const d = checkFindings(new LanguageService(), text, [
    { text: 'spec', code: 'FieldValueRequired', message: 'missing "type"', apiMessage: 'spec.validation.openAPIV3Schema.properties[spec].type: Required value' },
    { text: 'color', code: 'FieldValueRequired', message: 'missing "type"', apiMessage: 'spec.validation.openAPIV3Schema.properties[spec].properties[color].type: Required value' },
  ]);
  assert.deepEqual(d.map((f) => f.field).sort(), ['spec.validation.openAPIV3Schema.properties[spec].properties[color].type', 'spec.validation.openAPIV3Schema.properties[spec].type']);
  assert.deepEqual(
    d.map((f) => f.path),
    [undefined, undefined],
    'the missing `type` is not written',
  );
  // The path of what exists is the v1 one.
  const { td } = docOf(text.replace('              properties:\n                size', '              type: object\n              x-kubernetes-list-type: set\n              properties:\n                size'));
  const s = new LanguageService();
  s.update(td);
  const lt = s.findings(td).find((f) => f.field === 'spec.validation.openAPIV3Schema.properties[spec].type')!;
  assert.ok(lt, JSON.stringify(s.findings(td).map((f) => f.apiMessage)));
  assert.equal(lt.message, 'Invalid value "object": must be array if x-kubernetes-list-type is specified');
  assert.equal(lt.path, 'spec.versions[0].schema.openAPIV3Schema.properties[spec].type');
});

test('CEL compile errors point inside the rule string: the compiler message and caret, no Go struct', () => {
  const crd = WIDGET_CRD.replace('self.replicas <= 5', 'self.nope <= 5');
  // An undefined field's range is its name (what the "did you mean" fix replaces).
  const d = checkFindings(new LanguageService(), crd, [{ text: 'nope', code: 'FieldValueInvalid', message: "undefined field 'nope'", apiMessage: '{"Rule":"self.nope \\u003c= 5"' }]);
  assert.equal(d[0].range.start.line, 24);
  // The compiler's words; cel-go's position prefix and caret are left to the API server's text.
  assert.equal(d[0].message, "undefined field 'nope'");
});

test('editing a CRD re-checks the CRs that use it', () => {
  const s = serviceWithCrd();
  const { td } = docOf(HEAD + 'spec:\n  size: small\n  replicas: 4\n');
  s.update(td);
  assert.equal(s.findings(td).length, 0);
  const changed = s.update(TextDocument.create(CRD_URI, 'yaml', 2, WIDGET_CRD.replace('self.replicas <= 5', 'self.replicas <= 3')));
  assert.deepEqual(s.dependents(changed), [td.uri]);
  assert.match(String(s.findings(td)[0]?.message), /too many replicas/);
  // An edit that does not change the CRD's meaning for others still re-resolves, but an unrelated file does not depend on it.
  assert.deepEqual(s.dependents(['other.example.com/Thing']), []);
});

test('CRDs from workspace files are used; an open document stands for its file, and another file open does not change which copy is used', () => {
  const s = new LanguageService();
  const strict = WIDGET_CRD.replace('self.replicas <= 5', 'self.replicas <= 1');
  s.indexDiskFile('file:///ws/disk.yaml', strict);
  assert.equal(s.crdCount, 1);
  const cr = HEAD + 'spec:\n  size: small\n  replicas: 2\n';
  checkFindings(s, cr, [{ text: 'spec', code: 'FieldValueInvalid', message: 'too many replicas' }]);
  // Another copy, open: disk.yaml comes first by path and stays in use.
  s.update(TextDocument.create('file:///ws/open.yaml', 'yaml', 1, WIDGET_CRD));
  checkFindings(s, cr, [{ text: 'spec', code: 'FieldValueInvalid' }]);
  s.close('file:///ws/open.yaml');
  // The file in use, open and edited: its edits are what objects are checked against.
  s.update(TextDocument.create('file:///ws/disk.yaml', 'yaml', 1, WIDGET_CRD));
  checkFindings(s, cr, []);
  s.close('file:///ws/disk.yaml');
  checkFindings(s, cr, [{ text: 'spec', code: 'FieldValueInvalid' }]);
});

test('a workspace file is indexed for CRDs however its kind is spelled: in full, or with escapes', () => {
  const s = new LanguageService();
  // A file of custom resources holds no CRD (indexed without a parse).
  assert.deepEqual(s.indexDiskFile('file:///ws/crs.yaml', HEAD + 'spec:\n  size: small\n'), []);
  assert.equal(s.crdCount, 0);
  // The kind written with a YAML escape is the same kind: the CRD is indexed.
  const escaped = WIDGET_CRD.replace(/^kind: CustomResourceDefinition$/m, 'kind: "Custom\\x52esourceDefinition"');
  assert.notEqual(escaped, WIDGET_CRD);
  assert.ok(!escaped.includes('CustomResourceDefinition'));
  s.indexDiskFile('file:///ws/escaped.yaml', escaped);
  assert.equal(s.crdCount, 1);
  checkFindings(s, HEAD + 'spec:\n  size: small\n  replicas: 9\n', [{ text: 'spec', code: 'FieldValueInvalid' }]);
});

test('an engine failure on one document is reported there and does not hide other findings', () => {
  // A CRD version without a schema is still a CRD (validation reports it); the CR beside it is still checked.
  const s = serviceWithCrd();
  const text = 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: x\nspec: 7\n---\n' + HEAD + 'spec:\n  size: nope\n';
  const { td } = docOf(text);
  s.update(td);
  const d = s.findings(td);
  assert.ok(d.some((x) => x.code === 'FieldValueNotSupported' && x.range.start.line === 11));
});

test('a CRD and its CRs in one file; edits elsewhere move cached findings with their documents', () => {
  const s = new LanguageService();
  const cr = (name: string, size: string) => `---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: ${name}\nspec:\n  size: ${size}\n`;
  const text = WIDGET_CRD + cr('a', 'small') + cr('b', 'huge');
  const td = TextDocument.create('file:///ws/all.yaml', 'yaml', 1, text);
  s.update(td);
  const before = s.findings(td).find((d) => d.code === 'FieldValueNotSupported')!;
  assert.equal(td.getText(before.range), 'huge');
  assert.equal(before.related?.[0].location.uri, td.uri);
  const crdLine = (line: number) => text.split('\n')[line];
  assert.equal(crdLine(before.related![0].location.range.start.line).trim(), 'size:');
  // Two lines inserted in the middle document: the finding below moves, its CRD location does not.
  const edited = WIDGET_CRD + cr('a', 'small').replace('spec:\n', 'spec:\n  # one\n  # two\n') + cr('b', 'huge');
  const td2 = TextDocument.create(td.uri, 'yaml', 2, edited);
  s.update(td2);
  const after = s.findings(td2).find((d) => d.code === 'FieldValueNotSupported')!;
  assert.equal(td2.getText(after.range), 'huge');
  assert.equal(after.range.start.line, before.range.start.line + 2);
  assert.deepEqual(after.related?.[0].location, before.related?.[0].location);
});

test('keystroke on a large CRD: the findings move with their node', () => {
  const s = new LanguageService();
  // A large CRD (long descriptions) with one NonStructural finding.
  const crd = WIDGET_CRD.replace('            spec:\n              type: object\n', '            spec:\n').replace('How big the widget is.', 'x'.repeat(120_000));
  let td = TextDocument.create('file:///ws/big.yaml', 'yaml', 1, crd);
  s.update(td);
  const full = s.findings(td);
  assert.deepEqual(
    full.map((d) => [d.code, td.getText(d.range)]),
    [['FieldValueRequired', 'spec']],
  );
  // Two lines inserted above: the finding moves with its node.
  td = TextDocument.create(td.uri, 'yaml', 2, crd.replace('  scope: Namespaced\n', '  scope: Namespaced\n  # a\n  # b\n'));
  s.update(td);
  assert.deepEqual(
    s.findings(td).map((d) => [d.code, td.getText(d.range), d.range.start.line]),
    [['FieldValueRequired', 'spec', full[0].range.start.line + 2]],
  );
});

test('CEL compile errors map into block, folded and single-quoted rule strings', () => {
  const cases: Array<[string, number, number]> = [
    ['- rule: |\n                    self.replicas <= 5 &&\n                    self.nope > 1', 26, 25],
    ['- rule: >-\n                    self.replicas <= 5 &&\n                    self.nope > 1', 26, 25],
    ["- rule: 'self.size == ''a'' && self.nope'", 24, 52],
  ];
  for (const [rule, line, character] of cases) {
    const d = checkFindings(new LanguageService(), WIDGET_CRD.replace('- rule: "self.replicas <= 5"', rule), [{ text: 'nope', code: 'FieldValueInvalid', message: "undefined field 'nope'" }]);
    assert.deepEqual(d[0].range.start, { line, character }, rule);
  }
});

test('a printer column finding lands on the jsonPath written in the version (the API server says JSONPath)', () => {
  const crd = [
    'apiVersion: apiextensions.k8s.io/v1',
    'kind: CustomResourceDefinition',
    'metadata: {name: gadgets.example.com}',
    'spec:',
    '  group: example.com',
    '  scope: Namespaced',
    '  names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}',
    '  versions:',
    '  - name: v1',
    '    served: true',
    '    storage: true',
    '    schema:',
    '      openAPIV3Schema: {type: object}',
    '    additionalPrinterColumns:',
    '    - name: Size',
    '      type: string',
    '      jsonPath: "spec[size"',
    '',
  ].join('\n');
  const [f] = checkFindings(new LanguageService(), crd, [{ text: '"spec[size"', code: 'FieldValueInvalid', line: 16 }]);
  assert.match(f.apiMessage ?? '', /^spec\.additionalPrinterColumns\[0\]\.JSONPath: Invalid value/);
});

test('a one-shot service (the CLI) keeps no custom resource checks, also after the Kubernetes version changes; the editor service keeps them', () => {
  for (const batch of [true, false]) {
    const svc = new LanguageService({}, { batch });
    svc.configure({ kubernetesMinor: 33 });
    svc.update(TextDocument.create(CRD_URI, 'yaml', 1, WIDGET_CRD));
    const { td } = docOf('apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: "big"\n');
    svc.update(td);
    const findings = svc.findings(td);
    assert.ok(
      findings.some((f) => f.code === 'FieldValueNotSupported'),
      JSON.stringify(findings.map((f) => f.code)),
    );
    // The same findings when asked again.
    assert.deepEqual(svc.findings(td), findings);
    const caches = (svc as unknown as { ctx: { caches: { oneShot: boolean; crChecks: { size: number } } } }).ctx.caches;
    assert.equal(caches.oneShot, batch);
    assert.equal(caches.crChecks.size, batch ? 0 : 1);
  }
});
