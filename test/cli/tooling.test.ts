/**
 * `crd-yaml check .` on repositories built around other tools (issue 22), each judged as the tool that
 * consumes it would send it to the API server: kubebuilder's scaffold (kustomize), Kyverno Chainsaw and
 * kuttl tests, a kind of another project's CRD in a known group, kustomize vars. Each fixture repository
 * (test/fixtures/tooling/<name>) checks clean; a real mistake planted in the same kind of file (in a copy)
 * is still reported where the tool would send it.
 *
 * The answers quoted in the comments are kube-apiserver 1.37.2's (and kubectl's, kustomize's), for the
 * fixtures with their group renamed: `kubectl kustomize` for what kustomize builds, `kubectl apply
 * --dry-run=server` for what it sends, `kubectl patch --type merge --dry-run=server` for a merge patch,
 * and the resources of the Chainsaw test with its expressions evaluated by hand as chainsaw would.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../server/src/cli/main';

const TOOLING = path.resolve(__dirname, '..', 'fixtures', 'tooling');

async function check(cwd: string, ...extra: string[]): Promise<{ code: number; lines: string[]; summary: string }> {
  let out = '';
  let err = '';
  const code = await runCli(['check', ...extra, '.'], { stdout: (s) => (out += s), stderr: (s) => (err += s), cwd });
  return { code, lines: out.split('\n').filter((l) => l !== ''), summary: err.trim() };
}

const copies: string[] = [];
after(() => {
  for (const d of copies) fs.rmSync(d, { recursive: true, force: true });
});

/** A copy of a fixture repository with some files written over or added. */
function plant(repo: string, files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `crd-yaml-${repo}-`));
  copies.push(dir);
  fs.cpSync(path.join(TOOLING, repo), dir, { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

const read = (repo: string, rel: string) => fs.readFileSync(path.join(TOOLING, repo, rel), 'utf8');

test('kubebuilder scaffold: the CRD patches its kustomization leaves commented out are patches, not CRDs', async () => {
  // kustomize build config/default sends the CRD of config/crd/bases only (the patch entries are
  // commented out): the API server creates it. The patches are never sent alone.
  const clean = await check(path.join(TOOLING, 'kubebuilder'));
  assert.deepEqual(clean.lines, []);
  assert.match(clean.summary, /: 0 errors, 0 warnings/);
  assert.equal(clean.code, 0);

  const dir = plant('kubebuilder', {
    // A resource of the tree, sent by kustomize build config/samples as written; the API server answers
    // `The Widget "widget-sample" is invalid: spec.size: Invalid value: 12: spec.size in body should be
    // less than or equal to 10`.
    'config/samples/example_v1_widget.yaml': read('kubebuilder', 'config/samples/example_v1_widget.yaml').replace('size: 3', 'size: 12'),
    // Named as a scaffold patch but a whole CRD (spec.group and spec.versions): kubectl apply -f sends
    // it as one, and the API server answers `The CustomResourceDefinition "gadgets.example.com" is
    // invalid: spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"`.
    'config/crd/patches/webhook_in_gadgets.yaml': read('kubebuilder', 'config/crd/bases/example.com_widgets.yaml')
      .replaceAll('widget', 'gadget')
      .replaceAll('Widget', 'Gadget')
      .replace('scope: Namespaced', 'scope: Global'),
    // The scaffold's patch outside any kustomize tree, where only kubectl apply -f would send it: the
    // API server answers `The CustomResourceDefinition "widgets.example.com" is invalid:` with 9 causes,
    // `metadata.name: Invalid value: "widgets.example.com": must be spec.names.plural+"."+spec.group`,
    // `spec.group: Required value`, `spec.scope: Required value`, ... `status.storedVersions`.
    'hack/webhook_in_widgets.yaml': read('kubebuilder', 'config/crd/patches/webhook_in_widgets.yaml'),
  });
  const r = await check(dir);
  assert.deepEqual(
    r.lines.filter((l) => !l.startsWith('hack/')),
    [
      'config/crd/patches/webhook_in_gadgets.yaml:7:10: error: spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced" [FieldValueNotSupported spec.scope]',
      'config/samples/example_v1_widget.yaml:7:9: error: spec.size: Invalid value: 12: spec.size in body should be less than or equal to 10 [FieldValueInvalid spec.size]',
    ],
  );
  const hack = r.lines.filter((l) => l.startsWith('hack/'));
  assert.ok(
    hack.some((l) => l.includes('spec.group: Required value')),
    hack.join('\n'),
  );
  assert.equal(r.code, 1);
});

test("Chainsaw: resources are sent with their expressions evaluated, assertions are compared, the test is chainsaw's own", async () => {
  // chainsaw test tests/e2e sends 00-widget.yaml with `($namespace)` replaced by the test's namespace
  // and `(to_number(env('WIDGET_SIZE')))` by a number: the API server creates it (`widget created`).
  // The assertion and error files are never sent (chainsaw reads the Widget and compares);
  // 01-resize.yaml is a merge patch (`widget patched`); chainsaw-test.yaml and .chainsaw.yaml are
  // chainsaw's own.
  const clean = await check(path.join(TOOLING, 'chainsaw'), '--unknown-kinds', 'hint');
  assert.deepEqual(clean.lines, []);
  assert.match(clean.summary, /: 0 errors, 0 warnings, 0 info; checked .*5 partial objects \(patches, test assertions\)/);

  const dir = plant('chainsaw', {
    // Applied with its expressions evaluated: the API server answers `The Widget "widget" is invalid:
    // spec.mode: Unsupported value: "medium": supported values: "fast", "slow"`.
    'tests/e2e/widgets/00-widget.yaml': read('chainsaw', 'tests/e2e/widgets/00-widget.yaml').replace('mode: fast', 'mode: medium'),
    // Required fields missing from an assertion are not mistakes; a literal of the wrong type is one
    // no object the API server stores can match.
    'tests/e2e/widgets/00-assert.yaml': read('chainsaw', 'tests/e2e/widgets/00-assert.yaml').replace('status:\n', 'spec:\n  size: large\nstatus:\n'),
  });
  const r = await check(dir);
  assert.deepEqual(r.lines, [
    'tests/e2e/widgets/00-assert.yaml:8:9: error: spec.size: Invalid value: "string": spec.size in body must be of type integer: "string" [FieldValueTypeInvalid spec.size]',
    'tests/e2e/widgets/00-widget.yaml:11:9: error: spec.mode: Unsupported value: "medium": supported values: "fast", "slow" [FieldValueNotSupported spec.mode]',
  ]);
});

test('kuttl: step files are applied whole, assert and errors files are compared', async () => {
  // kubectl kuttl test (kuttl-test.yaml: testDirs ./tests/kuttl) sends 00-install.yaml as written: the
  // API server creates it. 01-resize.yaml names the Widget step 0 created: kuttl sends it as a merge
  // patch (its CreateOrUpdate), which the API server applies. 00-assert.yaml, 01-errors.yaml and
  // 02-cleanup/assert.yaml are compared with what the cluster holds; TestStep and TestAssert are kuttl's own.
  const clean = await check(path.join(TOOLING, 'kuttl'), '--unknown-kinds', 'hint');
  assert.deepEqual(clean.lines, []);
  assert.match(clean.summary, /: 0 errors, 0 warnings, 0 info; checked .*4 partial objects \(patches, test assertions\)/);

  const dir = plant('kuttl', {
    // A merge patch with a literal of the wrong type: the API server answers `The Widget "widget" is
    // invalid: spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"`.
    'tests/kuttl/widgets/01-resize.yaml': read('kuttl', 'tests/kuttl/widgets/01-resize.yaml').replace('size: 5', 'size: five'),
    // Applied as written: the API server answers `The Widget "broken" is invalid: spec.size: Invalid
    // value: "string": spec.size in body must be of type integer: "string"`.
    'tests/kuttl/widgets/01-broken.yaml': 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: broken\nspec:\n  size: large\n  mode: fast\n',
    // Not a step file (no index): kuttl ignores it; as any file it is checked whole, as kubectl apply -f
    // would send it (`The Widget "notes" is invalid: spec: Required value`).
    'tests/kuttl/widgets/notes.yaml': 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: notes\n',
  });
  const r = await check(dir);
  assert.deepEqual(r.lines, [
    'tests/kuttl/widgets/01-broken.yaml:6:9: error: spec.size: Invalid value: "string": spec.size in body must be of type integer: "string" [FieldValueTypeInvalid spec.size]',
    'tests/kuttl/widgets/01-resize.yaml:7:9: error: spec.size: Invalid value: "string": spec.size in body must be of type integer: "string" [FieldValueTypeInvalid spec.size]',
    'tests/kuttl/widgets/notes.yaml:2:1: error: spec: Required value [FieldValueRequired spec]',
  ]);
});

test('a kind no known CRD defines is not checked, even in the group of a known CRD; unknown versions and removed APIs stay errors', async () => {
  // kubectl apply -f deploy/gadget.yaml: the API server creates it when the cluster has another
  // project's gadgets.example.com CRD, and kubectl answers `resource mapping not found for name:
  // "gadget" ...: no matches for kind "Gadget" in version "example.com/v1"` when it has not: which is
  // not known here.
  const clean = await check(path.join(TOOLING, 'shared-group'), '--unknown-kinds', 'hint');
  assert.deepEqual(clean.lines, [
    'deploy/gadget.yaml:4:7: info: example.com/Gadget not checked: no CRD known for it [UnknownKind]',
    'deploy/widgit.yaml:3:7: info: example.com/Widgit not checked: no CRD known for it (did you mean "Widget"?) [UnknownKind]',
  ]);
  assert.match(clean.summary, /: 0 errors, 0 warnings, 2 info; checked 1 CRD; not checked: 2 objects with no CRD/);
  assert.equal(clean.code, 0);

  const dir = plant('shared-group', {
    // widgets.example.com is this repository's CRD and has no v2: kubectl answers `no matches for kind
    // "Widget" in version "example.com/v2"`.
    'deploy/widget-v2.yaml': 'apiVersion: example.com/v2\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 3\n  mode: fast\n',
    // apiextensions.k8s.io/v1beta1 is not served since Kubernetes 1.22: kubectl answers `no matches for
    // kind "CustomResourceDefinition" in version "apiextensions.k8s.io/v1beta1"`.
    'crds/legacy.yaml':
      'apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nmetadata:\n  name: sprockets.example.com\nspec:\n  group: example.com\n  version: v1\n  scope: Namespaced\n  names: {kind: Sprocket, plural: sprockets}\n',
  });
  const r = await check(dir);
  assert.deepEqual(r.lines, [
    'crds/legacy.yaml:1:13: error: no matches for kind "CustomResourceDefinition" in version "apiextensions.k8s.io/v1beta1" [NoKindMatch]',
    'deploy/widget-v2.yaml:1:13: error: no matches for kind "Widget" in version "example.com/v2" [NoKindMatch]',
  ]);
});

test('kustomize vars: $(VAR) in a file of a kustomize tree is for kustomize to replace', async () => {
  // kustomize build overlays/prod replaces $(WIDGET_NAME) and $(WIDGET_OWNER) (base/params.yaml says
  // where) with the ConfigMap's values: the API server gets `name: production-widget` (and
  // `production-widget-large`, `owner: platform`) and creates them.
  const clean = await check(path.join(TOOLING, 'kustomize-vars'));
  assert.deepEqual(clean.lines, []);
  assert.match(clean.summary, /: 0 errors, 0 warnings/);

  const dir = plant('kustomize-vars', {
    // A literal mistake beside a var: the API server answers `The Widget "production-widget-large" is
    // invalid: spec.mode: Unsupported value: "medium": supported values: "fast", "slow"`.
    'overlays/prod/widget-sized.yaml': read('kustomize-vars', 'overlays/prod/widget-sized.yaml').replace('mode: slow', 'mode: medium'),
    // Outside any kustomize tree, kubectl apply -f sends $(VAR) as written: the API server answers
    // `metadata.name: Invalid value: "$(WIDGET_NAME)": a lowercase RFC 1123 subdomain must consist of
    // ...` and `spec.owner: Invalid value: "$(WIDGET_OWNER)": spec.owner in body should match ...`.
    'plain/widget.yaml': read('kustomize-vars', 'base/widget.yaml'),
  });
  const r = await check(dir);
  assert.deepEqual(
    r.lines.map((l) => l.slice(0, l.indexOf('"', l.indexOf('"') + 1) + 1)),
    [
      'overlays/prod/widget-sized.yaml:8:9: error: spec.mode: Unsupported value: "medium"',
      'plain/widget.yaml:5:9: error: metadata.name: Invalid value: "$(WIDGET_NAME)"',
      'plain/widget.yaml:9:10: error: spec.owner: Invalid value: "$(WIDGET_OWNER)"',
    ],
  );
});
