/**
 * The update path end to end, in a git repository made by the test: a CRD and its custom resources
 * committed, then edited in the work tree. The same edits are checked in the editor (the language service
 * with the baselines the editor reads, and the real server over stdio) and with `crd-yaml check --base HEAD`:
 * a transition rule, ratcheting of an unchanged invalid value, and a CRD change (a stored version removed,
 * an enum narrowed, a field made required) reported by category with the workspace objects it breaks.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LanguageService } from '../../server/src/service/languageService';
import { GitBaselineSource } from '../../server/src/baseline';
import type { Finding } from '../../server/src/service/finding';
import { runCli } from '../../server/src/cli/main';
import { startServer } from '../lsp/client';
import { crdYaml, specSchemaYaml } from '../crd';

const SKIP = spawnSync('git', ['--version']).status === 0 ? false : 'git is not installed: the fixture repository cannot be made';

const CRD = (opts: { version?: string; enum?: string[]; required?: boolean } = {}) =>
  crdYaml(
    specSchemaYaml(
      `replicas:
  type: integer
  x-kubernetes-validations:
  - {rule: self >= oldSelf, message: replicas must not decrease}
size: {type: integer, maximum: 10}
mode: {type: string, enum: [${(opts.enum ?? ['a', 'b', 'c']).join(', ')}]}
note: {type: string}`,
      { required: opts.required ? ['note'] : undefined },
    ),
    { version: opts.version },
  );
/** The line (1-based) of spec.mode's enum in the CRD of the update test (version v2, enum a, b, note required). */
const ENUM_LINE =
  CRD({ version: 'v2', enum: ['a', 'b'], required: true })
    .split('\n')
    .findIndex((l) => l.includes('mode: {type: string, enum:')) + 1;

/** w1 was stored before `size` got its maximum: invalid, and unchanged it stays accepted. */
const WIDGETS = (w1: string, w2 = '{replicas: 1, mode: c, note: x}') =>
  `apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1}\nspec: ${w1}\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w2}\nspec: ${w2}\n`;

function git(dir: string, ...args: string[]): void {
  execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { stdio: 'ignore' });
}

