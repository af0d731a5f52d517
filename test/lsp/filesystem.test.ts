/**
 * The server never reads a file outside the workspace folders, symbolic links included: not in the
 * scan, not on a file-change event, not when a document opened through a link is closed.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from './client';
import { ReadableRoots, readCandidate } from '../../server/src/workspace/scan';

const CRD = readFileSync(join(__dirname, '..', 'service', 'fixtures', 'widget-crd.yaml'), 'utf8');
const kindCrd = (kind: string) => CRD.replace(/Widget/g, kind).replace(/widget/g, kind.toLowerCase());

let base: string;
let ws: string;
let server: TestServer;
type Status = { crdCount: number; indexing: boolean };

before(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'crd-yaml-fs-')));
  ws = join(base, 'ws');
  mkdirSync(join(base, 'outside'), { recursive: true });
  mkdirSync(ws);
  writeFileSync(join(base, 'outside', 'gadget.yaml'), kindCrd('Gadget'));
  writeFileSync(join(ws, 'widget.yaml'), CRD);
  symlinkSync('../outside/gadget.yaml', join(ws, 'link.yaml'));
  symlinkSync('../outside', join(ws, 'linkdir'));
  server = await startServer(ws);
});

after(async () => {
  await server?.stop();
  rmSync(base, { recursive: true, force: true });
});

test('the scan indexes the workspace file and neither the linked file nor the linked folder', async () => {
  const s = await server.notification<Status>('crdYaml/status', (p) => !p.indexing && p.crdCount > 0);
  assert.equal(s.crdCount, 1);
});

test('file-change events for links to outside files are not read; a real workspace file beside them is', async () => {
  await server.notification<Status>('crdYaml/status', (p) => !p.indexing && p.crdCount === 1);
  writeFileSync(join(ws, 'sprocket.yaml'), kindCrd('Sprocket'));
  // Events apply in order: Widget + Sprocket = 2, then Gadget (outside, through either link) would make
  // 3; removing Sprocket afterwards leaves 1 only if Gadget was never read.
  const added = server.notification<Status>('crdYaml/status', (p) => p.crdCount === 2, 10000, true);
  await server.conn.sendNotification('workspace/didChangeWatchedFiles', {
    changes: [
      { uri: `file://${join(ws, 'sprocket.yaml')}`, type: 1 },
      { uri: `file://${join(ws, 'link.yaml')}`, type: 2 },
      { uri: `file://${join(ws, 'linkdir', 'gadget.yaml')}`, type: 1 },
    ],
  });
  await added;
  const statuses: number[] = [];
  const removed = server.notification<Status>(
    'crdYaml/status',
    (p) => {
      statuses.push(p.crdCount);
      return p.crdCount === 1;
    },
    10000,
    true,
  );
  rmSync(join(ws, 'sprocket.yaml'));
  await server.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: `file://${join(ws, 'sprocket.yaml')}`, type: 3 }] });
  await removed;
  assert.deepEqual(statuses, [1]);
});

test('closing a document opened through a link does not read its target outside the workspace', async () => {
  await server.notification<Status>('crdYaml/status', (p) => !p.indexing && p.crdCount === 1);
  const uri = `file://${join(ws, 'link.yaml')}`;
  const opened = server.notification<Status>('crdYaml/status', (p) => p.crdCount === 2, 10000, true);
  // The client sends the text of an open document: that is allowed, it is not a read of ours.
  await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: kindCrd('Gadget') } });
  await opened;
  const closed = server.notification<Status>('crdYaml/status', () => true, 10000, true);
  await server.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
  // Re-reading the disk copy through the link would keep Gadget indexed (2).
  assert.equal((await closed).crdCount, 1);
});

test('ReadableRoots: real paths inside the roots only, links resolved; readCandidate reads nothing else', async () => {
  const roots = new ReadableRoots([ws]);
  assert.equal(await roots.resolve(join(ws, 'widget.yaml')), join(ws, 'widget.yaml'));
  assert.equal(await roots.resolve(join(ws, 'link.yaml')), undefined);
  assert.equal(await roots.resolve(join(ws, 'linkdir', 'gadget.yaml')), undefined);
  assert.equal(await roots.resolve(join(ws, '..', 'outside', 'gadget.yaml')), undefined);
  assert.equal(await roots.resolve(join(ws, 'missing.yaml')), undefined);
  assert.equal(await readCandidate(join(ws, 'link.yaml'), roots), undefined);
  assert.equal(await readCandidate(join(ws, 'widget.yaml'), roots), CRD);
  // A root reached through a link of its own is resolved too; adding a source makes it readable.
  symlinkSync(ws, join(base, 'ws-link'));
  assert.equal(await new ReadableRoots([join(base, 'ws-link')]).resolve(join(ws, 'widget.yaml')), join(ws, 'widget.yaml'));
  roots.add(join(base, 'outside'));
  assert.equal(await readCandidate(join(ws, 'link.yaml'), roots), kindCrd('Gadget'));
});

test('globs from workspace settings match in linear time (RE2): a chain of ** on a deep path answers', async () => {
  const { globToRegExp } = await import('../../server/src/workspace/scan');
  const deep = Array.from({ length: 40 }, (_, i) => `d${i}`).join('/') + '/file.yml';
  // As a backtracking RegExp this is about 40^25 steps before failing.
  assert.equal(globToRegExp('**/'.repeat(25) + '*.yaml').test(deep), false);
  assert.equal(globToRegExp('**/'.repeat(25) + '*.yml').test(deep), true);
});
