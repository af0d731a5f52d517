// The browser-level smoke test: in code-server, open a CR of a real CRD from the Explorer, see the error
// squiggle and its Problems row, run "CRD: Preview Pruned/Defaulted Object" from the command palette and
// see the preview document; then open a broken copy of the real CRD and take a screenshot of its Problems
// rows. Adapted from shared/editor-harness/e2e.cjs.
import { inWorkbench } from './lib.mjs';

/**
 * @param {{ browser: import('playwright-core').Browser, url: string, workspace: string, folder: string,
 *   file: string, expectProblem: string, expectPreview: string, crdFile?: string, expectCrdProblems?: string[],
 *   screenshot: string, failureScreenshot?: string, timeoutMs?: number }} o
 * @returns {Promise<{ name: string, ok: boolean, ms: number, error?: string }>}
 */
export async function runSmoke(o) {
  const name = `browser: ${o.folder}/${o.file} from the Explorer shows the squiggle, the Problems row and the preview`;
  return inWorkbench(o, name, async (page, T, at) => {
    at.step = 'open the file from the Explorer';
    const exact = (text) => new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
    const row = (text) => page.locator('.explorer-folders-view .monaco-list-row', { hasText: exact(text) }).first();
    await row(o.folder).waitFor({ timeout: T });
    await row(o.folder).click(); // expand the folder
    await row(o.file).waitFor({ timeout: T });
    await row(o.file).click();
    await page.locator(`.tab[aria-label*="${o.file}"]`).first().waitFor({ timeout: T });
    at.step = 'see an error squiggle';
    await page.locator('.editor-instance .monaco-editor .squiggly-error').first().waitFor({ timeout: T });
    at.step = 'see the Problems row';
    if (!(await page.locator('.markers-panel').isVisible())) await page.keyboard.press('Control+Shift+M');
    await page.locator('.markers-panel .monaco-list-row', { hasText: o.expectProblem }).first().waitFor({ timeout: T });
    at.step = 'run the preview command from the command palette';
    await page.keyboard.press('Control+1'); // focus the editor (no click: the Problems panel may overlap it)
    await page.locator('.editor-instance .monaco-editor.focused').first().waitFor({ timeout: T });
    await page.keyboard.press('Control+Home'); // the preview follows the cursor: the first document
    await runCommand(page, 'CRD: Preview Pruned/Defaulted Object', T);
    at.step = 'see the preview document';
    await page.locator('.tab[aria-label*="(stored)"]').first().waitFor({ timeout: T });
    await page.locator('.editor-group-container').nth(1).locator('.view-lines', { hasText: o.expectPreview }).first().waitFor({ timeout: T });
    if (o.crdFile) {
      // The picture: the Problems panel on a broken real CRD (the preview is closed first).
      at.step = 'close the editors';
      await runCommand(page, 'View: Close All Editors', T);
      at.step = 'open the broken CRD from the Explorer';
      await row(o.crdFile).waitFor({ timeout: T });
      await row(o.crdFile).click();
      await page.locator(`.tab[aria-label*="${o.crdFile}"]`).first().waitFor({ timeout: T });
      at.step = "see the CRD's Problems rows";
      await page.locator('.editor-instance .monaco-editor .squiggly-error').first().waitFor({ timeout: T });
      for (const text of o.expectCrdProblems ?? []) await page.locator('.markers-panel .monaco-list-row', { hasText: text }).first().waitFor({ timeout: T });
    }
    await page.keyboard.press('Control+B'); // hide the side bar: room for the editors in the picture
    await page.mouse.move(1, 1); // no hover widget in the picture
    await page.waitForTimeout(500);
  });
}

/** Runs a command from the command palette by its title. */
export async function runCommand(page, title, T) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: T });
  await input.fill(`>${title}`);
  const item = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  await item.waitFor({ timeout: T });
  await page.keyboard.press('Enter');
}