function fixture(): string {
  const dir = mkdtempSync(join(tmpdir(), 'crd-yaml-update-'));
  git(dir, 'init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'crd.yaml'), CRD());
  writeFileSync(join(dir, 'widgets.yaml'), WIDGETS('{replicas: 3, size: 50, mode: a, note: x}'));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  return dir;
}

/** The editor's view: the service with every file open and its baseline at HEAD, as lsp/baselines.ts reads it. */
function editorFindings(dir: string, files: Record<string, string>): Map<string, Finding[]> {
  return editor(dir, files).findings;
}

function editor(dir: string, files: Record<string, string>) {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const service = new LanguageService();
  const git = new GitBaselineSource('HEAD', dir);
  const docs = ['crd.yaml', 'widgets.yaml'].map((n) => TextDocument.create(pathToFileURL(join(dir, n)).href, 'yaml', 1, readFileSync(join(dir, n), 'utf8')));
  for (const d of docs) service.update(d);
  for (const d of docs) service.setBaseline(d.uri, git.objectsAt(join(dir, d.uri.split('/').pop()!)));
  service.setWorkspaceObjects((_group, kind) => docs.filter((d) => d.getText().includes(`kind: ${kind}`)).map((d) => ({ uri: d.uri, text: d.getText() })));
  git.close();
  return { service, docs, findings: new Map(docs.map((d) => [d.uri.split('/').pop()!, service.findings(d)])) };
}

const brief = (fs: Finding[]) => fs.map((f) => `${f.range.start.line + 1}: ${f.code}: ${f.message}`);

test('editor: a custom resource is checked as an update of HEAD (transition rule, ratcheting)', { skip: SKIP }, () => {
  const dir = fixture();
  try {
    // Unchanged invalid size (50 > 10) is let through; replicas decreased fails the transition rule.
    const down = editorFindings(dir, { 'widgets.yaml': WIDGETS('{replicas: 2, size: 50, mode: a, note: x}') }).get('widgets.yaml')!;
    assert.deepEqual(brief(down), ['4: FieldValueInvalid: on update from HEAD: replicas must not decrease']);
    assert.equal(down[0].apiMessage, 'spec.replicas: Invalid value: 2: replicas must not decrease');
    assert.deepEqual(down[0].params?.update, { from: 'HEAD' });
    // The invalid value changed: reported as on a create (not an update-only finding).
    const changed = editorFindings(dir, { 'widgets.yaml': WIDGETS('{replicas: 3, size: 60, mode: a, note: x}') }).get('widgets.yaml')!;
    assert.equal(changed.length, 1);
    assert.equal(changed[0].apiMessage, 'spec.size: Invalid value: 60: spec.size in body should be less than or equal to 10');
    assert.equal(changed[0].params?.update, undefined);
    // Hover on a field shows its value at the baseline.
    const e = editor(dir, { 'widgets.yaml': WIDGETS('{replicas: 2, size: 50, mode: a, note: x}') });
    const wd = e.docs[1];
    const at = (needle: string) => wd.positionAt(wd.getText().indexOf(needle) + 1);
    const hoverText = (needle: string) => String((e.service.hover(wd, at(needle))?.contents as { value: string } | undefined)?.value);
    assert.match(hoverText('replicas: 2'), /\*\*At HEAD:\*\* `3`\n/);
    assert.match(hoverText('size: 50'), /\*\*At HEAD:\*\* `50` \(unchanged and invalid: the API server lets it through on update\)/);
    // An unchanged valid value: no word of errors let through.
    assert.match(hoverText('mode: a'), /\*\*At HEAD:\*\* `"a"` \(unchanged\)$/m);
    // Without a baseline (a new object) the unchanged invalid value is an error.
    const service = new LanguageService();
    const crd = TextDocument.create('file:///x/crd.yaml', 'yaml', 1, CRD());
    const w = TextDocument.create('file:///x/w.yaml', 'yaml', 1, WIDGETS('{replicas: 3, size: 50, mode: a, note: x}'));
    service.update(crd);
    assert.deepEqual(
      service.findings(w).map((f) => f.apiMessage),
      ['spec.size: Invalid value: 50: spec.size in body should be less than or equal to 10'],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('editor: a CRD edit is checked against HEAD: stored version, narrowed enum, new required field, the objects it breaks', { skip: SKIP }, () => {
  const dir = fixture();
  try {
    const f = editorFindings(dir, { 'crd.yaml': CRD({ version: 'v2', enum: ['a', 'b'], required: true }) }).get('crd.yaml')!;
    const compat = f.filter((x) => x.code === 'Incompatible').map((x) => x.params?.compat?.category);
    assert.deepEqual(compat.sort(), ['enum', 'required', 'storedVersionRemoval']);
    const stored = f.find((x) => x.code === 'FieldValueInvalid' && x.field === 'status.storedVersions[0]');
    assert.ok(stored, brief(f).join('\n'));
    assert.match(stored.message, /^on update from HEAD: /);
    const enumFinding = f.find((x) => x.params?.compat?.category === 'enum')!;
    assert.equal(enumFinding.range.start.line + 1, ENUM_LINE, 'at the enum of spec.mode');
    // v2 (new) is compared with the old storage version v1; the new CRD no longer serves v1, so every
    // Widget in the workspace (written as example.com/v1) breaks.
    assert.match(enumFinding.message, /^incompatible with HEAD \(enum\): spec\.mode: enum narrowed: "c" no longer allowed \(v2 against v1\)$/);
    const broken = f.find((x) => x.code === 'BreaksObjects')!;
    assert.ok(broken, brief(f).join('\n'));
    // w1 was invalid already (size over the maximum): only w2 is made invalid by this change.
    assert.equal(broken.message, 'this change makes 1 Widget object of the workspace invalid (valid against HEAD): Widget w2');
    assert.deepEqual(
      broken.related!.map((r) => [r.location.uri.split('/').pop(), r.location.range.start.line + 1]),
      [['widgets.yaml', 6]],
    );
    // The same version, only the enum narrowed: w2 (mode c) breaks, w1 does not.
    const g = editorFindings(dir, { 'crd.yaml': CRD({ enum: ['a', 'b'] }) }).get('crd.yaml')!;
    assert.deepEqual(
      g.filter((x) => x.code === 'Incompatible').map((x) => x.message),
      ['incompatible with HEAD (enum): spec.mode: enum narrowed: "c" no longer allowed'],
    );
    const b2 = g.find((x) => x.code === 'BreaksObjects')!;
    assert.match(b2.message, /makes 1 Widget object of the workspace invalid/);
    assert.match(b2.related![0].message, /^Widget w2: spec\.mode: Unsupported value: "c"/);
    assert.equal(b2.related![0].location.range.start.line + 1, 9);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Runs the CLI in process (--base answers with a promise). */
async function cli(argv: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), cwd });
  return { code, out, err };
}

test('crd-yaml check --base HEAD: the same update findings from the command line', { skip: SKIP }, async () => {
  const dir = fixture();
  try {
    writeFileSync(join(dir, 'widgets.yaml'), WIDGETS('{replicas: 2, size: 50, mode: a, note: x}'));
    const cr = await cli(['check', '--base', 'HEAD', '.'], dir);
    assert.equal(cr.code, 1, cr.err);
    assert.equal(cr.out, 'widgets.yaml:4:18: error: on update from HEAD: spec.replicas: Invalid value: 2: replicas must not decrease [FieldValueInvalid spec.replicas]\n');
    // Without --base the objects are new: the stored invalid size is an error, nothing is an update.
    const create = await cli(['check', '.'], dir);
    assert.ok(!create.out.includes('on update from'), create.out);
    assert.match(create.out, /spec\.size in body should be less than or equal to 10/);

    writeFileSync(join(dir, 'widgets.yaml'), WIDGETS('{replicas: 3, size: 50, mode: a, note: x}'));
    writeFileSync(join(dir, 'crd.yaml'), CRD({ version: 'v2', enum: ['a', 'b'], required: true }));
    const crd = await cli(['check', '--base', 'HEAD', '.'], dir);
    assert.equal(crd.code, 1);
    const lines = crd.out.split('\n');
    const has = (re: RegExp) =>
      assert.ok(
        lines.some((l) => re.test(l)),
        `${re} in\n${crd.out}`,
      );
    has(/^crd\.yaml:\d+:\d+: error: on update from HEAD: status\.storedVersions\[0\]: Invalid value: "v1": missing from spec\.versions/);
    has(/^crd\.yaml:\d+:\d+: error: incompatible with HEAD \(storedVersionRemoval\): version v1 was removed/);
    has(new RegExp(`^crd\\.yaml:${ENUM_LINE}:\\d+: error: incompatible with HEAD \\(enum\\): spec\\.mode: enum narrowed: "c" no longer allowed \\(v2 against v1\\) \\[Incompatible\\]$`));
    has(/^crd\.yaml:\d+:\d+: error: incompatible with HEAD \(required\): spec\.note: now required \(v2 against v1\) \[Incompatible\]$/);
    has(/^crd\.yaml:\d+:\d+: warning: this change makes 1 Widget object of the workspace invalid \(valid against HEAD\): Widget w2 \[BreaksObjects\]$/);
    has(/^crd\.yaml:\d+:\d+: note: widgets\.yaml:6:13: Widget w2: apiVersion: Invalid value: "example\.com\/v1": version "v1" is not defined/);
    // --compat sets a category's severity.
    const off = await cli(['check', '--base', 'HEAD', '--compat', 'enum=off', '.'], dir);
    assert.ok(!off.out.includes('(enum)') && off.out.includes('(required)'), off.out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the editor over stdio: an open file is checked as an update of HEAD', { skip: SKIP, timeout: 120_000 }, async () => {
  const dir = fixture();
  writeFileSync(join(dir, 'widgets.yaml'), WIDGETS('{replicas: 2, size: 50, mode: a, note: x}'));
  const s = await startServer(dir);
  try {
    const uri = pathToFileURL(join(dir, 'widgets.yaml')).href;
    await s.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: readFileSync(join(dir, 'widgets.yaml'), 'utf8') } });
    const d = await s.diagnostics(uri, (ds) => ds.some((x) => String(x.message).startsWith('on update from HEAD')), 60_000);
    assert.deepEqual(
      d.map((x) => `${x.range.start.line + 1}: ${x.message}`),
      ['4: on update from HEAD: replicas must not decrease'],
    );
    // The baseline read for the check reaches the requests too: the hover shows the value at HEAD.
    const hover = await s.conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 3, character: 8 } });
    assert.match(JSON.stringify(hover), /At HEAD:\*\* `3`/);
  } finally {
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
