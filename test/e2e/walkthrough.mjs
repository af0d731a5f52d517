// The walkthrough of the installed .vsix (contributes.walkthroughs, issue 24), in code-server's browser:
// "Welcome: Open Walkthrough..." lists "Get Started with CRD YAML"; it opens with its four steps, and the
// last one's page (the CI set-up) shows beside them. A screenshot of the result.
import { runCommand } from './smoke.mjs';

/**
 * @param {{ browser: import('playwright-core').Browser, url: string, workspace: string, title: string,
 *   steps: string[], expectMedia: string, screenshot: string, failureScreenshot?: string, timeoutMs?: number }} o
 * @returns {Promise<{ name: string, ok: boolean, ms: number, error?: string }>}
 */
export async function runWalkthrough(o) {
  const name = `browser: the walkthrough "${o.title}" opens with its steps and pages`;
  const t0 = Date.now();
  const T = o.timeoutMs ?? 60_000;
  const context = await o.browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  let step = 'load the workbench';
  try {
    await page.goto(`${o.url}/?folder=${encodeURIComponent(o.workspace)}`);
    await page.waitForSelector('.monaco-workbench', { timeout: T });
    step = 'run "Welcome: Open Walkthrough..."';
    await runCommand(page, 'Welcome: Open Walkthrough...', T);
    step = `pick "${o.title}"`;
    const item = page.locator('.quick-input-list .monaco-list-row', { hasText: o.title }).first();
    await item.waitFor({ timeout: T });
    await item.click();
    step = 'see the steps';
    for (const s of o.steps) await page.locator('.getting-started-step .step-title', { hasText: s }).first().waitFor({ timeout: T });
    step = `open the step "${o.steps.at(-1)}" and see its page`;
    await page
      .locator('.getting-started-step', { hasText: o.steps.at(-1) })
      .first()
      .click();
    // The page is markdown rendered in a webview (an iframe within an iframe).
    const media = page.frameLocator('.getting-started-media iframe').frameLocator('iframe').getByText(o.expectMedia).first();
    await media.waitFor({ timeout: T });
    await page.screenshot({ path: o.screenshot });
    return { name, ok: true, ms: Date.now() - t0 };
  } catch (e) {
    await page.screenshot({ path: o.failureScreenshot ?? o.screenshot.replace(/\.png$/, '.failed.png') }).catch(() => {});
    return { name, ok: false, ms: Date.now() - t0, error: `${step}: ${e instanceof Error ? e.message : String(e)}` };
  } finally {
    await context.close();
  }
}
