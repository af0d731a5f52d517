/**
 * `crd-yaml check` on a real repository (issue 13): a Helm chart (no syntax findings, the chart's crds/
 * used, a literal enum error in a template reported), a kustomize overlay (patches as partial objects),
 * `--exclude`, and `--crd` URLs fetched once into the cache.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createServer } from 'node:http';
import { runCli } from '../../server/src/cli/main';

const REPO = path.resolve(__dirname, '..', 'fixtures', 'repo');

async function cli(argv: string[], cwd = REPO): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), cwd });
  return { code, out, err };
}

const lines = (out: string) => out.split('\n').filter((l) => l !== '');

test('check . on a repository with a Helm chart and a kustomize overlay', async () => {
  const r = await cli(['check', '.']);
  assert.equal(r.code, 1, r.err);
  const got = lines(r.out).filter((l) => !l.includes(': note: '));
  assert.deepEqual(got, [
    'chart/templates/widget.yaml:10:9: error: spec.mode: Unsupported value: "medium": supported values: "fast", "slow" [FieldValueNotSupported spec.mode]',
    'deploy/widgets.yaml:14:9: error: spec.size: Invalid value: 12: spec.size in body should be less than or equal to 10 [FieldValueInvalid spec.size]',
    'kustomize/overlays/prod/widget-size.yaml:6:9: error: spec.size: Invalid value: "string": spec.size in body must be of type integer: "string" [FieldValueTypeInvalid spec.size]',
  ]);
  assert.doesNotMatch(r.out, /YAMLSyntax|Required value/);
  // A template named alone still finds its chart's crds/.
  const one = await cli(['check', 'chart/templates/widget.yaml']);
  assert.match(one.out, /widget\.yaml:10:9: error: spec\.mode: Unsupported value/);
  // A patch named alone is still known as one (its kustomization is in its folder).
  const patch = await cli(['check', '--crd', 'chart/crds', 'kustomize/overlays/prod/widget-size.yaml']);
  assert.deepEqual(lines(patch.out), [got[2]]);
});

test('--exclude skips the chart; the CRDs it defines are still used', async () => {
  const r = await cli(['check', '--exclude', 'chart/**', '.']);
  assert.doesNotMatch(r.out, /chart\//);
  assert.match(r.out, /deploy\/widgets\.yaml:14:9: error: spec\.size/, 'deploy/ is still checked against the chart CRD');
  assert.match(r.err, /crd-yaml: 6 files/);
  const folder = await cli(['check', '--exclude', './chart/', '--exclude=kustomize/**', '.']);
  assert.deepEqual(
    lines(folder.out).map((l) => l.split(':')[0]),
    ['deploy/widgets.yaml'],
  );
  // The in-process entry without the network still works for local paths.
  let out = '';
  assert.equal(runCli(['check', '--exclude', 'chart/**', '.'], { stdout: (s) => (out += s), stderr: () => undefined, cwd: REPO }), 1);
  assert.match(out, /deploy\/widgets\.yaml:14:9/);
});

test('--crd URL: fetched once into the cache, read from it afterwards', async () => {
  const crd = fs.readFileSync(path.join(REPO, 'chart', 'crds', 'widgets.example.com.yaml'), 'utf8');
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.end(crd);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/widgets.yaml`;
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'crd-yaml-cache-'));
  process.env.CRD_YAML_CACHE = cache;
  try {
    const r = await cli(['check', '--crd', url, 'deploy']);
    assert.match(r.out, /deploy\/widgets\.yaml:14:9: error: spec\.size/);
    server.close();
    const offline = await cli(['check', '--crd', url, 'deploy']);
    assert.equal(offline.out, r.out, 'the cached copy is used when the server is gone');
    assert.equal(hits, 1);
    const missing = await cli(['check', '--crd', url.replace('widgets', 'gadgets'), 'deploy']);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /^crd-yaml: could not download http:\/\/127\.0\.0\.1:\d+\/gadgets\.yaml: connection refused$/m);
  } finally {
    delete process.env.CRD_YAML_CACHE;
    server.close();
  }
});
