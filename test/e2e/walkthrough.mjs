// The walkthrough of the installed .vsix (contributes.walkthroughs, issue 24), in code-server's browser:
// "Welcome: Open Walkthrough..." lists "Get Started with CRD YAML"; it opens with its four steps, and the
// last one's page (the CI set-up) shows beside them. A screenshot of the result.
import { inWorkbench } from './lib.mjs';
import { runCommand } from './smoke.mjs';

/**
 * @param {{ browser: import('playwright-core').Browser, url: string, workspace: string, title: string,
 *   steps: string[], expectMedia: string, screenshot: string, failureScreenshot?: string, timeoutMs?: number }} o
 * @returns {Promise<{ name: string, ok: boolean, ms: number, error?: string }>}
 */
export async function runWalkthrough(o) {
  const name = `browser: the walkthrough "${o.title}" opens with its steps and pages`;
  return inWorkbench(o, name, async (page, T, at) => {
    at.step = 'run "Welcome: Open Walkthrough..."';
    await runCommand(page, 'Welcome: Open Walkthrough...', T);
    at.step = `pick "${o.title}"`;
    const item = page.locator('.quick-input-list .monaco-list-row', { hasText: o.title }).first();
    await item.waitFor({ timeout: T });
    await item.click();
    at.step = 'see the steps';
    for (const s of o.steps) await page.locator('.getting-started-step .step-title', { hasText: s }).first().waitFor({ timeout: T });
    at.step = `open the step "${o.steps.at(-1)}" and see its page`;
    await page
      .locator('.getting-started-step', { hasText: o.steps.at(-1) })
      .first()
      .click();
    // The page is markdown rendered in a webview (an iframe within an iframe). While the webview loads a
    // page it holds two inner frames, the shown one (#active-frame) and the one loading (#pending-frame),
    // which becomes #active-frame once loaded: the page is looked for in the shown one (re-resolved on retry).
    const media = page.frameLocator('.getting-started-media iframe').frameLocator('iframe#active-frame').getByText(o.expectMedia).first();
    await media.waitFor({ timeout: T });
  });
}
