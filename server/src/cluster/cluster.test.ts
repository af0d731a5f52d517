import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClusterClient, ClusterError, KubeconfigError, connectionFor, contextNames, kubeconfigPaths, loadKubeconfig, openCluster, storedCrdManifest } from './index';

const dir = mkdtempSync(join(tmpdir(), 'crd-yaml-cluster-'));

/** A fake API server over plain HTTP: CRDs in pages, discovery, one object; who asked is recorded. */
async function fakeApiServer(opts: { crds: number; acceptedToken?: string }): Promise<{ url: string; seen: string[]; close: () => void }> {
  const seen: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const auth = req.headers.authorization ?? '';
    seen.push(`${req.url} ${auth}`);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (opts.acceptedToken && auth !== `Bearer ${opts.acceptedToken}`) return send(401, { kind: 'Status', message: 'Unauthorized' });
    const u = new URL(req.url!, 'http://x');
    if (u.pathname === '/apis/apiextensions.k8s.io/v1/customresourcedefinitions') {
      const from = Number(u.searchParams.get('continue') ?? 0);
      const limit = Number(u.searchParams.get('limit'));
      const items = Array.from({ length: Math.max(0, Math.min(limit, opts.crds - from)) }, (_, i) => ({
        metadata: { name: `w${from + i}s.example.com`, uid: 'u', resourceVersion: '1', managedFields: [] },
        spec: { group: 'example.com', names: { kind: `W${from + i}`, plural: `w${from + i}s` } },
        status: { conditions: [] },
      }));
      return send(200, { items, metadata: { continue: from + limit < opts.crds ? String(from + limit) : '' } });
    }
    if (u.pathname === '/apis/example.com/v1')
      return send(200, {
        resources: [
          { name: 'widgets', kind: 'Widget', namespaced: true },
          { name: 'widgets/status', kind: 'Widget', namespaced: true },
        ],
      });
    if (u.pathname === '/apis/example.com/v1/namespaces/team/widgets/w1') return send(200, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' } });
    if (u.pathname === '/forbidden') return send(403, { kind: 'Status', message: 'customresourcedefinitions is forbidden: User "bob" cannot list resource' });
    send(404, { kind: 'Status' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => server.close() };
}

function kubeconfig(name: string, body: string): string {
  const p = join(dir, name);
  writeFileSync(p, body);
  return p;
}

test('kubeconfig: $KUBECONFIG lists are merged (first wins), relative paths are relative to the file', async () => {
  writeFileSync(join(dir, 'token.txt'), 'from-file\n');
  const a = kubeconfig(
    'a.yaml',
    'current-context: one\ncontexts:\n- name: one\n  context: {cluster: c1, user: u1, namespace: team}\nclusters:\n- name: c1\n  cluster: {server: "https://one.example:6443/", insecure-skip-tls-verify: true}\nusers:\n- name: u1\n  user: {tokenFile: token.txt}\n',
  );
  const b = kubeconfig('b.yaml', 'current-context: two\ncontexts:\n- name: one\n  context: {cluster: other}\n- name: two\n  context: {cluster: c1}\nclusters: []\n');
  const env = { KUBECONFIG: [a, join(dir, 'missing.yaml'), b].join(':') };
  const files = kubeconfigPaths(undefined, env, '/home/nobody');
  assert.deepEqual(files, [a, join(dir, 'missing.yaml'), b]);
  assert.deepEqual(kubeconfigPaths(undefined, {}, '/home/nobody'), ['/home/nobody/.kube/config']);
  const cfg = await loadKubeconfig(files);
  assert.deepEqual(contextNames(cfg), ['one', 'two']);
  const conn = await connectionFor(cfg);
  assert.equal(conn.server, 'https://one.example:6443');
  assert.equal(conn.namespace, 'team');
  assert.equal(conn.insecureSkipTlsVerify, true);
  assert.equal(conn.tokenFile, join(dir, 'token.txt'));
  await assert.rejects(connectionFor(cfg, 'nope'), (e: Error) => e instanceof KubeconfigError && /context "nope" is not defined.*contexts: one, two/.test(e.message));
  await assert.rejects(loadKubeconfig([join(dir, 'missing.yaml')], { explicit: true }), /cannot read kubeconfig .*missing\.yaml: no such file$/);
  // The default place, missing: words and where kubectl looks, not Node's ENOENT.
  await assert.rejects(loadKubeconfig([join(dir, 'config')]), (e: Error) => {
    assert.match(e.message, /^cannot read kubeconfig .*config: no such file \(kubectl reads the files \$KUBECONFIG lists, else ~\/\.kube\/config: create one or set KUBECONFIG\)$/);
    assert.doesNotMatch(e.message, /ENOENT/);
    return true;
  });
});

test('client: pages through the CRD list, sends the token file, reduces CRDs to manifests', async () => {
  const api = await fakeApiServer({ crds: 120 });
  try {
    writeFileSync(join(dir, 'tok'), 'abc\n');
    const f = kubeconfig('tf.yaml', `current-context: x\ncontexts: [{name: x, context: {cluster: c, user: u}}]\nclusters: [{name: c, cluster: {server: "${api.url}"}}]\nusers: [{name: u, user: {tokenFile: tok}}]\n`);
    const client = await openCluster({ kubeconfig: f, allowExec: false });
    const r = await client.listCustomResourceDefinitions();
    assert.equal(r.crds.length, 120);
    assert.equal(r.truncated, undefined);
    assert.equal(api.seen.length, 3, 'pages of 50');
    assert.ok(api.seen.every((s) => s.endsWith('Bearer abc')));
    const m = storedCrdManifest(r.crds[7]);
    assert.deepEqual(m, { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'w7s.example.com' }, spec: { group: 'example.com', names: { kind: 'W7', plural: 'w7s' } } });
    assert.deepEqual(await client.getObject({ apiVersion: 'example.com/v1', kind: 'Widget', namespace: 'team', name: 'w1' }), { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' } });
    assert.equal(await client.getObject({ apiVersion: 'example.com/v1', kind: 'Widget', namespace: 'team', name: 'nope' }), undefined);
    await assert.rejects(client.getObject({ apiVersion: 'example.com/v1', kind: 'Gadget', name: 'g' }), /serves no kind Gadget/);
    await assert.rejects(client.get('/forbidden'), (e: Error) => e instanceof ClusterError && e.status === 403 && /403 Forbidden: user "u" may not GET \/forbidden: .*cannot list/.test(e.message));
  } finally {
    api.close();
  }
});

test('exec plugins: run with KUBERNETES_EXEC_INFO, credentials cached, never in an untrusted workspace', async () => {
  const api = await fakeApiServer({ crds: 1, acceptedToken: 'exec-token' });
  try {
    const count = join(dir, 'exec-count');
    const plugin = join(dir, 'plugin.js');
    writeFileSync(
      plugin,
      `const fs = require('fs');
const info = JSON.parse(process.env.KUBERNETES_EXEC_INFO);
fs.appendFileSync(${JSON.stringify(count)}, 'x');
if (info.spec.interactive !== false || info.spec.cluster.server !== process.env.WANT_SERVER) process.exit(3);
process.stdout.write(JSON.stringify({ apiVersion: info.apiVersion, kind: 'ExecCredential', status: { token: 'exec-token', expirationTimestamp: '2999-01-01T00:00:00Z' } }));`,
    );
    const f = kubeconfig(
      'exec.yaml',
      `current-context: x\ncontexts: [{name: x, context: {cluster: c, user: u}}]\nclusters: [{name: c, cluster: {server: "${api.url}"}}]\nusers:\n- name: u\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(plugin)}]\n      env: [{name: WANT_SERVER, value: "${api.url}"}]\n      interactiveMode: Never\n      provideClusterInfo: true\n`,
    );
    const untrusted = await openCluster({ kubeconfig: f, allowExec: false });
    await assert.rejects(untrusted.listCustomResourceDefinitions(), /exec plugin .* not run in an untrusted workspace/);
    assert.equal(existsSync(count), false, 'the plugin did not run');
    const client = await openCluster({ kubeconfig: f, allowExec: true });
    assert.equal((await client.listCustomResourceDefinitions()).crds.length, 1);
    assert.equal((await client.listCustomResourceDefinitions()).crds.length, 1);
    assert.equal(readFileSync(count, 'utf8'), 'x', 'one run: the credential is kept until it expires');
  } finally {
    api.close();
  }
});

test('client: unreachable servers and rejected credentials are said plainly', async () => {
  const api = await fakeApiServer({ crds: 1, acceptedToken: 'right' });
  api.close();
  const conn = { context: 'x', cluster: 'c', user: 'u', server: api.url, insecureSkipTlsVerify: false, source: 'test', token: 'wrong' };
  await assert.rejects(new ClusterClient(conn, { allowExec: false }).listCustomResourceDefinitions(), /cannot reach http:\/\/127\.0\.0\.1:\d+ \(context "x"\): ECONNREFUSED/);
  const api2 = await fakeApiServer({ crds: 1, acceptedToken: 'right' });
  try {
    await assert.rejects(new ClusterClient({ ...conn, server: api2.url }, { allowExec: false }).listCustomResourceDefinitions(), /401 Unauthorized: .* credentials of user "u"/);
  } finally {
    api2.close();
  }
});
