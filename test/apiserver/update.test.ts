/**
 * The update path against a real kube-apiserver: objects stored under a CRD that is then tightened, and
 * dry-run updates of them (ratcheting, transition rules, optionalOldSelf, list-map items) and of the CRD
 * (a stored version removed, the scope changed), each answered by the server and by the engine with the
 * stored objects as the server returns them. The (type, field) sets must be equal, and the server's
 * messages contained in the engine's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { skipWithoutKapi, startApiServer, type ApiServer } from './kapi';
import { validateCustomResource } from '../../server/src/engine/customresource/strategy';
import { validateCustomResourceDefinitionUpdate } from '../../server/src/engine/crd/update';
import { errorMessage, type FieldError } from '../../server/src/engine/field';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../server/src/cli/main';

const spec = (maximum: number) => ({
  type: 'object',
  properties: {
    replicas: { type: 'integer', maximum, 'x-kubernetes-validations': [{ rule: 'self >= oldSelf', message: 'must not decrease' }] },
    name: { type: 'string', 'x-kubernetes-validations': [{ rule: '!oldSelf.hasValue() || self == oldSelf.value()', optionalOldSelf: true, message: 'is immutable once set' }] },
    ports: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['port'],
      items: { type: 'object', required: ['port'], properties: { port: { type: 'integer', maximum } } },
    },
    note: { type: 'string' },
  },
});

function crd(maximum: number, versions: { name: string; storage: boolean }[] = [{ name: 'v1', storage: true }], scope = 'Namespaced') {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope,
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: versions.map((v) => ({ ...v, served: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: spec(maximum) } } } })),
    },
  };
}

/** The (type, field) pairs of the server's 422 answer, with messages. */
function serverErrors(res: { status: number; body: any }): { type: string; field: string; message: string }[] {
  if (res.status === 200 || res.status === 201) return [];
  assert.equal(res.status, 422, JSON.stringify(res.body));
  return (res.body.details?.causes ?? []).map((c: { reason: string; field?: string; message: string }) => ({ type: c.reason, field: c.field ?? '', message: c.message }));
}

function assertSame(what: string, server: { type: string; field: string; message: string }[], engine: FieldError[]): void {
  const errs = engine.filter((e) => (e.severity ?? 'error') === 'error');
  const key = (t: string, f: string) => `${t} ${f === '<nil>' ? '' : f}`;
  assert.deepEqual(
    [...new Set(errs.map((e) => key(e.type, e.field)))].sort(),
    [...new Set(server.map((s) => key(s.type, s.field)))].sort(),
    `${what}: server ${JSON.stringify(server)}; engine ${errs.map(errorMessage).join(' | ')}`,
  );
  for (const s of server) {
    assert.ok(
      errs.some((e) => key(e.type, e.field) === key(s.type, s.field) && errorMessage(e).includes(s.message)),
      `${what}: the server says ${JSON.stringify(s)}; engine ${errs.map(errorMessage).join(' | ')}`,
    );
  }
}

async function put(s: ApiServer, path: string, body: unknown) {
  return s.request('PUT', `${path}?dryRun=All`, body);
}

