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
  assert.deepEqual(show(widget).map((l) => l.split(' ').slice(0, 2).join(' ')), ['9:8 FieldValueNotSupported'], show(widget).join('\n'));
  const deployment = await open(server, 'chart/templates/deployment.yaml', () => true);
  assert.deepEqual(show(deployment), []);
  // The kustomize patch: a partial object.
  const patch = await open(server, 'kustomize/overlays/prod/widget-size.yaml', (d) => d.length > 0);
  assert.deepEqual(show(patch).map((l) => l.split(' ').slice(0, 2).join(' ')), ['5:8 FieldValueTypeInvalid'], show(patch).join('\n'));
  // crdYaml.validate.exclude: the chart gets no diagnostics, its CRD still checks deploy/.
  const deploy = await open(server, 'deploy/widgets.yaml', (d) => d.length > 0);
  assert.deepEqual(show(deploy).map((l) => l.split(' ').slice(0, 2).join(' ')), ['13:8 FieldValueInvalid']);
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
