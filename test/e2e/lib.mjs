// Shared by scripts/e2e-run.mjs (code-server) and scripts/e2e-vscode.mjs (@vscode/test-electron):
// bundling the extension tests, preparing the test workspace, running code-server.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const E2E = join(ROOT, 'test', 'e2e');
export const WORK = join(ROOT, '.work', 'e2e');
/** The real-world CRDs (shared/realworld next to the checkout, or CRD_YAML_REALWORLD_DIR). */
export const REALWORLD = resolve(process.env.CRD_YAML_REALWORLD_DIR ?? join(ROOT, '..', 'shared', 'realworld'));
export const GATEWAYCLASS_CRD = join(REALWORLD, 'crds', 'gateway-api', 'standard', 'gateway.networking.k8s.io_gatewayclasses.yaml');

/** Bundles test/e2e/suite (or another extensionTestsPath module) into one CommonJS file; `vscode` stays external. */
export async function bundleSuite(outfile, entry = join(E2E, 'suite', 'index.ts')) {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  return outfile;
}

/**
 * A fresh workspace: examples/ (the CronTab CRD and its CRs) and gateway-api/ (the real GatewayClass CRD
 * copied from shared/realworld at test time, with test/e2e/fixtures/gatewayclasses.yaml).
 */
export function prepareWorkspace(dir = mkdtempSync(join(tmpdir(), 'crd-yaml-e2e-ws-'))) {
  mkdirSync(join(dir, 'examples'), { recursive: true });
  for (const f of readdirSync(join(ROOT, 'examples'))) {
    if (/\.ya?ml$/.test(f)) copyFileSync(join(ROOT, 'examples', f), join(dir, 'examples', f));
  }
  if (!existsSync(GATEWAYCLASS_CRD)) throw new Error(`the real-world CRD is missing: ${GATEWAYCLASS_CRD} (set CRD_YAML_REALWORLD_DIR)`);
  mkdirSync(join(dir, 'gateway-api'), { recursive: true });
  copyFileSync(GATEWAYCLASS_CRD, join(dir, 'gateway-api', 'gateway.networking.k8s.io_gatewayclasses.yaml'));
  copyFileSync(join(E2E, 'fixtures', 'gatewayclasses.yaml'), join(dir, 'gateway-api', 'gatewayclasses.yaml'));
  writeFileSync(join(dir, 'gateway-api', 'gatewayclasses-crd-edited.yaml'), brokenGatewayClassCrd(readFileSync(GATEWAYCLASS_CRD, 'utf8')));
  return dir;
}

/**
 * The real GatewayClass CRD with the mistakes a CRD author makes while editing it (its own group, so that it
 * does not stand in for the real one): a typo in a CEL rule, a misspelt keyword, a lower-case scope, a printer
 * column path without its leading dot. For the Problems panel picture.
 */
export function brokenGatewayClassCrd(text) {
  const edits = [
    ['    api-approved.kubernetes.io: https://github.com/kubernetes-sigs/gateway-api/pull/4530\n', ''],
    ['name: gatewayclasses.gateway.networking.k8s.io', 'name: gatewayclasses.gateway.example.com'],
    ['  group: gateway.networking.k8s.io', '  group: gateway.example.com'],
    ['rule: self == oldSelf', 'rule: self == oldself'],
    ['  scope: Cluster', '  scope: cluster'],
    ['jsonPath: .spec.controllerName', 'jsonPath: spec.controllerName'],
    ['                maxLength: 253\n                minLength: 1\n                pattern: ^[a-z0-9]', '                maxLenght: 253\n                minLength: 1\n                pattern: ^[a-z0-9]'],
  ];
  for (const [from, to] of edits) {
    if (!text.includes(from)) throw new Error(`brokenGatewayClassCrd: not found in the real CRD: ${JSON.stringify(from)}`);
    text = text.replace(from, to); // the first occurrence: the v1 schema
  }
  return text;
}

/**
 * Packs test/e2e/stub-redhat-yaml (an extension with the id redhat.vscode-yaml that only activates) into
 * a .vsix, so that the editor tests run beside "Red Hat's YAML extension" as users do.
 */
export async function packRedhatYamlStub(out) {
  const { createRequire } = await import('node:module');
  const { createVSIX } = createRequire(import.meta.url)('@vscode/vsce');
  await createVSIX({ cwd: join(E2E, 'stub-redhat-yaml'), packagePath: out, dependencies: false, allowMissingRepository: true, skipLicense: true });
  return out;
}

/** A TCP port free right now on 127.0.0.1. */
export function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

/** User settings that keep code-server quiet and deterministic (no trust prompt, no update checks). */
export const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'security.workspace.trust.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'telemetry.telemetryLevel': 'off',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'update.mode': 'none',
  'window.commandCenter': false,
  'chat.disableAIFeatures': true,
  'git.enabled': false,
  // No test reaches the internet: the public CRD catalog is never asked.
  'crdYaml.catalog': 'off',
};

