import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CodeAction, CompletionItem, Diagnostic, Hover } from 'vscode-languageserver-protocol';
import { startServer, type TestServer } from './client';
import { crdYaml, specSchemaYaml } from '../crd';

const CRD = readFileSync(join(__dirname, '..', 'service', 'fixtures', 'widget-crd.yaml'), 'utf8');
const HEAD = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n';
let ws: string;
let server: TestServer;

before(async () => {
  ws = mkdtempSync(join(tmpdir(), 'crd-yaml-lsp-'));
  mkdirSync(join(ws, 'crds'));
  writeFileSync(join(ws, 'crds', 'widget.yaml'), CRD);
  mkdirSync(join(ws, 'node_modules', 'x'), { recursive: true });
  writeFileSync(join(ws, 'node_modules', 'x', 'other.yaml'), CRD.replace(/Widget/g, 'Gadget').replace(/widget/g, 'gadget'));
  server = await startServer(ws);
});

after(async () => {
  await server?.stop();
  rmSync(ws, { recursive: true, force: true });
});

const uriOf = (name: string) => `file://${join(ws, name)}`;

test('the workspace scan indexes CRD files (excluding node_modules) and reports the count', async () => {
  const status = await server.notification<{ crdCount: number; indexing: boolean }>('crdYaml/status', (p) => !p.indexing && p.crdCount > 0);
  assert.equal(status.crdCount, 1);
});

test('diagnostics, hover, completion, a code action and the preview on a multi-document file', async () => {
  await server.notification<{ crdCount: number; indexing: boolean }>('crdYaml/status', (p) => !p.indexing && p.crdCount > 0);
  const uri = uriOf('widgets.yaml');
  const text = HEAD + 'spec:\n  size: small\n---\n' + HEAD + 'spec:\n  size: medum\n  colour: red\n';
  const first = server.diagnostics(uri, (d) => d.length > 0);
  await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
  const diags = await first;
  const codes = diags.map((d) => `${d.code}@${d.range.start.line}`).sort();
  assert.deepEqual(codes, ['FieldValueNotSupported@12', 'UnknownField@13']);
  const notSupported = diags.find((d) => d.code === 'FieldValueNotSupported')!;
  assert.equal(notSupported.source, 'crd-yaml');
  assert.match(String(notSupported.message), /^Unsupported value "medum": supported values: "small", "medium", "large"$/);
  assert.deepEqual(notSupported.range, { start: { line: 12, character: 8 }, end: { line: 12, character: 13 } });
  // The API server's exact message is one click away (related information at the diagnostic itself), then its note, then the CRD.
  const related = notSupported.relatedInformation ?? [];
  assert.deepEqual(related[0], { location: { uri, range: notSupported.range }, message: 'API server: spec.size: Unsupported value: "medum": supported values: "small", "medium", "large"' });
  assert.match(related[1].message, /^some validation rules were not checked/);
  assert.ok(related[2].location.uri.endsWith('/crds/widget.yaml'));

  const hover = (await server.conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 12, character: 3 } })) as Hover;
  assert.match((hover.contents as { value: string }).value, /How big the widget is/);

  const completion = (await server.conn.sendRequest('textDocument/completion', { textDocument: { uri }, position: { line: 12, character: 8 } })) as CompletionItem[];
  assert.deepEqual(
    completion.map((c) => c.label),
    ['small', 'medium', 'large'],
  );

  const actions = (await server.conn.sendRequest('textDocument/codeAction', {
    textDocument: { uri },
    range: notSupported.range,
    context: { diagnostics: [notSupported] },
  })) as CodeAction[];
  assert.deepEqual(
    actions.map((a) => a.title),
    ['Replace with medium', 'Replace with small', 'Replace with large'],
  );
  assert.equal(actions[0].isPreferred, true);
  assert.deepEqual(actions[0].edit?.changes?.[uri], [{ range: notSupported.range, newText: 'medium' }]);
  assert.deepEqual(actions[0].diagnostics, [notSupported]);

  const preview = (await server.conn.sendRequest('crdYaml/preview', { textDocument: { uri }, position: { line: 9, character: 0 } })) as {
    yaml: string;
    pruned: string[];
    defaulted: string[];
    diagnostics: Diagnostic[];
  };
  assert.deepEqual(preview.pruned, ['spec.colour']);
  assert.deepEqual(preview.defaulted, ['spec.replicas']);
  assert.match(preview.yaml, /replicas: 1/);
  assert.match(preview.yaml, /^# pruned: spec\.colour \(unknown field\)$/m);
  assert.match(preview.yaml, /^# defaulted: spec\.replicas = 1$/m);
  assert.equal(preview.diagnostics.length, 2);
  const firstDoc = (await server.conn.sendRequest('crdYaml/preview', { textDocument: { uri }, position: { line: 0, character: 0 } })) as { diagnostics: Diagnostic[] };
  assert.equal(firstDoc.diagnostics.length, 0);

  // An incremental edit fixes the value: diagnostics follow.
  const fixed = server.diagnostics(uri, (d) => !d.some((x) => x.code === 'FieldValueNotSupported'));
  await server.conn.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: 2 },
    contentChanges: [{ range: notSupported.range, text: 'medium' }],
  });
  assert.deepEqual(
    (await fixed).map((d) => d.code),
    ['UnknownField'],
  );
});

