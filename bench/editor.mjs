// npm run bench -- --only editor: what a user waits for in the real editor. The packaged extension (.vsix,
// scripts/package.mjs) installed into code-server (scripts/e2e-setup.sh; CRD_YAML_CODE_SERVER_DIR or
// .work/e2e/cs), its extension host running bench/editor/suite.ts: the 2.9 MB argo-workflows CronWorkflow
// CRD (shared/realworld) with one misspelt keyword planted near its end, opened to its first diagnostics
// (whole, and in its two parts: code-server loading the file into the extension host, then the extension's
// part from didOpen), keystrokes to updated diagnostics, hovers; beside `crd-yaml check` of the same file
// (process start included), the time opening it in the editor is compared with.
// Prints one line per row; skips, with a line, where code-server or the shared CRD is missing.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleSuite, CHROMIUM, CodeServer, REALWORLD, ROOT, WORK } from '../test/e2e/lib.mjs';
import { runExtensionTests } from '../test/e2e/ext-tests.mjs';

const CRD = join(REALWORLD, 'crds', 'argo-workflows', 'argoproj.io_cronworkflows.yaml');
const PLANT_FROM = '              lastScheduledTime:\n                format: date-time';
const PLANT_TO = '              lastScheduledTime:\n                formatx: date-time';
const MARK = 'formatx';

export async function editorBench({ keystrokes = 10, hovers = 10 } = {}) {
  const csDir = process.env.CRD_YAML_CODE_SERVER_DIR ?? join(WORK, 'cs');
  if (!existsSync(join(csDir, 'node_modules', '.bin', 'code-server'))) {
    console.log(`editor: skipped (code-server is not installed in ${csDir}: run scripts/e2e-setup.sh)`);
    return;
  }
  if (!existsSync(CRD)) {
    console.log(`editor: skipped (${CRD} is missing: the shared folder, or CRD_YAML_REALWORLD_DIR)`);
    return;
  }
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const vsix = join(ROOT, `${pkg.name}-${pkg.version}.vsix`);
  if (spawnSync(process.execPath, [join(ROOT, 'scripts', 'package.mjs')], { cwd: ROOT, stdio: 'ignore' }).status !== 0) throw new Error('editor: npm run package failed');

  const tmp = mkdtempSync(join(tmpdir(), 'crd-yaml-bench-editor-'));
  const ws = join(tmp, 'ws');
  mkdirSync(ws, { recursive: true });
  const text = readFileSync(CRD, 'utf8');
  if (!text.includes(PLANT_FROM)) throw new Error(`editor: the planted line's place is not in ${CRD}`);
  const file = join(ws, 'argoproj.io_cronworkflows.yaml');
  writeFileSync(file, text.replace(PLANT_FROM, PLANT_TO));
  const warmUp = join(ws, 'nonstructural-crd.yaml');
  copyFileSync(join(ROOT, 'examples', 'nonstructural-crd.yaml'), warmUp);
  const lines = text.split('\n');
  // Hovers on schema keys along the file (the first `type:` after every 4,000th line).
  const hoverLines = [];
  for (let i = 1000; i < lines.length && hoverLines.length < 10; i += 4000) {
    const j = lines.findIndex((l, k) => k >= i && /^\s+type: /.test(l));
    if (j >= 0) hoverLines.push(j);
  }

  const resultFile = join(tmp, 'result.json');
  const config = { warmUp, file, mark: MARK, keystrokes, hovers, hoverLines };
  const cs = new CodeServer(csDir, join(tmp, 'cs'), { CRD_YAML_E2E_RESULT: resultFile, CRD_YAML_BENCH_EDITOR: JSON.stringify(config) });
  let browser;
  let result;
  try {
    const extFolder = cs.install(vsix, `${pkg.publisher}.${pkg.name}`);
    const url = await cs.start();
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch(CHROMIUM);
    const suite = await bundleSuite(join(tmp, 'suite', 'index.js'), join(ROOT, 'bench', 'editor', 'suite.ts'));
    result = await runExtensionTests({ browser, url, port: cs.port, extFolder, suite, workspace: ws, resultFile });
  } finally {
    await browser?.close().catch(() => {});
    await cs.stop();
  }
  // The CLI on the same text, process start included (the time the editor's open is compared with): a copy
  // outside the workspace, which code-server may have written to when it was stopped with the file edited.
  const cliFile = join(tmp, 'cli', 'argoproj.io_cronworkflows.yaml');
  mkdirSync(join(tmp, 'cli'));
  writeFileSync(cliFile, text.replace(PLANT_FROM, PLANT_TO));
  // The median of three runs (as the stdio open row): one run right after code-server stops can be slowed by its exit.
  const cliRuns = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const cli = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'check', cliFile], { encoding: 'utf8' });
    cliRuns.push(performance.now() - t0);
    if (!cli.stdout.includes(MARK)) throw new Error(`editor: crd-yaml check did not report the planted keyword:\n${cli.stdout}${cli.stderr}`);
  }
  const cliMs = cliRuns.sort((a, b) => a - b)[1];

  console.log(`editor (code-server, packaged extension; ${(text.length / 1e6).toFixed(1)} MB CRD, ${lines.length} lines):`);
  for (const t of result.tests) console.log(`  ${t.ok ? '' : 'FAILED '}${t.name}: ${t.ok ? `${Math.round(t.ms)} ms` : t.error}`);
  const open = result.tests.find((t) => t.name.startsWith('open:'));
  const ours = result.tests.find((t) => t.name.startsWith("open, the extension's part"));
  console.log(`  crd-yaml check of the same file (process start included; median of 3): ${Math.round(cliMs)} ms`);
  if (open && ours) {
    // The goal (issue 29: within 1.5x the CLI's time) is on the part the extension and its server do; the
    // whole open also holds code-server's own load of a 2.9 MB file, reported above beside it.
    console.log(`  open in the editor / CLI = ${(open.ms / cliMs).toFixed(2)}; the extension's part / CLI = ${(ours.ms / cliMs).toFixed(2)} (goal <= 1.5)`);
  }
  if (result.ok) rmSync(tmp, { recursive: true, force: true });
  else console.log(`  (code-server state kept in ${tmp})`);
}

if (import.meta.url === `file://${process.argv[1]}`) await editorBench();
