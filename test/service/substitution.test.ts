/**
 * `${VAR}` references of envsubst, Flux postBuild substitution and clusterctl templates: what they decide
 * is not reported, what the rest of the document says still is, in the editor and with `crd-yaml check`
 * alike; and the real cluster-api templates of the shared corpus check clean.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the YAML texts hold `${VAR}` references, not template literals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LanguageService } from '../../server/src/service/languageService';
import { runCli } from '../../server/src/cli/main';
import { defaultSharedDir } from '../conformance/runner';
import { needsShared } from '../shared';

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: fleets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: fleets, singular: fleet, kind: Fleet, listKind: FleetList}
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
            required: [clusterName]
            x-kubernetes-validations:
            - {rule: self.replicas <= 10, message: at most 10 replicas}
            properties:
              clusterName: {type: string, pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'}
              replicas: {type: integer, minimum: 0}
              mode: {type: string, enum: [a, b]}
              ports: {type: array, items: {type: integer}}
              size: {type: integer}
`;

/** A clusterctl-like template: every `${...}` value would be an error as written. */
const TEMPLATE = `apiVersion: example.com/v1
kind: Fleet
metadata:
  name: \${CLUSTER_NAME}-md-0
  namespace: '\${NAMESPACE:=default}'
  labels:
    cluster.x-k8s.io/cluster-name: \${CLUSTER_NAME}
    \${EXTRA_LABEL:-x}: "y"
spec:
  clusterName: \${CLUSTER_NAME}
  replicas: \${WORKER_MACHINE_COUNT:-1}
  mode: \${MODE}
  ports: [\${PORT}]
  size: big
`;

function withService(files: Record<string, string>): { s: LanguageService; docs: Record<string, TextDocument> } {
  const s = new LanguageService();
  const docs: Record<string, TextDocument> = {};
  for (const [name, text] of Object.entries(files)) {
    docs[name] = TextDocument.create(`file:///ws/${name}`, 'yaml', 1, text);
    s.update(docs[name]);
  }
  return { s, docs };
}

const brief = (fs: { range: { start: { line: number } }; code: string; apiMessage?: string; message: string }[]) => fs.map((f) => `${f.range.start.line + 1}: ${f.code}: ${f.apiMessage ?? f.message}`);

function cli(argv: string[], cwd: string): { code: number; out: string } {
  let out = '';
  const code = runCli(argv, { stdout: (x) => (out += x), stderr: (x) => (out += x), cwd });
  if (typeof code !== 'number') throw new Error('check answered asynchronously');
  return { code, out };
}

