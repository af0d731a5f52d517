// npm run test:e2e — the extension in real editors:
//   1. scripts/e2e-setup.sh (code-server, Chromium, Neovim, Emacs; cached after the first run),
//   2. scripts/package.mjs (the .vsix that ships), installed into code-server with its CLI,
//   3. the extension tests (test/e2e/suite) inside code-server's extension host,
//   4. the browser smoke test (Explorer, squiggle, Problems, command palette, screenshot), the onboarding
//      test, and the walkthrough of the installed .vsix (test/e2e/walkthrough.mjs, screenshot),
//   5. Neovim headless as a second LSP client (test/lsp/neovim.test.ts),
//   6. Emacs + eglot headless as a third, configured as docs/editors.md says (test/lsp/emacs.test.ts);
//      both start `crd-yaml lsp --stdio` of the npm package, packed and installed into a prefix of its own
//      (scripts/pack-install.mjs), as a user installs it.
// Ends with "e2e: N passed, N failed, N skipped" and exits 1 on any failure.
// Options: --no-setup, --no-package (reuse the .vsix), --keep (keep the temp dir),
//          --update-screenshot (write docs/screenshot.png; default .work/e2e/screenshot.png),
//          --only=ext|smoke|onboarding|walkthrough|nvim|emacs (one part, when iterating).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { packAndInstall } from './pack-install.mjs';
import { bundleSuite, CHROMIUM, CodeServer, packRedhatYamlStub, prepareWorkspace, ROOT, WORK } from '../test/e2e/lib.mjs';
import { runExtensionTests } from '../test/e2e/ext-tests.mjs';
import { runSmoke } from '../test/e2e/smoke.mjs';
import { prepareOnboarding, runOnboarding } from '../test/e2e/onboarding.mjs';
import { runWalkthrough } from '../test/e2e/walkthrough.mjs';

// No test reaches the internet: servers the editors start without a crdYaml.catalog setting (Neovim, Emacs)
// read this instead of asking the public CRD catalog.
process.env.CRD_YAML_CATALOG ??= 'off';
const argv = new Set(process.argv.slice(2));
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const part = (p) => !only || only === p;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const EXT_ID = `${pkg.publisher}.${pkg.name}`;
const VSIX = join(ROOT, `${pkg.name}-${pkg.version}.vsix`);
const CS_DIR = process.env.CRD_YAML_CODE_SERVER_DIR ?? join(WORK, 'cs');
const SCREENSHOT = argv.has('--update-screenshot') ? join(ROOT, 'docs', 'screenshot.png') : join(WORK, 'screenshot.png');
const ONBOARDING_SCREENSHOT = argv.has('--update-screenshot') ? join(ROOT, 'docs', 'onboarding.png') : join(WORK, 'onboarding.png');
const WALKTHROUGH_SCREENSHOT = argv.has('--update-screenshot') ? join(ROOT, 'docs', 'walkthrough.png') : join(WORK, 'walkthrough.png');

const t0 = Date.now();
const secs = (t) => `${((Date.now() - t) / 1000).toFixed(1)} s`;
/** @type {{name: string, ok: boolean, skipped?: string, ms: number, error?: string}[]} */
const results = [];

function phase(name, fn) {
  const t = Date.now();
  console.log(`\n== ${name}`);
  const r = fn();
  console.log(`== ${name}: ${secs(t)}`);
  return r;
}

function mustRun(cmd, args, what) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`e2e: ${what} failed (${r.status ?? r.signal})`);
    console.log('\ne2e: 0 passed, 1 failed, 0 skipped');
    process.exit(1);
  }
}

if (!argv.has('--no-setup')) phase('setup', () => mustRun('bash', [join(ROOT, 'scripts', 'e2e-setup.sh'), CS_DIR], 'scripts/e2e-setup.sh'));
if (!argv.has('--no-package') || !existsSync(VSIX)) phase('package', () => mustRun(process.execPath, [join(ROOT, 'scripts', 'package.mjs')], 'npm run package'));