/**
 * code-server with all of its state under `dir` (never the home folder): `install(vsix)` installs an
 * extension with its CLI, `start()` serves on a free port with auth off.
 */
export class CodeServer {
  constructor(csDir, dir, env = {}) {
    this.bin = join(csDir, 'node_modules', '.bin', 'code-server');
    if (!existsSync(this.bin)) throw new Error(`code-server is not installed in ${csDir}: run scripts/e2e-setup.sh`);
    this.dir = dir;
    this.extDir = join(dir, 'ext');
    mkdirSync(join(dir, 'data', 'User'), { recursive: true });
    mkdirSync(this.extDir, { recursive: true });
    writeFileSync(join(dir, 'data', 'User', 'settings.json'), JSON.stringify(USER_SETTINGS, null, 2));
    writeFileSync(join(dir, 'config.yaml'), 'auth: none\ncert: false\n');
    this.env = { ...process.env, XDG_DATA_HOME: join(dir, 'xdg-data'), XDG_CONFIG_HOME: join(dir, 'xdg-config'), ...env };
    this.args = ['--config', join(dir, 'config.yaml'), '--user-data-dir', join(dir, 'data'), '--extensions-dir', this.extDir];
  }

  /** Installs a .vsix the way a user would; returns the folder it was unpacked to. */
  install(vsix, id) {
    const r = spawnSync(this.bin, [...this.args, '--install-extension', vsix], { env: this.env, encoding: 'utf8', timeout: 180_000 });
    if (r.status !== 0) throw new Error(`code-server --install-extension failed (${r.status}): ${r.stdout}\n${r.stderr}`);
    const folder = readdirSync(this.extDir).find((f) => f.toLowerCase().startsWith(`${id.toLowerCase()}-`));
    if (!folder) throw new Error(`${id} not found in ${this.extDir} after install: ${r.stdout}`);
    return join(this.extDir, folder);
  }

  /** Starts serving; resolves with the base URL once /healthz answers. */
  async start() {
    this.port = await freePort();
    const log = join(this.dir, 'server.log');
    const { openSync } = await import('node:fs');
    const fd = openSync(log, 'w');
    this.proc = spawn(
      this.bin,
      [...this.args, '--bind-addr', `127.0.0.1:${this.port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override'],
      { env: this.env, stdio: ['ignore', fd, fd] },
    );
    this.log = log;
    this.url = `http://127.0.0.1:${this.port}`;
    const t0 = Date.now();
    for (;;) {
      if (this.proc.exitCode !== null) throw new Error(`code-server exited (${this.proc.exitCode}); see ${log}`);
      try {
        const r = await fetch(`${this.url}/healthz`);
        if (r.ok) return this.url;
      } catch {
        // not listening yet
      }
      if (Date.now() - t0 > 120_000) throw new Error(`code-server did not answer within 120 s; see ${log}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Stops the server this object started (by its process id). */
  async stop() {
    if (!this.proc || this.proc.exitCode !== null) return;
    const exited = new Promise((r) => this.proc.once('exit', r));
    this.proc.kill('SIGTERM');
    const t = setTimeout(() => this.proc.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(t);
  }
}

/** Launch options for Debian's Chromium, headless (flags from shared/editor-harness). */
export const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};

/**
 * One browser check in code-server: a fresh 1440x900 page with `o.workspace` open in the workbench, then
 * `body(page, T, at)`, which names what it is doing in `at.step` so a failure says where; a screenshot
 * of the result (`o.screenshot`) or of the failure. The page's context is closed in any case.
 * @param {{ browser: import('playwright-core').Browser, url: string, workspace: string, screenshot: string,
 *   failureScreenshot?: string, timeoutMs?: number }} o
 * @param {string} name
 * @param {(page: import('playwright-core').Page, T: number, at: { step: string }) => Promise<void>} body
 * @returns {Promise<{ name: string, ok: boolean, ms: number, error?: string }>}
 */
export async function inWorkbench(o, name, body) {
  const t0 = Date.now();
  const T = o.timeoutMs ?? 60_000;
  const context = await o.browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const at = { step: 'load the workbench' };
  try {
    await page.goto(`${o.url}/?folder=${encodeURIComponent(o.workspace)}`);
    await page.waitForSelector('.monaco-workbench', { timeout: T });
    await body(page, T, at);
    await page.screenshot({ path: o.screenshot });
    return { name, ok: true, ms: Date.now() - t0 };
  } catch (e) {
    await page.screenshot({ path: o.failureScreenshot ?? o.screenshot.replace(/\.png$/, '.failed.png') }).catch(() => {});
    return { name, ok: false, ms: Date.now() - t0, error: `${at.step}: ${e instanceof Error ? e.message : String(e)}` };
  } finally {
    await context.close();
  }
}