test('editing an open CRD re-checks the open CRs that use it', async () => {
  await server.notification<{ crdCount: number; indexing: boolean }>('crdYaml/status', (p) => !p.indexing && p.crdCount > 0);
  const crUri = uriOf('cr2.yaml');
  const crdUri = uriOf('crds/widget.yaml');
  const clean = server.diagnostics(crUri);
  await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: crUri, languageId: 'yaml', version: 1, text: HEAD + 'spec:\n  size: small\n  replicas: 4\n' } });
  assert.deepEqual(await clean, []);
  const rechecked = server.diagnostics(crUri, (d) => d.length > 0);
  await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: crdUri, languageId: 'yaml', version: 1, text: CRD.replace('self.replicas <= 5', 'self.replicas <= 3') } });
  const d = await rechecked;
  assert.match(String(d[0].message), /too many replicas/);
  // Closing the CRD falls back to the file on disk: the CR is clean again.
  const back = server.diagnostics(crUri, (x) => x.length === 0);
  await server.conn.sendNotification('textDocument/didClose', { textDocument: { uri: crdUri } });
  assert.deepEqual(await back, []);
});

test('document symbols, folding ranges, definition and code lenses answer', async () => {
  const uri = uriOf('widgets.yaml');
  const syms = (await server.conn.sendRequest('textDocument/documentSymbol', { textDocument: { uri } })) as Array<{ name: string }>;
  assert.deepEqual(
    syms.map((s) => s.name),
    ['Widget w', 'Widget w'],
  );
  const folds = (await server.conn.sendRequest('textDocument/foldingRange', { textDocument: { uri } })) as unknown[];
  assert.ok(folds.length >= 4);
  const defs = (await server.conn.sendRequest('textDocument/definition', { textDocument: { uri }, position: { line: 12, character: 3 } })) as Array<{ uri: string; range: { start: { line: number } } }>;
  assert.ok(defs[0].uri.endsWith('/crds/widget.yaml'));
  assert.equal(CRD.split('\n')[defs[0].range.start.line].trim(), 'size:');
  const lenses = (await server.conn.sendRequest('textDocument/codeLens', { textDocument: { uri } })) as Array<{ command: { command: string } }>;
  assert.deepEqual(
    lenses.map((l) => l.command.command),
    ['crdYaml.preview', 'crdYaml.preview'],
  );
});

test('semantic tokens: the CEL of validation rules, by range, for YAML files', async () => {
  const caps = (server.initializeResult as { capabilities: Record<string, unknown> }).capabilities;
  const tokenTypes = ['keyword', 'operator', 'string', 'number', 'function', 'method', 'macro', 'variable', 'property', 'comment'];
  assert.deepEqual(caps.semanticTokensProvider, { legend: { tokenTypes, tokenModifiers: [] }, range: true, full: false, documentSelector: [{ language: 'yaml' }] });
  const uri = uriOf('rules-crd.yaml');
  const text = crdYaml(specSchemaYaml('a:\n  type: integer\n', { rules: "- rule: self.a > 0\n  messageExpression: |\n    'a is ' +\n      string(self.a)" }), { kind: 'Rulebook' });
  await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
  const lines = text.split('\n');
  // LSP's relative integers, decoded: line, character, length, type.
  const decode = (data: number[]) => {
    const out: string[] = [];
    let line = 0;
    let character = 0;
    for (let i = 0; i < data.length; i += 5) {
      character = data[i] === 0 ? character + data[i + 1] : data[i + 1];
      line += data[i];
      out.push(`${line}:${character} ${tokenTypes[data[i + 3]]} ${lines[line].slice(character, character + data[i + 2])}${data[i + 4] ? ' (modifiers)' : ''}`);
    }
    return out;
  };
  const range = async (from: number, to: number) =>
    decode(((await server.conn.sendRequest('textDocument/semanticTokens/range', { textDocument: { uri }, range: { start: { line: from, character: 0 }, end: { line: to, character: 0 } } })) as { data: number[] }).data);
  assert.deepEqual(await range(0, 100), [
    '23:20 variable self',
    '23:24 operator .',
    '23:25 property a',
    '23:27 operator >',
    '23:29 number 0',
    "25:16 string 'a is '",
    '25:24 operator +',
    '26:18 function string',
    '26:24 operator (',
    '26:25 variable self',
    '26:29 operator .',
    '26:30 property a',
    '26:31 operator )',
  ]);
  assert.deepEqual(await range(24, 25), ["25:16 string 'a is '", '25:24 operator +']);
  assert.deepEqual(await range(0, 20), []);
  await server.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
});

test('a CRD file changed on disk (watched-file event) re-checks the open CRs that use it', async () => {
  await server.notification<{ crdCount: number; indexing: boolean }>('crdYaml/status', (p) => !p.indexing && p.crdCount > 0);
  const crUri = uriOf('cr3.yaml');
  const clean = server.diagnostics(crUri);
  await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: crUri, languageId: 'yaml', version: 1, text: HEAD + 'spec:\n  size: small\n  replicas: 2\n' } });
  assert.deepEqual(await clean, []);
  const file = join(ws, 'crds', 'widget.yaml');
  const rechecked = server.diagnostics(crUri, (d) => d.length > 0);
  writeFileSync(file, CRD.replace('self.replicas <= 5', 'self.replicas <= 1'));
  await server.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: `file://${file}`, type: 2 }] });
  assert.match(String((await rechecked)[0].message), /too many replicas/);
  // Deleted: the kind is unknown again, so nothing but that it is not checked (crdYaml.unknownKinds: file).
  const gone = server.diagnostics(crUri, (d) => d.length === 1 && d[0].code === 'UnknownKind');
  rmSync(file);
  await server.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: `file://${file}`, type: 3 }] });
  await gone;
  const status = await server.notification<{ crdCount: number }>('crdYaml/status', (p) => p.crdCount === 0);
  assert.equal(status.crdCount, 0);
});
