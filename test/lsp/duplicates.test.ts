/**
 * The server on a workspace with a CRD defined twice and a vendored CRD (issue 22 cause 12, issue 28 item 7):
 * the copy objects are checked against does not change with the open files, the one information line is
 * on it with paths from the workspace folder, the other copy gets a hint; the vendored CRD gets no CEL lint
 * until crdYaml.cel.lintScope is `all`.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { startServer, type TestServer } from './client';
import { crdYaml, specSchemaYaml } from '../crd';

const CRD = (kind: string, maximum: number) =>
  crdYaml(
    specSchemaYaml(
      `size:
  type: integer
  maximum: ${maximum}
port:
  type: integer
`,
      { rules: '- rule: "!has(self.size) || self.port > 0"' },
    ),
    { kind },
  );
const FILES: Record<string, string> = {
  'charts/widgets/crds/widgets.yaml': CRD('Widget', 10),
  'config/crd/widgets.yaml': CRD('Widget', 20),
  'vendor/example.com/gadgets.yaml': CRD('Gadget', 10),
  'deploy/widget.yaml': 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 15\n  port: 1\n',
};

const ws = mkdtempSync(join(tmpdir(), 'crd-yaml-dup-lsp-'));
for (const [rel, text] of Object.entries(FILES)) {
  mkdirSync(dirname(join(ws, rel)), { recursive: true });
  writeFileSync(join(ws, rel), text);
}
const uri = (rel: string) => pathToFileURL(join(ws, rel)).href;
let server: TestServer | undefined;
after(async () => {
  await server?.stop();
  rmSync(ws, { recursive: true, force: true });
});

const show = (ds: Diagnostic[]) => ds.map((d) => `${d.severity} ${String(d.code)} ${d.message}`);
let version = 1;

/** Opens (or changes) a file and waits for its diagnostics. */
async function publish(s: TestServer, rel: string, pred: (d: Diagnostic[]) => boolean = () => true): Promise<Diagnostic[]> {
  const v = version++;
  const got = s.diagnostics(uri(rel), (d, dv) => (dv === undefined || dv === v) && pred(d));
  if (v === 1 || !opened.has(rel)) await s.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: uri(rel), languageId: 'yaml', version: v, text: FILES[rel] } });
  else await s.conn.sendNotification('textDocument/didChange', { textDocument: { uri: uri(rel), version: v }, contentChanges: [{ text: FILES[rel] }] });
  opened.add(rel);
  return got;
}
const opened = new Set<string>();

test('a CRD defined twice: the same copy whatever is open, one information line on it; a vendored CRD without lints', async () => {
  server = await startServer(ws, { settings: {} });
  await server.notification<{ indexing: boolean; crdCount: number }>('crdYaml/status', (p) => !p.indexing && p.crdCount === 2, 20000);
  const widgetError = (d: Diagnostic[]) => show(d).join('\n').includes('less than or equal to 10');
  assert.ok(widgetError(await publish(server, 'deploy/widget.yaml')), 'no CRD open: the chart copy (maximum 10), first by path');
  // The other copy opened: a hint naming the copy in use; objects are still checked against that one.
  const other = await publish(server, 'config/crd/widgets.yaml', (d) => d.length > 0);
  assert.deepEqual(
    show(other).filter((l) => l.includes('DuplicateCRD')),
    ['4 DuplicateCRD example.com/Widget is also defined in charts/widgets/crds/widgets.yaml, which is the one in use (the first by path is used); objects are not checked against this copy'],
  );
  assert.ok(widgetError(await publish(server, 'deploy/widget.yaml')), 'config/crd copy open');
  const used = await publish(server, 'charts/widgets/crds/widgets.yaml', (d) => d.some((x) => x.code === 'DuplicateCRD'));
  assert.deepEqual(
    show(used).filter((l) => l.includes('DuplicateCRD')),
    ['3 DuplicateCRD example.com/Widget is defined 2 times: objects are checked against this one, charts/widgets/crds/widgets.yaml (the first by path is used), not config/crd/widgets.yaml'],
  );
  assert.ok(widgetError(await publish(server, 'deploy/widget.yaml')), 'both copies open');
  // The authored copies get the CEL lint (self.port read unguarded); the vendored CRD does not, until lintScope is all.
  assert.ok(
    show(used).some((l) => l.includes('CELNoSuchKey')),
    show(used).join('\n'),
  );
  const vendored = await publish(server, 'vendor/example.com/gadgets.yaml');
  assert.deepEqual(show(vendored), []);
  const linted = server.diagnostics(uri('vendor/example.com/gadgets.yaml'), (d) => d.some((x) => x.code === 'CELNoSuchKey'));
  await server.conn.sendNotification('workspace/didChangeConfiguration', { settings: { crdYaml: { cel: { lintScope: 'all' } } } });
  assert.equal((await linted).length, 1);
});
