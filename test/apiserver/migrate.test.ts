/**
 * The v1 migration against a real kube-apiserver: the documentation-shaped v1beta1 CronTabs
 * (test/fixtures/v1beta1) migrate, as `crd-yaml migrate` writes them, to CRDs that
 * `kubectl create --dry-run=server` accepts; and once created, the server's verdict on custom resources
 * is the one our engine gives with the original v1beta1 CRD ("they validate as before").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { validateCustomResource } from '../../server/src/engine/customresource/strategy';
import { migrateFile } from '../../server/src/service/migrate';
import { parseYamlDocuments } from '../../server/src/yaml';
import { skipWithoutKapi, startApiServer, type ApiServer } from './kapi';

const FIXTURES = join(__dirname, '..', 'fixtures', 'v1beta1');

/** The custom resources each fixture is tried with: valid ones and ones each constraint rejects. */
const SAMPLES: Record<string, { apiVersion: string; plural: string; objects: Record<string, unknown>[] }> = {
  'crontab-validation.yaml': {
    apiVersion: 'stable.example.com/v1',
    plural: 'crontabs',
    objects: [
      { spec: { cronSpec: '* * * * */5', replicas: 5 } },
      { spec: { cronSpec: '* * * *', replicas: 5 } },
      { spec: { cronSpec: '* * * * */5', replicas: 20 } },
      { spec: { cronSpec: '* * * * */5', replicas: 0 } },
      { spec: { cronSpec: 5, replicas: 'many' } },
      { spec: { cronSpec: '* * * * */5' }, extra: 'kept at the root' },
    ],
  },
  'crontab-printer-columns.yaml': {
    apiVersion: 'stable.example.com/v1',
    plural: 'crontabs',
    objects: [{ spec: { cronSpec: '* * * * */5', image: 'my-awesome-cron-image', replicas: 1 } }, { spec: { replicas: '1' } }],
  },
  'crontab-subresources.yaml': {
    apiVersion: 'stable.example.com/v1',
    plural: 'crontabs',
    objects: [{ spec: { replicas: 3 }, status: { replicas: 'not a number' } }, { spec: { replicas: 3.5 } }],
  },
  'crontab-webhook-conversion.yaml': {
    // At the storage version: the API server converts nothing, so the webhook is not called.
    apiVersion: 'example.com/v1beta1',
    plural: 'crontabs',
    objects: [{ hostPort: 'localhost:1234' }, { hostPort: 1234 }],
  },
};

/** (type, field) pairs of the errors, sorted, as the server's 422 causes and our findings both have them. */
const pairs = (list: { type: string; field: string }[]) => list.map((e) => `${e.type} ${e.field}`).sort();

async function createDryRun(s: ApiServer, path: string, body: unknown): Promise<{ status: number; body: any }> {
  // The resource is served a moment after Established: retry a 404 a bounded number of times.
  for (let i = 0; ; i++) {
    const r = await s.request('POST', `${path}?dryRun=All`, body);
    if (r.status !== 404 || i >= 50) return r;
    await new Promise((res) => setTimeout(res, 200));
  }
}

test("the documentation's v1beta1 CronTabs migrate to v1 CRDs the API server accepts, and their custom resources validate as before", { skip: skipWithoutKapi(), timeout: 10 * 60_000 }, async () => {
  const s = await startApiServer();
  const work = mkdtempSync(join(tmpdir(), 'crd-yaml-migrate-kapi-'));
  try {
    const files = readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.yaml'))
      .sort();
    assert.deepEqual(files, Object.keys(SAMPLES).sort());
    for (const f of files) {
      const text = readFileSync(join(FIXTURES, f), 'utf8');
      const [m] = migrateFile(parseYamlDocuments(text));
      assert.ok(m, f);
      assert.deepEqual(
        m.notes.filter((n) => n.kind === 'manual'),
        [],
        f,
      );
      const out = join(work, f);
      writeFileSync(out, m.text);
      // kubectl's own path: strict field validation, server-side dry run.
      const k = spawnSync(s.kubectl, ['--kubeconfig', s.kubeconfig, 'create', '--dry-run=server', '-f', out], { encoding: 'utf8' });
      assert.equal(k.status, 0, `${f}: ${k.stderr}`);
      assert.match(k.stdout, /customresourcedefinition\.apiextensions\.k8s\.io\/crontabs\.(stable\.)?example\.com created \(server dry run\)/);

      // Created for real (one CronTab CRD at a time: three fixtures share the name).
      const v1 = parse(m.text);
      await s.createCrds([v1]);
      const original = parse(text);
      const sample = SAMPLES[f];
      for (const [i, extra] of sample.objects.entries()) {
        const cr = { apiVersion: sample.apiVersion, kind: 'CronTab', metadata: { name: `c${i}`, namespace: 'default' }, ...extra };
        const before = validateCustomResource(original, cr).errors;
        const r = await createDryRun(s, `/apis/${sample.apiVersion}/namespaces/default/${sample.plural}`, cr);
        const causes: { reason: string; field: string }[] = r.status === 201 ? [] : (r.body?.details?.causes ?? []);
        assert.ok(r.status === 201 || r.status === 422, `${f} #${i}: ${r.status} ${JSON.stringify(r.body)}`);
        // The server prints a nil path as <nil>; our FieldErrors keep it as "".
        assert.deepEqual(pairs(causes.map((c) => ({ type: c.reason, field: c.field === '<nil>' ? '' : c.field }))), pairs(before), `${f} #${i}: ${JSON.stringify(r.body)}`);
      }
      const del = await s.request('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${v1.metadata.name}`);
      assert.ok(del.status < 300, JSON.stringify(del.body));
      // Wait until the name is free again (bounded).
      for (let i = 0; i < 300; i++) {
        const g = await s.request('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${v1.metadata.name}`);
        if (g.status === 404) break;
        await new Promise((res) => setTimeout(res, 200));
      }
    }
  } finally {
    s.stop();
    rmSync(work, { recursive: true, force: true });
  }
});
