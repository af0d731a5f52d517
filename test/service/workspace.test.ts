import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CrdIndex, extractCrds } from '../../server/src/workspace/crdIndex';
import { DEFAULT_SCAN_SETTINGS, globToRegExp, isIndexedPath, listIndexedFiles, readCandidate, ReadableRoots } from '../../server/src/workspace/scan';
import { WIDGET_CRD } from './helpers';

test('globs: ** spans folders, * stays in one, braces list alternatives', () => {
  const cases: Array<[string, string, boolean]> = [
    ['**/*.yaml', 'a.yaml', true],
    ['**/*.yaml', 'deep/er/a.yaml', true],
    ['**/*.yaml', 'a.yml', false],
    ['crds/*.yaml', 'crds/a.yaml', true],
    ['crds/*.yaml', 'crds/x/a.yaml', false],
    ['**/*.{yaml,yml}', 'x/a.yml', true],
    ['**/node_modules/**', 'node_modules/p/a.yaml', true],
    ['**/node_modules/**', 'src/node_modules/p/a.yaml', true],
    ['**/node_modules/**', 'src/node_modules_x/a.yaml', false],
    ['config/?.yaml', 'config/a.yaml', true],
  ];
  for (const [glob, path, expected] of cases) assert.equal(globToRegExp(glob).test(path), expected, `${glob} ~ ${path}`);
  assert.equal(isIndexedPath('crds/a.yaml', DEFAULT_SCAN_SETTINGS), true);
  assert.equal(isIndexedPath('.git/a.yaml', DEFAULT_SCAN_SETTINGS), false);
  assert.equal(isIndexedPath('crds/a.json', DEFAULT_SCAN_SETTINGS), false);
});

test('the scan lists matching files outside excluded folders; only files mentioning CRDs are read', async () => {
  const ws = mkdtempSync(join(tmpdir(), 'crd-yaml-scan-'));
  try {
    mkdirSync(join(ws, 'crds', 'sub'), { recursive: true });
    mkdirSync(join(ws, 'node_modules', 'p'), { recursive: true });
    writeFileSync(join(ws, 'crds', 'sub', 'w.yaml'), WIDGET_CRD);
    writeFileSync(join(ws, 'crds', 'notes.txt'), WIDGET_CRD);
    writeFileSync(join(ws, 'node_modules', 'p', 'w.yaml'), WIDGET_CRD);
    writeFileSync(join(ws, 'app.yml'), 'kind: ConfigMap\n');
    const files = (await listIndexedFiles([ws], DEFAULT_SCAN_SETTINGS)).map((f) => f.slice(ws.length + 1)).sort();
    assert.deepEqual(files, ['app.yml', 'crds/sub/w.yaml']);
    const only = await listIndexedFiles([ws], { crdPaths: ['crds/**/*.yaml'], exclude: [] });
    assert.deepEqual(
      only.map((f) => f.slice(ws.length + 1)),
      ['crds/sub/w.yaml'],
    );
    assert.equal(await readCandidate(join(ws, 'app.yml'), new ReadableRoots([ws])), undefined);
    assert.equal(await readCandidate(join(ws, 'crds', 'sub', 'w.yaml'), new ReadableRoots([ws])), WIDGET_CRD);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});

test('the index resolves group/kind by path whatever is open, an open document standing for its file, and reports which keys changed', () => {
  const idx = new CrdIndex();
  const v1 = extractCrds('file:///disk.yaml', [
    {
      index: 0,
      text: WIDGET_CRD,
      value: { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' }, spec: { group: 'example.com', names: { kind: 'Widget', plural: 'widgets' } } },
      startLine: 3,
    },
  ]);
  assert.equal(v1.length, 1);
  assert.equal(v1[0].startLine, 3);
  assert.deepEqual(idx.set('file:///disk.yaml', v1, 'disk'), ['example.com/Widget']);
  assert.deepEqual(idx.set('file:///disk.yaml', v1, 'disk'), [], 'same CRD text: nothing changed');
  // Another file's copy does not win by being open (issue 28: the choice changed with the open file).
  const other = extractCrds('file:///open.yaml', [{ index: 0, text: WIDGET_CRD + '# other\n', value: v1[0].crd, startLine: 0 }]);
  assert.deepEqual(idx.set('file:///open.yaml', other, 'open'), []);
  assert.equal(idx.lookup('example.com', 'Widget')?.uri, 'file:///disk.yaml');
  assert.deepEqual(
    idx.definitions('example.com', 'Widget').map((c) => c.uri),
    ['file:///disk.yaml', 'file:///open.yaml'],
  );
  // The file in use, open and edited: its edited text is used.
  const edited = extractCrds('file:///disk.yaml', [{ index: 0, text: WIDGET_CRD + '# edited\n', value: v1[0].crd, startLine: 0 }]);
  assert.deepEqual(idx.set('file:///disk.yaml', edited, 'open'), ['example.com/Widget']);
  assert.equal(idx.lookup('example.com', 'Widget')?.text, WIDGET_CRD + '# edited\n');
  assert.equal(idx.lookup('example.com', 'widget'), undefined, 'kinds are case-sensitive');
  assert.deepEqual(idx.remove('file:///disk.yaml', 'open'), ['example.com/Widget']);
  assert.equal(idx.lookup('example.com', 'Widget')?.text, WIDGET_CRD);
  assert.deepEqual(idx.remove('file:///open.yaml', 'open'), []);
  // A source outside the workspace comes after every workspace file, whatever its path.
  const outside = extractCrds('file:///0/outside.yaml', [{ index: 0, text: WIDGET_CRD + '# outside\n', value: v1[0].crd, startLine: 0 }]);
  assert.deepEqual(idx.set('file:///0/outside.yaml', outside, 'external'), []);
  assert.equal(idx.lookup('example.com', 'Widget')?.uri, 'file:///disk.yaml');
  assert.deepEqual(idx.remove('file:///0/outside.yaml', 'external'), []);
  assert.deepEqual(idx.remove('file:///disk.yaml', 'disk'), ['example.com/Widget']);
  assert.equal(idx.size, 0);
  // Not CRDs: other kinds, or CRDs without group/kind.
  assert.equal(extractCrds('u', [{ index: 0, text: '', value: { apiVersion: 'v1', kind: 'ConfigMap' }, startLine: 0 }]).length, 0);
  assert.equal(extractCrds('u', [{ index: 0, text: 'x', value: { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', spec: {} }, startLine: 0 }]).length, 0);
});
