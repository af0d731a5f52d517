/**
 * The quick fixes of `crd-yaml check`: only the JSON and SARIF reports carry them, so only they compute
 * them (a fix needs the document's syntax tree: a full parse of a file the fast reader read, 380 ms of a
 * 0.75 s check of the 2.9 MB argo CRD).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkFiles } from '../../server/src/cli/check';
import { runCli } from '../../server/src/cli/main';
import { crdYaml } from '../crd';

// A misspelt keyword: its finding has a fix (rename it).
const CRD = crdYaml(`type: object
properties:
  spec:
    type: object
    properties:
      when:
        type: string
        formatx: date-time
`);

test('checkFiles: quick fixes are computed unless fixes is false', () => {
  const input = [{ path: 'crd.yaml', text: CRD }];
  const withFixes = checkFiles(input, { cwd: os.tmpdir() }).findings.filter((f) => f.message.includes('formatx'));
  assert.equal(withFixes.length, 1);
  assert.ok(withFixes[0].fixes.length > 0, 'the rename fix');
  const without = checkFiles(input, { cwd: os.tmpdir(), fixes: false }).findings.filter((f) => f.message.includes('formatx'));
  assert.deepEqual(
    without.map((f) => ({ ...f, fixes: undefined })),
    withFixes.map((f) => ({ ...f, fixes: undefined })),
  );
  assert.deepEqual(without[0].fixes, []);
});

test('crd-yaml check: the JSON report carries the fixes; the text report names the finding, not its fix', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crd-yaml-fixes-'));
  try {
    fs.writeFileSync(path.join(dir, 'crd.yaml'), CRD);
    const run = (argv: string[]) => {
      let out = '';
      const code = runCli(argv, { stdout: (s) => (out += s), stderr: () => undefined, cwd: dir });
      assert.equal(code, 1);
      return out;
    };
    const json = JSON.parse(run(['check', '-f', 'json', 'crd.yaml'])) as { findings: { message: string; fixes?: unknown[] }[] };
    assert.ok(json.findings.find((f) => f.message.includes('formatx'))?.fixes?.length, 'fixes in the JSON report');
    const text = run(['check', 'crd.yaml']);
    assert.match(text, /formatx/);
    assert.doesNotMatch(text, /rename|fix/i);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
