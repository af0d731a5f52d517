/**
 * The connection never waits on a check (issue 11): the main thread holds no parsing or checking code at
 * all, checks run in the check worker and interactive requests in the query worker, and a worker that a
 * check exhausts is started again without the server going down. Asserted on structure and work
 * counters, never on time; the hover latencies and each thread's CPU time are printed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { ensureBuilt, ROOT } from './client';
import { FuzzServer, percentile } from '../fuzz/server';
import { widgetCr } from '../fuzz/gen';
import { needsShared, sharedPath } from '../shared';

const WIDGET_CRD = readFileSync(join(__dirname, '..', 'service', 'fixtures', 'widget-crd.yaml'), 'utf8');
const NO_SHARED = needsShared('realworld', 'crds', 'argo-workflows');
const ARGO = sharedPath('realworld', 'crds', 'argo-workflows', 'argoproj.io_workflows.yaml');

test('the main thread bundle holds no engine, service, workspace or YAML code: it cannot parse or check', async () => {
  const r = await build({
    entryPoints: [join(ROOT, 'server', 'src', 'server.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    metafile: true,
    outfile: 'main.js',
    absWorkingDir: ROOT,
  });
  const ours = Object.keys(r.metafile.inputs).filter((f) => f.startsWith('server/src/'));
  assert.ok(ours.includes('server/src/lsp/server.ts'));
  assert.deepEqual(
    ours.filter((f) => !/^server\/src\/(server\.ts|lsp\/)/.test(f)),
    [],
  );
  assert.deepEqual(
    ours.filter((f) => /lsp\/(checker|queries|answer|render|jsonSafe)\.ts$/.test(f)),
    [],
  );
});

test("the main thread's name of the Run lenses' command is the service's", async () => {
  const [{ RUN_TESTS_COMMAND: routed }, { RUN_TESTS_COMMAND: lensed }] = await Promise.all([import('../../server/src/lsp/protocol'), import('../../server/src/service/crdTests')]);
  assert.equal(routed, lensed);
});

test('the packaged extension ships the worker bundle beside the server', () => {
  ensureBuilt();
  const { listFiles, PackageManager } = createRequire(__filename)('@vscode/vsce') as typeof import('@vscode/vsce');
  return listFiles({ cwd: ROOT, packageManager: PackageManager.None }).then((files) => {
    for (const f of ['dist/server.js', 'dist/worker.js']) assert.ok(files.includes(f), `${f} in ${files.join(', ')}`);
  });
});

async function withWorkspace<T>(fn: (ws: string, s: FuzzServer) => Promise<T>, env: Record<string, string> = {}): Promise<T> {
  const ws = mkdtempSync(join(tmpdir(), 'crd-yaml-threads-'));
  writeFileSync(join(ws, 'widget.yaml'), WIDGET_CRD);
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  const s = await FuzzServer.start(ws);
  for (const [k, v] of Object.entries(saved))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  try {
    return await fn(ws, s);
  } finally {
    await s.stop();
    rmSync(ws, { recursive: true, force: true });
  }
}

/** Opens the normal CR and waits until a hover on it knows the schema (scan done, query worker has it parsed). */
async function checkedNormalCr(s: FuzzServer, ws: string): Promise<{ uri: string; pos: { line: number; character: number } }> {
  const uri = `file://${ws}/normal.yaml`;
  await s.open(uri, widgetCr('normal'));
  await s.diagnosticsFor(uri, 1);
  const pos = { line: 5, character: 3 };
  for (let i = 0; !/How big the widget is/.test(JSON.stringify((await s.timedHover(uri, pos)).result)); i++) {
    assert.ok(i < 600, 'hang guard: the workspace scan never indexed widget.yaml');
    await new Promise((r) => setTimeout(r, 50));
  }
  return { uri, pos };
}

test('while the check worker checks the 2.9 MB argo-workflows CRD, hovers are answered by the query worker', { skip: NO_SHARED }, async (t) => {
  await withWorkspace(async (ws, s) => {
    const normal = await checkedNormalCr(s, ws);
    const before = await s.stats();
    const argo = `file://${ws}/argo.yaml`;
    await s.open(argo, readFileSync(ARGO, 'utf8'));
    const latencies: number[] = [];
    for (;;) {
      const h = await s.timedHover(normal.uri, normal.pos);
      assert.match(JSON.stringify(h.result), /How big the widget is/);
      latencies.push(h.ms);
      // Done when argo's findings are published (a check's findings are final; the stats come with them).
      if (s.latest.get(argo)?.version === 1) break;
      await new Promise((r) => setTimeout(r, 5));
      assert.ok(latencies.length < 20_000, 'hang guard: the argo check never finished');
    }
    const after = await s.stats();
    const checkCpu = after.check!.cpuByDocument[argo];
    const mainCpu = after.main.cpuMs - before.main.cpuMs;
    t.diagnostic(
      `argo check ${checkCpu.toFixed(0)} ms CPU (check worker); main thread ${mainCpu.toFixed(0)} ms CPU meanwhile; ${latencies.length} hovers: ` +
        `p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms; ` +
        `${after.main.answeredDuringChecks - before.main.answeredDuringChecks} answered while the check ran; main event-loop delay p99 ${after.main.eventLoopDelay.p99} ms`,
    );
    assert.ok(after.main.answeredDuringChecks > before.main.answeredDuringChecks, 'hovers were answered while the check ran');
    assert.equal(after.main.parses, 0);
    // The main thread's work, counted: it handed argo's text to the workers once (not per hover, not per
    // check) and routed each hover to the query worker, which answered every one.
    assert.equal(after.main.textsSent - before.main.textsSent, 1, 'texts handed to the workers');
    assert.equal(after.query!.tasks - before.query!.tasks, latencies.length, 'hovers answered by the query worker');
    // The query worker never touched argo (its hovers, were there any, go to the check worker until it does).
    assert.equal(after.query!.cpuByDocument[argo], undefined);
    assert.equal(after.query!.parses, before.query!.parses);
    let ahead = after;
    // The check worker parses argo in full after its first findings and checks it again (its first check
    // read it with the fast reader), which finds the same: published once.
    // (Tasks of the check worker since: argo's first check, its parse, its check again.)
    for (let i = 0; !(ahead.check!.tasks - before.check!.tasks >= 3 && ahead.check!.last?.what === 'check' && ahead.check!.last.uri === argo); i++) {
      assert.ok(i < 1200, `the check worker never checked argo again after its full parse: ${JSON.stringify(ahead.check!.last)}`);
      await new Promise((r) => setTimeout(r, 100));
      ahead = await s.stats();
    }
    assert.deepEqual(
      s.publications.filter((p) => p.uri === argo).map((p) => p.version),
      [1],
    );
  });
});

