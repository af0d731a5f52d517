/**
 * Server-level robustness over stdio (dist/server.js): storms of random edits with requests in between,
 * a 10,000-edit soak, and a check that the server never writes a file. After each storm the server must
 * still answer, and its final diagnostics must equal those of a fresh server given the final texts.
 * Seeded (CRD_YAML_FUZZ_SEED reproduces); CRD_YAML_FUZZ_ITERATIONS sets the number of edits per storm.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { exampleFiles, iterations, randomEdit, readText, realCrdFiles, REALWORLD, Rng, seed } from './gen';
import { FuzzServer, normDiagnostics } from './server';
import type { StatsResponse } from '../../server/src/lsp/protocol';

const SEED = seed();
const EXAMPLES = exampleFiles();
const CRD_TEXT = readText(EXAMPLES.find((f) => f.endsWith('crontab-crd.yaml'))!);
const CR_FILES = EXAMPLES.filter((f) => /crontab-(valid|cel-failure|wrong-type|unknown-field)\.yaml$|crontabs-multi\.yaml$/.test(f));
const CRD_URI = 'file:///ws/crontab-crd.yaml';
const CR_URI = 'file:///ws/crontab.yaml';

/** An editor's view of an open document: applies edits locally and sends them as incremental changes. */
class Editor {
  readonly td: TextDocument;
  constructor(
    private readonly server: FuzzServer,
    readonly uri: string,
    text: string,
  ) {
    this.td = TextDocument.create(uri, 'yaml', 1, text);
  }
  get version(): number {
    return this.td.version;
  }
  get text(): string {
    return this.td.getText();
  }
  open(): Promise<void> {
    return this.server.open(this.uri, this.text, this.version);
  }
  /** Sends one didChange (not awaited by callers in a storm) with one or more changes. */
  change(changes: Array<[number, number, string]> | string): Promise<void> {
    const contentChanges =
      typeof changes === 'string'
        ? [{ text: changes }]
        : changes.map(([at, del, ins]) => {
            // Positions are taken on the text as each change finds it (LSP applies them in order).
            const c = { range: { start: this.td.positionAt(at), end: this.td.positionAt(at + del) }, text: ins };
            TextDocument.update(this.td, [c], this.td.version);
            return c;
          });
    if (typeof changes === 'string') TextDocument.update(this.td, contentChanges, this.td.version + 1);
    else TextDocument.update(this.td, [], this.td.version + 1);
    return this.server.conn.sendNotification('textDocument/didChange', { textDocument: { uri: this.uri, version: this.version }, contentChanges });
  }
}

/** A random editor action: mostly one-change edits, sometimes several at once, a full replace, or a truncation. */
function randomChange(r: Rng, ed: Editor, original: string): Promise<void> {
  const x = r.next();
  if (x < 0.02) return ed.change(original); // back to the original (keeps the text CRD/CR-like)
  if (x < 0.04) return ed.change(ed.text.slice(0, r.int(ed.text.length + 1))); // truncation
  if (x < 0.15) {
    const edits: Array<[number, number, string]> = [];
    let t = ed.text;
    for (let k = 1 + r.int(4); k > 0; k--) {
      const e = randomEdit(r, t);
      edits.push(e);
      t = t.slice(0, e[0]) + e[2] + t.slice(e[0] + e[1]);
    }
    return ed.change(edits);
  }
  return ed.change([randomEdit(r, ed.text)]);
}

/** Every request a client sends while typing; each must be answered (a null result is an answer). */
function randomRequest(r: Rng, s: FuzzServer, ed: Editor): Promise<unknown> {
  const position = ed.td.positionAt(r.int(ed.text.length + 1));
  const textDocument = { uri: ed.uri };
  switch (r.int(8)) {
    case 0:
      return s.conn.sendRequest('textDocument/hover', { textDocument, position });
    case 1:
      return s.conn.sendRequest('textDocument/completion', { textDocument, position, context: { triggerKind: 1 } });
    case 2:
      return s.conn.sendRequest('textDocument/codeAction', { textDocument, range: { start: position, end: position }, context: { diagnostics: s.latest.get(ed.uri)?.diagnostics.slice(0, 3) ?? [] } });
    case 3:
      return s.conn.sendRequest('textDocument/documentSymbol', { textDocument });
    case 4:
      return s.conn.sendRequest('textDocument/foldingRange', { textDocument });
    case 5:
      return s.conn.sendRequest('textDocument/codeLens', { textDocument });
    case 6:
      return s.conn.sendRequest('textDocument/definition', { textDocument, position });
    default:
      return s.conn.sendRequest('crdYaml/preview', { textDocument, position });
  }
}

/** Answers, or the reason there is none: the time limit is a hang guard (an answer never sent), not a verdict on speed. */
async function answered(p: Promise<unknown>, ms: number): Promise<string | null> {
  let t: NodeJS.Timeout | undefined;
  try {
    await Promise.race([p, new Promise((_, rej) => (t = setTimeout(() => rej(new Error(`hang guard: no answer within ${ms} ms`)), ms)))]);
    return null;
  } catch (e) {
    return (e as Error).message;
  } finally {
    clearTimeout(t);
  }
}