mkdirSync(WORK, { recursive: true });
const tmp = mkdtempSync(join(tmpdir(), 'crd-yaml-e2e-'));
const suite = await bundleSuite(join(tmp, 'suite', 'index.js'));
const resultFile = join(tmp, 'result.json');
const cs = new CodeServer(CS_DIR, join(tmp, 'cs'), { CRD_YAML_E2E_RESULT: resultFile });
let browser;
try {
  let t = Date.now();
  console.log('\n== code-server');
  const extFolder = cs.install(VSIX, EXT_ID);
  console.log(`installed ${VSIX} into ${extFolder}`);
  // Beside "Red Hat's YAML extension" (a stub with its id), as the README recommends.
  const stub = cs.install(await packRedhatYamlStub(join(tmp, 'redhat-yaml-stub.vsix')), 'redhat.vscode-yaml');
  console.log(`installed the redhat.vscode-yaml stub into ${stub}`);
  const url = await cs.start();
  console.log(`code-server ${url} (log ${cs.log}): ${secs(t)}`);
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch(CHROMIUM);

  t = Date.now();
  if (part('ext')) {
    console.log('\n== extension tests (code-server extension host)');
    const ext = await runExtensionTests({ browser, url, port: cs.port, extFolder, suite, workspace: prepareWorkspace(join(tmp, 'ws-api')), resultFile });
    for (const r of ext.tests) {
      results.push({ ...r, name: `extension host: ${r.name}` });
      console.log(`${r.ok ? 'ok' : 'not ok'} - ${r.name} (${r.ms} ms)${r.error ? `\n  ${r.error.split('\n').join('\n  ')}` : ''}`);
    }
    console.log(`== extension tests: ${secs(t)}`);
  }

  t = Date.now();
  if (part('smoke')) {
    console.log('\n== browser smoke test');
    const smoke = await runSmoke({
      browser,
      url,
      workspace: prepareWorkspace(join(tmp, 'ws-ui')),
      folder: 'gateway-api',
      file: 'gatewayclasses.yaml',
      expectProblem: 'Invalid value "Example Controller": should match',
      expectPreview: 'parametersRef',
      crdFile: 'gatewayclasses-crd-edited.yaml',
      expectCrdProblems: ['unknown field "maxLenght" (did you mean "maxLength"?)', "undeclared reference to 'oldself'", 'Unsupported value "cluster"'],
      screenshot: SCREENSHOT,
      failureScreenshot: join(WORK, 'screenshot.failed.png'),
    });
    results.push(smoke);
    console.log(`${smoke.ok ? 'ok' : 'not ok'} - ${smoke.name} (${smoke.ms} ms)${smoke.error ? `\n  ${smoke.error}` : `\n  screenshot: ${SCREENSHOT}`}`);
    console.log(`== browser smoke test: ${secs(t)}`);
  }

  t = Date.now();
  if (part('onboarding')) {
    console.log('\n== browser onboarding test');
    const r = await runOnboarding({
      browser,
      url,
      ...prepareOnboarding(join(tmp, 'onboarding')),
      expectProblem: 'Invalid value "Example Controller": should match',
      screenshot: ONBOARDING_SCREENSHOT,
      failureScreenshot: join(WORK, 'onboarding.failed.png'),
    });
    results.push(r);
    console.log(`${r.ok ? 'ok' : 'not ok'} - ${r.name} (${r.ms} ms)${r.error ? `\n  ${r.error}` : `\n  screenshot: ${ONBOARDING_SCREENSHOT}`}`);
    console.log(`== browser onboarding test: ${secs(t)}`);
  }

  t = Date.now();
  if (part('walkthrough')) {
    console.log('\n== browser walkthrough test');
    const [w] = pkg.contributes.walkthroughs;
    const r = await runWalkthrough({
      browser,
      url,
      workspace: prepareWorkspace(join(tmp, 'ws-walkthrough')),
      title: w.title,
      steps: w.steps.map((s) => s.title),
      expectMedia: 'The exit code is 0 when clean',
      screenshot: WALKTHROUGH_SCREENSHOT,
      failureScreenshot: join(WORK, 'walkthrough.failed.png'),
    });
    results.push(r);
    console.log(`${r.ok ? 'ok' : 'not ok'} - ${r.name} (${r.ms} ms)${r.error ? `\n  ${r.error}` : `\n  screenshot: ${WALKTHROUGH_SCREENSHOT}`}`);
    console.log(`== browser walkthrough test: ${secs(t)}`);
  }
} catch (e) {
  results.push({ name: 'code-server runs', ok: false, ms: 0, error: e instanceof Error ? e.stack : String(e) });
  console.error(`not ok - code-server runs\n  ${e instanceof Error ? e.stack : e}`);
} finally {
  await browser?.close().catch(() => {});
  await cs.stop();
}

/** The npm package installed as a user installs it, for the editors (once, on first use). */
let installed;
function installedEnv() {
  installed ??= phase('npm pack + npm install -g --prefix', () => packAndInstall(join(tmp, 'npm')));
  return { ...process.env, CRD_YAML_INSTALLED_BIN: installed.bin, PATH: `${dirname(installed.bin)}${delimiter}${process.env.PATH}` };
}

/** Runs one headless-editor LSP test file (skipped when the editor is not installed). */
function editorTest(title, name, bin, file) {
  phase(title, () => {
    const t = Date.now();
    if (spawnSync(bin, ['--version']).status !== 0) {
      console.log(`skip - ${bin} is not installed (scripts/e2e-setup.sh installs it from Debian)`);
      results.push({ name, ok: true, skipped: `${bin} not installed`, ms: 0 });
      return;
    }
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', file], { cwd: ROOT, encoding: 'utf8', env: installedEnv() });
    const out = `${r.stdout}${r.stderr}`;
    const skipped = /^# skip [1-9]/m.test(out);
    const ok = r.status === 0;
    if (!ok || skipped) console.log(out);
    console.log(`${ok ? 'ok' : 'not ok'} - ${name}${skipped ? ' # SKIP' : ''}`);
    results.push({ name, ok, skipped: skipped ? 'skipped by the test' : undefined, ms: Date.now() - t });
  });
}

if (part('nvim')) editorTest('neovim (second LSP client)', 'neovim: diagnostics of an invalid CR arrive over stdio', 'nvim', 'test/lsp/neovim.test.ts');
if (part('emacs')) editorTest('emacs + eglot (third LSP client)', 'emacs: eglot with the docs/editors.md config gets the diagnostics of an invalid CR', 'emacs', 'test/lsp/emacs.test.ts');

const failed = results.filter((r) => !r.ok);
const skipped = results.filter((r) => r.ok && r.skipped);
const passed = results.length - failed.length - skipped.length;
if (failed.length) {
  console.log('\nfailed:');
  for (const f of failed) console.log(`  - ${f.name}`);
  console.log(`(code-server state kept in ${tmp})`);
} else if (!argv.has('--keep')) rmSync(tmp, { recursive: true, force: true });
console.log(`\ne2e: ${passed} passed, ${failed.length} failed, ${skipped.length} skipped in ${secs(t0)}`);
process.exit(failed.length ? 1 : 0);
