// npm's `prepare` script (package.json): builds dist/ wherever npm installs the package from its sources:
// `npm ci` in a checkout, and an install from git (`npm install -g git+https://...`, which is how pre-commit
// installs a `language: node` hook). npm 11 runs a git clone's own `npm install` with the outer command's
// global flag, so that the clone's devDependencies (esbuild, the libraries the bundles carry) are not
// installed beside it: they are installed here first, into the clone, without scripts (this one included).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
try {
  createRequire(join(root, 'package.json')).resolve('esbuild');
} catch {
  // The outer npm's configuration (global, its prefix) must not steer this install.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_/i.test(k)));
  const r = spawnSync('npm', ['install', '--global=false', '--no-save', '--no-audit', '--no-fund', '--include=dev', '--ignore-scripts'], { cwd: root, env, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const b = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(b.status ?? 1);