/** The diagnostics a fresh server gives for the final texts (CRD opened first, as in the storm). */
async function freshDiagnostics(crdText: string, crText: string): Promise<Map<string, string[]>> {
  const s = await FuzzServer.start(null);
  try {
    await s.open(CRD_URI, crdText);
    await s.diagnosticsFor(CRD_URI, 1);
    await s.open(CR_URI, crText);
    await s.diagnosticsFor(CR_URI, 1);
    await s.settle();
    return new Map([CRD_URI, CR_URI].map((u) => [u, normDiagnostics(s.latest.get(u)!.diagnostics)]));
  } finally {
    await s.stop();
  }
}

/**
 * A storm: both documents open, `edits` random changes (to the CR, or to the CRD which re-checks the CR)
 * sent without waiting, requests in between; then the server must answer, publish the final version,
 * and agree with a fresh server.
 */
async function storm(
  r: Rng,
  edits: number,
  label: string,
  opts: { requestEvery: number; crdEditShare: number; crdText?: string; crFiles?: string[] },
): Promise<{ ms: number; mem: { rss: number; peak: number }; stats: StatsResponse }> {
  const s = await FuzzServer.start(null);
  try {
    const crOriginal = readText(r.pick(opts.crFiles ?? CR_FILES));
    const crdOriginal = opts.crdText ?? CRD_TEXT;
    const crd = new Editor(s, CRD_URI, crdOriginal);
    const cr = new Editor(s, CR_URI, crOriginal);
    await crd.open();
    await s.diagnosticsFor(CRD_URI, 1);
    await cr.open();
    await s.diagnosticsFor(CR_URI, 1);
    const t0 = performance.now();
    const requests: Array<{ what: string; p: Promise<unknown> }> = [];
    for (let i = 0; i < edits; i++) {
      const ed = r.chance(opts.crdEditShare) ? crd : cr;
      void randomChange(r, ed, ed === crd ? crdOriginal : crOriginal);
      if (opts.requestEvery && i % opts.requestEvery === 0) requests.push({ what: `request after edit ${i}`, p: randomRequest(r, s, r.chance(0.5) ? cr : crd) });
    }
    // Still answering after the storm (and every request of the storm was answered).
    const sym = await answered(s.conn.sendRequest('textDocument/documentSymbol', { textDocument: { uri: CR_URI } }), 30_000);
    assert.equal(sym, null, `${label}: documentSymbol after the storm: ${sym}; stderr: ${s.stderr.slice(-2000)}`);
    for (const q of requests) {
      const err = await answered(q.p, 10_000);
      assert.equal(err, null, `${label}: ${q.what}: ${err}`);
    }
    await s.diagnosticsFor(CR_URI, cr.version, 30_000);
    await s.diagnosticsFor(CRD_URI, crd.version, 30_000);
    await s.settle();
    const ms = performance.now() - t0;
    const mem = s.memoryMB();
    const stats = await s.stats();
    assert.equal(stats.main.parses, 0, `${label}: the main thread parsed`);
    assert.deepEqual(s.failures(), [], `${label}: the server logged failures`);
    assert.equal(s.proc.exitCode, null, `${label}: server exited`);
    const got = new Map([CRD_URI, CR_URI].map((u) => [u, normDiagnostics(s.latest.get(u)!.diagnostics)]));
    const want = await freshDiagnostics(crd.text, cr.text);
    for (const u of [CRD_URI, CR_URI]) {
      assert.deepEqual(got.get(u), want.get(u), `${label}: final diagnostics of ${u} differ from a fresh server's.\nCRD text:\n${crd.text}\nCR text:\n${cr.text}`);
    }
    return { ms, mem, stats };
  } finally {
    await s.stop();
  }
}

test('server: random edit storms with requests in between; still answering, final diagnostics = fresh server', async () => {
  const r = new Rng(SEED);
  const edits = iterations(300);
  try {
    // The default run has one storm (CR and CRD edited); the long run a CR-only storm too.
    for (let round = process.env.CRD_YAML_FUZZ_ITERATIONS ? 0 : 1; round < 2; round++) {
      const { ms, mem } = await storm(r, edits, `storm ${round}`, { requestEvery: 10, crdEditShare: round === 1 ? 0.2 : 0 });
      console.log(`# storm ${round}: ${edits} edits + ${Math.ceil(edits / 10)} requests settled in ${ms.toFixed(0)} ms, server RSS ${mem.rss.toFixed(0)} MB (peak ${mem.peak.toFixed(0)} MB)`);
    }
    if (process.env.CRD_YAML_FUZZ_ITERATIONS) {
      // Long run: a real CRD (flux GitRepository, 22 kB) and its sample CR.
      const crd = join(REALWORLD, 'flux', 'source.toolkit.fluxcd.io_gitrepositories.yaml');
      const cr = join(REALWORLD, '..', 'samples', 'flux', 'samples_source_v1_gitrepository.yaml');
      if (existsSync(crd) && existsSync(cr)) {
        const { ms, mem } = await storm(r, edits, 'real CRD storm', { requestEvery: 10, crdEditShare: 0.5, crdText: readText(crd), crFiles: [cr] });
        console.log(`# real CRD storm: ${edits} edits settled in ${ms.toFixed(0)} ms, server RSS ${mem.rss.toFixed(0)} MB (peak ${mem.peak.toFixed(0)} MB)`);
      }
    }
  } catch (e) {
    throw new Error(`reproduce with CRD_YAML_FUZZ_SEED=${SEED}: ${(e as Error).message}`);
  }
});

