/**
 * crdYaml.kubernetesVersion: the server checks CRDs as an API server of that version (engine/version.ts).
 * A rule using isCIDR is an undeclared reference at 1.30 and fine at 1.37 (the default); changing the
 * setting re-checks open documents.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './client';
import { crdYaml } from '../crd';

const CRD = crdYaml(
  `type: object
properties:
  cidr:
    type: string
    maxLength: 64
    x-kubernetes-validations:
    - rule: isCIDR(self)`,
  { kind: 'Net' },
);
/** The line (0-based) of the isCIDR rule in CRD. */
const RULE_LINE = CRD.split('\n').findIndex((l) => l.includes('rule: isCIDR(self)'));

let server: TestServer | undefined;
after(async () => {
  await server?.stop();
});

test('crdYaml.kubernetesVersion 1.30: a rule using isCIDR does not compile; back to 1.37 it does', async () => {
  server = await startServer(null, { settings: { kubernetesVersion: '1.30' } });
  const uri = 'file:///version/crd.yaml';
  const old = server.diagnostics(uri, (d) => d.length > 0);
  await server.conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'yaml', version: 1, text: CRD },
  });
  const d = await old;
  assert.equal(d.length, 1, JSON.stringify(d));
  assert.match(String(d[0].message), /isCIDR/);
  assert.equal(d[0].range.start.line, RULE_LINE);
  const clean = server.diagnostics(uri, (x) => x.length === 0);
  await server.conn.sendNotification('workspace/didChangeConfiguration', {
    settings: { crdYaml: { kubernetesVersion: '1.37' } },
  });
  assert.deepEqual(await clean, []);
  const again = server.diagnostics(uri, (x) => x.length === 1);
  await server.conn.sendNotification('workspace/didChangeConfiguration', {
    settings: { crdYaml: { kubernetesVersion: '1.30' } },
  });
  assert.match(String((await again)[0].message), /isCIDR/);
});