test('highlighting the 2.9 MB argo-workflows CRD as it opens: the query worker answers from its text, without parsing it', { skip: NO_SHARED }, async () => {
  await withWorkspace(async (ws, s) => {
    const before = await s.stats();
    const argo = `file://${ws}/argo.yaml`;
    const text = readFileSync(ARGO, 'utf8');
    await s.open(argo, text);
    const ask = async (from: number, to: number) =>
      ((await s.conn.sendRequest('textDocument/semanticTokens/range', { textDocument: { uri: argo }, range: { start: { line: from, character: 0 }, end: { line: to, character: 0 } } })) as { data: number[] }).data;
    // What an editor asks as the file opens (its first lines), then the lines of a rule.
    assert.deepEqual(await ask(0, 60), []);
    const rule = text.split('\n').findIndex((l) => /^\s*(- )?rule: /.test(l));
    const data = await ask(rule, rule + 10);
    // Each token's line: the first of its five numbers is the line delta from the token before.
    const tokenLines: number[] = [];
    for (let i = 0; i < data.length; i += 5) tokenLines.push((tokenLines.at(-1) ?? 0) + data[i]);
    assert.ok(tokenLines.length > 0 && tokenLines.every((l) => l >= rule && l <= rule + 10), JSON.stringify(tokenLines));
    const after = await s.stats();
    // (No query worker stats before its first task.)
    assert.equal(after.query!.tasks - (before.query?.tasks ?? 0), 2, 'answered by the query worker');
    assert.equal(after.query!.parses, before.query?.parses ?? 0, 'argo not parsed by the query worker');
    assert.equal(after.query!.cpuByDocument[argo], undefined);
  });
});

test('a check that exhausts the check worker heap: the worker restarts, the document says it was not checked, the rest works', { skip: NO_SHARED }, async (t) => {
  await withWorkspace(
    async (ws, s) => {
      // What the server said of its workers (restarts, what was not checked again): in every failure message.
      const workerLogs = () =>
        s.logs
          .filter((l) => /worker|not checking|scan|indexed/i.test(l))
          .slice(-12)
          .join('\n');
      const normal = await checkedNormalCr(s, ws);
      const argo = `file://${ws}/argo.yaml`;
      await s.open(argo, readFileSync(ARGO, 'utf8'));
      const d = await s.diagnosticsFor(argo, 1, 120_000).then(async (first) => {
        // A first check may publish before the worker ends; the not-checked finding follows the restart.
        for (let i = 0; i < 1200 && !first.some((x) => x.code === 'NotChecked'); i++) {
          await new Promise((r) => setTimeout(r, 100));
          first = s.latest.get(argo)!.diagnostics;
        }
        return first;
      });
      assert.deepEqual(
        d.map((x) => [x.code, x.message]),
        [['NotChecked', 'not checked: the check ran out of memory (48 MB)']],
        workerLogs(),
      );
      const restarts = (await s.stats()).workerRestarts;
      t.diagnostic(`worker restarts: ${restarts}; ${workerLogs().replace(/\n/g, ' | ')}`);
      assert.ok(restarts >= 1);
      // The normal CR is still checked and hovered.
      await s.conn.sendNotification('textDocument/didChange', { textDocument: { uri: normal.uri, version: 2 }, contentChanges: [{ text: widgetCr('normal').replace('replicas: 2', 'replicas: 9') }] });
      // After the restart the workspace is scanned again: the CR is checked against its CRD once indexed.
      await s.diagnosticsFor(normal.uri, 2, 120_000);
      for (let i = 0; !/too many replicas/.test(String(s.latest.get(normal.uri)?.diagnostics[0]?.message)); i++) {
        assert.ok(i < 2400, `never re-checked: ${JSON.stringify(s.latest.get(normal.uri))}\n${workerLogs()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      // The new query worker learns the CRD from the check worker's feed, a channel of its own: the hover
      // knows the field once that message is in (its order with the diagnostics is not guaranteed).
      for (let i = 0; !/How big the widget is/.test(JSON.stringify((await s.timedHover(normal.uri, normal.pos)).result)); i++) {
        assert.ok(i < 600, `the restarted query worker never learned the CRD\n${workerLogs()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    { CRD_YAML_WORKER_HEAP_MB: '48' },
  );
});