test('soak: 10,000 rapid edits without waiting; still correct at the end, RSS bounded', async () => {
  const r = new Rng(SEED ^ 0x50a4);
  const edits = Number(process.env.CRD_YAML_SOAK_EDITS) || 10_000;
  try {
    const { ms, mem, stats } = await storm(r, edits, 'soak', { requestEvery: 250, crdEditShare: 0.05 });
    console.log(`# soak: ${edits} edits settled in ${ms.toFixed(0)} ms, server RSS ${mem.rss.toFixed(0)} MB (peak ${mem.peak.toFixed(0)} MB)`);
    const cpu = (t?: { cpuMs: number; tasks: number; maxTask?: { cpuMs: number } }) => (t ? `${t.cpuMs.toFixed(0)} ms CPU, ${t.tasks} tasks, longest ${t.maxTask?.cpuMs.toFixed(0) ?? 0} ms` : 'no report');
    console.log(
      `# soak: main ${cpu(stats.main)} (event-loop delay p99 ${stats.main.eventLoopDelay.p99} ms, max ${stats.main.eventLoopDelay.max} ms); ` +
        `check worker ${cpu(stats.check)}, ${stats.check?.staleSkipped ?? 0} stale checks skipped, ${stats.check?.staleDropped ?? 0} stale results dropped; query worker ${cpu(stats.query)}`,
    );
    assert.ok(mem.peak < 400, `server peak RSS ${mem.peak.toFixed(0)} MB over 400 MB`);
    assert.ok(mem.rss < 300, `server RSS ${mem.rss.toFixed(0)} MB over 300 MB after the soak`);
  } catch (e) {
    throw new Error(`reproduce with CRD_YAML_FUZZ_SEED=${SEED}: ${(e as Error).message}`);
  }
});

/** Every file under a directory: relative path -> size, mtime and content hash. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      const st = statSync(p);
      if (st.isDirectory()) {
        out.set(`${relative(dir, p)}/`, `dir ${st.mtimeMs}`);
        walk(p);
      } else out.set(relative(dir, p), `${st.size} ${st.mtimeMs} ${createHash('sha256').update(readFileSync(p)).digest('hex')}`);
    }
  };
  walk(dir);
  return out;
}

test('the server never writes a file: workspace and working directory unchanged after a session', async () => {
  const r = new Rng(SEED ^ 0x3117e);
  const ws = mkdtempSync(join(tmpdir(), 'crd-yaml-ws-'));
  const cwd = mkdtempSync(join(tmpdir(), 'crd-yaml-cwd-'));
  try {
    cpSync(join(__dirname, '..', '..', 'examples'), join(ws, 'examples'), { recursive: true });
    for (const f of realCrdFiles(30_000).slice(0, 5)) cpSync(f, join(ws, 'crds', f.split('/').slice(-2).join('-')));
    const before = snapshot(ws);
    const s = await FuzzServer.start(ws, cwd);
    try {
      // Every file of the workspace opened, edited, saved, closed; watched-file events; settings changes.
      const files = [...before.keys()].filter((k) => k.endsWith('.yaml'));
      for (const [i, rel] of files.entries()) {
        const uri = `file://${join(ws, rel)}`;
        const text = readFileSync(join(ws, rel), 'utf8');
        const ed = new Editor(s, uri, text);
        await ed.open();
        for (let k = 0; k < 10; k++) void randomChange(r, ed, text);
        for (let k = 0; k < 4; k++) void randomRequest(r, s, ed).catch(() => undefined);
        void s.conn.sendNotification('textDocument/didSave', { textDocument: { uri }, text: ed.text });
        if (i % 2 === 0) void s.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
        void s.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri, type: 2 }] });
      }
      void s.conn.sendNotification('workspace/didChangeConfiguration', { settings: { crdYaml: { unknownKinds: 'hint', crdPaths: ['**/*.yaml'] } } });
      await s.settle(500, 30_000);
      assert.deepEqual(s.failures(), [], 'the server logged failures');
    } finally {
      await s.stop();
    }
    const after = snapshot(ws);
    assert.deepEqual([...after.keys()].sort(), [...before.keys()].sort(), 'files appeared or disappeared in the workspace');
    for (const [k, v] of before) assert.equal(after.get(k), v, `${k} changed`);
    assert.deepEqual(readdirSync(cwd), [], 'files appeared in the server working directory');
  } finally {
    rmSync(ws, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  }
});
