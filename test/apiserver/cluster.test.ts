/**
 * The cluster client against a real kube-apiserver: every kubeconfig authentication it supports
 * (client certificate, bearer token, token file, exec plugin), TLS verification, the CRD list and one
 * object by discovery.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { openCluster } from '../../server/src/cluster';
import { startServer } from '../lsp/client';
import { skipWithoutKapi, startApiServer, type ApiServer } from './kapi';

const skip = skipWithoutKapi();
const dir = mkdtempSync(join(tmpdir(), 'crd-yaml-cluster-kapi-'));
let s: ApiServer | undefined;

const widgetCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', required: ['size'], properties: { size: { type: 'integer', maximum: 10 }, mode: { type: 'string', enum: ['fast', 'slow'] } } } } },
        },
      },
    ],
  },
};

/** A kubeconfig for the test server with the given cluster and user fields. */
function kubeconfig(name: string, cluster: Record<string, unknown>, user: Record<string, unknown>): string {
  const p = join(dir, name);
  writeFileSync(
    p,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      'current-context': 'k',
      contexts: [{ name: 'k', context: { cluster: 'c', user: 'u' } }],
      clusters: [{ name: 'c', cluster: { server: s!.url, ...cluster } }],
      users: [{ name: 'u', user }],
    }),
  );
  return p;
}

before(async () => {
  if (skip) return;
  // A static token file: any authenticated user may do anything (--authorization-mode=AlwaysAllow).
  writeFileSync(join(dir, 'tokens.csv'), 'static-token,alice,1001,"system:authenticated"\nexec-token,bob,1002,"system:authenticated"\n');
  s = await startApiServer({ flags: [`--token-auth-file=${join(dir, 'tokens.csv')}`] });
  await s.createCrds([widgetCrd]);
  const r = await s.request('POST', '/apis/example.com/v1/namespaces/default/widgets', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 3 } });
  assert.equal(r.status, 201, JSON.stringify(r.body));
});

