/**
 * The git reader against git itself: a fixture repository made with the git CLI in a temp folder (loose
 * objects, packs with offset deltas and with ref deltas, packed-refs, annotated tags, a worktree), every
 * file read at several revisions compared with `git show`. Skipped when git is not installed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitError, GitRepository, findRepository } from './git';
import { GitBaselineSource, baselineKey, parseBaselineSetting, storedStatusStandIn } from './index';

const HAVE_GIT = spawnSync('git', ['--version']).status === 0;
const SKIP = HAVE_GIT ? false : 'git is not installed: the fixture repository cannot be made';

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', '-c', 'tag.gpgsign=false', ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

/** A repository with history: a big file changed a little each time (so packs hold deltas). */
function fixture(): string {
  const dir = mkdtempSync(join(tmpdir(), 'crd-yaml-git-'));
  git(dir, 'init', '-q', '-b', 'main');
  mkdirSync(join(dir, 'deploy', 'crds'), { recursive: true });
  const big = (n: number) => Array.from({ length: 400 }, (_, i) => `line ${i} of a long manifest ${i % 7 === 0 ? n : ''}`).join('\n');
  for (let n = 1; n <= 6; n++) {
    writeFileSync(join(dir, 'deploy', 'widget.yaml'), `apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {replicas: ${n}}\n`);
    writeFileSync(join(dir, 'deploy', 'crds', 'big.txt'), big(n));
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', `commit ${n}`);
    if (n === 3) git(dir, 'tag', '-a', 'v3', '-m', 'release 3');
  }
  return dir;
}

function checkAll(repo: GitRepository, dir: string, revs: string[]): void {
  for (const rev of revs) {
    const want = git(dir, 'rev-parse', `${rev}^{commit}`);
    assert.equal(repo.resolveCommit(rev), want, rev);
    for (const f of ['deploy/widget.yaml', 'deploy/crds/big.txt', 'deploy/missing.yaml', 'deploy', 'deploy/widget.yaml/x']) {
      const got = repo.readFile(want, f);
      const r = spawnSync('git', ['-C', dir, 'cat-file', '-p', `${want}:${f}`]);
      const isBlob = r.status === 0 && git(dir, 'cat-file', '-t', `${want}:${f}`) === 'blob';
      if (isBlob) assert.ok(got?.equals(r.stdout), `${rev}:${f}`);
      else assert.equal(got, undefined, `${rev}:${f}`);
    }
  }
}

