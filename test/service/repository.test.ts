/**
 * Real repositories (issue 13): a Helm chart's templates, a kustomize overlay's patches, CRDs defined
 * twice, and YAML syntax left to another server. Uses the fixture repository test/fixtures/repo.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LanguageService } from '../../server/src/service/languageService';
import type { FileContext, ServiceSettings } from '../../server/src/service/context';
import { RepositoryFeatures } from '../../server/src/lsp/repository';
import { repositoryContexts } from '../../server/src/cli/sources';
import { ReadableRoots } from '../../server/src/workspace/scan';
import type { Finding } from '../../server/src/service/finding';

const REPO = join(__dirname, '..', 'fixtures', 'repo');
const read = (rel: string) => readFileSync(join(REPO, rel), 'utf8');
const uri = (rel: string) => pathToFileURL(join(REPO, rel)).href;

/** A service with the chart's CRD indexed from disk. */
function service(settings: Partial<ServiceSettings> = {}): LanguageService {
  const s = new LanguageService(settings);
  s.indexDiskFile(uri('chart/crds/widgets.example.com.yaml'), read('chart/crds/widgets.example.com.yaml'));
  return s;
}

function findingsOf(s: LanguageService, rel: string, text = read(rel)): { td: TextDocument; findings: Finding[]; show: string } {
  const td = TextDocument.create(uri(rel), 'yaml', 1, text);
  s.update(td);
  const findings = s.findings(td);
  return { td, findings, show: findings.map((f) => `${f.range.start.line}: [${f.code}] ${td.getText(f.range)} ${f.message}`).join('\n') };
}

test('Helm chart templates: no syntax findings; a literal wrong enum value is still reported at its line', () => {
  const s = service();
  for (const rel of ['chart/templates/widget.yaml', 'chart/templates/deployment.yaml', 'chart/templates/service.yaml']) s.setFileContext(uri(rel), { helmTemplate: true });
  const widget = findingsOf(s, 'chart/templates/widget.yaml');
  assert.deepEqual(
    widget.findings.map((f) => [f.range.start.line, f.code, widget.td.getText(f.range)]),
    [[9, 'FieldValueNotSupported', 'medium']],
    widget.show,
  );
  for (const rel of ['chart/templates/deployment.yaml', 'chart/templates/service.yaml']) {
    const r = findingsOf(s, rel);
    assert.deepEqual(r.findings, [], `${rel}:\n${r.show}`);
  }
  // The same text outside a chart: its Go template actions make it a template all the same.
  const outside = findingsOf(s, 'deploy/templated.yaml', read('chart/templates/deployment.yaml'));
  assert.deepEqual(outside.findings, [], outside.show);
  // crdYaml.templates: ignore: templates are not checked at all.
  const ignoring = service({ templates: 'ignore' });
  ignoring.setFileContext(uri('chart/templates/widget.yaml'), { helmTemplate: true });
  assert.deepEqual(findingsOf(ignoring, 'chart/templates/widget.yaml').findings, []);
});

test('templates: what the literal YAML decides is checked, what an action may change is not', () => {
  const s = service();
  const head = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: {{ .Release.Name }}\n';
  const codes = (text: string) => {
    const r = findingsOf(s, 'deploy/t.yaml', text);
    return r.findings.map((f) => `${f.code} ${r.td.getText(f.range)}`).sort();
  };
  // Literal values are checked: a type error, a pattern, an unknown field, a missing required field.
  assert.deepEqual(codes(head + 'spec:\n  size: "{{ .Values.size }}"\n  mode: slow\n  owner: Bad_Owner\n  colour: red\n'), ['FieldValueInvalid Bad_Owner', 'UnknownField colour']);
  assert.deepEqual(codes(head + 'spec:\n  size: 3\n'), ['FieldValueRequired spec']);
  // An action that may print more fields: a missing required field may come from it.
  assert.deepEqual(codes(head + 'spec:\n  size: 3\n  {{- include "more" . | nindent 2 }}\n'), []);
  // A rule over the object is not evaluated when a value in it comes from an action...
  assert.deepEqual(codes(head + 'spec:\n  size: 8\n  maxSize: {{ .Values.max }}\n  mode: fast\n'), []);
  // ...and is when all of it is literal.
  assert.deepEqual(codes(head + 'spec:\n  size: 8\n  maxSize: 4\n  mode: fast\n'), ['FieldValueInvalid spec']);
  // Keys from actions are not reported as unknown.
  assert.deepEqual(codes(head + 'spec:\n  size: 3\n  mode: fast\n  {{ .Values.key }}: 1\n'), []);
  // apiVersion from an action: the object cannot be matched to a CRD.
  assert.deepEqual(codes('apiVersion: {{ .Values.apiVersion }}\nkind: Widget\nspec:\n  size: zero\n'), []);
});

