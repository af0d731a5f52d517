/**
 * The progress line of `crd-yaml check` (cli/progress.ts, cli/jobs.ts): on a terminal by default, into a
 * log with --progress, never with --quiet; it counts every input once up to the total, and is erased
 * before the report is written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCliProcess, type Program } from '../../server/src/cli/jobs';
import { runCli, printCheckReport, type CliIO } from '../../server/src/cli/main';
import { ProgressLine } from '../../server/src/cli/progress';

const program: Program = { runCli, printCheckReport };

function workspace(n: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crd-yaml-progress-'));
  for (let i = 0; i < n; i++) fs.writeFileSync(path.join(dir, `cm${i}.yaml`), `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${i}\n`);
  return dir;
}

async function run(argv: string[], dir: string, terminal?: { columns: number }): Promise<{ out: string; err: string; writes: string[] }> {
  const writes: string[] = [];
  const io: CliIO = { stdout: (s) => writes.push(`out:${s}`), stderr: (s) => writes.push(`err:${s}`), cwd: dir, ...(terminal ? { terminal } : {}) };
  await runCliProcess(argv, io, () => program, 'unused-entry.js');
  const of = (stream: string) =>
    writes
      .filter((w) => w.startsWith(stream))
      .map((w) => w.slice(stream.length))
      .join('');
  return { out: of('out:'), err: of('err:'), writes };
}

test('progress: --progress into a log, on a terminal by default, never with --quiet', async () => {
  const dir = workspace(3);
  try {
    const log = await run(['check', '--progress', '.'], dir);
    // The last line says every file (a log gets lines now and then, the last always).
    assert.match(log.err, /^crd-yaml: checked 3\/3 files: cm2\.yaml$/m);
    assert.ok(!log.err.includes('\r'), log.err);
    const plain = await run(['check', '.'], dir);
    assert.doesNotMatch(plain.err, /checked \d+\/\d+ files/, 'not a terminal, not asked');
    const quiet = await run(['check', '--quiet', '--progress', '.'], dir, { columns: 80 });
    assert.doesNotMatch(quiet.err, /checked \d+\/\d+ files/, '--quiet removes it');
    const tty = await run(['check', '.'], dir, { columns: 80 });
    assert.ok(tty.err.includes('\r\x1b[Kcrd-yaml: checked 3/3 files: cm2.yaml'), tty.err);
    // Erased before anything else is written (the summary starts on a clean row).
    const firstOther = tty.writes.findIndex((w) => !w.startsWith('err:\r\x1b[K'));
    assert.equal(tty.writes[firstOther - 1], 'err:\r\x1b[K');
    assert.equal(tty.out, plain.out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('progress line: redrawn at most every 100 ms on a terminal, the last always; fits the width', () => {
  let now = 0;
  const writes: string[] = [];
  const line = new ProgressLine(
    (s) => writes.push(s),
    { columns: 50 },
    () => now,
  );
  for (let i = 1; i <= 10; i++) {
    now += 30;
    line.tick(i, 10, `deep/folder/of/files/number-${i}.yaml`);
  }
  // At 30, 150 (not before 130), 270, then the last (10 of 10).
  assert.deepEqual(
    writes.map((w) => /checked (\d+)/.exec(w)?.[1]),
    ['1', '5', '9', '10'],
  );
  // The path keeps its end: 49 columns at most.
  for (const w of writes) assert.ok(w.replace('\r\x1b[K', '').length <= 49, w);
  assert.equal(writes.at(-1), '\r\x1b[Kcrd-yaml: checked 10/10 files: …es/number-10.yaml');
  line.end();
  assert.equal(writes.at(-1), '\r\x1b[K');
});
