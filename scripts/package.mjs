// Builds the minified bundles and packs the extension into <name>-<version>.vsix with @vscode/vsce.
// The bundles carry every runtime dependency, so the package has no node_modules (--no-dependencies);
// .vscodeignore whitelists what ships. vsce prints the content list; this fails on missing or stray files
// and above the 2 MB budget.
// usage: node scripts/package.mjs [--out FILE]
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const outArg = process.argv.indexOf('--out');
const out = resolve(root, outArg > 0 ? process.argv[outArg + 1] : `${pkg.name}-${pkg.version}.vsix`);
const MAX_BYTES = 2 * 1024 * 1024;

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`package: ${[cmd, ...args].join(' ')} failed (${r.status ?? r.signal})`);
    process.exit(1);
  }
}

const t0 = Date.now();
run(process.execPath, ['scripts/build.mjs', '--minify']);
// Relative README links (docs/screenshot.png) stay relative: it ships inside the package.
run(process.execPath, [join(root, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--no-rewrite-relative-links', '--out', out]);
// What ships: the bundles, the manifest, README and its images, LICENSE, CHANGELOG, the
// walkthrough's pages; never node_modules.
const { listFiles, PackageManager } = createRequire(import.meta.url)('@vscode/vsce');
const files = await listFiles({ cwd: root, packageManager: PackageManager.None });
const must = [
  'package.json',
  'dist/extension.js',
  'dist/server.js',
  'dist/worker.js',
  'dist/builtin-schemas.json',
  'images/icon.png',
  'README.md',
  'LICENSE',
  'CHANGELOG.md',
  ...(pkg.contributes.walkthroughs ?? []).flatMap((w) => w.steps.map((s) => s.media.markdown ?? s.media.image)),
];
const missing = must.filter((f) => !files.includes(f));
const stray = files.filter((f) => f.includes('node_modules/') || f.endsWith('.map') || f.endsWith('.ts'));
if (missing.length || stray.length) {
  console.error(`package: missing ${JSON.stringify(missing)}, unexpected ${JSON.stringify(stray)}`);
  process.exit(1);
}
const size = statSync(out).size;
console.log(`package: ${out} ${(size / 1024).toFixed(0)} kB in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
if (size > MAX_BYTES) {
  console.error(`package: ${size} bytes is over the ${MAX_BYTES} byte budget`);
  process.exit(1);
}