test('kustomize patches: a partial custom resource gets no Required findings; a wrong type is reported', () => {
  const s = service();
  const rel = 'kustomize/overlays/prod/widget-size.yaml';
  const whole = findingsOf(s, rel);
  assert.ok(
    whole.findings.some((f) => f.code === 'FieldValueRequired'),
    `as a whole object it lacks required fields:\n${whole.show}`,
  );
  assert.equal(s.setFileContext(uri(rel), { patch: 'partial' }), true);
  const patch = findingsOf(s, rel);
  assert.deepEqual(
    patch.findings.map((f) => [f.range.start.line, f.code, patch.td.getText(f.range)]),
    [[5, 'FieldValueTypeInvalid', 'large']],
    patch.show,
  );
  s.setFileContext(uri('kustomize/overlays/prod/widget-ops.yaml'), { patch: 'json6902' });
  assert.deepEqual(findingsOf(s, 'kustomize/overlays/prod/widget-ops.yaml').findings, []);
  // Resources are whole objects.
  assert.deepEqual(findingsOf(s, 'kustomize/base/widget.yaml').findings, []);
});

test('one group/kind defined three times: one line, on the copy in use, naming every copy by its path from the workspace folder', () => {
  const s = service();
  s.setWorkspaceFolders([pathToFileURL(REPO).href]);
  const crd = read('chart/crds/widgets.example.com.yaml');
  const wide = crd.replace('maximum: 10', 'maximum: 20');
  s.indexDiskFile(uri('config/crd/widgets.yaml'), wide);
  // Two copies in one file: the second is named by its line.
  s.indexDiskFile(uri('deploy/all.yaml'), `${wide}---\n${wide}`);
  const inUse = 'chart/crds/widgets.example.com.yaml';
  const copies = ['config/crd/widgets.yaml', 'deploy/all.yaml', 'deploy/all.yaml'];
  const used = findingsOf(s, inUse, crd);
  // The second document of deploy/all.yaml starts at its `---` line.
  const second = crd.split('\n').length;
  assert.deepEqual(
    used.findings.map((f) => [f.code, f.severity, used.td.getText(f.range)]),
    [['DuplicateCRD', 'information', 'Widget']],
    used.show,
  );
  assert.equal(
    used.findings[0].message,
    `example.com/Widget is defined 4 times: objects are checked against this one, chart/crds/widgets.example.com.yaml (the first by path is used), not config/crd/widgets.yaml, deploy/all.yaml:1, deploy/all.yaml:${second}`,
  );
  assert.deepEqual(
    used.findings[0].related?.map((r) => [r.location.uri, r.location.range.start.line]),
    [
      [uri(copies[0]), 8],
      [uri(copies[1]), 8],
      [uri(copies[2]), second + 8],
    ],
  );
  // Each other copy: a hint (not a Problems row) pointing at the copy in use.
  for (const rel of ['config/crd/widgets.yaml', 'deploy/all.yaml']) {
    const other = findingsOf(
      s,
      rel,
      s.index
        .entriesOf(uri(rel), 'disk')
        .map((c) => c.text)
        .join('---\n'),
    );
    assert.ok(other.findings.length > 0 && other.findings.every((f) => f.code === 'DuplicateCRD' && f.severity === 'hint'), other.show);
    assert.match(
      other.findings[0].message,
      /^example\.com\/Widget is also defined in chart\/crds\/widgets\.example\.com\.yaml, which is the one in use \(the first by path is used\); objects are not checked against this copy$/,
    );
    s.close(uri(rel));
  }
});

