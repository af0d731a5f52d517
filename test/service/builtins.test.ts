/**
 * Built-in kinds checked as custom resources are (service/builtins.ts, engine/builtin/object.ts): the
 * schema of the target Kubernetes version, strict decoding, the quick fixes, hover and completion, the
 * opt-out, and what kustomize and Helm supply left alone.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LanguageService } from '../../server/src/service/languageService';
import { checkFindings, checkFixesRemove, completionsAt, docOf, hoverAt } from './helpers';

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx
`;

test('a valid Deployment, Service and ConfigMap have no findings; nulls read as unset, as Go decodes them', () => {
  const s = new LanguageService();
  checkFindings(s, DEPLOYMENT, []);
  checkFindings(
    s,
    `apiVersion: v1
kind: Service
metadata: {name: web, creationTimestamp: null}
spec:
  selector: {app: web}
  ipFamilies: null
  ports: [{port: 80, targetPort: http, protocol: ""}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg}
data: {a: "1"}
`,
    [],
  );
});

test('unknown fields, types, enums and quantities of a built-in object, as the API server answers them', () => {
  const s = new LanguageService();
  checkFindings(
    s,
    DEPLOYMENT.replace('replicas: 2', 'replicas: "2"').replace(
      '        image: nginx\n',
      '        image: nginx\n        imagePullPolicy: Sometimes\n        workingDirr: /app\n        resources: {limits: {cpu: 0.5, memory: 1Gx}, requests: {cpu: true}}\n',
    ),
    [
      { text: '"2"', code: 'FieldValueTypeInvalid', apiMessage: 'spec.replicas in body must be of type integer' },
      { text: 'Sometimes', code: 'FieldValueNotSupported', apiMessage: 'supported values: "Always", "IfNotPresent", "Never"' },
      { text: 'workingDirr', code: 'UnknownField', severity: 'error', message: 'did you mean "workingDir"', apiMessage: 'strict decoding error: unknown field "spec.template.spec.containers[0].workingDirr"' },
      { text: '1Gx', code: 'FieldValueInvalid', apiMessage: 'should match' },
      // cpu: true is neither of the quantity's JSON types (a string or a number); the oneOf error has no
      // field (<nil>), as the API server prints it, and sits on the object's kind.
      { text: 'true', code: 'FieldValueTypeInvalid', apiMessage: 'must be of type string' },
      { text: 'kind', code: 'FieldValueInvalid', apiMessage: 'must validate one and only one schema (oneOf)' },
    ],
  );
});

test('crdYaml.builtins off: built-in objects are not checked, as before', () => {
  const s = new LanguageService({ builtins: false });
  checkFindings(s, DEPLOYMENT.replace('replicas: 2', 'replicas: "2"'), []);
  const { td } = docOf(DEPLOYMENT);
  s.update(td);
  assert.deepEqual(s.coverage(td), [{ notChecked: 'builtinKind', group: 'apps', kind: 'Deployment', apiVersion: 'apps/v1' }]);
  s.configure({ builtins: true });
  assert.deepEqual(s.coverage(td), [{ checked: 'builtinObject' }]);
});

test('--kubernetes-version: a field added after 1.30 is unknown at 1.30 and accepted at 1.37', () => {
  // PodSpec.hostnameOverride appeared in Kubernetes 1.34.
  const pod = `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  hostnameOverride: node-a
  containers: [{name: c, image: x}]
`;
  checkFindings(new LanguageService({ kubernetesMinor: 30 }), pod, [{ text: 'hostnameOverride', code: 'UnknownField', apiMessage: 'unknown field "spec.hostnameOverride"' }]);
  checkFindings(new LanguageService({ kubernetesMinor: 37 }), pod, []);
});

test('a deprecated pre-release version is a warning with its replacement; once removed, the API server has no such kind', () => {
  const fs = `apiVersion: flowcontrol.apiserver.k8s.io/v1beta3
kind: FlowSchema
metadata: {name: x}
spec: {priorityLevelConfiguration: {name: x}}
`;
  checkFindings(new LanguageService({ kubernetesMinor: 30 }), fs, [
    {
      text: 'flowcontrol.apiserver.k8s.io/v1beta3',
      code: 'DeprecatedVersion',
      severity: 'warning',
      apiMessage: 'flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is deprecated in v1.29+, unavailable in v1.32+; use flowcontrol.apiserver.k8s.io/v1 FlowSchema',
    },
  ]);
  checkFindings(new LanguageService({ kubernetesMinor: 37 }), fs, [
    { text: 'FlowSchema', code: 'NoKindMatch', severity: 'error', apiMessage: 'no matches for kind "FlowSchema" in version "flowcontrol.apiserver.k8s.io/v1beta3"' },
  ]);
});

test('quick fixes on built-in objects: rename an unknown field, the closest enum value', () => {
  const s = new LanguageService();
  const typo = DEPLOYMENT.replace('replicas: 2', 'replicaz: 2');
  const [renamed] = checkFixesRemove(s, typo, 'UnknownField');
  assert.match(renamed, /^ {2}replicas: 2$/m);
  const [fixed] = checkFixesRemove(s, DEPLOYMENT.replace('image: nginx', 'image: nginx\n        imagePullPolicy: IfNotPresnt'), 'FieldValueNotSupported');
  assert.match(fixed, /imagePullPolicy: IfNotPresent$/m);
});

test('hover and completion read the built-in schema', () => {
  const s = new LanguageService();
  assert.match(hoverAt(s, DEPLOYMENT.replace('replicas: 2', 'repl<|>icas: 2')), /Number of desired pods/);
  const labels = completionsAt(s, DEPLOYMENT.replace('  replicas: 2\n', '  replicas: 2\n  <|>\n')).map((c) => c.label);
  assert.ok(labels.includes('strategy') && labels.includes('minReadySeconds'), labels.join(', '));
});

test('kustomize: a resource is not asked for what kustomize adds (commonLabels: the selector); a *_patch.yaml is a partial object', () => {
  const s = new LanguageService();
  const noSelector = DEPLOYMENT.replace('  selector:\n    matchLabels: {app: web}\n', '');
  const uri = 'file:///ws/base/deployment.yaml';
  s.setFileContext(uri, { kustomize: 'tree' });
  const td = TextDocument.create(uri, 'yaml', 1, noSelector);
  s.update(td);
  assert.deepEqual(
    s.findings(td).map((f) => f.code),
    [],
  );
  const patchUri = 'file:///ws/default/manager_auth_proxy_patch.yaml';
  s.setFileContext(patchUri, { kustomize: 'tree' });
  const patch = TextDocument.create(
    patchUri,
    'yaml',
    1,
    'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: m}\nspec:\n  template:\n    spec:\n      containers:\n      - name: proxy\n        imagePullPolicy: Sometimes\n',
  );
  s.update(patch);
  assert.deepEqual(
    s.findings(patch).map((f) => f.code),
    ['FieldValueNotSupported'],
  );
  assert.deepEqual(s.coverage(patch), [{ checked: 'partialObject' }]);
  // Without a kustomization around it, the same Deployment lacks its selector.
  checkFindings(s, noSelector, [
    { text: 'spec', code: 'FieldValueRequired', apiMessage: 'spec.selector: Required value' },
    { text: '{app: web}', code: 'FieldValueInvalid', apiMessage: '`selector` does not match template `labels`' },
  ]);
});

test('Helm templates: what the literal YAML decides is judged; a check across fields the template fills in is not', () => {
  const s = new LanguageService();
  const uri = 'file:///ws/chart/templates/deployment.yaml';
  s.setFileContext(uri, { helmTemplate: true });
  // DEPLOYMENT, named by the release, with a mount of a volume the values supply.
  const text = `${DEPLOYMENT.replace('name: web\nspec:', 'name: {{ .Release.Name }}\nspec:')}        imagePullPolicy: Sometimes
        volumeMounts:
        - {name: config, mountPath: /etc/config}
      volumes:
      {{- toYaml .Values.volumes | nindent 6 }}
`;
  const td = TextDocument.create(uri, 'yaml', 1, text);
  s.update(td);
  // The volume named by the mount comes from the values: only the literal enum is judged.
  assert.deepEqual(
    s.findings(td).map((f) => `${f.code} ${td.getText(f.range)}`),
    ['FieldValueNotSupported Sometimes'],
  );
  // Without a template, the same mount of no volume is the API server's NotFound.
  checkFindings(s, text.replace('{{ .Release.Name }}', 'web').replace(/ {6}volumes:\n.*\n/, ''), [
    { text: 'Sometimes', code: 'FieldValueNotSupported' },
    { text: 'config', code: 'FieldValueNotFound', apiMessage: 'volumeMounts[0].name: Not found: "config"' },
  ]);
});

test('quick fix on a built-in object: add a required field', () => {
  const s = new LanguageService();
  const service = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n  - name: http\n    targetPort: 8080\n';
  const [added] = checkFixesRemove(s, service, 'FieldValueRequired');
  assert.match(added, /^ {4}port: /m);
});

test("a version Kubernetes removed is refused with its replacement at any target version, from k8s.io/api's lifecycle", () => {
  const pdb = 'apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: p}\nspec: {minAvailable: 1}\n';
  for (const kubernetesMinor of [30, 37])
    checkFindings(new LanguageService({ kubernetesMinor }), pdb, [
      {
        text: 'PodDisruptionBudget',
        code: 'NoKindMatch',
        severity: 'error',
        message: '(removed in Kubernetes 1.25: use policy/v1 PodDisruptionBudget)',
        apiMessage: 'no matches for kind "PodDisruptionBudget" in version "policy/v1beta1"',
      },
    ]);
});

test("go to definition: a built-in object's field leads to its schema node in the kind's schemas, written once to the cache folder (read-only)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crd-yaml-builtin-def-'));
  try {
    const s = new LanguageService();
    const at = (marked: string) => {
      const { td, pos } = docOf(marked);
      s.update(td);
      return s.definition(td, pos);
    };
    const marked = DEPLOYMENT.replace('- name: web', '- na<|>me: web');
    // Without a folder to write to there is no file to go to.
    assert.deepEqual(at(marked), []);
    s.setBuiltinSchemaDir(dir);
    const [loc] = at(marked);
    const file = fileURLToPath(loc.uri);
    assert.equal(path.relative(dir, file), path.join('kubernetes-1.37', 'apps', 'deployment.yaml'));
    assert.equal(fs.statSync(file).mode & 0o222, 0);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    assert.equal(lines[loc.range.start.line].trim(), 'name:');
    // The node is the container's `name` (its description), not another field's of that name.
    assert.match(lines.slice(loc.range.start.line, loc.range.start.line + 4).join('\n'), /Name of the container specified as a DNS_LABEL/);
    const [kind] = at(DEPLOYMENT.replace('kind: Deployment', 'kind: Deplo<|>yment'));
    assert.equal(kind.uri, loc.uri);
    assert.equal(lines[kind.range.start.line].trim(), 'kind: Deployment');
    // Opened in the editor, the written file is neither a CRD of the workspace (the Deployment stays a
    // built-in object: its handwritten checks still run) nor checked.
    const written = TextDocument.create(loc.uri, 'yaml', 1, fs.readFileSync(file, 'utf8'));
    s.update(written);
    assert.deepEqual(s.findings(written), []);
    checkFindings(s, DEPLOYMENT.replace('- name: web', '- name: Web'), [{ text: 'Web', code: 'FieldValueInvalid', apiMessage: 'spec.template.spec.containers[0].name: Invalid value' }]);
    // Another Kubernetes version: another file.
    s.configure({ kubernetesMinor: 30 });
    assert.match(fileURLToPath(at(marked)[0].uri), /kubernetes-1\.30/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
