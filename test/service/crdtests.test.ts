/**
 * CRD rule test files in the editor: Run lenses over the file and each case, failures of the last run as
 * findings on their cases (gone once the text changes), the file's own problems, and completion and hover
 * inside a case's object and oldObject from the CRD's schema.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LanguageService } from '../../server/src/service/languageService';
import { RUN_TESTS_COMMAND } from '../../server/src/service/crdTests';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startServer } from '../lsp/client';
import { crdYaml, specSchemaYaml } from '../crd';

const CRD = crdYaml(
  specSchemaYaml(`replicas:
  type: integer
  description: How many widgets.
  x-kubernetes-validations:
  - {rule: self >= oldSelf, message: must not decrease}
mode: {type: string, enum: [a, b]}`),
);

const TESTS = `crd: ../config/widgets.yaml
tests:
  - name: within bounds
    object:
      apiVersion: example.com/v1
      kind: Widget
      metadata: {name: a}
      spec:
        replicas: 3
    expect: valid
  - name: cannot scale down
    oldObject: {apiVersion: example.com/v1, kind: Widget, metadata: {name: a}, spec: {replicas: 3}}
    object: {apiVersion: example.com/v1, kind: Widget, metadata: {name: a}, spec: {replicas: 2}}
    expect:
      errors: [{message: must not decrease}]
  - name: wrong on purpose
    object: {apiVersion: example.com/v1, kind: Widget, metadata: {name: a}, spec: {mode: c}}
    expect: valid
`;

function setup(text = TESTS) {
  const service = new LanguageService();
  service.indexDiskFile('file:///ws/config/widgets.yaml', CRD);
  const td = TextDocument.create('file:///ws/tests/widgets.crdtest.yaml', 'yaml', 1, text);
  service.update(td);
  return { service, td };
}

test('test files: Run lenses, failures as findings on their cases, outcomes in the lens titles', () => {
  const { service, td } = setup();
  const titles = () => service.codeLenses(td).map((l) => `${l.range.start.line + 1}: ${l.command?.title}`);
  assert.deepEqual(titles(), ['2: Run 3 tests', '3: Run', '11: Run', '16: Run']);
  const lens = service.codeLenses(td)[2];
  assert.equal(lens.command?.command, RUN_TESTS_COMMAND);
  assert.deepEqual(lens.command?.arguments, [td.uri, 1]);
  assert.deepEqual(service.findings(td), [], 'nothing before a run');

  assert.deepEqual(service.runTests(td), { passed: 2, failed: 1 });
  const failed = service.findings(td);
  assert.deepEqual(
    failed.map((f) => [f.range.start.line + 1, f.code, f.message]),
    [[16, 'TestFailed', 'test failed: reported, not expected: spec.mode: Unsupported value: "c": supported values: "a", "b" [FieldValueNotSupported]']],
  );
  assert.deepEqual(titles(), ['2: Run 3 tests (last run: 2 passed, 1 failed)', '3: Run (passed)', '11: Run (passed)', '16: Run (failed)']);
  // One case alone.
  assert.deepEqual(service.runTests(td, 2), { passed: 0, failed: 1 });

  // An edit makes the outcomes stale: no failures shown, the lenses say Run again.
  const edited = TextDocument.update(td, [{ text: TESTS.replace('mode: c', 'mode: a') }], 2);
  service.update(edited);
  assert.deepEqual(service.findings(edited), []);
  assert.deepEqual(
    service.codeLenses(edited).map((l) => l.command?.title),
    ['Run 3 tests', 'Run', 'Run', 'Run'],
  );
  assert.deepEqual(service.runTests(edited), { passed: 3, failed: 0 });
});

test("test files: the file's own problems are findings; a missing CRD fails each case with the reason", () => {
  const { service, td } = setup(
    'crd: ../config/nope.yaml\ntests:\n  - name: x\n    object: {apiVersion: example.com/v1, kind: Widget, metadata: {name: a}}\n    expect: maybe\n  - name: y\n    object: {apiVersion: example.com/v1, kind: Widget, metadata: {name: a}}\n    expect: valid\n',
  );
  assert.deepEqual(
    service.findings(td).map((f) => [f.code, f.message]),
    [],
  );
  service.runTests(td);
  assert.deepEqual(
    service.findings(td).map((f) => [f.range.start.line + 1, f.code, f.message]),
    [
      [3, 'TestFailed', 'test failed: `expect` is `valid` or `{errors: [...]}`'],
      [6, 'TestFailed', 'test failed: crd ../config/nope.yaml: no CustomResourceDefinition known there (is the file in the workspace?)'],
    ],
  );
  const { service: s2, td: t2 } = setup('tests: []\n');
  assert.deepEqual(
    s2.findings(t2).map((f) => f.code),
    ['TestFile'],
  );
});

test('test files: completion and hover inside object and oldObject come from the CRD schema', () => {
  const text = TESTS.replace('        replicas: 3\n', '        replicas: 3\n        \n');
  const { service, td } = setup(text);
  // The empty line under spec: the properties of spec.
  const line = text.split('\n').indexOf('        ');
  const items = service.completion(td, { line, character: 8 }).map((i) => i.label);
  assert.ok(items.includes('mode') && !items.includes('replicas'), items.join(', '));
  // Hover on replicas (block style) and inside a flow-style oldObject.
  const hoverAt = (needle: string, nth = 0) => {
    let i = -1;
    for (let k = 0; k <= nth; k++) i = text.indexOf(needle, i + 1);
    const h = service.hover(td, td.positionAt(i + 1));
    return h ? String((h.contents as { value: string }).value) : '';
  };
  assert.match(hoverAt('replicas: 3'), /How many widgets\./);
  assert.match(hoverAt('replicas', 1), /How many widgets\./);
  assert.equal(hoverAt('expect'), '', 'outside objects nothing is a custom resource');
});

test('the editor over stdio: the Run lens runs the cases and the failures come back as diagnostics', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'crd-yaml-crdtest-lsp-'));
  mkdirSync(join(dir, 'config'));
  mkdirSync(join(dir, 'tests'));
  writeFileSync(join(dir, 'config', 'widgets.yaml'), CRD);
  writeFileSync(join(dir, 'tests', 'widgets.crdtest.yaml'), TESTS);
  const s = await startServer(dir);
  try {
    const uri = pathToFileURL(join(dir, 'tests', 'widgets.crdtest.yaml')).href;
    await s.notification<{ indexing: boolean; crdCount: number }>('crdYaml/status', (p) => !p.indexing && p.crdCount > 0, 60_000);
    await s.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: TESTS } });
    const lenses = (await s.conn.sendRequest('textDocument/codeLens', { textDocument: { uri } })) as { command: { title: string; command: string; arguments: unknown[] } }[];
    assert.deepEqual(
      lenses.map((l) => l.command.title),
      ['Run 3 tests', 'Run', 'Run', 'Run'],
    );
    const diags = s.diagnostics(uri, (d) => d.length > 0, 60_000);
    const r = await s.conn.sendRequest('workspace/executeCommand', { command: lenses[0].command.command, arguments: lenses[0].command.arguments });
    assert.deepEqual(r, { passed: 2, failed: 1 });
    assert.deepEqual(
      (await diags).map((d) => [d.range.start.line + 1, d.message]),
      [[16, 'test failed: reported, not expected: spec.mode: Unsupported value: "c": supported values: "a", "b" [FieldValueNotSupported]']],
    );
  } finally {
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
