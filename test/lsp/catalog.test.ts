/**
 * The editor with CRDs from a catalog served on the loopback interface (test/catalogServer.ts): a
 * cataloged kind gets its CRD's checks (enum, CEL rule, defaults in the preview) with the catalog as
 * provenance, the status bar counts catalog CRDs apart, go to definition opens the cached CRD; a kind the
 * catalog lacks is said not checked, "not in the catalog either"; the cache answers without the server; a
 * lock file refuses changed bytes with an error on the object's kind; an untrusted workspace fetches
 * nothing; a CRD rule test file's `crd: group/Kind` is asked of the catalog too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic, Location } from 'vscode-languageserver-protocol';
import { catalogForFile, NO_CATALOG_DATA, startCatalog, writeCatalogRepository } from '../catalogServer';
import { startServer, type TestServer } from './client';

let ws: string;
const catalog = catalogForFile('lsp', (dir) => {
  ws = path.join(dir, 'ws');
  writeCatalogRepository(ws);
});

const uri = (name: string) => pathToFileURL(path.join(ws, name)).href;

async function open(s: TestServer, name: string, pred: (d: Diagnostic[]) => boolean): Promise<Diagnostic[]> {
  const got = s.diagnostics(uri(name), pred, 20000);
  await s.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: uri(name), languageId: 'yaml', version: 1, text: fs.readFileSync(path.join(ws, name), 'utf8') } });
  return got;
}

const hasEnum = (d: Diagnostic[]) => d.some((x) => x.code === 'FieldValueNotSupported');
const show = (ds: Diagnostic[]) => ds.map((d) => `${d.range.start.line} ${String(d.code)} ${d.message}`).sort();

test('a cataloged kind is checked with its catalog CRD; the status bar, the CRD list and go to definition say where it came from', { skip: NO_CATALOG_DATA }, async () => {
  const cacheDir = path.join(catalog.dir, 'cache');
  const s = await startServer(ws, { settings: { catalog: catalog.server.template }, cacheDir });
  let first: string[];
  try {
    await s.notification<{ indexing: boolean }>('crdYaml/status', (p) => !p.indexing, 20000);
    const pub = await open(s, 'pub.yaml', hasEnum);
    const e = pub.find((d) => d.code === 'FieldValueNotSupported')!;
    assert.equal(e.range.start.line, 9);
    const url = catalog.server.template.replace('{tag}', 'main').replace('{group}', 'postgresql.cnpg.io').replace('{kind}', 'publication');
    assert.ok(
      e.relatedInformation?.some((r) => r.message.includes(`from the catalog: ${url}, tag main`)),
      JSON.stringify(e.relatedInformation),
    );
    const rule = await open(s, 'rule.yaml', (d) => d.length > 0);
    assert.ok(
      rule.some((d) => String(d.message).includes('allTables and objects are mutually exclusive')),
      show(rule).join('\n'),
    );
    // Not in the catalog: nothing but the "not checked" information, which says the catalog was asked.
    const widget = await open(s, 'widget.yaml', (d) => d.some((x) => String(x.message).includes('catalog')));
    assert.deepEqual(show(widget), ['1 UnknownKind example.com/Widget not checked: no CRD known for it (not in the catalog either)']);
    await s.notification<{ crdCount: number; catalogCount?: number }>('crdYaml/status', (p) => p.crdCount === 1 && p.catalogCount === 1, 20000);
    // The preview: the CRD's default.
    const preview = await s.conn.sendRequest<{ yaml: string } | null>('crdYaml/preview', { textDocument: { uri: uri('rule.yaml') }, position: { line: 1, character: 0 } });
    assert.match(preview?.yaml ?? '', /publicationReclaimPolicy: retain/);
    // The CRD list and go to definition: the cached copy.
    const crds = await s.conn.sendRequest<Array<{ kind: string; uri: string; catalog?: { url: string; tag: string } }>>('crdYaml/crds', {});
    assert.deepEqual(
      crds.map((c) => [c.kind, c.catalog]),
      [['Publication', { url, tag: 'main' }]],
    );
    assert.ok(crds[0].uri.startsWith(pathToFileURL(path.join(cacheDir, 'catalog')).href), crds[0].uri);
    const def = await s.conn.sendRequest<Location[] | Location | null>('textDocument/definition', { textDocument: { uri: uri('pub.yaml') }, position: { line: 1, character: 8 } });
    const loc = Array.isArray(def) ? def[0] : def;
    assert.equal(loc?.uri, crds[0].uri);
    // Hover on a field: the schema's words, and where the CRD came from.
    const hover = await s.conn.sendRequest<{ contents: { value: string } } | null>('textDocument/hover', { textDocument: { uri: uri('pub.yaml') }, position: { line: 9, character: 5 } });
    assert.ok(hover?.contents.value.includes(`from the catalog: ${url} (tag main)`), JSON.stringify(hover));
    // Read-only on disk.
    assert.equal(fs.statSync(new URL(crds[0].uri)).mode & 0o222, 0);
    first = show(pub);
  } finally {
    await s.stop();
  }
  // The catalog gone: the same findings from the cache.
  const asked = catalog.server.requests.length;
  await catalog.server.close();
  const again = await startServer(ws, { settings: { catalog: catalog.server.template }, cacheDir });
  try {
    await again.notification<{ indexing: boolean }>('crdYaml/status', (p) => !p.indexing, 20000);
    assert.deepEqual(show(await open(again, 'pub.yaml', hasEnum)), first);
  } finally {
    await again.stop();
  }
  assert.equal(catalog.server.requests.length, asked);
  catalog.server = await startCatalog();
});

test('a lock file whose hash the catalog file no longer has: the CRD is refused; untrusted: nothing fetched', { skip: NO_CATALOG_DATA }, async () => {
  fs.writeFileSync(
    path.join(ws, 'crd-yaml.lock'),
    `catalog:\n  - group: postgresql.cnpg.io\n    kind: Publication\n    url: ${catalog.server.template.replace('{tag}', 'main').replace('{group}', 'postgresql.cnpg.io').replace('{kind}', 'publication')}\n    tag: main\n    sha256: ${'0'.repeat(64)}\n`,
  );
  let s = await startServer(ws, { settings: { catalog: catalog.server.template }, cacheDir: path.join(catalog.dir, 'cache-lock') });
  try {
    await s.notification<{ indexing: boolean }>('crdYaml/status', (p) => !p.indexing, 20000);
    const refused = s.notification<{ message: string }>('window/logMessage', (p) => p.message.startsWith('catalog: '), 20000, true);
    // An error on the kind of the object it leaves unchecked, naming the CRD, linked to the lock's entry.
    const pub = await open(s, 'pub.yaml', (d) => d.some((x) => x.code === 'CatalogLockMismatch'));
    assert.match((await refused).message, /catalog CRD Publication\.postgresql\.cnpg\.io: .* has sha256 [0-9a-f]{64}, crd-yaml\.lock locks 0{64}/);
    assert.equal(catalog.server.requests.length, 1);
    assert.ok(!hasEnum(pub), show(pub).join('\n'));
    assert.deepEqual(show(pub), ['1 CatalogLockMismatch postgresql.cnpg.io/Publication not checked: its CRD in the catalog is not the one crd-yaml.lock pins (another sha256; crd-yaml lock --update takes the new one)']);
    const [e] = pub;
    assert.equal(e.severity, 1);
    assert.deepEqual(e.range, { start: { line: 1, character: 6 }, end: { line: 1, character: 17 } });
    assert.equal(e.relatedInformation?.[0].location.uri, uri('crd-yaml.lock'));
    assert.equal(e.relatedInformation?.[0].location.range.start.line, 1);
    assert.match(e.relatedInformation?.[0].message ?? '', /has sha256 [0-9a-f]{64}, crd-yaml\.lock locks 0{64}/);
    // crd-yaml.lock open (the extension gives it to the server as YAML): the refused entry, in the catalog's words.
    const lock = await open(s, 'crd-yaml.lock', (d) => d.length > 0);
    assert.deepEqual(
      lock.map((d) => [d.range.start.line, d.severity, d.code]),
      [[1, 1, 'CatalogLockMismatch']],
    );
    assert.match(String(lock[0].message), /^postgresql\.cnpg\.io\/Publication: catalog CRD Publication\.postgresql\.cnpg\.io: .* has sha256 [0-9a-f]{64}, crd-yaml\.lock locks 0{64}/);
    // A CRD rule test file naming the kind: its Run says why the cases cannot run.
    fs.writeFileSync(
      path.join(ws, 'pub.crdtest.yaml'),
      `crd: postgresql.cnpg.io/Publication\ntests:\n  - name: p\n    object: {apiVersion: postgresql.cnpg.io/v1, kind: Publication, metadata: {name: p}}\n    expect: valid\n`,
    );
    await open(s, 'pub.crdtest.yaml', () => true);
    const failed = s.diagnostics(uri('pub.crdtest.yaml'), (d) => d.some((x) => x.code === 'TestFailed'), 20000);
    await s.conn.sendRequest('workspace/executeCommand', { command: 'crdYaml.runTests', arguments: [uri('pub.crdtest.yaml')] });
    assert.match(String((await failed).find((x) => x.code === 'TestFailed')?.message), /crd postgresql\.cnpg\.io\/Publication: its CRD in the catalog is not the one crd-yaml\.lock pins/);
    const crds = await s.conn.sendRequest<unknown[]>('crdYaml/crds', {});
    assert.deepEqual(crds, []);
  } finally {
    await s.stop();
    fs.rmSync(path.join(ws, 'crd-yaml.lock'));
    fs.rmSync(path.join(ws, 'pub.crdtest.yaml'), { force: true });
  }
  const before = catalog.server.requests.length;
  s = await startServer(ws, { settings: { catalog: catalog.server.template }, cacheDir: path.join(catalog.dir, 'cache-untrusted'), trusted: false });
  try {
    await s.notification<{ indexing: boolean }>('crdYaml/status', (p) => !p.indexing, 20000);
    const untrusted = s.notification<{ message: string }>('window/logMessage', (p) => p.message.startsWith('catalog: '), 20000, true);
    const pub = await open(s, 'pub.yaml', (d) => d.length > 0);
    assert.ok(!hasEnum(pub));
    assert.match((await untrusted).message, /not fetched in an untrusted workspace/);
    assert.equal(catalog.server.requests.length, before, 'nothing fetched in an untrusted workspace');
  } finally {
    await s.stop();
  }
});

test("a CRD rule test file's `crd: group/Kind` no local CRD defines comes from the catalog: its Run checks against it", { skip: NO_CATALOG_DATA }, async () => {
  fs.writeFileSync(
    path.join(ws, 'backup.crdtest.yaml'),
    [
      'crd: postgresql.cnpg.io/ScheduledBackup',
      'tests:',
      '  - name: schedule missing',
      '    object: {apiVersion: postgresql.cnpg.io/v1, kind: ScheduledBackup, metadata: {name: b}, spec: {cluster: {name: db}}}',
      '    expect:',
      '      errors:',
      '        - {type: FieldValueRequired, field: spec.schedule}',
      '        - {message: some validation rules were not checked}',
      '',
    ].join('\n'),
  );
  const s = await startServer(ws, { settings: { catalog: catalog.server.template }, cacheDir: path.join(catalog.dir, 'cache-crdtest') });
  try {
    await s.notification<{ indexing: boolean }>('crdYaml/status', (p) => !p.indexing, 20000);
    // Only the test file is open: it alone asks the catalog for the CRD it names.
    const counted = s.notification<{ catalogCount?: number }>('crdYaml/status', (p) => p.catalogCount === 1, 20000);
    await open(s, 'backup.crdtest.yaml', () => true);
    await counted;
    assert.ok(
      catalog.server.requests.some((r) => r.endsWith('/postgresql.cnpg.io/scheduledbackup.yaml')),
      catalog.server.requests.join('\n'),
    );
    const result = await s.conn.sendRequest<{ passed: number; failed: number }>('workspace/executeCommand', { command: 'crdYaml.runTests', arguments: [uri('backup.crdtest.yaml')] });
    assert.deepEqual(result, { passed: 1, failed: 0 });
  } finally {
    await s.stop();
    fs.rmSync(path.join(ws, 'backup.crdtest.yaml'));
  }
});
