/**
 * Go to definition on a built-in object's field through the server: the query worker writes the kind's
 * schemas into the client's cache folder (initializationOptions.cacheDir) and answers with that file;
 * opened, the file is not checked (workspace/builtinSchemaFiles.ts, service/builtins.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './client';

const DEPLOYMENT =
  'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx\n';

test("definition of a built-in object's field: its kind's schemas in the cache folder, not checked when opened", async () => {
  const ws = mkdtempSync(join(tmpdir(), 'crd-yaml-lsp-builtin-'));
  const cacheDir = mkdtempSync(join(tmpdir(), 'crd-yaml-lsp-cache-'));
  const server = await startServer(ws, { cacheDir });
  try {
    const uri = `file://${join(ws, 'web.yaml')}`;
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: DEPLOYMENT } });
    // `replicas` (line 5)
    const defs = (await server.conn.sendRequest('textDocument/definition', { textDocument: { uri }, position: { line: 5, character: 4 } })) as Array<{ uri: string; range: { start: { line: number } } }>;
    assert.equal(defs.length, 1);
    const file = fileURLToPath(defs[0].uri);
    assert.equal(relative(cacheDir, file), join('builtin-schemas', 'kubernetes-1.37', 'apps', 'deployment.yaml'));
    const text = readFileSync(file, 'utf8');
    assert.equal(text.split('\n')[defs[0].range.start.line].trim(), 'replicas:');
    const diags = server.diagnostics(defs[0].uri, () => true);
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: defs[0].uri, languageId: 'yaml', version: 1, text } });
    assert.deepEqual(await diags, []);
  } finally {
    await server.stop();
    rmSync(ws, { recursive: true, force: true });
    rmSync(cacheDir, { recursive: true, force: true });
  }
});
