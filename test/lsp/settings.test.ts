import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type TestServer } from './client';

let server: TestServer | undefined;
after(async () => {
  await server?.stop();
});

test('settings from initializationOptions and didChangeConfiguration: unknownKinds, diagnosticsDelayMs', async () => {
  // A client without workspace/configuration support: settings come with initialize and change notifications.
  server = await startServer(null, { settings: { unknownKinds: 'hint', diagnosticsDelayMs: 300 } });
  const uri = 'file:///settings/deploy.yaml';
  const hinted = server.diagnostics(uri, (d) => d.length > 0);
  await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: 'apiVersion: other.example.org/v1\nkind: Thing\n' } });
  // (The delay itself is asserted on mock timers in scheduler.test.ts and its reading in
  // test/unit/worker-settings.test.ts: here the check still comes, with the delay configured.)
  const d = await hinted;
  assert.equal(d[0].code, 'UnknownKind');
  assert.equal(d[0].severity, 3);
  const quiet = server.diagnostics(uri, (x) => x.length === 0);
  await server.conn.sendNotification('workspace/didChangeConfiguration', { settings: { crdYaml: { unknownKinds: 'ignore' } } });
  assert.deepEqual(await quiet, []);
});

test('crdYaml.fieldValidation: an unknown field is an error by default (Strict), a warning with Warn, nothing with Ignore', async () => {
  await server?.stop();
  server = await startServer(null, { settings: {} });
  const crd = readFileSync(join(__dirname, '..', 'service', 'fixtures', 'widget-crd.yaml'), 'utf8');
  const crdUri = 'file:///settings/widget-crd.yaml';
  await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: crdUri, languageId: 'yaml', version: 1, text: crd } });
  const uri = 'file:///settings/widget.yaml';
  const strict = server.diagnostics(uri, (d) => d.length > 0);
  await server.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'yaml', version: 1, text: 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: small\n  colour: red\n' },
  });
  const [s] = await strict;
  assert.deepEqual([s.code, s.severity], ['UnknownField', 1]);
  const warn = server.diagnostics(uri, (d) => d[0]?.severity === 2);
  await server.conn.sendNotification('workspace/didChangeConfiguration', { settings: { crdYaml: { fieldValidation: 'Warn' } } });
  assert.equal((await warn)[0].code, 'UnknownField');
  const ignored = server.diagnostics(uri, (d) => d.length === 0);
  await server.conn.sendNotification('workspace/didChangeConfiguration', { settings: { crdYaml: { fieldValidation: 'Ignore' } } });
  assert.deepEqual(await ignored, []);
});
