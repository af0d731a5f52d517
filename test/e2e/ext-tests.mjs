// Runs the extension tests (test/e2e/suite, bundled) inside code-server's real extension host: the
// workbench is opened with an extensionDevelopmentPath/extensionTestsPath payload, and the suite writes
// its RESULT file (CRD_YAML_E2E_RESULT, set on the code-server process and inherited by the extension
// host). Adapted from shared/editor-harness/ext-tests.cjs.
import { existsSync, readFileSync, rmSync } from 'node:fs';

/**
 * @param {{ browser: import('playwright-core').Browser, url: string, port: number, extFolder: string,
 *   suite: string, workspace: string, resultFile: string, timeoutMs?: number }} o
 * @returns {Promise<{ ok: boolean, passed: number, failed: number, tests: {name: string, ok: boolean, ms: number, error?: string}[] }>}
 */
export async function runExtensionTests(o) {
  rmSync(o.resultFile, { force: true });
  const remote = (p) => `vscode-remote://127.0.0.1:${o.port}${p}`;
  // The installed extension's own folder is the development path: the files under test are the .vsix's.
  const payload = encodeURIComponent(
    JSON.stringify([
      ['extensionDevelopmentPath', remote(o.extFolder)],
      ['extensionTestsPath', remote(o.suite)],
    ]),
  );
  const context = await o.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const consoleLines = [];
  page.on('console', (m) => consoleLines.push(`[${m.type()}] ${m.text()}`));
  try {
    await page.goto(`${o.url}/?folder=${encodeURIComponent(o.workspace)}&payload=${payload}`);
    // A hang guard: extension tests that never write their RESULT file end here, reported as a failure.
    const deadline = Date.now() + (o.timeoutMs ?? 600_000);
    while (!existsSync(o.resultFile) && Date.now() < deadline) await page.waitForTimeout(200);
    if (!existsSync(o.resultFile)) {
      const tail = consoleLines
        .filter((l) => /crd-yaml|ok -|not ok|Error/i.test(l))
        .slice(-40)
        .join('\n');
      return {
        ok: false,
        passed: 0,
        failed: 1,
        tests: [{ name: 'extension tests produced a result', ok: false, ms: 0, error: `no RESULT file within the time limit\n${tail}` }],
      };
    }
    // The runner writes the file in one call: read it until it parses (a file still being written does not),
    // rather than after a pause that a slow machine can outlast.
    for (let i = 0; ; i++) {
      try {
        return JSON.parse(readFileSync(o.resultFile, 'utf8'));
      } catch (e) {
        if (i >= 50) throw e;
        await page.waitForTimeout(100);
      }
    }
  } finally {
    await context.close();
  }
}
