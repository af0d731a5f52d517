/**
 * `crd-yaml check` as the process runs it (dist/cli.js, cli/jobs.ts): in the main thread, in one worker
 * and in shares across workers, the same report as the in-process check; a worker that fails midway is
 * replaced by the main thread, which checks only the inputs no worker finished.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import * as os from 'node:os';
import { runCli, type CliIO } from '../../server/src/cli/main';
import { runCliProcess, type Program } from '../../server/src/cli/jobs';
import { needsShared, sharedPath } from '../shared';

const ROOT = path.resolve(__dirname, '../..');
const REALWORLD = sharedPath('realworld');
const NO_SHARED = needsShared('realworld');
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

test('check in the main thread, one worker and two shares: the same report, in input order', { skip: NO_SHARED || (!fs.existsSync(CLI) && 'dist/cli.js not built (npm run build)') }, () => {
  const want = inProcess();
  const findings = (JSON.parse(want.out) as { findings: unknown[] }).findings;
  assert.ok(findings.length > 5, `${findings.length} findings`);
  for (const extra of [[], ['--jobs', '1'], ['--jobs', '2']]) {
    const got = bundled(extra);
    assert.equal(got.code, want.code, extra.join(' '));
    assert.deepEqual(JSON.parse(got.out), JSON.parse(want.out), extra.join(' '));
  }
});

/**
 * A worker entry that runs the real job (dist/cli-job.js) but ends its thread after posting `stop` inputs,
 * as a worker out of its heap ends (in share `shard` only, when given).
 */
function failingEntry(dir: string, stop: number, shard?: number): string {
  const file = path.join(dir, `failing-${stop}-${shard ?? 'all'}.js`);
  fs.writeFileSync(
    file,
    `const { parentPort, workerData } = require('node:worker_threads');
const post = parentPort.postMessage.bind(parentPort);
let n = 0;
const fails = ${shard === undefined ? 'true' : `workerData.shard?.index === ${shard}`};
parentPort.postMessage = (m) => {
  post(m);
  if (fails && m.kind === 'input' && ++n === ${stop}) process.exit(1);
};
require(${JSON.stringify(path.join(ROOT, 'dist', 'cli-job.js'))});
`,
  );
  return file;
}

test('a worker that fails midway: the main thread checks only the rest, and the report is the same', { skip: NO_SHARED || (!fs.existsSync(CLI) && 'dist/cli.js not built (npm run build)') }, async () => {
  const want = inProcess();
  const inputs = (JSON.parse(want.out) as { summary: { files: number } }).summary.files;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crd-yaml-jobs-'));
  try {
    for (const [extra, entry, stop] of [
      [['--jobs', '1'], failingEntry(dir, 5), 5],
      [['--jobs', '2'], failingEntry(dir, 3, 1), undefined],
    ] as const) {
      // The program in the main thread, counting what it is given and what it checks.
      const program = require(path.join(ROOT, 'dist', 'cli-load.js')).load() as Program;
      let given = -1;
      let checkedHere = 0;
      const load = (): Program => ({
        ...program,
        runCli: (a: string[], io: CliIO) => {
          given = io.done?.size ?? 0;
          return program.runCli(a, { ...io, onInput: () => checkedHere++ });
        },
      });
      let out = '';
      const code = await runCliProcess([...ARGS, ...extra], { stdout: (s) => (out += s), stderr: () => undefined, cwd: ROOT }, load, entry);
      assert.equal(code, want.code, extra.join(' '));
      assert.deepEqual(JSON.parse(out), JSON.parse(want.out), extra.join(' '));
      if (stop !== undefined) assert.equal(given, stop, 'the inputs the worker posted');
      else assert.ok(given >= 3, `${given} inputs from the shares`);
      assert.equal(checkedHere + given, inputs, 'each input checked once');
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