test('a clusterctl template: findings on ${...} values and keys go, the literal error stays (editor and CLI)', () => {
  const { s, docs } = withService({ 'crd.yaml': CRD, 'fleet.yaml': TEMPLATE });
  const found = brief(s.findings(docs['fleet.yaml']));
  assert.deepEqual(found, ['14: FieldValueTypeInvalid: spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"']);
  // The same object without the references: the values decide, and are reported.
  const literal = TEMPLATE.replace(/\$\{[^}]*\}/g, 'BAD_VALUE');
  const lit = withService({ 'crd.yaml': CRD, 'fleet.yaml': literal });
  const codes = s.findings(lit.docs['fleet.yaml']).map((f) => f.field);
  for (const field of ['metadata.name', 'spec.clusterName', 'spec.replicas', 'spec.mode', 'spec.ports[0]']) assert.ok(codes.includes(field), `${field} in ${codes.join(', ')}`);

  const dir = mkdtempSync(join(tmpdir(), 'crd-yaml-subst-'));
  try {
    writeFileSync(join(dir, 'crd.yaml'), CRD);
    writeFileSync(join(dir, 'fleet.yaml'), TEMPLATE);
    const r = cli(['check', '--crd', 'crd.yaml', 'fleet.yaml'], dir);
    assert.equal(r.code, 1, r.out);
    assert.deepEqual(
      r.out.split('\n').filter((l) => l.startsWith('fleet.yaml')),
      [
        'fleet.yaml:14:9: error: spec.size: Invalid value: "string": spec.size in body must be of type integer: "string" [FieldValueTypeInvalid spec.size]',
        'fleet.yaml:14:9: note: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
      ],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('${...} only in a comment or nowhere near: the document is checked in full; YAML syntax errors stay', () => {
  const { s, docs } = withService({
    'crd.yaml': CRD,
    'a.yaml': 'apiVersion: example.com/v1\nkind: Fleet\nmetadata:\n  name: a # for ${CLUSTER_NAME}\nspec:\n  clusterName: c\n  replicas: 11\n',
    'b.yaml': 'apiVersion: example.com/v1\nkind: Fleet\nmetadata:\n  name: ${NAME}\nspec:\n  clusterName: c\n  mode: [a\n',
  });
  // Nothing the substitution decides: the rule over the whole spec is reported.
  assert.deepEqual(brief(s.findings(docs['a.yaml'])), ['5: FieldValueInvalid: spec: Invalid value: at most 10 replicas']);
  // A document with only substitution references is YAML as written: its syntax errors are reported.
  assert.ok(
    s.findings(docs['b.yaml']).some((f) => f.code === 'YAMLSyntax'),
    brief(s.findings(docs['b.yaml'])).join('\n'),
  );
});

test('a Flux-substituted resource: the Kustomization CRD (its descriptions hold ${var}) is used, substituted values are not reported', { skip: needsShared('realworld', 'crds', 'flux') }, () => {
  const shared = defaultSharedDir();
  const crdFile = join(shared, 'realworld', 'crds', 'flux', 'kustomize.toolkit.fluxcd.io_kustomizations.yaml');
  const crd = readFileSync(crdFile, 'utf8');
  assert.match(crd, /\$\{var:=default\}/);
  const ks = `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: apps-\${cluster_env:=dev}
  namespace: flux-system
spec:
  interval: \${RECONCILE_INTERVAL:=10m}
  path: ./apps/\${cluster_env}
  prune: \${PRUNE:=true}
  sourceRef:
    kind: GitRepository
    name: flux-system
  timeout: forever
`;
  // The CRD open in the editor (parsed as the file is written, with its `${var}` description).
  const { s, docs } = withService({ 'kustomizations.yaml': crd, 'apps.yaml': ks });
  assert.deepEqual(
    s.findings(docs['kustomizations.yaml']).filter((f) => f.severity === 'error'),
    [],
  );
  const found = s.findings(docs['apps.yaml']);
  assert.deepEqual(
    found.map((f) => `${f.range.start.line + 1}: ${f.field}`),
    ['13: spec.timeout'],
    brief(found).join('\n'),
  );
  // The CRD is the one in use: hover on a field shows its description.
  const hover = s.hover(docs['apps.yaml'], docs['apps.yaml'].positionAt(ks.indexOf('interval')));
  assert.match(String((hover?.contents as { value?: string })?.value), /The interval at which to reconcile the Kustomization/);
});

test('the cluster-api templates of the shared corpus: no errors from their ${...} values', { skip: needsShared('realworld', 'samples', 'cluster-api') }, () => {
  const shared = defaultSharedDir();
  const rw = join(shared, 'realworld');
  const files = [
    'e2e_data_infrastructure-docker_main_bases_cluster-with-kcp.yaml',
    'e2e_data_infrastructure-docker_main_bases_cluster-with-topology.yaml',
    'e2e_data_infrastructure-docker_main_cluster-template-ipv6_md-ipv6.yaml',
  ];
  const r = cli(['check', '--crd', join(rw, 'crds', 'cluster-api'), ...files.map((f) => join(rw, 'samples', 'cluster-api', f))], shared);
  assert.match(r.out, /crd-yaml: 3 files, 6 documents: 0 errors, 0 warnings/, r.out);
  assert.equal(r.code, 0);
  // The objects were checked (a known kind), not skipped.
  const s = new LanguageService();
  for (const f of ['cluster.x-k8s.io_clusters.yaml', 'controlplane.cluster.x-k8s.io_kubeadmcontrolplanes.yaml']) {
    const p = join(rw, 'crds', 'cluster-api', f);
    s.indexDiskFile(pathToFileURL(p).href, readFileSync(p, 'utf8'));
  }
  const kcp = join(rw, 'samples', 'cluster-api', files[0]);
  const td = TextDocument.create(pathToFileURL(kcp).href, 'yaml', 1, readFileSync(kcp, 'utf8'));
  assert.deepEqual(
    s.findings(td).filter((f) => f.severity !== 'information'),
    [],
  );
  // Without the references (as substituted with values that are invalid), the same objects have errors.
  const bad = TextDocument.create('file:///ws/bad.yaml', 'yaml', 1, td.getText().replace(/\$\{[^}]*\}/g, 'Not_A_Name'));
  assert.ok(
    s.findings(bad).some((f) => f.severity === 'error' && f.field === 'metadata.name'),
    'a literal invalid name is reported',
  );
});
