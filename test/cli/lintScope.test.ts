/**
 * `crd-yaml check --cel-lint-scope` (issue 22 cause 12): the CEL authoring lints on the CRDs written in the
 * repository, not on vendored copies nor generated ones; the API server's findings on those stay.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../server/src/cli/main';
import { crdYaml, specSchemaYaml } from '../crd';

/** A CRD of kind `kind` with a rule reading an optional field unguarded (CELNoSuchKey) and, if `broken`, a rule the API server rejects. */
const CRD = (kind: string, o: { annotations?: Record<string, string>; broken?: boolean } = {}) =>
  crdYaml(specSchemaYaml('port:\n  type: integer', { rules: `- rule: "self.port > 0"${o.broken ? '\n- rule: "self.nope > 0"' : ''}` }), { kind, annotations: o.annotations });

function repo(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crd-yaml-lints-'));
  const files: Record<string, string> = {
    'config/crd/pools.yaml': CRD('Pool'),
    'vendor/example.com/lib/gadgets.yaml': CRD('Gadget', { broken: true }),
    'charts/app/Chart.yaml': 'apiVersion: v2\nname: app\nversion: 0.1.0\n',
    'charts/app/charts/dep/crds/knobs.yaml': CRD('Knob'),
    'gen/dials.yaml': CRD('Dial', { annotations: { 'controller-gen.kubebuilder.io/version': 'v0.18.0' } }),
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

async function cli(argv: string[], cwd: string): Promise<{ code: number; out: string[]; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), cwd });
  return { code, out: out.split('\n').filter((l) => l !== ''), err };
}

const lintFiles = (out: string[]) => out.filter((l) => l.includes('[CELNoSuchKey')).map((l) => l.split(':')[0]);

test('check: the lints on the CRDs written here only; --cel-lint-scope all widens, off narrows; API server errors stay', async () => {
  const dir = repo();
  try {
    const r = await cli(['check', '.'], dir);
    assert.deepEqual(lintFiles(r.out), ['config/crd/pools.yaml'], r.out.join('\n'));
    // The vendored copy's rule the API server rejects is still an error.
    assert.ok(
      r.out.some((l) => l.startsWith('vendor/example.com/lib/gadgets.yaml:') && l.includes(': error: ')),
      r.out.join('\n'),
    );
    assert.equal(r.code, 1);
    const all = await cli(['check', '--cel-lint-scope', 'all', '.'], dir);
    assert.deepEqual(lintFiles(all.out).sort(), ['charts/app/charts/dep/crds/knobs.yaml', 'config/crd/pools.yaml', 'gen/dials.yaml', 'vendor/example.com/lib/gadgets.yaml']);
    const off = await cli(['check', '--cel-lint-scope=off', '.'], dir);
    assert.deepEqual(lintFiles(off.out), []);
    assert.deepEqual(
      off.out.filter((l) => l.includes(': error: ')),
      r.out.filter((l) => l.includes(': error: ')),
    );
    // From inside vendor/, the folder is the working directory: nothing above it says vendored.
    const inside = await cli(['check', '.'], path.join(dir, 'vendor'));
    assert.deepEqual(lintFiles(inside.out), ['example.com/lib/gadgets.yaml']);
    const bad = await cli(['check', '--cel-lint-scope', 'some', '.'], dir);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /unknown --cel-lint-scope "some" \(expected authored, all, off\)/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('check --base: in a generated CRD, the rules changed since the revision are linted, the others not', async () => {
  const { execFileSync } = await import('node:child_process');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crd-yaml-lints-base-'));
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { stdio: 'ignore' });
  try {
    const generated = CRD('Dial', { annotations: { 'controller-gen.kubebuilder.io/version': 'v0.18.0' } });
    fs.writeFileSync(path.join(dir, 'dials.yaml'), generated);
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'initial');
    // A marker added in Go, the CRD generated again: one new rule, reading an optional field unguarded.
    const added = generated
      .replace('            - rule: "self.port > 0"\n', '            - rule: "self.port > 0"\n            - rule: "self.size < 10"\n')
      .replace('              port:\n', '              size:\n                type: integer\n              port:\n');
    const newRuleLine = added.split('\n').findIndex((l) => l.includes('- rule: "self.size < 10"')) + 1;
    fs.writeFileSync(path.join(dir, 'dials.yaml'), added);
    const plain = await cli(['check', '.'], dir);
    assert.deepEqual(lintFiles(plain.out), [], plain.out.join('\n'));
    const base = await cli(['check', '--base', 'HEAD', '.'], dir);
    assert.deepEqual(
      base.out.filter((l) => l.includes('[CELNoSuchKey')).map((l) => l.replace(/^dials\.yaml:(\d+):\d+: warning: (\S+) may be absent.*$/, '$1 $2')),
      [`${newRuleLine} self.size`],
      base.out.join('\n'),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
