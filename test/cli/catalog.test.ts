/**
 * `crd-yaml check`, `preview` and `lock` with CRDs from a catalog served on the loopback interface
 * (test/catalogServer.ts): a cataloged kind is checked (enum, CEL rule, defaults in the preview), a kind
 * the catalog lacks is counted as not checked, a second run without the server answers from the cache, and
 * a lock file refuses bytes whose hash changed.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../../server/src/cli/main';
import { DEFAULT_CATALOG } from '../../server/src/workspace/catalog';
import { catalogForFile, NO_CATALOG_DATA, startCatalog, writeCatalogRepository } from '../catalogServer';
import { crdYaml } from '../crd';

const cacheBefore = process.env.CRD_YAML_CACHE;
const GOOD = `apiVersion: postgresql.cnpg.io/v1
kind: Publication
metadata:
  name: good
spec:
  cluster:
    name: db
  dbname: app
  name: good
  target:
    allTables: true
`;

const catalog = catalogForFile('cli', (dir) => {
  writeCatalogRepository(dir); // crd-yaml.lock is written at its root
  fs.writeFileSync(path.join(dir, 'good.yaml'), GOOD);
  process.env.CRD_YAML_CACHE = path.join(dir, 'cache');
});
after(() => {
  if (cacheBefore === undefined) delete process.env.CRD_YAML_CACHE;
  else process.env.CRD_YAML_CACHE = cacheBefore;
});

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { stdout: (s) => (out += s), stderr: (s) => (err += s), cwd: catalog.dir });
  return { code, out, err };
}

interface JsonReport {
  findings: Array<{ file: string; code: string; message: string; field?: string; crdSource?: { url: string; tag: string } }>;
  summary: { unchecked: number; checked: { customResource: number } };
}

test('check: a cataloged kind gets its CRD checks, a kind the catalog lacks is counted, the cache answers without the server', { skip: NO_CATALOG_DATA }, async () => {
  const args = ['check', '--catalog', catalog.server.template, '--format', 'json', 'pub.yaml', 'rule.yaml', 'widget.yaml'];
  const first = await cli(args);
  const report = JSON.parse(first.out) as JsonReport;
  const enumError = report.findings.find((f) => f.field === 'spec.publicationReclaimPolicy');
  assert.ok(enumError, first.out);
  assert.equal(enumError.code, 'FieldValueNotSupported');
  const rule = report.findings.find((f) => f.message.includes('allTables and objects are mutually exclusive'));
  assert.ok(rule, `the CRD's CEL rule fires: ${first.out}`);
  assert.equal(rule.file, 'rule.yaml');
  const url = catalog.server.template.replace('{tag}', 'main').replace('{group}', 'postgresql.cnpg.io').replace('{kind}', 'publication');
  assert.deepEqual(enumError.crdSource, { url, tag: 'main' });
  assert.equal(report.summary.checked.customResource, 2);
  assert.equal(report.summary.unchecked, 1, 'the Widget: not in the catalog');
  assert.equal(first.code, 1);
  // One request per group/kind: the Publication and the Widget.
  assert.deepEqual(catalog.server.requests.map((r) => r.split('/').slice(-2).join('/')).sort(), ['example.com/widget.yaml', 'postgresql.cnpg.io/publication.yaml']);

  // SARIF carries the source too.
  const sarif = JSON.parse((await cli(['check', '--catalog', catalog.server.template, '--format', 'sarif', 'pub.yaml'])).out) as { runs: Array<{ results: Array<{ properties?: { crdSource?: unknown } }> }> };
  assert.ok(sarif.runs[0].results.some((r) => JSON.stringify(r.properties?.crdSource) === JSON.stringify({ url, tag: 'main' })));

  // The summary says the catalog was asked.
  const text = await cli(['check', '--catalog', catalog.server.template, 'widget.yaml']);
  assert.match(text.err, /not checked: 1 object with no CRD for its kind \(not in the catalog either\)/);

  // The preview shows the CRD's defaults.
  const preview = await cli(['preview', '--catalog', catalog.server.template, 'good.yaml']);
  assert.equal(preview.code, 0, preview.err);
  assert.match(preview.out, /publicationReclaimPolicy: retain/);

  // The server gone: the same findings from the cache.
  const asked = catalog.server.requests.length;
  await catalog.server.close();
  const again = await cli(args);
  assert.deepEqual(JSON.parse(again.out), report);
  assert.equal(catalog.server.requests.length, asked);

  // Off: nothing is looked up (and the object is not checked).
  const off = JSON.parse((await cli(['check', '--catalog', 'off', '--format', 'json', 'pub.yaml'])).out) as JsonReport;
  assert.equal(off.findings.length, 0);
  assert.equal(off.summary.unchecked, 1);
  catalog.server = await startCatalog();
});

test('lock: the CRDs in use pinned by sha256; a changed catalog file is refused by hash, naming the CRD; --update takes it', { skip: NO_CATALOG_DATA }, async () => {
  process.env.CRD_YAML_CACHE = path.join(catalog.dir, 'cache-lock');
  const lock = await cli(['lock', '--catalog', catalog.server.template, 'pub.yaml', 'widget.yaml']);
  assert.equal(lock.code, 0, lock.err);
  assert.match(lock.err, /crd-yaml\.lock: 1 catalog CRD \(1 kind not in the catalog\)/);
  const text = fs.readFileSync(path.join(catalog.dir, 'crd-yaml.lock'), 'utf8');
  assert.match(text, /group: postgresql\.cnpg\.io\n\s+kind: Publication\n\s+url: http:\/\/127\.0\.0\.1:\d+\/main\/definitions\/postgresql\.cnpg\.io\/publication\.yaml\n\s+tag: main\n\s+sha256: [0-9a-f]{64}/);
  const ok = await cli(['check', '--catalog', catalog.server.template, 'pub.yaml']);
  assert.equal(ok.code, 1, 'the enum error, from the locked bytes');
  assert.match(ok.out, /publicationReclaimPolicy/);
  // A kind the lock does not pin: used, and said.
  fs.writeFileSync(path.join(catalog.dir, 'backup.yaml'), 'apiVersion: postgresql.cnpg.io/v1\nkind: ScheduledBackup\nmetadata:\n  name: b\nspec:\n  schedule: "0 0 0 * * *"\n  cluster:\n    name: db\n');
  const unpinned = await cli(['check', '--catalog', catalog.server.template, 'backup.yaml']);
  assert.match(unpinned.err, /catalog CRD ScheduledBackup\.postgresql\.cnpg\.io is not in crd-yaml\.lock \(crd-yaml lock adds it\)/);
  assert.match(unpinned.err, /checked 1 custom resource/);

  // The catalog rebuilt: another byte in the file, and a machine without the cached copy.
  const served = path.join(catalog.server.root, 'definitions', 'postgresql.cnpg.io', 'publication.yaml');
  fs.appendFileSync(served, '# rebuilt\n');
  process.env.CRD_YAML_CACHE = path.join(catalog.dir, 'cache-ci');
  const refused = await cli(['check', '--catalog', catalog.server.template, 'pub.yaml']);
  assert.equal(refused.code, 2, refused.err);
  assert.match(refused.err, /catalog CRD Publication\.postgresql\.cnpg\.io: .* has sha256 [0-9a-f]{64}, crd-yaml\.lock locks [0-9a-f]{64}/);
  assert.doesNotMatch(refused.out, /publicationReclaimPolicy/, 'not checked against refused bytes');

  const update = await cli(['lock', '--update', '--catalog', catalog.server.template, 'pub.yaml']);
  assert.equal(update.code, 0, update.err);
  assert.notEqual(fs.readFileSync(path.join(catalog.dir, 'crd-yaml.lock'), 'utf8'), text);
  assert.equal((await cli(['check', '--catalog', catalog.server.template, 'pub.yaml'])).code, 1);
  fs.rmSync(path.join(catalog.dir, 'crd-yaml.lock'));
});

test('test: a `crd: group/Kind` no local CRD defines comes from the catalog, as a kind for check; a kind it lacks and a refused lock say so', { skip: NO_CATALOG_DATA }, async () => {
  process.env.CRD_YAML_CACHE = path.join(catalog.dir, 'cache-crdtest');
  const object = (spec: string) => `{apiVersion: postgresql.cnpg.io/v1, kind: Publication, metadata: {name: p}, spec: {cluster: {name: db}, dbname: app, name: p, ${spec}}}`;
  fs.writeFileSync(
    path.join(catalog.dir, 'pub.crdtest.yaml'),
    [
      'crd: postgresql.cnpg.io/Publication',
      'tests:',
      '  - name: enum',
      `    object: ${object('publicationReclaimPolicy: keep, target: {allTables: true}')}`,
      '    expect:',
      '      errors:',
      '        - {type: FieldValueNotSupported, field: spec.publicationReclaimPolicy}',
      // The API server's note that the CRD's CEL rules were skipped for the invalid object.
      '        - {message: some validation rules were not checked}',
      '  - name: rule',
      `    object: ${object('target: {}')}`,
      '    expect:',
      '      errors:',
      '        - {message: allTables and objects are mutually exclusive}',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(path.join(catalog.dir, 'widget.crdtest.yaml'), 'crd: example.com/Widget\ntests:\n  - name: w\n    object: {apiVersion: example.com/v1, kind: Widget, metadata: {name: w}}\n    expect: valid\n');
  const ran = await cli(['test', '--catalog', catalog.server.template, 'pub.crdtest.yaml', 'widget.crdtest.yaml']);
  assert.equal(ran.code, 1, ran.err);
  assert.match(ran.out, /^PASS pub\.crdtest\.yaml:3: enum$/m);
  assert.match(ran.out, /^PASS pub\.crdtest\.yaml:9: rule$/m);
  assert.match(ran.out, /^FAIL widget\.crdtest\.yaml:3: w\n.*no known CRD defines example\.com\/Widget \(not in the catalog either\)/m);
  // The catalog off: the Publication is not found either, and nothing says the catalog.
  const off = await cli(['test', '--catalog', 'off', 'pub.crdtest.yaml']);
  assert.equal(off.code, 1);
  assert.match(off.out, /^FAIL pub\.crdtest\.yaml:3: enum\n.*no known CRD defines postgresql\.cnpg\.io\/Publication$/m);

  // A lock whose hash the catalog file does not have: refused (exit 2, naming the CRD), the cases say why.
  const url = catalog.server.template.replace('{tag}', 'main').replace('{group}', 'postgresql.cnpg.io').replace('{kind}', 'publication');
  fs.writeFileSync(path.join(catalog.dir, 'crd-yaml.lock'), `catalog:\n  - group: postgresql.cnpg.io\n    kind: Publication\n    url: ${url}\n    tag: main\n    sha256: ${'0'.repeat(64)}\n`);
  try {
    const refused = await cli(['test', '--catalog', catalog.server.template, 'pub.crdtest.yaml']);
    assert.equal(refused.code, 2, refused.err);
    assert.match(refused.err, /catalog CRD Publication\.postgresql\.cnpg\.io: .* has sha256 [0-9a-f]{64}, crd-yaml\.lock locks 0{64}/);
    assert.match(refused.out, /^FAIL pub\.crdtest\.yaml:3: enum\n.*crd postgresql\.cnpg\.io\/Publication: its CRD in the catalog is not the one crd-yaml\.lock pins/m);
  } finally {
    fs.rmSync(path.join(catalog.dir, 'crd-yaml.lock'));
  }
});

test('the default catalog is the public one, by tag; a bad template is a usage error', { skip: NO_CATALOG_DATA }, async () => {
  // Only its shape: no test reaches the internet.
  assert.equal(DEFAULT_CATALOG, 'https://raw.githubusercontent.com/CustomResourceDefinition/catalog/{tag}/definitions/{group}/{kind}.yaml');
  const bad = await cli(['check', '--catalog', 'ftp://example/{group}', 'pub.yaml']);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--catalog: the catalog must be an http\(s\) URL template/);
});

test('the process: in shares across workers (--jobs 2), the same findings as in process', {
  skip: NO_CATALOG_DATA || (!fs.existsSync(path.join(__dirname, '..', '..', 'dist', 'cli.js')) && 'dist/cli.js not built (npm run build)'),
}, async () => {
  const { execFile } = await import('node:child_process');
  const cache = path.join(catalog.dir, 'cache-jobs');
  const args = ['check', '--catalog', catalog.server.template, '--format', 'json', 'pub.yaml', 'rule.yaml', 'widget.yaml'];
  process.env.CRD_YAML_CACHE = cache;
  const want = JSON.parse((await cli(args)).out) as JsonReport;
  const got = await new Promise<{ code: number | null; out: string }>((resolve) => {
    const p = execFile(
      process.execPath,
      [path.join(__dirname, '..', '..', 'dist', 'cli.js'), ...args, '--jobs', '2'],
      { cwd: catalog.dir, env: { ...process.env, CRD_YAML_CACHE: path.join(catalog.dir, 'cache-jobs-2') } },
      (_e, out) => resolve({ code: p.exitCode, out }),
    );
  });
  assert.equal(got.code, 1);
  // The workers fetched into their own cache: the related locations name that copy.
  assert.deepEqual((JSON.parse(got.out.replaceAll('cache-jobs-2', 'cache-jobs')) as JsonReport).findings, want.findings);
});

test("a catalog CRD is YAML as the API server serves it: '{{.BaseOS}}' in a default is text, not a template action", { skip: NO_CATALOG_DATA }, async () => {
  const { checkFiles } = await import('../../server/src/cli/check');
  // As in the public catalog's infrastructure.cluster.x-k8s.io/nutanixmachine.yaml.
  const crd = crdYaml(
    [
      'type: object',
      'properties:',
      '  spec:',
      '    type: object',
      '    properties:',
      '      name:',
      '        type: string',
      '        default: capx-{{.BaseOS}}-{{.K8sVersion}}-*',
      '      size:',
      '        type: integer',
    ].join('\n'),
    { kind: 'Image' },
  );
  const cr = { path: 'image.yaml', text: 'apiVersion: example.com/v1\nkind: Image\nmetadata:\n  name: i\nspec:\n  size: big\n' };
  const asCatalog = checkFiles([cr], { cwd: catalog.dir, crdFiles: [{ path: path.join(catalog.dir, 'cache', 'image.yaml'), text: crd, external: true, catalog: { url: 'http://127.0.0.1/x', tag: 'main' } }] });
  assert.deepEqual(
    asCatalog.findings.map((f) => f.code),
    ['FieldValueTypeInvalid'],
  );
  assert.equal(asCatalog.coverage.checked.customResource, 1);
});
