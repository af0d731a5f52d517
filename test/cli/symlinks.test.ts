/**
 * The CLI's directory search under hostile trees: link cycles, a link to `/`, links leaving the named
 * directory. Bounds are asserted by counting filesystem calls (reads, directory listings), not by time.
 */
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import type * as FS from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { collectYamlFiles } from '../../server/src/cli/files';
import { inputBytes } from '../../server/src/cli/jobs';
import { runCli } from '../../server/src/cli/main';
import { builtinSchemaFile } from '../../server/src/workspace/builtinSchemas';

// The module object itself (an `import * as` namespace only has getters, which cannot be mocked).
const fs = createRequire(__filename)('node:fs') as typeof FS;

const CR = 'apiVersion: nowhere.example.com/v1\nkind: Gadget\nmetadata:\n  name: g\n';

/**
 * inside/ holds x.yaml, sub/y.yaml, two self-links (a -> ., b -> .), a link to `/`, a link to a folder
 * outside (out -> ../outside), a link to a file outside and a link to a file inside.
 */
function hostileTree(): { root: string; inside: string } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'crd-yaml-links-')));
  const inside = path.join(root, 'inside');
  fs.mkdirSync(path.join(inside, 'sub'), { recursive: true });
  fs.mkdirSync(path.join(root, 'outside'));
  fs.writeFileSync(path.join(inside, 'x.yaml'), CR);
  fs.writeFileSync(path.join(inside, 'sub', 'y.yaml'), CR);
  fs.writeFileSync(path.join(root, 'outside', 'secret.yaml'), CR);
  fs.symlinkSync('.', path.join(inside, 'a'));
  fs.symlinkSync('.', path.join(inside, 'b'));
  fs.symlinkSync('/', path.join(inside, 'root'));
  fs.symlinkSync('../outside', path.join(inside, 'out'));
  fs.symlinkSync('../outside/secret.yaml', path.join(inside, 'leak.yaml'));
  fs.symlinkSync('sub/y.yaml', path.join(inside, 'again.yaml'));
  return { root, inside };
}

/** Counts file reads (readFileSync, and openSync: cli/files.ts reads inputs into a buffer of its own) and readdirSync calls by path while fn runs. */
function counting<T>(fn: () => T): { result: T; reads: Map<string, number>; listings: Map<string, number> } {
  const reads = new Map<string, number>();
  const listings = new Map<string, number>();
  const origRead = fs.readFileSync;
  const origOpen = fs.openSync;
  const origDir = fs.readdirSync;
  // readFileSync may open the file through fs.openSync: that is the same read.
  let inRead = false;
  const r = mock.method(fs, 'readFileSync', (...a: Parameters<typeof fs.readFileSync>) => {
    reads.set(String(a[0]), (reads.get(String(a[0])) ?? 0) + 1);
    inRead = true;
    try {
      return origRead(...a);
    } finally {
      inRead = false;
    }
  });
  const o = mock.method(fs, 'openSync', (...a: Parameters<typeof fs.openSync>) => {
    if (!inRead) reads.set(String(a[0]), (reads.get(String(a[0])) ?? 0) + 1);
    return origOpen(...a);
  });
  const d = mock.method(fs, 'readdirSync', (...a: Parameters<typeof fs.readdirSync>) => {
    listings.set(String(a[0]), (listings.get(String(a[0])) ?? 0) + 1);
    return (origDir as (...x: unknown[]) => unknown)(...a);
  });
  try {
    return { result: fn(), reads, listings };
  } finally {
    r.mock.restore();
    o.mock.restore();
    d.mock.restore();
  }
}

