// The newcomer's first minute (issue 28), in code-server's browser: a workspace with a custom resource and
// no CRDs. code-server is a remote window (its Settings editor shows crdYaml.crdSources only under the
// Remote tab): the status-bar item says "CRDs: 0"; its list offers "Add a folder or URL of CRDs...";
// "Add a folder..." opens code-server's own folder picker (the simple file dialog: a path typed into a
// quick input), and the folder outside the workspace is written to the workspace settings; the server
// reads its CRD and the open CR gets its squiggle and Problems row. A screenshot of the result.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { E2E, GATEWAYCLASS_CRD, inWorkbench } from './lib.mjs';

/**
 * A workspace with GatewayClass objects and no CRD (`<dir>/ws`), and the team's folder of CRDs outside it
 * (`<dir>/team-crds`, the real GatewayClass CRD copied from shared/realworld at test time).
 */
export function prepareOnboarding(dir) {
  const workspace = join(dir, 'ws');
  const crdFolder = join(dir, 'team-crds');
  mkdirSync(workspace, { recursive: true });
  mkdirSync(crdFolder, { recursive: true });
  copyFileSync(join(E2E, 'fixtures', 'gatewayclasses.yaml'), join(workspace, 'gatewayclasses.yaml'));
  copyFileSync(GATEWAYCLASS_CRD, join(crdFolder, 'gateway.networking.k8s.io_gatewayclasses.yaml'));
  return { workspace, crdFolder, file: 'gatewayclasses.yaml' };
}

/**
 * @param {{ browser: import('playwright-core').Browser, url: string, workspace: string, crdFolder: string,
 *   file: string, expectProblem: string, screenshot: string, failureScreenshot?: string, timeoutMs?: number }} o
 * @returns {Promise<{ name: string, ok: boolean, ms: number, error?: string }>}
 */
export async function runOnboarding(o) {
  const name = 'browser: with no CRDs, the status-bar list adds a folder of CRDs (folder picker, workspace settings) and the open CR gets its diagnostics';
  return inWorkbench(o, name, async (page, T, at) => {
    at.step = 'open the CR from the Explorer';
    const exact = (text) => new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: exact(o.file) }).first();
    await row.waitFor({ timeout: T });
    await row.click();
    await page.locator(`.tab[aria-label*="${o.file}"]`).first().waitFor({ timeout: T });
    at.step = 'see "CRDs: 0" in the status bar';
    const status = page.locator('.statusbar-item', { hasText: /CRDs: 0/ }).first();
    await status.waitFor({ timeout: T });
    at.step = 'no squiggle before the CRDs are added';
    if ((await page.locator('.editor-instance .monaco-editor .squiggly-error').count()) > 0) throw new Error('an error squiggle with no CRD indexed');
    at.step = 'open the list from the status bar';
    await status.click();
    const pick = async (label) => {
      const item = page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
      await item.waitFor({ timeout: T });
      await item.click();
    };
    await pick('Add a folder or URL of CRDs...');
    at.step = 'choose "Add a folder..."';
    await pick('Add a folder...');
    at.step = "type the folder into code-server's folder picker";
    // The simple file dialog: a quick input holding a path; typing a folder path and accepting it
    // (Enter on a folder path navigates into it; the OK button accepts the folder shown).
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: T });
    // The dialog writes its starting folder into the box once it has read it: wait for that, then type
    // over it (typed earlier, the path is appended to the starting folder).
    const target = o.crdFolder.endsWith('/') ? o.crdFolder : `${o.crdFolder}/`;
    await page.waitForFunction(() => (document.querySelector('.quick-input-widget input')?.value ?? '') !== '', undefined, { timeout: T });
    for (let i = 0; (await input.inputValue()) !== target; i++) {
      if (i === 5) throw new Error(`the folder picker's box holds ${JSON.stringify(await input.inputValue())}`);
      await input.fill(target);
      await page.waitForTimeout(300);
    }
    const ok = page.locator('.quick-input-widget .monaco-button', { hasText: /Use CRDs from this folder|OK/ }).first();
    await ok.waitFor({ timeout: T });
    await ok.click();
    at.step = 'see the setting written to the workspace settings';
    const settings = join(o.workspace, '.vscode', 'settings.json');
    const deadline = Date.now() + T;
    while (!existsSync(settings) || !readFileSync(settings, 'utf8').includes('crdYaml.crdSources')) {
      if (Date.now() > deadline) throw new Error(`${settings} has no crdYaml.crdSources`);
      await page.waitForTimeout(200);
    }
    const written = JSON.parse(readFileSync(settings, 'utf8'))['crdYaml.crdSources'];
    if (!Array.isArray(written) || !written.some((s) => s.replace(/\/$/, '') === o.crdFolder.replace(/\/$/, ''))) throw new Error(`crdYaml.crdSources is ${JSON.stringify(written)}`);
    at.step = 'see the CRD counted in the status bar';
    await page
      .locator('.statusbar-item', { hasText: /CRDs: [1-9]/ })
      .first()
      .waitFor({ timeout: T });
    at.step = 'see the error squiggle on the open CR';
    await page.locator('.editor-instance .monaco-editor .squiggly-error').first().waitFor({ timeout: T });
    at.step = 'see the Problems row';
    if (!(await page.locator('.markers-panel').isVisible())) await page.keyboard.press('Control+Shift+M');
    await page.locator('.markers-panel .monaco-list-row', { hasText: o.expectProblem }).first().waitFor({ timeout: T });
    // The toast names the folder (a temporary path of this machine): not in the picture.
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').fill('>Notifications: Clear All Notifications');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Clear All Notifications' }).first().waitFor({ timeout: T });
    await page.keyboard.press('Enter');
    await page.mouse.move(1, 1);
    await page.waitForTimeout(500);
  });
}
