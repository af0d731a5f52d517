/**
 * `crd-yaml check` as the process runs it (dist/cli.js, cli/jobs.ts): in the main thread, in one worker
 * and in shares across workers, the same report as the in-process check.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { runCli } from '../../server/src/cli/main';
import { sharedPath } from '../shared';

const ROOT = path.resolve(__dirname, '../..');
const REALWORLD = sharedPath('realworld');
const CLI = path.join(ROOT, 'dist', 'cli.js');
// CRDs of three projects beside all samples: some of the samples are invalid, some kinds unknown.
const ARGS = ['check', '--format', 'json', '--unknown-kinds', 'hint', ...['cert-manager', 'flux', 'prometheus-operator'].flatMap((p) => ['--crd', path.join(REALWORLD, 'crds', p)]), path.join(REALWORLD, 'samples')];

function inProcess(): { code: number; out: string } {
  let out = '';
  const code = runCli(ARGS, { stdout: (s) => (out += s), stderr: () => undefined, cwd: ROOT });
  assert.equal(typeof code, 'number');
  return { code: code as number, out };
}

function bundled(extra: string[]): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, [CLI, ...ARGS, ...extra], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.equal(r.stderr.replace(/npm warn.*\n/g, ''), '');
  return { code: r.status, out: r.stdout };
}

test('check in the main thread, one worker and two shares: the same report, in input order', { skip: !fs.existsSync(CLI) && 'dist/cli.js not built (npm run build)' }, () => {
  const want = inProcess();
  const findings = (JSON.parse(want.out) as { findings: unknown[] }).findings;
  assert.ok(findings.length > 5, `${findings.length} findings`);
  for (const extra of [[], ['--jobs', '1'], ['--jobs', '2']]) {
    const got = bundled(extra);
    assert.equal(got.code, want.code, extra.join(' '));
    assert.deepEqual(JSON.parse(got.out), JSON.parse(want.out), extra.join(' '));
  }
});