test('loose objects, then packs with offset deltas, then ref deltas: every revision reads as git shows it', { skip: SKIP }, () => {
  const dir = fixture();
  try {
    const revs = ['HEAD', 'HEAD~1', 'HEAD^', 'main~5', 'v3', 'v3~1', 'HEAD~2^'];
    let repo = GitRepository.open(dir)!;
    checkAll(repo, dir, revs);
    repo.close();
    git(dir, 'gc', '-q', '--aggressive', '--prune=now');
    repo = GitRepository.open(dir)!;
    checkAll(repo, dir, revs);
    repo.close();
    git(dir, '-c', 'pack.useDeltaBaseOffset=false', 'repack', '-q', '-a', '-d', '-f');
    repo = GitRepository.open(dir)!;
    checkAll(repo, dir, revs);
    // Abbreviated ids and errors said for people.
    const short = git(dir, 'rev-parse', '--short=7', 'HEAD~2');
    assert.equal(repo.resolveCommit(short), git(dir, 'rev-parse', 'HEAD~2'));
    assert.throws(
      () => repo.resolveCommit('nope'),
      (e: unknown) => e instanceof GitError && /revision "nope" not found/.test(e.message),
    );
    assert.throws(() => repo.resolveCommit('HEAD~99'), GitError);
    assert.throws(() => repo.resolveCommit('../../etc'), GitError);
    repo.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a worktree reads its own HEAD and the common objects; the repository is found from a nested file', { skip: SKIP }, () => {
  const dir = fixture();
  const wt = mkdtempSync(join(tmpdir(), 'crd-yaml-wt-'));
  try {
    rmSync(wt, { recursive: true, force: true });
    git(dir, 'worktree', 'add', '-q', '-b', 'feature', wt, 'HEAD~2');
    writeFileSync(join(wt, 'deploy', 'widget.yaml'), 'changed in the worktree, not committed\n');
    const layout = findRepository(join(wt, 'deploy', 'widget.yaml'))!;
    assert.equal(layout.workTree, wt);
    const repo = new GitRepository(layout);
    assert.equal(repo.resolveCommit('HEAD'), git(dir, 'rev-parse', 'HEAD~2'));
    assert.equal(repo.resolveCommit('main'), git(dir, 'rev-parse', 'main'));
    assert.match(repo.readFile(repo.resolveCommit('HEAD'), 'deploy/widget.yaml')!.toString(), /replicas: 4/);
    repo.close();
    // stopAt: no repository above the stop folder is used.
    const outside = mkdtempSync(join(tmpdir(), 'crd-yaml-norepo-'));
    assert.equal(findRepository(outside, outside), undefined);
    rmSync(outside, { recursive: true, force: true });
  } finally {
    rmSync(wt, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
});

test('git baselines: the same object at the revision, matched by group, kind, namespace and name', { skip: SKIP }, async () => {
  const dir = fixture();
  try {
    writeFileSync(
      join(dir, 'deploy', 'two.yaml'),
      'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: a}\nspec: {replicas: 1}\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: b, namespace: default}\nspec: {replicas: 2}\n',
    );
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'two');
    const src = new GitBaselineSource('HEAD', dir);
    const now = [
      { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'b' }, spec: { replicas: 3 } },
      { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'c' } },
      { apiVersion: 'example.com/v2', kind: 'Widget', metadata: { name: 'a' } },
    ];
    const r = await src.forFile(join(dir, 'deploy', 'two.yaml'), now);
    assert.equal(r.problem, undefined);
    assert.deepEqual(r.baselines[0]?.object.spec, { replicas: 2 });
    assert.equal(r.baselines[0]?.label, 'HEAD');
    assert.equal(r.baselines[1], undefined);
    assert.deepEqual(r.baselines[2]?.object.spec, { replicas: 1 }, 'the version is not part of the identity');
    // A file new since the revision: no baselines, no problem.
    writeFileSync(join(dir, 'deploy', 'new.yaml'), '');
    assert.deepEqual((await src.forFile(join(dir, 'deploy', 'new.yaml'), now)).baselines, [undefined, undefined, undefined]);
    // A bad revision is a problem said once per file, not an exception.
    const bad = await new GitBaselineSource('no-such-ref', dir).forFile(join(dir, 'deploy', 'two.yaml'), now);
    assert.match(bad.problem ?? '', /revision "no-such-ref" not found/);
    src.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the baseline setting, object keys and what stands in for a CRD status from git', () => {
  assert.deepEqual(parseBaselineSetting(undefined), { kind: 'git', ref: 'HEAD' });
  assert.deepEqual(parseBaselineSetting('git:origin/main'), { kind: 'git', ref: 'origin/main' });
  assert.deepEqual(parseBaselineSetting('cluster'), { kind: 'cluster' });
  assert.deepEqual(parseBaselineSetting('none'), { kind: 'none' });
  assert.ok('error' in parseBaselineSetting('HEAD'));
  assert.deepEqual(baselineKey({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' } }), { group: 'example.com', kind: 'Widget', namespace: '', name: 'w' });
  assert.equal(baselineKey({ apiVersion: 'v1', kind: 'ConfigMap' }), undefined);
  const crd = {
    spec: {
      versions: [
        { name: 'v1alpha1', storage: false },
        { name: 'v1', storage: true },
      ],
    },
    status: { storedVersions: ['v1alpha1'] },
  };
  assert.deepEqual(storedStatusStandIn(crd).status, { storedVersions: ['v1alpha1', 'v1'], conditions: [{ type: 'Established', status: 'True' }] });
});
