/**
 * The Go tier (issue 26): the fixture module's kubebuilder types through the real generator (go/crdgen,
 * built with the Go on PATH, or the binary in CRD_YAML_CRDGEN), in the CLI and in the editor. Skipped with
 * a line when go is not installed. go/crdgen's own tests read the same fixture module.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chooseVersion, crdgenSourceDir, defaultCacheDir, GoGenerator, supportedVersions } from '../../server/src/workspace/goGenerator';
import { startServer, type TestServer } from '../lsp/client';

const REPO = resolve(__dirname, '..', '..');
const MODULE = join(REPO, 'test', 'fixtures', 'go-kubebuilder');
const API = join(MODULE, 'api', 'v1');
const hasGo = spawnSync('go', ['version']).status === 0;
const skip = hasGo ? false : 'go is not on PATH: the Go tier did not run';
if (skip) console.log(`# ${skip}`);

/** The 1-based line of the first line of api/v1/<file> that holds `text`. */
function lineOf(file: string, text: string): number {
  const i = readFileSync(join(API, file), 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(text));
  assert.ok(i >= 0, `${text} is not in ${file}`);
  return i + 1;
}

/** The five findings of the fixture, each on the marker that causes it: file, 1-based line, code. */
const RULE = 'XValidation:rule="self.replica <= self.maxReplicas"';
const EXPECTED = [
  ['api/v1/gadget_types.go', lineOf('gadget_types.go', RULE), 'FieldValueInvalid'],
  ['api/v1/sprocket_types.go', lineOf('sprocket_types.go', '+kubebuilder:default=80'), 'FieldValueInvalid'],
  ['api/v1/widget_types.go', lineOf('widget_types.go', '+kubebuilder:validation:Pattern='), 'FieldValueInvalid'],
  ['api/v1/widget_types.go', lineOf('widget_types.go', '+kubebuilder:validation:Minimun='), 'UnknownMarker'],
  ['api/v1/widget_types.go', lineOf('widget_types.go', '+listMapKey=name'), 'FieldValueRequired'],
];
/** The 0-based line of the XValidation rule in gadget_types.go (hover, completion). */
const RULE_LINE = lineOf('gadget_types.go', RULE) - 1;

let bin = process.env.CRD_YAML_CRDGEN;
before(async () => {
  if (skip || bin) return;
  const src = crdgenSourceDir();
  const version = src && chooseVersion(supportedVersions(src), undefined);
  assert.ok(version, 'go/crdgen/versions holds the controller-tools versions the generator builds with');
  // Built as the editor builds it, into the same cache (once per machine and generator source).
  const b = await new GoGenerator({ cacheDir: process.env.CRD_YAML_CACHE ?? defaultCacheDir() }).build(version);
  assert.ok(b.ok, b.ok ? '' : b.problem.message);
  bin = b.bin;
});

let server: TestServer | undefined;
after(async () => {
  await server?.stop();
});

test('crd-yaml check -f json on the fixture module: exactly the five findings on the five lines', { skip }, () => {
  const r = spawnSync(process.execPath, [join(REPO, 'dist', 'cli.js'), 'check', '.', '-f', 'json'], { cwd: MODULE, env: { ...process.env, CRD_YAML_CRDGEN: bin }, encoding: 'utf8' });
  const out = JSON.parse(r.stdout) as { findings: Array<{ file: string; line: number; column: number; code: string; fixes?: unknown[] }>; summary: { checked: { crd: number } } };
  assert.deepEqual(
    out.findings.map((f) => [f.file, f.line, f.code]),
    EXPECTED,
    r.stderr,
  );
  // The CEL error at the undefined field inside rule="self.replica <= ...": the column of `replica`.
  const gadget = readFileSync(join(API, 'gadget_types.go'), 'utf8').split('\n')[RULE_LINE];
  assert.equal(out.findings[0].column, gadget.indexOf('replica <=') + 1);
  // The three generated CRDs and the checked-in one under config/.
  assert.equal(out.summary.checked.crd, 4);
  assert.equal(r.status, 1);
});

