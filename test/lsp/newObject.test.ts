/**
 * "New <Kind>" over stdio, for the real cert-manager Certificate CRD: the completion item's snippet has a
 * tab stop at every value it inserts (metadata.name first, then each required value in the order
 * written), so that Tab visits what the author has to fill in, and with its tab stops as they are the
 * object is what the schema accepts.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { CompletionItem, Diagnostic } from 'vscode-languageserver-protocol';
import { startServer, type TestServer } from './client';
import { needsShared, sharedPath } from '../shared';

const NO_SHARED = needsShared('realworld', 'crds', 'cert-manager');
const CERTIFICATES = sharedPath('realworld', 'crds', 'cert-manager', 'cert-manager.io_certificates.yaml');
let ws: string;
let server: TestServer;

before(async () => {
  if (NO_SHARED) return;
  ws = mkdtempSync(join(tmpdir(), 'crd-yaml-lsp-new-'));
  mkdirSync(join(ws, 'crds'));
  copyFileSync(CERTIFICATES, join(ws, 'crds', 'certificates.yaml'));
  server = await startServer(ws);
});

after(async () => {
  await server?.stop();
  if (ws) rmSync(ws, { recursive: true, force: true });
});

/** The tab stops of a snippet in order of their numbers: `${n:text}` and `${n|a,b|}` (no nesting here). */
function tabStops(snippet: string): Array<{ n: number; text: string; choices?: string[] }> {
  const out: Array<{ n: number; text: string; choices?: string[] }> = [];
  for (const m of snippet.matchAll(/\$\{(\d+)(?::((?:\\.|[^}\\])*)|\|((?:\\.|[^|\\])*)\|)\}/g)) {
    const unslash = (s: string) => s.replace(/\\(.)/g, '$1');
    if (m[3] !== undefined) {
      const choices = m[3].split(/(?<!\\),/).map(unslash);
      out.push({ n: Number(m[1]), text: choices[0], choices });
    } else out.push({ n: Number(m[1]), text: unslash(m[2] ?? '') });
  }
  return out.sort((a, b) => a.n - b.n);
}

/** The scalar leaves of a value with their paths (`spec.issuerRef.name`). */
function leaves(v: unknown, path = ''): string[] {
  if (Array.isArray(v)) return v.length ? v.flatMap((x, i) => leaves(x, `${path}[${i}]`)) : [path];
  if (v && typeof v === 'object') return Object.keys(v).length ? Object.entries(v).flatMap(([k, x]) => leaves(x, path ? `${path}.${k}` : k)) : [path];
  return [path];
}

test('New Certificate (cert-manager): a tab stop at every inserted value, the name first; as written the object is valid', { skip: NO_SHARED }, async () => {
  await server.notification<{ crdCount: number; indexing: boolean }>('crdYaml/status', (p) => !p.indexing && p.crdCount > 0);
  const uri = `file://${join(ws, 'certificate.yaml')}`;
  await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: '' } });
  const items = (await server.conn.sendRequest('textDocument/completion', { textDocument: { uri }, position: { line: 0, character: 0 } })) as CompletionItem[];
  const item = items.find((i) => i.label === 'New Certificate');
  assert.ok(item, items.map((i) => i.label).join(', '));
  assert.equal(item.insertTextFormat, 2, 'a snippet');
  const snippet = (item.textEdit as { newText: string }).newText;
  const stops = tabStops(snippet);
  // Numbered 1..N, each once, and the name is the first.
  assert.deepEqual(
    stops.map((s) => s.n),
    stops.map((_, i) => i + 1),
    snippet,
  );
  // Every value of the object but apiVersion and kind is a tab stop: replace each stop by a mark and read it back.
  const marked = parse(snippet.replace(/\$\{(\d+)(?::(?:\\.|[^}\\])*|\|(?:\\.|[^|\\])*\|)\}/g, 'tabstop$1'));
  assert.equal(marked.metadata.name, 'tabstop1', snippet);
  const paths = leaves(marked).filter((p) => p !== 'apiVersion' && p !== 'kind');
  const at = (p: string) =>
    p
      .split(/[.[\]]/)
      .filter(Boolean)
      .reduce((o: any, k) => o?.[k], marked);
  for (const p of paths) assert.match(String(at(p)), /^tabstop\d+$/, `${p} is a tab stop in:\n${snippet}`);
  assert.equal(paths.length, stops.length, 'one tab stop per value');
  // The required values of the Certificate's spec are among them: secretName and issuerRef.name.
  assert.ok(paths.includes('spec.secretName') && paths.includes('spec.issuerRef.name'), paths.join(', '));
  // Accepted as written (every stop at its placeholder), the object validates.
  const text = snippet.replace(/\$\{(\d+)(?::((?:\\.|[^}\\])*)|\|((?:\\.|[^|\\])*)\|)\}/g, (_m, _n, t, c) => (t ?? c.split(/(?<!\\),/)[0]).replace(/\\(.)/g, '$1')).replace(/\\([$}\\])/g, '$1');
  const diags = server.diagnostics(uri, (_d, version) => version === 2);
  await server.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text }] });
  const got: Diagnostic[] = await diags;
  assert.deepEqual(
    got.map((d) => d.message),
    [],
    text,
  );
});
