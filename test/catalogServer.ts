/**
 * A CRD catalog served on the loopback interface, laid out as the public one (`<tag>/definitions/<group>/
 * <kind>.yaml`), with ETags and conditional answers: the tests of workspace/catalog.ts, the CLI and the
 * editor ask it instead of the internet. The CRDs are real ones from the shared folder.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before } from 'node:test';
import { needsShared, sharedPath } from './shared';

/** Why the catalog tests cannot run here (the CRDs it serves are the shared folder's), or false. */
export const NO_CATALOG_DATA = needsShared('realworld2', 'crds', 'cloudnative-pg');

/** The CRDs the catalog holds: group, kind, and the shared file. */
export const CATALOG_CRDS = [
  { group: 'postgresql.cnpg.io', kind: 'Publication', file: sharedPath('realworld2', 'crds', 'cloudnative-pg', 'postgresql.cnpg.io_publications.yaml') },
  { group: 'postgresql.cnpg.io', kind: 'ScheduledBackup', file: sharedPath('realworld2', 'crds', 'cloudnative-pg', 'postgresql.cnpg.io_scheduledbackups.yaml') },
];

export interface CatalogServer {
  /** The URL template to give as crdYaml.catalog / --catalog. */
  template: string;
  /** The served folder (`definitions/...` under it): a test may change a file. */
  root: string;
  /** Requests received, by path, and how many were answered 304. */
  requests: string[];
  notModified: number;
  close(): Promise<void>;
}

/**
 * For one test file: the catalog served and a fresh temporary folder, from before its first test to after
 * its last (neither when NO_CATALOG_DATA: its tests skip); `setup` fills the folder first (a file's own top-level
 * hooks may run before this one ends). A test may replace `server` (one it closed).
 */
export function catalogForFile(name: string, setup?: (dir: string) => void): { server: CatalogServer; dir: string } {
  const f = {} as { server: CatalogServer; dir: string };
  before(async () => {
    if (NO_CATALOG_DATA) return;
    f.server = await startCatalog();
    f.dir = fs.mkdtempSync(path.join(os.tmpdir(), `crd-yaml-catalog-${name}-`));
    setup?.(f.dir);
  });
  after(async () => {
    if (NO_CATALOG_DATA) return;
    await f.server?.close();
    if (f.dir) fs.rmSync(f.dir, { recursive: true, force: true });
  });
  return f;
}

/** A repository (a folder with .git) holding the catalog tests' documents: pub.yaml, rule.yaml and widget.yaml. */
export function writeCatalogRepository(dir: string): void {
  fs.mkdirSync(path.join(dir, '.git'), { recursive: true });
  for (const [name, text] of [
    ['pub.yaml', PUBLICATION],
    ['rule.yaml', RULE],
    ['widget.yaml', UNCATALOGED],
  ])
    fs.writeFileSync(path.join(dir, name), text);
}

/** Serves the catalog (at any tag) from a temporary folder. */
export async function startCatalog(): Promise<CatalogServer> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'crd-yaml-catalog-'));
  for (const c of CATALOG_CRDS) {
    const dir = path.join(root, 'definitions', c.group);
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(c.file, path.join(dir, `${c.kind.toLowerCase()}.yaml`));
  }
  const s: Omit<CatalogServer, 'template' | 'close'> = { root, requests: [], notModified: 0 };
  const server = http.createServer((req, res) => {
    s.requests.push(req.url ?? '');
    // /<tag>/definitions/<group>/<kind>.yaml
    const m = /^\/[^/]+\/(definitions\/[a-z0-9.-]+\/[a-z0-9]+\.yaml)$/.exec(req.url ?? '');
    let body: Buffer | undefined;
    try {
      body = m ? fs.readFileSync(path.join(root, m[1])) : undefined;
    } catch {
      body = undefined;
    }
    if (!body) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('404: Not Found');
      return;
    }
    const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
    if (req.headers['if-none-match'] === etag) {
      s.notModified++;
      res.writeHead(304, { etag }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', etag }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(s, {
    template: `http://127.0.0.1:${port}/{tag}/definitions/{group}/{kind}.yaml`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => {
          fs.rmSync(root, { recursive: true, force: true });
          r();
        });
      }),
  });
}

/** A Publication (a kind the loopback catalog serves) that is valid against its CRD: a mistake in it is the test's. */
export const PUBLICATION = `apiVersion: postgresql.cnpg.io/v1
kind: Publication
metadata:
  name: pub
spec:
  cluster:
    name: db
  dbname: app
  name: pub
  publicationReclaimPolicy: keep
  target:
    allTables: true
`;

/** A Publication with neither allTables nor objects: the CRD's CEL rule says they are mutually exclusive. */
export const RULE = `apiVersion: postgresql.cnpg.io/v1
kind: Publication
metadata:
  name: rule
spec:
  cluster:
    name: db
  dbname: app
  name: rule
  target: {}
`;

/** A Widget of example.com: a kind the loopback catalog lacks, so it is counted (or said) not checked. */
export const UNCATALOGED = `apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
spec: {}
`;