after(() => {
  s?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("client certificate (the server's own kubeconfig): CRDs listed, an object read by discovery", { skip }, async () => {
  const client = await openCluster({ kubeconfig: s!.kubeconfig, allowExec: false });
  const { crds, truncated } = await client.listCustomResourceDefinitions();
  assert.equal(truncated, undefined);
  assert.deepEqual(
    crds.map((c) => (c.metadata as { name: string }).name),
    ['widgets.example.com'],
  );
  const obj = await client.getObject({ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w1' });
  assert.deepEqual((obj?.spec as object) ?? null, { size: 3 });
  assert.equal(await client.getObject({ apiVersion: 'example.com/v1', kind: 'Widget', name: 'nope' }), undefined);
  const ns = await client.getObject({ apiVersion: 'v1', kind: 'Namespace', name: 'default' });
  assert.equal((ns?.metadata as { name: string } | undefined)?.name, 'default');
});

test('bearer token, token file, and TLS verification against the cluster CA', { skip }, async () => {
  const ca = readFileSync(s!.ca).toString('base64');
  const token = await openCluster({ kubeconfig: kubeconfig('token.json', { 'certificate-authority-data': ca }, { token: 'static-token' }), allowExec: false });
  assert.equal((await token.listCustomResourceDefinitions()).crds.length, 1);
  writeFileSync(join(dir, 'token.txt'), 'static-token\n');
  const file = await openCluster({ kubeconfig: kubeconfig('tokenfile.json', { 'certificate-authority': s!.ca }, { tokenFile: 'token.txt' }), allowExec: false });
  assert.equal((await file.listCustomResourceDefinitions()).crds.length, 1);
  const bad = await openCluster({ kubeconfig: kubeconfig('bad.json', { 'certificate-authority-data': ca }, { token: 'wrong' }), allowExec: false });
  await assert.rejects(bad.listCustomResourceDefinitions(), /401 Unauthorized/);
  const noCa = await openCluster({ kubeconfig: kubeconfig('noca.json', {}, { token: 'static-token' }), allowExec: false });
  await assert.rejects(noCa.listCustomResourceDefinitions(), /certificate of https:\/\/127\.0\.0\.1:\d+ was not accepted/);
  const insecure = await openCluster({ kubeconfig: kubeconfig('insecure.json', { 'insecure-skip-tls-verify': true }, { token: 'static-token' }), allowExec: false });
  assert.equal((await insecure.listCustomResourceDefinitions()).crds.length, 1);
});

test('exec credential plugin', { skip }, async () => {
  const plugin = join(dir, 'plugin.js');
  writeFileSync(plugin, `const i = JSON.parse(process.env.KUBERNETES_EXEC_INFO); process.stdout.write(JSON.stringify({ apiVersion: i.apiVersion, kind: 'ExecCredential', status: { token: 'exec-token' } }));`);
  const exec = { apiVersion: 'client.authentication.k8s.io/v1beta1', command: process.execPath, args: [plugin] };
  const client = await openCluster({ kubeconfig: kubeconfig('exec.json', { 'certificate-authority': s!.ca }, { exec }), allowExec: true });
  assert.equal((await client.listCustomResourceDefinitions()).crds.length, 1);
});

test("crd-yaml check --cluster --kubeconfig F deploy/: custom resources checked against the cluster's CRDs", { skip }, async () => {
  const repo = join(__dirname, '..', 'fixtures', 'repo');
  // The cluster has the Widget CRD (created before the tests): size at most 10.
  const cli = join(__dirname, '..', '..', 'dist', 'cli.js');
  const run = (args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd: repo, encoding: 'utf8', env: { ...process.env, KUBECONFIG: '/nonexistent' } });
  // Without the cluster, deploy/ has no CRD: nothing is checked, and the run says so (exit code 1).
  const alone = run(['check', 'deploy/']);
  assert.equal(alone.status, 1, alone.stderr);
  assert.match(alone.stderr, /nothing checked \(exit code 1\): no CRD known for the kinds of its objects/);
  const r = run(['check', '--cluster', '--kubeconfig', s!.kubeconfig, 'deploy/']);
  assert.equal(r.status, 1, r.stderr);
  assert.equal(r.stdout, 'deploy/widgets.yaml:14:9: error: spec.size: Invalid value: 12: spec.size in body should be less than or equal to 10 [FieldValueInvalid spec.size]\n');
  const bad = run(['check', '--cluster', '--kubeconfig', s!.kubeconfig, '--context', 'nope', 'deploy/']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--cluster: context "nope" is not defined/);
});

test('"CRD: Import CRDs from Cluster..." (the server\'s requests): contexts listed, CRDs written into .crds/<context>/ and used', { skip }, async () => {
  const ws = join(dir, 'ws');
  mkdirSync(ws, { recursive: true });
  cpSync(join(__dirname, '..', 'fixtures', 'repo', 'deploy'), join(ws, 'deploy'), { recursive: true });
  const env = { ...process.env, KUBECONFIG: s!.kubeconfig };
  const untrusted = await startServer(ws, { settings: {}, trusted: false }, { env });
  try {
    const r = await untrusted.conn.sendRequest('crdYaml/importCrds', { context: 'kapi' });
    assert.match((r as { error: string }).error, /not imported from a cluster in an untrusted workspace/);
  } finally {
    await untrusted.stop();
  }
  const server = await startServer(ws, { settings: {}, trusted: true }, { env });
  try {
    await server.notification<{ indexing: boolean }>('crdYaml/status', (p) => !p.indexing, 20000);
    const uri = pathToFileURL(join(ws, 'deploy', 'widgets.yaml')).href;
    const none = server.diagnostics(uri);
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: readFileSync(join(ws, 'deploy', 'widgets.yaml'), 'utf8') } });
    // No CRD yet: nothing checked, and the file says so once, on the first object's kind.
    assert.deepEqual(
      (await none).map((x) => `${x.range.start.line} ${String(x.code)} ${x.message}`),
      ['1 UnknownKind example.com/Widget not checked: no CRD known for it (nor for 1 more object of this file)'],
    );
    const contexts = (await server.conn.sendRequest('crdYaml/kubeconfigContexts', {})) as { contexts: string[]; current: string };
    assert.ok(contexts.contexts.length >= 1, JSON.stringify(contexts));
    const checked = server.diagnostics(uri, (d) => d.some((x) => x.code === 'FieldValueInvalid'), 30000);
    const result = (await server.conn.sendRequest('crdYaml/importCrds', { context: contexts.current })) as { folder: string; written: number; error?: string };
    assert.equal(result.error, undefined);
    assert.equal(result.written, 1);
    assert.equal(result.folder, join(ws, '.crds', contexts.current.replace(/[^A-Za-z0-9._-]+/g, '_')));
    assert.ok(existsSync(join(result.folder, 'widgets.example.com.yaml')));
    const d = await checked;
    assert.deepEqual(
      d.map((x) => `${x.range.start.line} ${String(x.code)}`),
      ['13 FieldValueInvalid'],
    );
    const crds = (await server.conn.sendRequest('crdYaml/crds', {})) as { kind: string; uri: string }[];
    assert.deepEqual(
      crds.map((c) => [c.kind, c.uri]),
      [['Widget', pathToFileURL(join(result.folder, 'widgets.example.com.yaml')).href]],
    );
  } finally {
    await server.stop();
  }
});
