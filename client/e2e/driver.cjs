// Opens code-server in headless Chromium with an extensionDevelopmentPath + extensionTestsPath payload, so
// that the tests run in the real extension host; waits for their RESULT file.
// env: PORT, EXT_DIR, TESTS, WS, RESULT; playwright-core resolved through NODE_PATH.
const { chromium } = require('playwright-core');
const fs = require('fs');
const { PORT = 8093, EXT_DIR, TESTS, WS, RESULT } = process.env;
const remote = (p) => `vscode-remote://127.0.0.1:${PORT}${p}`;
const payload = encodeURIComponent(JSON.stringify([['extensionDevelopmentPath', remote(EXT_DIR)], ['extensionTestsPath', remote(TESTS)]]));
(async () => {
  const t0 = Date.now();
  const b = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = await b.newPage();
  await page.goto(`http://127.0.0.1:${PORT}/?folder=${WS}&payload=${payload}`);
  for (let i = 0; i < 1800 && !fs.existsSync(RESULT); i++) await page.waitForTimeout(100);
  const text = fs.existsSync(RESULT) ? fs.readFileSync(RESULT, 'utf8') : 'NO RESULT';
  console.log(text, `${Date.now() - t0} ms`);
  await b.close();
  process.exitCode = fs.existsSync(RESULT) && JSON.parse(text).ok ? 0 : 1;
})();
