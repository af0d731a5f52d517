import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startServer, type TestServer } from './client';
import type { StatsResponse } from '../../server/src/lsp/protocol';
import { needsShared, sharedPath } from '../shared';

// A small real CRD (crossplane's EnvironmentConfig), typed one character at a time.
const REAL_FILE = ['realworld', 'crds', 'crossplane', 'apiextensions.crossplane.io_environmentconfigs.yaml'];
const NO_SHARED = needsShared(...REAL_FILE);
const REAL = NO_SHARED ? '' : readFileSync(sharedPath(...REAL_FILE), 'utf8');
let server: TestServer;

before(async () => {
  server = await startServer(null);
});
after(async () => {
  await server?.stop();
});

/** A small deterministic PRNG so failures reproduce. */
function rng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

function positionAt(text: string, offset: number) {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length - 1, character: before[before.length - 1].length };
}

test('every prefix of a real CRD, typed as incremental edits: the server keeps answering and ends clean', { skip: NO_SHARED }, async () => {
  const uri = 'file:///typed/domain-claim.yaml';
  await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: '' } });
  let text = '';
  let version = 1;
  for (let i = 0; i < REAL.length; i++) {
    const ch = REAL[i];
    const at = positionAt(text, text.length);
    text += ch;
    version++;
    await server.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ range: { start: at, end: at }, text: ch }] });
    if (i % 150 === 0) {
      // Requests in the middle of typing are answered (hover, completion, symbols on a half-typed file).
      const pos = positionAt(text, text.length);
      await server.conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: pos });
      await server.conn.sendRequest('textDocument/completion', { textDocument: { uri }, position: pos });
      await server.conn.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
    }
  }
  assert.equal(text, REAL);
  const final = await server.diagnostics(uri, (_d, v) => v === version, 20000);
  assert.deepEqual(
    final.map((d) => d.message),
    [],
  );
  assert.equal(server.proc.exitCode, null, 'server still running');
});

test('random edits (insertions, deletions, garbage) never stop the server', { skip: NO_SHARED }, async () => {
  const uri = 'file:///typed/random.yaml';
  let text = REAL;
  let version = 1;
  await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version, text } });
  const rand = rng(42);
  const junk = ['{', '}', '[', ']', ':', '- ', '"', "'", '\n', '  ', '\t', '&a ', '*a', '!!binary ', '---\n', '|', '#', 'x-kubernetes-validations:\n- rule: self.', '\u0000', '💥'];
  for (let i = 0; i < 400; i++) {
    const start = Math.floor(rand() * text.length);
    const del = rand() < 0.5 ? Math.floor(rand() * 20) : 0;
    const ins = rand() < 0.7 ? junk[Math.floor(rand() * junk.length)] : '';
    const s = positionAt(text, start);
    const e = positionAt(text, Math.min(text.length, start + del));
    text = text.slice(0, start) + ins + text.slice(Math.min(text.length, start + del));
    version++;
    await server.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ range: { start: s, end: e }, text: ins }] });
    if (i % 40 === 0) {
      const p = positionAt(text, Math.floor(rand() * text.length));
      await server.conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: p });
      await server.conn.sendRequest('textDocument/completion', { textDocument: { uri }, position: p });
      await server.conn.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: { start: p, end: p }, context: { diagnostics: [] } });
    }
  }
  await server.diagnostics(uri, (_d, v) => v === version, 20000);
  const syms = await server.conn.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
  assert.ok(Array.isArray(syms));
  assert.equal(server.proc.exitCode, null);
  assert.doesNotMatch(server.stderr(), /uncaught|unhandled/);
});

test('an open and a burst of edits read together go to the workers as one text, the latest', async () => {
  const uri = 'file:///burst/edited.yaml';
  const frame = (m: object) => {
    const body = JSON.stringify({ jsonrpc: '2.0', ...m });
    return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  };
  const msgs = [frame({ method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'yaml', version: 1, text: 'a: 0\n' } } })];
  for (let v = 2; v <= 51; v++) {
    // Each edit replaces line 0; the last one leaves a flow sequence open (a syntax error only that text has).
    const text = v === 51 ? 'a: [\n' : `a: ${v}\n`;
    msgs.push(frame({ method: 'textDocument/didChange', params: { textDocument: { uri, version: v }, contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }, text }] } }));
  }
  const stats = () => server.conn.sendRequest('crdYaml/stats', {}) as Promise<StatsResponse>;
  const before = await stats();
  // One write of a few KB: the server reads all of it before it handles any of it.
  server.proc.stdin!.write(msgs.join(''));
  const d = await server.diagnostics(uri, (_d, v) => v === 51, 20000);
  assert.ok(
    d.some((x) => x.code === 'YAMLSyntax'),
    JSON.stringify(d),
  );
  const after = await stats();
  assert.equal(after.main.textsSent - before.main.textsSent, 1, 'one text sent to the workers for the open and its 50 edits');
  await server.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
});

test('a didChange of a document not open (a client out of step) does not keep the document unchecked once it is opened', async () => {
  const uri = 'file:///stray/edited.yaml';
  // Version 9 of a document the server does not have: ignored, but its version was seen on the wire.
  await server.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: 9 }, contentChanges: [{ text: 'a: 1\n' }] });
  await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: 'a: [\n' } });
  const d = await server.diagnostics(uri, (_d, v) => v === 1, 20000);
  assert.ok(
    d.some((x) => x.code === 'YAMLSyntax'),
    JSON.stringify(d),
  );
  await server.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
});
