/**
 * Over stdio: an object no known CRD defines gets one information diagnostic per file (crdYaml.unknownKinds
 * `file`, the default) with the ways to supply CRDs as code actions running the VS Code extension's
 * commands; a client other than the extension (no initializationOptions.trusted) is not offered commands it
 * does not have.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CodeAction } from 'vscode-languageserver-protocol';
import { startServer } from './client';

const TEXT =
  'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers: [{name: c, image: i}]\n---\napiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata:\n  name: c\n---\napiVersion: cert-manager.io/v1\nkind: Issuer\nmetadata:\n  name: i\n';

async function notCheckedActions(initializationOptions: unknown): Promise<{ message: string; line: number; actions: CodeAction[] }> {
  const ws = mkdtempSync(join(tmpdir(), 'crd-yaml-lsp-'));
  const server = await startServer(ws, initializationOptions);
  try {
    await server.notification<{ indexing: boolean }>('crdYaml/status', (p) => !p.indexing);
    const uri = `file://${join(ws, 'app.yaml')}`;
    const diagnosed = server.diagnostics(uri, (d) => d.length > 0);
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: TEXT } });
    const diags = await diagnosed;
    assert.equal(diags.length, 1, JSON.stringify(diags));
    const [d] = diags;
    assert.equal(d.severity, 3, 'information');
    assert.equal(d.code, 'UnknownKind');
    const actions = (await server.conn.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: d.range, context: { diagnostics: [d] } })) as CodeAction[];
    return { message: String(d.message), line: d.range.start.line, actions };
  } finally {
    await server.stop();
    rmSync(ws, { recursive: true, force: true });
  }
}

test('an object with no CRD: one information at the kind of the first, with actions to supply CRDs (VS Code extension)', async () => {
  const r = await notCheckedActions({ trusted: true });
  assert.equal(r.message, 'cert-manager.io/Certificate not checked: no CRD known for it (nor for 1 more object of this file)');
  assert.equal(r.line, 8);
  assert.deepEqual(
    r.actions.map((a) => [a.title, a.command?.command, a.command?.arguments, a.edit]),
    [
      ['Import CRDs from a cluster...', 'crdYaml.importFromCluster', undefined, undefined],
      ['Add a folder or URL of CRDs...', 'crdYaml.addCrdSource', undefined, undefined],
      ['Open the crdYaml.crdSources setting', 'workbench.action.openSettings', ['crdYaml.crdSources'], undefined],
    ],
  );
  assert.equal(r.actions[0].kind, 'quickfix');
});

test('another LSP client gets the information but no action whose command only the VS Code extension has', async () => {
  const r = await notCheckedActions(undefined);
  assert.match(r.message, /^cert-manager\.io\/Certificate not checked: no CRD known for it/);
  assert.deepEqual(r.actions, []);
});
