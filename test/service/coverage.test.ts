/**
 * What of a file was checked and why the rest was not (service/coverage.ts): one answer per document,
 * read by the CLI's summary and by the editor's "not checked" information (crdYaml.unknownKinds).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { FileContext, ServiceSettings } from '../../server/src/service/context';
import { CRD_URI, WIDGET_CRD, serviceWithCrd } from './helpers';
import { LanguageService } from '../../server/src/service/languageService';

const WIDGET = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: small\n';
const CERT = 'apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata:\n  name: c\n';
const GATEWAY = 'apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: g\n';
const POD = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n';

/** The coverage of a file's documents, as `reason` words (checked: `crd`, `customResource`, ...). */
function coverageOf(s: LanguageService, uri: string, text: string, fc?: FileContext): string[] {
  if (fc) s.setFileContext(uri, fc);
  const td = TextDocument.create(uri, 'yaml', 1, text);
  s.update(td);
  return s.coverage(td).map((c) => ('checked' in c ? `checked:${c.checked}` : c.notChecked));
}

test('coverage of each document: checked (CRD, custom resource, unserved kind) or not checked, with the reason', () => {
  const s = serviceWithCrd();
  assert.deepEqual(coverageOf(s, CRD_URI, WIDGET_CRD), ['checked:crd']);
  const mixed = [WIDGET, CERT, POD, 'apiVersion: apps/v1\nkind: Deploymnet\n', '- a list\n', 'a: values file\n'].join('---\n');
  assert.deepEqual(coverageOf(s, 'file:///ws/mixed.yaml', mixed), ['checked:customResource', 'noCrd', 'checked:builtinObject', 'checked:unservedKind', 'notObject', 'notObject']);
  // crdYaml.builtins off: a built-in kind is not checked.
  assert.deepEqual(coverageOf(serviceWithCrd({ builtins: false }), 'file:///ws/mixed.yaml', mixed), ['checked:customResource', 'noCrd', 'builtinKind', 'checked:unservedKind', 'notObject', 'notObject']);
  // A Widget whose version the CRD does not serve is still checked: the API server refuses it.
  assert.deepEqual(coverageOf(s, 'file:///ws/v9.yaml', WIDGET.replace('v1', 'v9')), ['checked:customResource']);
  assert.deepEqual(coverageOf(s, 'file:///ws/broken.yaml', `${WIDGET}spec: [\n`), ['yamlError']);
});