test('by default a search stays inside the named folder: two self-links and a link to / end at once, each file read once', () => {
  const { root, inside } = hostileTree();
  try {
    const { result, reads, listings } = counting(() => collectYamlFiles(['inside'], root));
    assert.deepEqual(result.files.map((f) => f.path).sort(), ['inside/again.yaml', 'inside/x.yaml'].sort());
    // again.yaml is a link to sub/y.yaml: one read, under the first name met (sorted: again.yaml first).
    assert.ok(!result.files.some((f) => f.path.includes('sub')), 'sub/y.yaml was read through again.yaml already');
    assert.deepEqual([...reads.values()], [1, 1]);
    assert.deepEqual([...reads.keys()].sort(), [path.join(inside, 'sub', 'y.yaml'), path.join(inside, 'x.yaml')].sort());
    // Listed: inside/ and inside/sub/ only, once each (not /, not the outside folder).
    assert.deepEqual([...listings.keys()].sort(), [inside, path.join(inside, 'sub')].sort());
    assert.deepEqual([...listings.values()], [1, 1]);
    assert.deepEqual(result.skippedLinks.sort(), ['inside/a', 'inside/b', 'inside/leak.yaml', 'inside/out', 'inside/root'].sort());
    assert.deepEqual(result.inputErrors, []);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('--follow-symlinks: links are followed, each real folder searched once and each real file read once', () => {
  const { root, inside } = hostileTree();
  fs.unlinkSync(path.join(inside, 'root')); // following a link to / would search the whole machine
  try {
    const { result, reads, listings } = counting(() => collectYamlFiles(['inside'], root, { followSymlinks: true }));
    assert.deepEqual(result.files.map((f) => f.path).sort(), ['inside/again.yaml', 'inside/leak.yaml', 'inside/x.yaml']);
    assert.ok([...reads.values()].every((n) => n === 1));
    assert.equal(reads.size, 3);
    assert.deepEqual([...listings.keys()].sort(), [inside, path.join(inside, 'sub'), path.join(root, 'outside')].sort());
    assert.ok([...listings.values()].every((n) => n === 1));
    assert.deepEqual(result.skippedLinks, []);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a folder named twice, or inside another named folder, is searched once; a named link is followed', () => {
  const { root } = hostileTree();
  try {
    const { result, listings } = counting(() => collectYamlFiles(['inside', 'inside/sub', 'inside/out', 'inside'], root));
    assert.ok([...listings.values()].every((n) => n === 1));
    // inside/out is named: the user asked for it, so the outside folder is a root and its file is read,
    // once: through inside/leak.yaml, met first (a link into a named folder).
    const paths = result.files.map((f) => f.path);
    assert.ok(paths.includes(path.join('inside', 'leak.yaml')), paths.join());
    assert.ok(!paths.includes(path.join('inside', 'out', 'secret.yaml')), paths.join());
    assert.equal(new Set(result.files.map((f) => f.path)).size, result.files.length);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('crd-yaml check on the hostile folder: finishes, reads each file once, says which links it did not follow', (t) => {
  const { root, inside } = hostileTree();
  try {
    let out = '';
    let err = '';
    const { result: code, reads, listings } = counting(() => runCli(['check', '--unknown-kinds', 'hint', 'inside'], { stdout: (s) => (out += s), stderr: (s) => (err += s), cwd: root }));
    // Exit 1: objects of a kind no CRD defines, and nothing else to check.
    assert.equal(code, 1, err);
    // The whole command, not only the search: each file read once, each folder listed once, nothing else
    // (but crd-yaml's own table of the built-in kinds' schemas).
    reads.delete(builtinSchemaFile() ?? '');
    assert.deepEqual([...reads.keys()].sort(), [path.join(inside, 'sub', 'y.yaml'), path.join(inside, 'x.yaml')].sort());
    assert.deepEqual([...reads.values()], [1, 1]);
    assert.deepEqual([...listings.keys()].sort(), [inside, path.join(inside, 'sub')].sort());
    assert.deepEqual([...listings.values()], [1, 1]);
    // The built command in its own process (what a user runs): it ends; the time is reported, not asserted.
    const cli = path.join(__dirname, '..', '..', 'dist', 'cli.js');
    if (fs.existsSync(cli)) {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, [cli, 'check', '--unknown-kinds', 'hint', 'inside'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
      t.diagnostic(`dist/cli.js check on the hostile folder: exit ${r.status} in ${(performance.now() - t0).toFixed(0)} ms (wall clock, process start included)`);
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stderr, /2 files, 2 documents/);
    }
    assert.match(err, /crd-yaml: 5 symbolic links not followed \(inside\/a, inside\/b, inside\/leak\.yaml, \.\.\.\); --follow-symlinks follows them/);
    assert.match(err, /2 files, 2 documents/);
    assert.equal(out.split('\n').filter((l) => l.includes('not checked: no CRD known for it')).length, 2);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("the launcher's size estimate (main thread or worker) lists only the named folder's own folders and follows no link", () => {
  const { root, inside } = hostileTree();
  try {
    const { result, listings, reads } = counting(() => inputBytes(['inside'], root));
    assert.deepEqual([...listings.keys()].sort(), [inside, path.join(inside, 'sub')].sort());
    assert.deepEqual([...listings.values()], [1, 1]);
    assert.equal(reads.size, 0);
    // x.yaml and sub/y.yaml; no link is counted.
    assert.deepEqual(result, { total: 2 * CR.length, largest: CR.length });
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
