// npm run test:vscode — the same extension tests (test/e2e/suite) in desktop VS Code through
// @vscode/test-electron, for machines that can download VS Code (it cannot run on the CI machines here:
// they use `npm run test:e2e`, code-server). The extension under test is the packaged .vsix, unpacked by
// VS Code's own CLI into a fresh extensions folder. Needs a display (use xvfb-run on Linux without one).
// env: VSCODE_VERSION (default 'stable'; the manifest's engines.vscode minimum is 1.90.0).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { downloadAndUnzipVSCode, resolveCliArgsFromVSCodeExecutablePath, runTests } from '@vscode/test-electron';
import { bundleSuite, prepareWorkspace, ROOT, USER_SETTINGS } from '../test/e2e/lib.mjs';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const VSIX = join(ROOT, `${pkg.name}-${pkg.version}.vsix`);
const t0 = Date.now();

const p = spawnSync(process.execPath, [join(ROOT, 'scripts', 'package.mjs')], { cwd: ROOT, stdio: 'inherit' });
if (p.status !== 0) process.exit(1);

const tmp = mkdtempSync(join(tmpdir(), 'crd-yaml-vscode-'));
let code = 1;
try {
  const suite = await bundleSuite(join(tmp, 'suite', 'index.js'));
  const workspace = prepareWorkspace(join(tmp, 'ws'));
  const userData = join(tmp, 'user-data');
  const extDir = join(tmp, 'ext');
  mkdirSync(join(userData, 'User'), { recursive: true });
  mkdirSync(extDir, { recursive: true });
  const { writeFileSync } = await import('node:fs');
  writeFileSync(join(userData, 'User', 'settings.json'), JSON.stringify(USER_SETTINGS, null, 2));

  const vscodeExecutablePath = await downloadAndUnzipVSCode(process.env.VSCODE_VERSION ?? 'stable');
  const [cli, ...cliArgs] = resolveCliArgsFromVSCodeExecutablePath(vscodeExecutablePath, { reuseMachineInstall: true }); // our own dirs below
  const inst = spawnSync(cli, [...cliArgs, `--extensions-dir=${extDir}`, '--install-extension', VSIX], {
    encoding: 'utf8',
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (inst.status !== 0) throw new Error(`installing ${VSIX} failed (${inst.status})`);
  const id = `${pkg.publisher}.${pkg.name}`.toLowerCase();
  const folder = readdirSync(extDir).find((f) => f.toLowerCase().startsWith(`${id}-`));
  if (!folder) throw new Error(`${id} not found in ${extDir}`);

  code = await runTests({
    vscodeExecutablePath,
    // The installed copy of the .vsix is the extension under test.
    extensionDevelopmentPath: join(extDir, folder),
    extensionTestsPath: suite,
    launchArgs: [workspace, `--user-data-dir=${userData}`, `--extensions-dir=${extDir}`],
    extensionTestsEnv: { CRD_YAML_E2E_RESULT: join(tmp, 'result.json') },
  });
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  code = 1;
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
console.log(`\ntest:vscode: ${code === 0 ? 'passed' : 'failed'} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
process.exit(code === 0 ? 0 : 1);