test('dry-run updates of stored custom resources and of their CRD: the server and the engine agree', { skip: skipWithoutKapi(), timeout: 10 * 60_000 }, async () => {
  const s = await startApiServer();
  try {
    await s.createCrds([crd(100)]);
    const base = '/apis/example.com/v1/namespaces/default/widgets';
    const created = await s.request('POST', base, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { replicas: 50, ports: [{ port: 80 }, { port: 90 }] } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    // Tighten the CRD: the stored object is now invalid (replicas and port 90 over 60).
    const live = (await s.request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com')).body;
    const tightened = { ...crd(60), metadata: { ...crd(60).metadata, resourceVersion: live.metadata.resourceVersion } };
    const upd = await s.request('PUT', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com', tightened);
    assert.equal(upd.status, 200, JSON.stringify(upd.body));
    const storedCrd = upd.body;
    // The served schema changes asynchronously: wait until a create sees the new maximum (100 tries: a
    // hang guard, failing here rather than as a disagreement below).
    for (let i = 0; ; i++) {
      const probe = await s.request('POST', `${base}?dryRun=All`, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'probe' }, spec: { replicas: 70 } });
      if (probe.status === 422) break;
      assert.ok(i < 100, `hang guard: the API server never served the tightened schema (last answer ${probe.status})`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const stored = (await s.request('GET', `${base}/w`)).body;
    const body = (specPatch: Record<string, unknown>) => ({ ...stored, spec: { ...stored.spec, ...specPatch } });
    // [what, body, whether the server rejects it]
    const cases: [string, Record<string, unknown>, boolean][] = [
      ['unchanged invalid fields are ratcheted', body({ note: 'touched' }), false],
      ['a changed invalid field is not', body({ replicas: 70 }), true],
      ['a transition rule', body({ replicas: 40 }), true],
      ['optionalOldSelf: set once', body({ name: 'a' }), false],
      ['a list-map item keeps its ratcheted error while unchanged', body({ ports: [{ port: 90 }, { port: 80 }] }), false],
      ['a changed item does not', body({ ports: [{ port: 80 }, { port: 95 }] }), true],
      ['an item without its key correlates with nothing', body({ ports: [{ port: 80 }, { port: 90 }, {}] }), true],
    ];
    for (const [what, obj, rejected] of cases) {
      const server = serverErrors(await put(s, `${base}/w`, obj));
      assert.equal(server.length > 0, rejected, `${what}: ${JSON.stringify(server)}`);
      const engine = validateCustomResource(storedCrd, obj, { oldObject: stored }).errors;
      assertSame(what, server, engine);
    }
    // The engine's verdicts are the expected ones, not only the same as the server's.
    assert.deepEqual(
      validateCustomResource(storedCrd, cases[0][1], { oldObject: stored }).errors.filter((e) => e.severity !== 'warning'),
      [],
    );
    assert.ok(validateCustomResource(storedCrd, cases[2][1], { oldObject: stored }).errors.some((e) => e.detail === 'must not decrease'));

    // CRD updates: the stored CRD as the server has it (status, Established).
    const storedNow = (await s.request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com')).body;
    const withRv = (c: ReturnType<typeof crd>) => ({ ...c, metadata: { ...c.metadata, resourceVersion: storedNow.metadata.resourceVersion } });
    const crdCases: [string, ReturnType<typeof crd>, boolean][] = [
      [
        'a new storage version is fine',
        crd(60, [
          { name: 'v1', storage: false },
          { name: 'v2', storage: true },
        ]),
        false,
      ],
      ['the stored version removed', crd(60, [{ name: 'v2', storage: true }]), true],
      ['the scope changed', crd(60, undefined, 'Cluster'), true],
    ];
    for (const [what, c, rejected] of crdCases) {
      const server = serverErrors(await put(s, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com', withRv(c)));
      assert.equal(server.length > 0, rejected, `${what}: ${JSON.stringify(server)}`);
      assertSame(what, server, validateCustomResourceDefinitionUpdate(withRv(c), storedNow));
    }
  } finally {
    s.stop();
  }
});

test('crd-yaml check --base-cluster: the objects in the cluster are the baselines', { skip: skipWithoutKapi(), timeout: 10 * 60_000 }, async () => {
  const s = await startApiServer();
  const dir = mkdtempSync(join(tmpdir(), 'crd-yaml-base-cluster-'));
  const kubeconfig = process.env.KUBECONFIG;
  try {
    await s.createCrds([crd(100)]);
    const created = await s.request('POST', '/apis/example.com/v1/namespaces/default/widgets', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { replicas: 5 } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    writeFileSync(join(dir, 'crd.yaml'), JSON.stringify(crd(100)));
    writeFileSync(join(dir, 'w.yaml'), 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {replicas: 4}\n');
    process.env.KUBECONFIG = s.kubeconfig;
    let out = '';
    let err = '';
    const code = await runCli(['check', '--base-cluster', '.'], { stdout: (x) => (out += x), stderr: (x) => (err += x), cwd: dir });
    assert.equal(code, 1, out + err);
    assert.match(out, /^w\.yaml:4:18: error: on update from the cluster \(context [^)]+\): spec\.replicas: Invalid value: 4: must not decrease \[FieldValueInvalid spec\.replicas\]$/m);
    // The same file as a create: nothing wrong.
    let out2 = '';
    assert.equal(await runCli(['check', '.'], { stdout: (x) => (out2 += x), stderr: () => undefined, cwd: dir }), 0, out2);
  } finally {
    if (kubeconfig === undefined) delete process.env.KUBECONFIG;
    else process.env.KUBECONFIG = kubeconfig;
    s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