test('which copy of a duplicated CRD is used does not change with the open file (issue 28)', () => {
  const s = service();
  const crd = read('chart/crds/widgets.example.com.yaml');
  const wide = crd.replace('maximum: 10', 'maximum: 20');
  s.indexDiskFile(uri('config/crd/widgets.yaml'), wide);
  const widget = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 15\n  mode: fast\n';
  const verdict = () => findingsOf(s, 'deploy/w.yaml', widget).findings.map((f) => `${f.code} ${f.field}`);
  const none = verdict();
  // chart/ before config/ by path: the chart's copy (maximum 10) is used.
  assert.deepEqual(none, ['FieldValueInvalid spec.size'], 'no CRD open');
  for (const open of [
    ['config/crd/widgets.yaml', wide],
    ['chart/crds/widgets.example.com.yaml', crd],
  ] as const) {
    findingsOf(s, open[0], open[1]);
    assert.equal(s.index.lookup('example.com', 'Widget')?.uri, uri('chart/crds/widgets.example.com.yaml'), `${open[0]} open`);
    assert.deepEqual(verdict(), none, `${open[0]} open`);
  }
  s.close(uri('config/crd/widgets.yaml'));
  assert.deepEqual(verdict(), none, 'only the copy in use open');
  // An edit of the copy in use is what objects are checked against.
  findingsOf(s, 'chart/crds/widgets.example.com.yaml', crd.replace('maximum: 10', 'maximum: 30'));
  assert.deepEqual(verdict(), []);
});

test('crdYaml.syntaxDiagnostics off: YAML syntax is left to another server', () => {
  const broken = 'apiVersion: example.com/v1\nkind: Widget\nspec:\n  size: [1\n';
  assert.deepEqual(
    findingsOf(service(), 'deploy/broken.yaml', broken).findings.map((f) => f.code),
    ['YAMLSyntax'],
  );
  assert.deepEqual(findingsOf(service({ syntaxDiagnostics: false }), 'deploy/broken.yaml', broken).findings, []);
});

test('an empty file: completion offers "New <Kind>" skeletons that validate', () => {
  const s = service();
  s.indexDiskFile(
    uri('config/gadgets.yaml'),
    read('chart/crds/widgets.example.com.yaml')
      .replace(/widget/g, 'gadget')
      .replace(/Widget/g, 'Gadget')
      .replace('required: [size, mode]', 'required: [size, mode, owner]'),
  );
  for (const text of ['', '# my objects\n', '---\n']) {
    const td = TextDocument.create(uri('deploy/new.yaml'), 'yaml', 1, text);
    s.update(td);
    const items = s.completion(td, td.positionAt(text.length));
    assert.deepEqual(items.map((i) => i.label).sort(), ['New Gadget', 'New Widget'], JSON.stringify(text));
  }
  // Not once the document has content.
  const started = TextDocument.create(uri('deploy/new.yaml'), 'yaml', 1, 'apiVersion: v1\n\n');
  s.update(started);
  assert.ok(!s.completion(started, { line: 1, character: 0 }).some((i) => i.label.startsWith('New ')));
  const empty = TextDocument.create(uri('deploy/new.yaml'), 'yaml', 1, '');
  const gadget = s.completion(empty, { line: 0, character: 0 }).find((i) => i.label === 'New Gadget')!;
  assert.equal(gadget.detail, 'example.com/v1 (gadgets.example.com)');
  const snippet = (gadget.textEdit as { newText: string }).newText;
  // The snippet's first tab stop is the name, every inserted value is one, the enum's a choice; as written, the object is valid.
  assert.match(snippet, /^ {2}name: \$\{1:my-gadget\}$/m);
  assert.match(snippet, /^ {2}size: \$\{2:1\}$/m);
  assert.match(snippet, /^ {2}mode: \$\{3\|fast,slow\|\}$/m);
  const text = snippet
    .replace(/\$\{\d+:([^}]*)\}/g, '$1')
    .replace(/\$\{\d+\|([^,|]*)[^}]*\}/g, '$1')
    .replace(/\\([$}\\])/g, '$1');
  assert.match(text, /^apiVersion: example\.com\/v1\nkind: Gadget\nmetadata:\n {2}name: my-gadget\nspec:\n/);
  const r = findingsOf(s, 'deploy/new.yaml', text);
  assert.deepEqual(r.findings, [], `${text}\n${r.show}`);
  assert.match(text, /\n {2}size: 1\n/);
  assert.match(text, /\n {2}mode: fast\n/);
});

/**
 * Issue 22: repositories built around other tools (test/fixtures/tooling: a kubebuilder scaffold,
 * Chainsaw and kuttl tests, kustomize vars, another project's kind of a known group). The editor finds
 * what each file is from the one file it opens (lsp/repository.ts, inside its workspace folder), the CLI
 * from all its inputs (cli/sources.ts): both must say the same, and the service then finds the same.
 */
