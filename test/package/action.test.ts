/**
 * The GitHub Action (action.yml) as its steps run (action/run.sh, the file action.yml runs), on fixtures:
 * the packed npm package installed, SARIF 2.1.0 that the SARIF schema accepts, annotations, and the
 * check's exit code (1 on a finding, 0 when fixed).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Ajv from 'ajv-draft-04';
import { parse } from 'yaml';
import { REPO_ROOT } from '../shared';

let work: string;
let tarball: string;

before(async () => {
  const { packAndInstall } = (await import(pathToFileURL(join(REPO_ROOT, 'scripts', 'pack-install.mjs')).href)) as { packAndInstall: () => { dir: string; tarball: string } };
  ({ dir: work, tarball } = packAndInstall());
});
after(() => rmSync(work, { recursive: true, force: true }));

/** The SARIF 2.1.0 schema (OASIS, final), as @microsoft/jest-sarif ships it. */
function sarifValidator() {
  const schema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'));
  // Its `language` pattern (`...]?$`) is valid only without the u flag, as JSON Schema's ECMA 262 regexps read it.
  return new Ajv({ allErrors: true, strict: false, unicodeRegExp: false }).compile(schema);
}

/** Runs action/run.sh in `dir` as action.yml does, with the packed tarball as the package. */
function runAction(dir: string, inputs: Record<string, string>) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));
  const output = join(dir, 'github-output');
  writeFileSync(output, '');
  const r = spawnSync('bash', [join(REPO_ROOT, 'action', 'run.sh')], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...env, ...inputs, INPUT_PACKAGE: tarball, RUNNER_TEMP: join(dir, '.runner'), GITHUB_OUTPUT: output, npm_config_offline: 'true' },
  });
  return {
    ...r,
    outputs: Object.fromEntries(
      readFileSync(output, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('=', 2) as [string, string]),
    ),
  };
}

function fixture(cr: string): string {
  const dir = mkdtempSync(join(work, 'repo-'));
  mkdirSync(join(dir, 'crds'));
  copyFileSync(join(REPO_ROOT, 'examples', 'crontab-crd.yaml'), join(dir, 'crds', 'crontab.yaml'));
  mkdirSync(join(dir, 'deploy'));
  writeFileSync(join(dir, 'deploy', 'crontab.yaml'), cr);
  return dir;
}
const CR = (replicas: number) => `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: nightly\nspec:\n  cronSpec: "0 3 * * *"\n  image: backup:1.0\n  replicas: ${replicas}\n`;

test('action.yml runs action/run.sh and gives it every input it reads', () => {
  const action = parse(readFileSync(join(REPO_ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown>; runs: { using: string; steps: Array<{ run?: string; env?: Record<string, string> }> } };
  assert.equal(action.runs.using, 'composite');
  const step = action.runs.steps.find((s) => s.run?.includes('action/run.sh'));
  assert.ok(step, 'no step runs action/run.sh');
  const read = [...new Set([...readFileSync(join(REPO_ROOT, 'action', 'run.sh'), 'utf8').matchAll(/\$\{?(INPUT_\w+)/g)].map((m) => m[1]))].sort();
  assert.deepEqual(Object.keys(step.env ?? {}).sort(), read);
  for (const [name, value] of Object.entries(step.env ?? {})) {
    const input = /^\$\{\{ inputs\.([\w-]+) \}\}$/.exec(value)?.[1];
    assert.ok(input && input in action.inputs, `${name}: ${value}`);
    assert.equal(name, `INPUT_${input.toUpperCase().replace(/-/g, '_')}`);
  }
});

test('on a finding: valid SARIF 2.1.0, an error annotation on the line, exit 1', () => {
  const dir = fixture(CR(15));
  const r = runAction(dir, { INPUT_PATHS: 'deploy/', INPUT_ARGS: '--crd crds/', INPUT_SARIF_FILE: 'out.sarif' });
  assert.equal(r.status, 1, `${r.stdout}\n${r.stderr}`);
  const log = JSON.parse(readFileSync(join(dir, 'out.sarif'), 'utf8')) as { version: string; runs: Array<{ results: unknown[] }> };
  const validate = sarifValidator();
  assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 5)));
  assert.equal(log.version, '2.1.0');
  assert.equal(log.runs[0].results.length, 1);
  assert.match(r.stdout, /^::error file=deploy\/crontab\.yaml,line=8,col=13,.*title=crd-yaml FieldValueInvalid::.*less than or equal to 10/m);
  assert.deepEqual(r.outputs, { 'sarif-file': 'out.sarif', 'exit-code': '1' });
});

test('fixed: valid SARIF with no results, no annotation, exit 0', () => {
  const dir = fixture(CR(3));
  const r = runAction(dir, { INPUT_PATHS: 'deploy/', INPUT_ARGS: '--crd crds/', INPUT_SARIF_FILE: 'out.sarif' });
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  const log = JSON.parse(readFileSync(join(dir, 'out.sarif'), 'utf8')) as { version: string; runs: Array<{ results: unknown[] }> };
  assert.ok(sarifValidator()(log));
  assert.deepEqual(log.runs[0].results, []);
  assert.doesNotMatch(r.stdout, /^::(error|warning)/m);
  assert.equal(r.outputs['exit-code'], '0');
});

test('the SARIF schema check can fail: a log without its version is refused', () => {
  assert.equal(sarifValidator()({ runs: [] }), false);
});
