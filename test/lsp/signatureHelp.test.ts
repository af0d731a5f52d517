/**
 * Signature help over the protocol: inside a CRD's CEL rule, the overloads of the function being called
 * (trigger characters `(` and `,`), answered from the language service.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SignatureHelp } from 'vscode-languageserver-protocol';
import { startServer, type TestServer } from './client';
import { crdYaml } from '../crd';

let ws: string;
let server: TestServer;

before(async () => {
  ws = mkdtempSync(join(tmpdir(), 'crd-yaml-sighelp-'));
  server = await startServer(ws);
});

after(async () => {
  await server?.stop();
  rmSync(ws, { recursive: true, force: true });
});

const CRD = crdYaml(
  `type: object
properties:
  spec:
    type: object
    x-kubernetes-validations:
      - rule: "quantity(self.cpu).isGreaterThan(quantity('1'))"
    properties:
      cpu:
        type: string
        maxLength: 10`,
  { kind: 'Pool' },
);

test('textDocument/signatureHelp in a CEL rule: the member overload and its parameter; none outside rules', async () => {
  const uri = `file://${join(ws, 'pool-crd.yaml')}`;
  await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: CRD } });
  const lines = CRD.split('\n');
  const line = lines.findIndex((l) => l.includes('isGreaterThan('));
  const character = lines[line].indexOf('isGreaterThan(') + 'isGreaterThan('.length;
  const help = (await server.conn.sendRequest('textDocument/signatureHelp', { textDocument: { uri }, position: { line, character } })) as SignatureHelp | null;
  assert.ok(help);
  assert.deepEqual(
    help.signatures.map((s) => s.label),
    ['kubernetes.Quantity.isGreaterThan(kubernetes.Quantity) -> bool'],
  );
  assert.equal(help.activeParameter, 0);
  const none = await server.conn.sendRequest('textDocument/signatureHelp', { textDocument: { uri }, position: { line: 3, character: 10 } });
  assert.equal(none, null);
});
