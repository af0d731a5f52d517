/**
 * The versions features over LSP: the v1 upgrade as a code action whose notes the server shows, and
 * crdYaml/checkConversionWebhook against a webhook started here on loopback.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-protocol';
import { startServer, type TestServer } from './client';

let ws: string;
let server: TestServer;
let hook: http.Server;
let hookUrl = '';

before(async () => {
  ws = mkdtempSync(join(tmpdir(), 'crd-yaml-lsp-versions-'));
  server = await startServer(ws);
  // A webhook that converts hostPort to host/port but renames the object it is given.
  hook = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const review = JSON.parse(body);
      const convertedObjects = review.request.objects.map((o: any) => ({ ...o, apiVersion: review.request.desiredAPIVersion, metadata: { ...o.metadata, name: `${o.metadata.name}-v1` } }));
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'ConversionReview', response: { uid: review.request.uid, convertedObjects, result: { status: 'Success' } } }));
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/convert`;
});

after(async () => {
  await server?.stop();
  hook?.close();
  rmSync(ws, { recursive: true, force: true });
});

test('a v1beta1 CRD offers "Upgrade to apiextensions.k8s.io/v1", whose notes the server shows once applied', async () => {
  const uri = `file://${join(ws, 'old-crd.yaml')}`;
  const text = readFileSync(join(__dirname, '..', 'fixtures', 'v1beta1', 'crontab-subresources.yaml'), 'utf8');
  const diags = server.diagnostics(uri, (d) => d.length > 0);
  await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
  const [d] = (await diags) as Diagnostic[];
  assert.equal(d.code, 'NoKindMatch');
  const actions = (await server.conn.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: d.range, context: { diagnostics: [d] } })) as CodeAction[];
  const upgrade = actions.find((a) => a.title === 'Upgrade to apiextensions.k8s.io/v1')!;
  assert.ok(upgrade, JSON.stringify(actions.map((a) => a.title)));
  const edit = upgrade.edit!.changes![uri][0];
  assert.match(edit.newText, /^apiVersion: apiextensions\.k8s\.io\/v1$/m);
  assert.equal(upgrade.command?.command, 'crdYaml.showFixNotes');
  const shown = server.notification<{ message: string }>('window/showMessage', () => true);
  await server.conn.sendRequest('workspace/executeCommand', { command: upgrade.command!.command, arguments: upgrade.command!.arguments });
  assert.match((await shown).message, /^Upgrade to apiextensions\.k8s\.io\/v1: \d+ changes \(listed in the crd-yaml output\)$/);
});

test("crdYaml/checkConversionWebhook reports the API server's message at the object the webhook renamed", async () => {
  const uri = `file://${join(ws, 'crontabs.yaml')}`;
  const crd = readFileSync(join(__dirname, '..', 'fixtures', 'v1beta1', 'crontab-webhook-conversion.yaml'), 'utf8').replace('apiextensions.k8s.io/v1beta1', 'apiextensions.k8s.io/v1');
  // The v1 shape of the fixture's conversion settings, reviews in v1.
  const v1 = crd.replace(
    / {2}conversion:\n[\s\S]*? {2}preserveUnknownFields: false\n/,
    '  conversion:\n    strategy: Webhook\n    webhook:\n      conversionReviewVersions: [v1]\n      clientConfig: {url: "https://conv.example.com/convert"}\n',
  );
  const text = `${v1}---\napiVersion: example.com/v1beta1\nkind: CronTab\nmetadata:\n  name: a\n  namespace: default\nhostPort: "localhost:80"\n`;
  await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
  const r = (await server.conn.sendRequest('crdYaml/checkConversionWebhook', { textDocument: { uri }, position: { line: 0, character: 0 }, webhook: hookUrl, to: 'v1' })) as {
    desiredAPIVersion: string;
    reviewVersion: string;
    sent: number;
    diagnostics: Diagnostic[];
    yaml: string;
  };
  assert.equal(r.desiredAPIVersion, 'example.com/v1');
  assert.equal(r.reviewVersion, 'v1');
  assert.equal(r.sent, 1);
  assert.deepEqual(
    r.diagnostics.map((d) => [d.range.start.line, d.message]),
    [[text.split('\n').indexOf('apiVersion: example.com/v1beta1'), 'conversion webhook for example.com/v1beta1, Kind=CronTab returned invalid object: must have the same name: a != a-v1']],
  );
  assert.match(r.yaml, /^# error: conversion webhook for/);
});
