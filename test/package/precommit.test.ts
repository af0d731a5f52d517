/**
 * The pre-commit hook (.pre-commit-hooks.yaml) as pre-commit runs it: `pre-commit try-repo` with this
 * checkout as the hook repository, on a fixture repository, installs the package from git (language: node)
 * and fails on a broken custom resource, passes once it is fixed. Needs pre-commit (PyPI): the one named by
 * CRD_YAML_PRE_COMMIT (.ci/run installs it into .work/venv), or on PATH; skipped without it.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../shared';

const PRE_COMMIT = process.env.CRD_YAML_PRE_COMMIT ?? 'pre-commit';
const found = spawnSync(PRE_COMMIT, ['--version']).status === 0;
if (!found && process.env.CRD_YAML_PRE_COMMIT) throw new Error(`CRD_YAML_PRE_COMMIT=${PRE_COMMIT} does not run`);
const work = mkdtempSync(join(tmpdir(), 'crd-yaml-pre-commit-'));
after(() => rmSync(work, { recursive: true, force: true }));

const CR = (replicas: number) => `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: nightly\nspec:\n  cronSpec: "0 3 * * *"\n  image: backup:1.0\n  replicas: ${replicas}\n`;

function git(cwd: string, ...args: string[]) {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

function tryRepo(repo: string) {
  // Its own PRE_COMMIT_HOME: the hook's environment is built here and reused by the second run.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  return spawnSync(PRE_COMMIT, ['try-repo', REPO_ROOT, 'crd-yaml', '--all-files'], { cwd: repo, encoding: 'utf8', env: { ...env, PRE_COMMIT_HOME: join(work, 'home') }, timeout: 570_000 });
}

test('pre-commit try-repo: the crd-yaml hook fails on a broken CR and passes on the fixed one', { skip: !found && `${PRE_COMMIT} not found (pip install pre-commit, or name it with CRD_YAML_PRE_COMMIT)` }, () => {
  const repo = join(work, 'repo');
  mkdirSync(join(repo, 'crds'), { recursive: true });
  mkdirSync(join(repo, 'deploy'));
  git(repo, 'init', '-q');
  copyFileSync(join(REPO_ROOT, 'examples', 'crontab-crd.yaml'), join(repo, 'crds', 'crontab.yaml'));
  writeFileSync(join(repo, 'deploy', 'crontab.yaml'), CR(15));
  git(repo, 'add', '-A');
  const broken = tryRepo(repo);
  assert.equal(broken.status, 1, `${broken.stdout}\n${broken.stderr}`);
  assert.match(broken.stdout, /crd-yaml check\.+Failed/);
  assert.match(broken.stdout, /^deploy\/crontab\.yaml:8:13: error: spec\.replicas: .*less than or equal to 10/m);

  writeFileSync(join(repo, 'deploy', 'crontab.yaml'), CR(3));
  git(repo, 'add', '-A');
  const fixed = tryRepo(repo);
  assert.equal(fixed.status, 0, `${fixed.stdout}\n${fixed.stderr}`);
  assert.match(fixed.stdout, /crd-yaml check\.+Passed/);
});
