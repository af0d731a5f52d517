// Packs the npm package as `npm pack` makes it for a release and installs the tarball into an empty prefix
// with `npm install -g --prefix`, as a user would (no registry needed: the package has no dependencies).
// The pack runs in a copy of the sources (its prepack script rebuilds dist/ minified), so that the checkout's
// own dist/ is left as the tests running beside it expect.
// usage: node scripts/pack-install.mjs [DIR]   (prints the tarball, its packed size and the installed bin)
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** What the build reads: the sources, the manifest, and what the package ships beside dist/. */
const SOURCES = ['package.json', '.npmignore', 'package-lock.json', 'tsconfig.json', 'bin', 'server', 'client', 'scripts', 'README.md', 'LICENSE', 'CHANGELOG.md'];

function npm(args, cwd) {
  // npm_config_* of an enclosing `npm test` (its cache, its prefix) must not steer these installs.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));
  const r = spawnSync('npm', args, { cwd, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm ${args.join(' ')} failed (${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/**
 * Packs into `dir` and installs there; returns the tarball, its size in bytes, its file list, the prefix and
 * the installed `crd-yaml`.
 */
export function packAndInstall(dir = mkdtempSync(join(tmpdir(), 'crd-yaml-pack-'))) {
  const src = join(dir, 'src');
  mkdirSync(src, { recursive: true });
  for (const f of SOURCES) if (existsSync(join(ROOT, f))) cpSync(join(ROOT, f), join(src, f), { recursive: true, filter: (p) => !p.includes('node_modules') });
  symlinkSync(join(ROOT, 'node_modules'), join(src, 'node_modules'), 'dir');
  const [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', dir], src));
  const tarball = join(dir, packed.filename);
  const prefix = join(dir, 'prefix');
  npm(['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball], dir);
  const bin = process.platform === 'win32' ? join(prefix, 'crd-yaml.cmd') : join(prefix, 'bin', 'crd-yaml');
  return { dir, tarball, size: statSync(tarball).size, files: packed.files.map((f) => f.path), prefix, bin, manifest: JSON.parse(readFileSync(join(prefix, 'lib', 'node_modules', 'crd-yaml', 'package.json'), 'utf8')) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = packAndInstall(process.argv[2] ? resolve(process.argv[2]) : undefined);
  console.log(`packed ${r.tarball}: ${(r.size / 1024 / 1024).toFixed(2)} MB (${r.files.length} files)\ninstalled ${r.bin}`);
}