const TOOLING = join(__dirname, '..', 'fixtures', 'tooling');

function yamlFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...yamlFilesUnder(p));
    else if (/\.ya?ml$/.test(e.name)) out.push(p);
  }
  return out.sort();
}

/** The contexts the editor gives the files of a workspace folder, one open document at a time. */
function editorContexts(root: string, files: string[]): Map<string, FileContext> {
  const service = new LanguageService();
  const repo = new RepositoryFeatures({
    handlers: { onRequest: () => undefined, onNotification: () => undefined },
    service,
    documents: { all: () => [], get: () => undefined },
    folders: () => [root],
    readable: new ReadableRoots([root]),
    schedule: () => undefined,
    sendStatus: () => undefined,
    log: () => undefined,
  });
  const out = new Map<string, FileContext>();
  for (const f of files) {
    const u = pathToFileURL(f).href;
    repo.updateContext(u);
    const fc = repo.contextOf(u) ?? {};
    if (Object.keys(fc).length) out.set(relative(root, f), fc);
  }
  return out;
}

test('issue 22: the editor classifies each file of a tool-built repository as the CLI does, and finds no error', () => {
  const roles: Record<string, string[]> = {};
  for (const name of readdirSync(TOOLING).filter((n) => !n.includes('.'))) {
    const root = join(TOOLING, name);
    const files = yamlFilesUnder(root);
    const cli = repositoryContexts(
      files.map((f) => ({ path: relative(root, f), text: readFileSync(f, 'utf8') })),
      root,
    ).contexts;
    const editor = editorContexts(root, files);
    assert.deepEqual(Object.fromEntries(editor), Object.fromEntries(cli), name);
    for (const [rel, fc] of cli) (roles[JSON.stringify(fc)] ??= []).push(`${name}/${rel}`);
    // The service, given the editor's contexts, reports nothing wrong: every CRD indexed first.
    const s = new LanguageService({ unknownKinds: 'hint' });
    for (const f of files) s.indexDiskFile(pathToFileURL(f).href, readFileSync(f, 'utf8'));
    for (const f of files) {
      const fc = editor.get(relative(root, f));
      if (fc) s.setFileContext(pathToFileURL(f).href, fc);
      const td = TextDocument.create(pathToFileURL(f).href, 'yaml', 1, readFileSync(f, 'utf8'));
      s.update(td);
      const bad = s.findings(td).filter((x) => x.severity === 'error' || x.severity === 'warning');
      assert.deepEqual(
        bad.map((x) => `${x.code} ${x.message}`),
        [],
        `${name}/${relative(root, f)}`,
      );
    }
  }
  // What the repositories' files are (a role no file has would be a classification that never happens).
  assert.deepEqual(Object.fromEntries(Object.entries(roles).map(([k, v]) => [k, v.sort()])), {
    '{"testTool":{"tool":"chainsaw","role":"resource"}}': ['chainsaw/tests/e2e/widgets/00-widget.yaml'],
    '{"testTool":{"tool":"chainsaw","role":"assertion"}}': [
      'chainsaw/tests/e2e/shared/ready-widget.yaml',
      'chainsaw/tests/e2e/widgets/00-assert.yaml',
      'chainsaw/tests/e2e/widgets/00-errors.yaml',
      'chainsaw/tests/e2e/widgets/03-assert-stale.yaml',
    ],
    '{"testTool":{"tool":"chainsaw","role":"resource"},"patch":"partial"}': ['chainsaw/tests/e2e/widgets/01-resize.yaml'],
    '{"kustomize":"tree"}': [
      'kubebuilder/config/crd/bases/example.com_widgets.yaml',
      'kubebuilder/config/crd/kustomization.yaml',
      'kubebuilder/config/default/kustomization.yaml',
      'kubebuilder/config/samples/example_v1_widget.yaml',
      'kubebuilder/config/samples/kustomization.yaml',
      'kustomize-vars/base/crd.yaml',
      'kustomize-vars/base/kustomization.yaml',
      'kustomize-vars/base/params.yaml',
      'kustomize-vars/base/widget.yaml',
      'kustomize-vars/overlays/prod/kustomization.yaml',
      'kustomize-vars/overlays/prod/params.yaml',
      'kustomize-vars/overlays/prod/widget-sized.yaml',
    ],
    '{"kustomize":"scaffoldPatch"}': ['kubebuilder/config/crd/patches/cainjection_in_widgets.yaml', 'kubebuilder/config/crd/patches/webhook_in_widgets.yaml'],
    '{"testTool":{"tool":"kuttl","role":"resource"}}': ['kuttl/tests/kuttl/widgets/00-install.yaml', 'kuttl/tests/kuttl/widgets/01-step.yaml'],
    '{"testTool":{"tool":"kuttl","role":"resource"},"patch":"partial"}': ['kuttl/tests/kuttl/widgets/01-resize.yaml'],
    '{"testTool":{"tool":"kuttl","role":"assertion"}}': ['kuttl/tests/kuttl/widgets/00-assert.yaml', 'kuttl/tests/kuttl/widgets/01-errors.yaml', 'kuttl/tests/kuttl/widgets/02-cleanup/assert.yaml'],
  });
});

