import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheFileOf, escapeModulePath, goModCache, goModuleCrds, parseGoMod, rawUrl, urlSource, yamlFilesUnder, type WalkBudget } from './sources';

const dir = mkdtempSync(join(tmpdir(), 'crd-yaml-sources-'));
const CRD = 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\n';

test('URL sources: fetched once into the cache, then read offline; never fetched when untrusted', async () => {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    if (req.url === '/crds.yaml') res.end(CRD);
    else if (req.url === '/page') res.end('<!DOCTYPE html><html></html>');
    else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const cacheDir = join(dir, 'cache');
  try {
    assert.deepEqual(await urlSource(`${base}/crds.yaml`, { cacheDir, allowNetwork: false }), { url: `${base}/crds.yaml`, error: `${base}/crds.yaml is not fetched in an untrusted workspace (and not cached yet)` });
    assert.equal(hits, 0);
    const first = await urlSource(`${base}/crds.yaml`, { cacheDir, allowNetwork: true });
    assert.equal(first.fetched, true);
    assert.equal(readFileSync(first.file!, 'utf8'), CRD);
    assert.equal(first.file, cacheFileOf(`${base}/crds.yaml`, cacheDir));
    const again = await urlSource(`${base}/crds.yaml`, { cacheDir, allowNetwork: false });
    assert.deepEqual(again, { url: `${base}/crds.yaml`, file: first.file, fetched: false });
    assert.equal(hits, 1, 'used offline after the first fetch');
    assert.match((await urlSource(`${base}/missing.yaml`, { cacheDir, allowNetwork: true })).error!, /HTTP 404/);
    assert.match((await urlSource(`${base}/page`, { cacheDir, allowNetwork: true })).error!, /HTML page, not YAML/);
  } finally {
    server.close();
  }
  assert.equal(rawUrl('https://github.com/o/r/blob/v1.2/config/crd.yaml'), 'https://raw.githubusercontent.com/o/r/v1.2/config/crd.yaml');
});

test('go.mod: requirements with replace directives; CRD files found in the module cache', async () => {
  const gomod = [
    'module example.com/op',
    'go 1.22',
    'require (',
    '\tgithub.com/Acme/Widgets v1.2.0',
    '\tgithub.com/other/lib v0.1.0 // indirect',
    '\tgithub.com/not/cached v1.0.0',
    ')',
    'require example.com/single v0.0.1',
    'replace github.com/other/lib => github.com/fork/lib v0.2.0',
    'replace example.com/single => ../single',
  ].join('\n');
  assert.deepEqual(parseGoMod(gomod), [
    { module: 'github.com/Acme/Widgets', version: 'v1.2.0', indirect: false },
    { module: 'github.com/fork/lib', version: 'v0.2.0', indirect: true },
    { module: 'github.com/not/cached', version: 'v1.0.0', indirect: false },
    { module: 'example.com/single', version: 'v0.0.1', indirect: false },
  ]);
  assert.equal(escapeModulePath('github.com/Acme/Widgets'), 'github.com/!acme/!widgets');
  assert.equal(goModCache({ GOPATH: '/gp:/other' }), '/gp/pkg/mod');
  assert.equal(goModCache({ GOMODCACHE: '/mc', GOPATH: '/gp' }), '/mc');
  const cache = join(dir, 'modcache');
  const widgets = join(cache, 'github.com/!acme/!widgets@v1.2.0');
  mkdirSync(join(widgets, 'config/crd/bases'), { recursive: true });
  mkdirSync(join(widgets, 'testdata'), { recursive: true });
  writeFileSync(join(widgets, 'config/crd/bases/widgets.yaml'), CRD);
  writeFileSync(join(widgets, 'config/sample.yaml'), 'apiVersion: example.com/v1\nkind: Widget\n');
  writeFileSync(join(widgets, 'testdata/bad-crd.yaml'), CRD);
  mkdirSync(join(cache, 'github.com/fork/lib@v0.2.0'), { recursive: true });
  symlinkSync('/', join(cache, 'github.com/fork/lib@v0.2.0/root-link'));
  const r = await goModuleCrds(gomod, { modCache: cache });
  assert.deepEqual(
    r.modules.map((m) => [m.module, m.files.map((f) => f.slice(m.dir.length))]),
    [['github.com/Acme/Widgets', ['/config/crd/bases/widgets.yaml']]],
  );
  assert.deepEqual(r.missing, ['github.com/not/cached@v1.0.0', 'example.com/single@v0.0.1']);
  assert.equal(r.cut, false);
  // A bounded walk says when it was cut.
  const budget: WalkBudget = { entries: 2 };
  await yamlFilesUnder(widgets, budget);
  assert.equal(budget.cut, true);
});
