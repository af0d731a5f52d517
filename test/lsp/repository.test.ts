/**
 * The server on a real repository (issue 13): Helm chart templates and kustomize patches found from the
 * workspace, crdYaml.validate.exclude, crdYaml.syntaxDiagnostics, the CRD list behind the status bar.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { startServer, type TestServer } from './client';

const REPO = join(__dirname, '..', 'fixtures', 'repo');
const uri = (rel: string) => pathToFileURL(join(REPO, rel)).href;
let server: TestServer | undefined;
after(async () => {
  await server?.stop();
});

const show = (ds: Diagnostic[]) => ds.map((d) => `${d.range.start.line}:${d.range.start.character} ${String(d.code)} ${d.message}`);

async function open(s: TestServer, rel: string, pred: (d: Diagnostic[]) => boolean, text = readFileSync(join(REPO, rel), 'utf8')): Promise<Diagnostic[]> {
  const got = s.diagnostics(uri(rel), pred);
  await s.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: uri(rel), languageId: 'yaml', version: 1, text } });
  return got;
}

test('a Helm chart, a kustomize overlay, validate.exclude and the CRD list in a real workspace', async () => {
  server = await startServer(REPO, { settings: {} });
  await server.notification<{ indexing: boolean; crdCount: number }>('crdYaml/status', (p) => !p.indexing && p.crdCount === 1, 20000);
  // The chart template: no syntax errors, the literal enum mistake at its line.
  const widget = await open(server, 'chart/templates/widget.yaml', (d) => d.length > 0);
  assert.deepEqual(
    show(widget).map((l) => l.split(' ').slice(0, 2).join(' ')),
    ['9:8 FieldValueNotSupported'],
    show(widget).join('\n'),
  );
  const deployment = await open(server, 'chart/templates/deployment.yaml', () => true);
  assert.deepEqual(show(deployment), []);
  // The kustomize patch: a partial object.
  const patch = await open(server, 'kustomize/overlays/prod/widget-size.yaml', (d) => d.length > 0);
  assert.deepEqual(
    show(patch).map((l) => l.split(' ').slice(0, 2).join(' ')),
    ['5:8 FieldValueTypeInvalid'],
    show(patch).join('\n'),
  );
  // crdYaml.validate.exclude: the chart gets no diagnostics, its CRD still checks deploy/.
  const deploy = await open(server, 'deploy/widgets.yaml', (d) => d.length > 0);
  assert.deepEqual(
    show(deploy).map((l) => l.split(' ').slice(0, 2).join(' ')),
    ['13:8 FieldValueInvalid'],
  );
  const cleared = server.diagnostics(uri('chart/templates/widget.yaml'), (d) => d.length === 0);
  await server.conn.sendNotification('workspace/didChangeConfiguration', { settings: { crdYaml: { validate: { exclude: ['chart/**'] } } } });
  await cleared;
  const still = await server.diagnostics(uri('deploy/widgets.yaml'), (d) => d.length === 1);
  assert.equal(still.length, 1);
  // crdYaml.syntaxDiagnostics off: a broken document says nothing; on: the syntax error.
  const broken = 'apiVersion: example.com/v1\nkind: Widget\nspec:\n  size: [1\n';
  const withSyntax = await open(server, 'deploy/broken.yaml', (d) => d.length > 0, broken);
  assert.equal(withSyntax[0].code, 'YAMLSyntax');
  const quiet = server.diagnostics(uri('deploy/broken.yaml'), (d) => d.length === 0);
  await server.conn.sendNotification('workspace/didChangeConfiguration', { settings: { crdYaml: { syntaxDiagnostics: 'off' } } });
  await quiet;
  // The CRDs in use, for the status bar's list.
  const crds = await server.conn.sendRequest('crdYaml/crds', {});
  assert.deepEqual(crds, [{ kind: 'Widget', group: 'example.com', name: 'widgets.example.com', versions: ['v1'], uri: uri('chart/crds/widgets.example.com.yaml'), line: 0 }]);
});

test('CRDs from outside the workspace: a folder, a URL (never fetched when untrusted), Go module dependencies', async () => {
  const { mkdtempSync, mkdirSync, writeFileSync, cpSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { createServer } = await import('node:http');
  const base = mkdtempSync(join(tmpdir(), 'crd-yaml-sources-lsp-'));
  const crd = readFileSync(join(REPO, 'chart', 'crds', 'widgets.example.com.yaml'), 'utf8');
  const ws = join(base, 'ws');
  cpSync(join(REPO, 'deploy'), join(ws, 'deploy'), { recursive: true });
  const docUri = pathToFileURL(join(ws, 'deploy', 'widgets.yaml')).href;
  const text = readFileSync(join(ws, 'deploy', 'widgets.yaml'), 'utf8');
  const openDeploy = async (s: TestServer, pred: (d: Diagnostic[]) => boolean) => {
    const got = s.diagnostics(docUri, pred, 20000);
    await s.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: docUri, languageId: 'yaml', version: 1, text } });
    return got;
  };
  const checked = (d: Diagnostic[]) => d.length === 1 && d[0].range.start.line === 13;
  // A folder outside the workspace.
  mkdirSync(join(base, 'vendor-crds'));
  writeFileSync(join(base, 'vendor-crds', 'widgets.yaml'), crd);
  let s = await startServer(ws, { settings: { crdSources: [join(base, 'vendor-crds')] } });
  try {
    assert.ok(checked(await openDeploy(s, checked)));
  } finally {
    await s.stop();
  }
  // A URL: not fetched in an untrusted workspace; fetched (into cacheDir) when trusted.
  let hits = 0;
  const http = createServer((_req, res) => {
    hits++;
    res.end(crd);
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(http.address() as { port: number }).port}/widgets.yaml`;
  try {
    s = await startServer(ws, { settings: { crdSources: [url] }, trusted: false, cacheDir: join(base, 'cache') });
    await s.notification<{ indexing: boolean }>('crdYaml/status', (p) => !p.indexing, 20000);
    // Without the URL's CRD the Widgets are not checked: said once (crdYaml.unknownKinds: file).
    assert.deepEqual(
      (await openDeploy(s, () => true)).map((d) => [d.code, d.message]),
      [['UnknownKind', 'example.com/Widget not checked: no CRD known for it (nor for 1 more object of this file)']],
    );
    assert.equal(hits, 0, 'nothing fetched when untrusted');
    const after = s.diagnostics(docUri, checked, 20000);
    await s.conn.sendNotification('crdYaml/trust', { trusted: true });
    await after;
    assert.equal(hits, 1);
    await s.stop();
  } finally {
    http.close();
    await s.stop();
  }
  // Go modules: the CRD files of a module go.mod requires, from the module cache.
  const modcache = join(base, 'gomod');
  mkdirSync(join(modcache, 'example.com', 'widgets@v1.0.0', 'config', 'crd'), { recursive: true });
  writeFileSync(join(modcache, 'example.com', 'widgets@v1.0.0', 'config', 'crd', 'widgets.yaml'), crd);
  writeFileSync(join(ws, 'go.mod'), 'module example.com/op\n\ngo 1.22\n\nrequire example.com/widgets v1.0.0\n');
  s = await startServer(ws, { settings: { goModules: true } }, { env: { ...process.env, GOMODCACHE: modcache } });
  try {
    assert.ok(checked(await openDeploy(s, checked)));
  } finally {
    await s.stop();
  }
});