test('issue 22: a scaffold CRD patch, a test assertion and a $(VAR) are judged by what the file is', () => {
  const s = new LanguageService();
  const crd = readFileSync(join(TOOLING, 'kubebuilder', 'config', 'crd', 'bases', 'example.com_widgets.yaml'), 'utf8');
  s.indexDiskFile('file:///ws/crd.yaml', crd);
  const codes = (u: string, text: string, fc: FileContext) => {
    s.setFileContext(u, fc);
    const td = TextDocument.create(u, 'yaml', 1, text);
    s.update(td);
    const out = s.findings(td).map((f) => `${f.code} ${td.getText(f.range)}`);
    s.close(u);
    return out;
  };
  // A CRD patch of the scaffold: a patch in a kustomize tree, a CRD anywhere else.
  const patch = readFileSync(join(TOOLING, 'kubebuilder', 'config', 'crd', 'patches', 'webhook_in_widgets.yaml'), 'utf8');
  assert.deepEqual(codes('file:///ws/config/crd/patches/webhook_in_widgets.yaml', patch, { kustomize: 'scaffoldPatch' }), []);
  const whole = codes('file:///ws/hack/webhook_in_widgets.yaml', patch, {});
  assert.ok(whole.includes('FieldValueRequired spec'), whole.join('\n'));
  // A whole CRD under a scaffold patch's name is checked as one.
  assert.deepEqual(codes('file:///ws/config/crd/patches/webhook_in_gadgets.yaml', crd.replaceAll('idget', 'adget').replace('enum: [fast, slow]', 'enum: fast'), { kustomize: 'scaffoldPatch' }), [
    'FieldValueTypeInvalid fast',
  ]);
  // A Chainsaw assertion: a partial object with expressions; the same text applied is a whole object
  // (spec.mode missing), its expressions still unknown.
  const chainsaw = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: ($name)\n  namespace: ($namespace)\nspec:\n  size: ($size)\nstatus:\n  (conditions != null): true\n';
  assert.deepEqual(codes('file:///ws/t/00-assert.yaml', chainsaw, { testTool: { tool: 'chainsaw', role: 'assertion' } }), []);
  assert.deepEqual(codes('file:///ws/t/00-apply.yaml', chainsaw, { testTool: { tool: 'chainsaw', role: 'resource' } }), ['FieldValueRequired spec']);
  // Without the test around it, the expressions are values as written.
  assert.deepEqual(
    codes('file:///ws/t/other.yaml', chainsaw, {}).sort(),
    ['FieldValueInvalid ($name)', 'FieldValueInvalid ($namespace)', 'FieldValueRequired spec', 'FieldValueTypeInvalid ($size)', 'UnknownField (conditions != null)'].sort(),
  );
  // kuttl has no expressions: an assertion is a partial object as written.
  assert.deepEqual(codes('file:///ws/k/00-assert.yaml', 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  mode: medium\n', { testTool: { tool: 'kuttl', role: 'assertion' } }), [
    'FieldValueNotSupported medium',
  ]);
  // $(VAR): kustomize's in a kustomize tree, a value as written elsewhere.
  const vars = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: $(NAME)\nspec:\n  size: 3\n  mode: fast\n';
  assert.deepEqual(codes('file:///ws/base/widget.yaml', vars, { kustomize: 'tree' }), []);
  assert.deepEqual(codes('file:///ws/plain/widget.yaml', vars, {}), ['FieldValueInvalid $(NAME)']);
});