test('the editor: the same five findings on open, a rename quick fix for Minimun, completion after self. in an XValidation rule', { skip }, async () => {
  server = await startServer(MODULE, undefined, { env: { ...process.env, CRD_YAML_CRDGEN: bin } });
  const files = ['gadget_types.go', 'sprocket_types.go', 'widget_types.go'];
  const diags = new Map<string, Array<{ range: { start: { line: number } }; code?: string | number; severity?: number }>>();
  for (const f of files) {
    const uri = pathToFileURL(join(API, f)).href;
    const got = server.diagnostics(uri, (d) => d.length > 0, 180_000);
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'go', version: 1, text: readFileSync(join(API, f), 'utf8') } });
    diags.set(f, await got);
  }
  const seen = files.flatMap((f) => (diags.get(f) ?? []).map((d) => [`api/v1/${f}`, d.range.start.line + 1, d.code]));
  assert.deepEqual(seen, EXPECTED);

  const widget = pathToFileURL(join(API, 'widget_types.go')).href;
  const minimun = diags.get('widget_types.go')!.find((d) => d.code === 'UnknownMarker')!;
  const actions = (await server.conn.sendRequest('textDocument/codeAction', { textDocument: { uri: widget }, range: minimun.range, context: { diagnostics: [minimun] } })) as Array<{
    title: string;
    edit?: { changes?: Record<string, Array<{ newText: string }>> };
  }>;
  assert.ok(
    actions.some((a) => a.edit?.changes?.[widget]?.[0]?.newText === 'kubebuilder:validation:Minimum'),
    JSON.stringify(actions),
  );

  // Completion after `self.` in the rule typed anew: the fields of GadgetSpec.
  const gadget = pathToFileURL(join(API, 'gadget_types.go')).href;
  const original = readFileSync(join(API, 'gadget_types.go'), 'utf8').split('\n')[RULE_LINE];
  // Hover on `self` in the marker as written: the struct's fields, as in a YAML rule.
  const hover = (await server.conn.sendRequest('textDocument/hover', { textDocument: { uri: gadget }, position: { line: RULE_LINE, character: original.indexOf('self.') + 1 } })) as {
    contents?: { value?: string };
  } | null;
  assert.match(hover?.contents?.value ?? '', /maxReplicas/);
  const text = readFileSync(join(API, 'gadget_types.go'), 'utf8').replace('rule="self.replica <= self.maxReplicas"', 'rule="self."');
  await server.conn.sendNotification('textDocument/didChange', { textDocument: { uri: gadget, version: 2 }, contentChanges: [{ text }] });
  const line = text.split('\n')[RULE_LINE];
  const items = (await server.conn.sendRequest('textDocument/completion', {
    textDocument: { uri: gadget },
    position: { line: RULE_LINE, character: line.indexOf('self.') + 5 },
    context: { triggerKind: 2, triggerCharacter: '.' },
  })) as Array<{ label: string }>;
  const labels = items.map((i) => i.label);
  for (const field of ['replicas', 'maxReplicas', 'mode']) assert.ok(labels.includes(field), `${field} in ${labels.join(', ')}`);

  // Drift: the checked-in sprockets CRD (default 32) is not what the types generate (default 80).
  const crdFile = join(MODULE, 'config', 'crd', 'bases', 'example.com_sprockets.yaml');
  const crdUri = pathToFileURL(crdFile).href;
  const drift = server.diagnostics(crdUri, (d) => d.some((x) => x.code === 'GeneratedDrift'), 60_000);
  await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: crdUri, languageId: 'yaml', version: 1, text: readFileSync(crdFile, 'utf8') } });
  const info = (await drift).find((x) => x.code === 'GeneratedDrift')!;
  assert.equal(info.severity, 3);
  const fixes = (await server.conn.sendRequest('textDocument/codeAction', { textDocument: { uri: crdUri }, range: info.range, context: { diagnostics: [info] } })) as Array<{
    edit?: { changes?: Record<string, Array<{ newText: string }>> };
  }>;
  const written = fixes.map((a) => a.edit?.changes?.[crdUri]?.[0]?.newText).find((t) => t?.includes('default: 80'));
  assert.ok(written, JSON.stringify(fixes).slice(0, 500));
});
