/**
 * workspace/catalog.ts against a catalog served on the loopback interface: one request per group/kind,
 * answers cached with validators (a stale answer revalidated by a conditional GET: 304, nothing sent
 * again), a kind the catalog lacks cached as a negative entry, offline answers from the cache, and the
 * names that are never asked (built-in groups, names a URL would read otherwise).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Catalog, catalogable, catalogConfig, catalogTag, catalogUrl, formatLock, parseLock, sha256, type CatalogOptions } from '../../server/src/workspace/catalog';
import { catalogForFile, NO_CATALOG_DATA } from '../catalogServer';

const catalog = catalogForFile('unit');

const options = (cache: string, more: Partial<CatalogOptions> = {}): CatalogOptions => ({
  config: { template: catalog.server.template, tag: 'v1.36.4' },
  cacheDir: path.join(catalog.dir, cache),
  allowNetwork: true,
  ...more,
});

test('one request per group/kind; a stale answer is revalidated (304) and a missing kind cached as not found', { skip: NO_CATALOG_DATA }, async () => {
  const a = new Catalog(options('c1'));
  const [pub, again, missing] = await a.lookupAll([
    { group: 'postgresql.cnpg.io', kind: 'Publication' },
    { group: 'postgresql.cnpg.io', kind: 'Publication' },
    { group: 'example.com', kind: 'Widget' },
  ]);
  assert.ok(pub.found && again.found);
  assert.match(pub.text, /name: publications\.postgresql\.cnpg\.io/);
  assert.equal(pub.sha256, sha256(pub.text));
  assert.ok(!missing.found && 'notFound' in missing);
  assert.equal(a.requests, 2);
  assert.deepEqual(catalog.server.requests.slice(-2).sort(), ['/v1.36.4/definitions/example.com/widget.yaml', '/v1.36.4/definitions/postgresql.cnpg.io/publication.yaml']);

  // Within their lifetimes: from the cache, nothing asked.
  const b = new Catalog(options('c1'));
  assert.ok((await b.lookup('postgresql.cnpg.io', 'Publication')).found);
  assert.ok('notFound' in (await b.lookup('example.com', 'Widget')));
  assert.equal(b.requests, 0);

  // Stale: asked again with the ETag, answered 304, the cached bytes used.
  const notModified = catalog.server.notModified;
  const c = new Catalog(options('c1', { maxAgeMs: 0 }));
  const r = await c.lookup('postgresql.cnpg.io', 'Publication');
  assert.ok(r.found);
  assert.equal(r.text, pub.text);
  assert.equal(c.requests, 1);
  assert.equal(catalog.server.notModified, notModified + 1);

  // Stale and not allowed to ask (untrusted, or offline): the cached answers, however old.
  const stale = new Catalog(options('c1', { maxAgeMs: 0, notFoundMaxAgeMs: 0, allowNetwork: false }));
  assert.equal(((await stale.lookup('postgresql.cnpg.io', 'Publication')) as { text?: string }).text, pub.text);
  assert.ok('notFound' in (await stale.lookup('example.com', 'Widget')));

  // Offline: the first failure stops further requests (one line said, not one per kind).
  const offline = new Catalog({ ...options('c1'), config: { template: 'http://127.0.0.1:1/{tag}/{group}/{kind}.yaml', tag: 'v1.36.4' } });
  const one = await offline.lookup('postgresql.cnpg.io', 'ScheduledBackup');
  const two = await offline.lookup('postgresql.cnpg.io', 'Publication');
  assert.ok([one, two].every((x) => !x.found && 'error' in x && /not reachable/.test(x.error)));
  assert.equal(offline.requests, 1);
});

test('untrusted: only the cache; a changed file is refused by the lock', { skip: NO_CATALOG_DATA }, async () => {
  const untrusted = new Catalog(options('c2', { allowNetwork: false }));
  const r = await untrusted.lookup('postgresql.cnpg.io', 'Publication');
  assert.ok(!r.found && 'error' in r && /untrusted/.test(r.error));
  assert.equal(untrusted.requests, 0);

  const real = await new Catalog(options('c2')).lookup('postgresql.cnpg.io', 'ScheduledBackup');
  assert.ok(real.found);
  const lockText = formatLock([{ group: real.group, kind: real.kind, url: real.url, tag: real.tag, sha256: real.sha256 }]);
  const lock = parseLock(lockText);
  assert.ok(lock instanceof Map);
  assert.deepEqual([...lock.values()], [{ group: 'postgresql.cnpg.io', kind: 'ScheduledBackup', url: real.url, tag: 'v1.36.4', sha256: real.sha256 }]);
  // Locked bytes in the cache: used without asking.
  const locked = new Catalog(options('c2', { lock, maxAgeMs: 0 }));
  assert.ok((await locked.lookup('postgresql.cnpg.io', 'ScheduledBackup')).found);
  assert.equal(locked.requests, 0);
  // Another machine (no cache) after the catalog was rebuilt: refused, naming the CRD.
  fs.appendFileSync(path.join(catalog.server.root, 'definitions', 'postgresql.cnpg.io', 'scheduledbackup.yaml'), '# rebuilt\n');
  const ci = await new Catalog(options('c3', { lock })).lookup('postgresql.cnpg.io', 'ScheduledBackup');
  assert.ok(!ci.found && 'mismatch' in ci && ci.mismatch);
  assert.match(ci.error, /^catalog CRD ScheduledBackup\.postgresql\.cnpg\.io: /);
  assert.ok(!('error' in (parseLock('catalog: []\n') as object)));
  assert.ok('error' in parseLock('catalog:\n  - group: a.b\n    kind: K\n    url: http://x\n    sha256: nothex\n'));
});

test('the template, the tag and the names asked', () => {
  assert.equal(catalogTag(36), 'v1.36.4');
  assert.equal(catalogTag(37), 'main', 'no tag yet');
  assert.equal(catalogTag(undefined), 'main');
  const def = catalogConfig(undefined, 33);
  assert.ok(def && !('error' in def));
  assert.equal(catalogUrl(def, 'argoproj.io', 'Application'), 'https://raw.githubusercontent.com/CustomResourceDefinition/catalog/v1.33.13/definitions/argoproj.io/application.yaml');
  assert.equal(catalogConfig('off'), undefined);
  assert.ok('error' in (catalogConfig('https://example.com/{kind}.yaml') as object));
  assert.ok(catalogable('argoproj.io', 'Application'));
  // Built-in groups (their kinds have no CRD), names a URL or a path would read otherwise.
  for (const [g, k] of [
    ['apps', 'Deployment'],
    ['networking.k8s.io', 'Ingress'],
    ['rbac.authorization.k8s.io', 'Role'],
    ['../etc', 'Passwd'],
    ['example.com', 'A/B'],
    ['example.com?x=', 'Kind'],
  ])
    assert.ok(!catalogable(g, k), `${g}/${k}`);
});