test('coverage: client-side tools, templates and patches that are not objects are not checked, each for its reason; test assertions and patches of objects are checked as partial objects', () => {
  const s = serviceWithCrd();
  assert.deepEqual(coverageOf(s, 'file:///ws/kustomization.yaml', 'resources:\n- a.yaml\n'), ['clientSide']);
  assert.deepEqual(coverageOf(s, 'file:///ws/chart/Chart.yaml', 'apiVersion: v2\nname: c\nversion: 0.1.0\n'), ['clientSide']);
  assert.deepEqual(coverageOf(s, 'file:///ws/k.yaml', 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n'), ['clientSide']);
  assert.deepEqual(coverageOf(s, 'file:///ws/kind.yaml', 'apiVersion: kind.x-k8s.io/v1alpha4\nkind: Cluster\n'), ['clientSide']);
  // A group without a dot can be no CRD's (the API server requires a domain): a tool's file (skaffold).
  assert.deepEqual(coverageOf(s, 'file:///ws/skaffold.yaml', 'apiVersion: skaffold/v4beta11\nkind: Config\n'), ['clientSide']);
  assert.deepEqual(coverageOf(s, 'file:///ws/kubeconfig.yaml', 'apiVersion: v1\nkind: Config\n'), ['clientSide']);
  // The template decides apiVersion and kind: nothing to check; a literal kind with a templated value is checked.
  const t = 'apiVersion: {{ .Values.api }}\nkind: {{ .Values.kind }}\nmetadata:\n  name: x\n';
  assert.deepEqual(coverageOf(s, 'file:///ws/chart/templates/t.yaml', t, { helmTemplate: true }), ['template']);
  assert.deepEqual(coverageOf(s, 'file:///ws/chart/templates/w.yaml', WIDGET.replace('small', '{{ .Values.size }}'), { helmTemplate: true }), ['checked:customResource']);
  const ignoring = serviceWithCrd({ templates: 'ignore' });
  assert.deepEqual(coverageOf(ignoring, 'file:///ws/chart/templates/w.yaml', WIDGET.replace('small', '{{ .Values.size }}'), { helmTemplate: true }), ['template']);
  assert.deepEqual(coverageOf(s, 'file:///ws/ops.yaml', '- op: replace\n  path: /spec/size\n  value: large\n', { patch: 'json6902' }), ['patch']);
  assert.deepEqual(coverageOf(s, 'file:///ws/crd-patch.yaml', 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\n', { patch: 'partial' }), ['patch']);
  // A strategic-merge patch of a custom resource is checked as a partial object.
  assert.deepEqual(coverageOf(s, 'file:///ws/w-patch.yaml', WIDGET, { patch: 'partial' }), ['checked:partialObject']);
  assert.deepEqual(coverageOf(s, 'file:///ws/e2e/01-assert.yaml', WIDGET, { testTool: { tool: 'kuttl', role: 'assertion' } }), ['checked:partialObject']);
});

test('coverage: an object whose CRD has YAML errors, and a built-in kind of a Kubernetes older than the built-in table', () => {
  const s = new LanguageService();
  s.update(TextDocument.create(CRD_URI, 'yaml', 1, WIDGET_CRD.replace('  scope: Namespaced', '  scope: Namespaced\n  bad: [')));
  assert.deepEqual(coverageOf(s, 'file:///ws/w.yaml', WIDGET), ['crdUnreadable']);
  const old = new LanguageService({ kubernetesMinor: 30 });
  assert.deepEqual(coverageOf(old, 'file:///ws/d.yaml', 'apiVersion: apps/v1\nkind: Deploymnet\n'), ['builtinKind']);
});

test('a built-in version the API server does not serve is refused only as it would be sent: not a chart adapting to the cluster, not a patch', () => {
  const s = serviceWithCrd({ builtins: false });
  // helm renders policy/v1 on a current cluster (Capabilities), or the else branch is the old one: not sent as written.
  const capabilities = '{{- if .Capabilities.APIVersions.Has "policy/v1" }}\napiVersion: policy/v1\n{{- else }}\napiVersion: policy/v1beta1\n{{- end }}\nkind: PodDisruptionBudget\nmetadata:\n  name: p\n';
  assert.deepEqual(coverageOf(s, 'file:///ws/chart/templates/pdb.yaml', capabilities, { helmTemplate: true }), ['template']);
  const elseBranch = '{{- if .Values.modern }}\napiVersion: policy/v1\n{{- else }}\napiVersion: policy/v1beta1\n{{- end }}\nkind: PodDisruptionBudget\nmetadata:\n  name: p\n';
  assert.deepEqual(coverageOf(s, 'file:///ws/chart/templates/pdb2.yaml', elseBranch, { helmTemplate: true }), ['template']);
  // Rendered as written when enabled: a Kubernetes 1.25+ API server answers `no matches for kind
  // "PodDisruptionBudget" in version "policy/v1beta1"`.
  const gated = '{{- if .Values.pdb.enabled }}\napiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata:\n  name: p\n{{- end }}\n';
  assert.deepEqual(coverageOf(s, 'file:///ws/chart/templates/pdb3.yaml', gated, { helmTemplate: true }), ['checked:unservedKind']);
  // kubebuilder's config/default/webhookcainjection_patch.yaml, usually commented out of its kustomization.
  const patch = 'apiVersion: admissionregistration.k8s.io/v1beta1\nkind: MutatingWebhookConfiguration\nmetadata:\n  name: m\n';
  assert.deepEqual(coverageOf(s, 'file:///ws/config/default/webhookcainjection_patch.yaml', patch), ['patch']);
  assert.deepEqual(coverageOf(s, 'file:///ws/config/default/webhooks.yaml', patch), ['checked:unservedKind']);
  // With the built-in kinds checked, the branch a current API server serves is the one checked.
  const builtins = serviceWithCrd();
  assert.deepEqual(coverageOf(builtins, 'file:///ws/chart/templates/pdb.yaml', capabilities, { helmTemplate: true }), ['checked:builtinObject']);
  assert.deepEqual(coverageOf(builtins, 'file:///ws/chart/templates/pdb2.yaml', elseBranch, { helmTemplate: true }), ['checked:builtinObject']);
  assert.deepEqual(coverageOf(builtins, 'file:///ws/chart/templates/pdb3.yaml', gated, { helmTemplate: true }), ['checked:unservedKind']);
});

/** The information findings of a file under an unknownKinds setting. */
function notChecked(settings: Partial<ServiceSettings>, uri: string, text: string, fc?: FileContext): Array<{ line: number; text: string; message: string }> {
  const s = serviceWithCrd(settings);
  if (fc) s.setFileContext(uri, fc);
  const td = TextDocument.create(uri, 'yaml', 1, text);
  s.update(td);
  return s
    .findings(td)
    .filter((f) => f.code === 'UnknownKind' || f.code === 'TemplateKind')
    .map((f) => ({ line: f.range.start.line, text: td.getText(f.range), message: f.message }));
}

test('unknownKinds file (the editor default): one information per file, at the kind of its first object with no CRD', () => {
  const text = [POD, WIDGET, CERT, GATEWAY, CERT].join('---\n');
  assert.deepEqual(notChecked({ unknownKinds: 'file' }, 'file:///ws/app.yaml', text), [
    { line: 13, text: 'Certificate', message: 'cert-manager.io/Certificate not checked: no CRD known for it (nor for 2 more objects of this file)' },
  ]);
  assert.deepEqual(notChecked({ unknownKinds: 'file' }, 'file:///ws/one.yaml', CERT), [{ line: 1, text: 'Certificate', message: 'cert-manager.io/Certificate not checked: no CRD known for it' }]);
  // Nothing for built-in kinds, client-side files, templates, patches; nothing with ignore.
  for (const [uri, t, fc] of [
    ['file:///ws/pod.yaml', POD, undefined],
    ['file:///ws/kustomization.yaml', 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n', undefined],
    ['file:///ws/chart/templates/t.yaml', 'apiVersion: {{ .Values.api }}\nkind: {{ .Values.kind }}\n', { helmTemplate: true }],
    ['file:///ws/ops.yaml', '- op: add\n  path: /a\n  value: 1\n', { patch: 'json6902' as const }],
    // A patch of an object with no CRD, and a chart's object: said by hint, not once per file.
    ['file:///ws/overlay/cert-patch.yaml', CERT, { patch: 'partial' as const }],
    ['file:///ws/chart/templates/cert.yaml', CERT.replace('name: c', 'name: {{ .Release.Name }}'), { helmTemplate: true }],
  ] as const)
    assert.deepEqual(notChecked({ unknownKinds: 'file' }, uri, t, fc), [], uri);
  assert.deepEqual(notChecked({ unknownKinds: 'ignore' }, 'file:///ws/app.yaml', text), []);
  // hint: each object, and each document a template decides.
  assert.deepEqual(
    notChecked({ unknownKinds: 'hint' }, 'file:///ws/app.yaml', text).map((f) => f.line),
    [13, 18, 23],
  );
  assert.deepEqual(notChecked({ unknownKinds: 'hint' }, 'file:///ws/chart/templates/t.yaml', 'apiVersion: {{ .Values.api }}\nkind: {{ .Values.kind }}\n', { helmTemplate: true }), [
    { line: 0, text: 'apiVersion: {{ .Values.api }}', message: 'not checked: the template decides what this document is (its apiVersion or kind)' },
  ]);
});

test('unknownKinds: changing the setting changes the findings of a document already checked (no stale cache)', () => {
  const s = serviceWithCrd({ unknownKinds: 'ignore' });
  const td = TextDocument.create('file:///ws/app.yaml', 'yaml', 1, CERT);
  s.update(td);
  assert.equal(s.findings(td).length, 0);
  s.configure({ unknownKinds: 'file' });
  assert.deepEqual(
    s.findings(td).map((f) => f.code),
    ['UnknownKind'],
  );
  const t = TextDocument.create('file:///ws/chart/templates/t.yaml', 'yaml', 1, 'apiVersion: {{ .Values.api }}\nkind: x\n');
  s.setFileContext(t.uri, { helmTemplate: true });
  s.update(t);
  assert.equal(s.findings(t).length, 0);
  s.configure({ unknownKinds: 'hint' });
  assert.deepEqual(
    s.findings(t).map((f) => f.code),
    ['TemplateKind'],
  );
});
