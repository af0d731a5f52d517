// Runs every test file (*.test.ts under server/, client/ and test/) with node's test runner through tsx.
// Node 20's --test takes no globs, so the files are listed here. Extra args are passed to node --test
// (e.g. --test-name-pattern); file arguments narrow the run.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
// test/apiserver/ starts real kube-apiservers: its own tier (npm run test:apiserver, .ci/run).
const apiserverTier = args.includes('--apiserver');
if (apiserverTier) args.splice(args.indexOf('--apiserver'), 1);
// test/go/ builds the CRD generator with Go and loads Go modules: its own tier too (npm run test:go, .ci/run).
const goTier = args.includes('--go');
if (goTier) args.splice(args.indexOf('--go'), 1);
const fileArgs = args.filter((a) => a.endsWith('.test.ts'));
const flags = args.filter((a) => !a.endsWith('.test.ts'));
const skip = new Set(['node_modules', 'dist', '.git', '.work', 'oracle-bin']);

function walk(dir, out) {
  for (const e of readdirSync(dir)) {
    if (skip.has(e)) continue;
    const p = join(dir, e);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (p.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const all = ['server', 'client', 'test'].flatMap((d) => walk(d, [])).sort();
const parts = (f) => f.split(/[\\/]/);
const inTier = (f) => parts(f).includes('apiserver');
const inGoTier = (f) => parts(f)[0] === 'test' && parts(f)[1] === 'go';
const files = fileArgs.length ? fileArgs : all.filter((f) => (goTier ? inGoTier(f) : inTier(f) === apiserverTier && !inGoTier(f)));
if (!fileArgs.length && !apiserverTier && !goTier) {
  // The Go oracle tier needs its binary; build it first, with a progress line, rather than inside a test.
  const b = spawnSync(process.execPath, ['--import', 'tsx', 'test/oracle/build.ts'], { stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
console.error(`npm test: ${files.length} test files`);
// No test reaches the internet: the CRD catalog (workspace/catalog.ts) is off unless a test serves one.
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...flags, ...files], {
  stdio: 'inherit',
  env: { ...process.env, CRD_YAML_CATALOG: 'off' },
});
process.exit(r.status ?? 1);
