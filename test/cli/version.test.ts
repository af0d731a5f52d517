/**
 * --kubernetes-version: the CLI checks as an API server of that version (engine/version.ts). isCIDR
 * (Kubernetes CIDR library, base.go option introduced at 1.30) is usable in new rules from 1.31 (1.30's
 * compatibility version is 1.29): a 1.30 API server answers `undeclared reference to 'isCIDR'`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../../server/src/cli/main';
import { parseArgs, UsageError } from '../../server/src/cli/args';
import { crdYaml } from '../crd';

const CRD = crdYaml(
  `type: object
properties:
  spec:
    type: object
    properties:
      cidr:
        type: string
        maxLength: 64
        x-kubernetes-validations:
        - rule: isCIDR(self)
          message: must be a CIDR`,
  { kind: 'Net' },
);
/** The line (1-based) of the isCIDR rule in CRD. */
const RULE_LINE = CRD.split('\n').findIndex((l) => l.includes('rule: isCIDR(self)')) + 1;

const CR = 'apiVersion: example.com/v1\nkind: Net\nmetadata:\n  name: net1\nspec:\n  cidr: 10.0.0.0/33\n';

function cli(argv: string[], cwd: string): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = runCli(argv, {
    stdout: (s) => (out += s),
    stderr: (s) => (err += s),
    cwd,
  });
  if (typeof code !== 'number') throw new Error('asynchronous answer');
  return { code, out, err };
}

test('--kubernetes-version: parsed as 1.X (v1.X, 1.X.Y), 1.30 .. 1.37 only', () => {
  assert.equal(parseArgs(['check', 'a']).kubernetesMinor, undefined);
  assert.equal(parseArgs(['check', '--kubernetes-version', '1.30', 'a']).kubernetesMinor, 30);
  assert.equal(parseArgs(['check', '--kubernetes-version=v1.34.2', 'a']).kubernetesMinor, 34);
  for (const bad of ['1.29', '1.38', '2.0', 'latest', '1']) {
    assert.throws(
      () => parseArgs(['check', '--kubernetes-version', bad, 'a']),
      (e: unknown) => e instanceof UsageError && /expected 1\.30, .*1\.37/.test(e.message),
      bad,
    );
  }
});

test('crd-yaml check --kubernetes-version 1.30 reports a rule using isCIDR as a 1.30 API server does; 1.31 and 1.37 accept it', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crd-yaml-version-'));
  try {
    fs.writeFileSync(path.join(dir, 'crd.yaml'), CRD);
    const old = cli(['check', '--kubernetes-version', '1.30', '-f', 'json', 'crd.yaml'], dir);
    assert.equal(old.code, 1, old.err);
    const findings = JSON.parse(old.out).findings as Array<{
      apiMessage?: string;
      message: string;
      line: number;
    }>;
    assert.equal(findings.length, 1, old.out);
    assert.match(
      findings[0].apiMessage ?? '',
      /^spec\.validation\.openAPIV3Schema\.properties\[spec\]\.properties\[cidr\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: .*compilation failed: ERROR: <input>:1:7: undeclared reference to 'isCIDR' \(in container ''\)/,
    );
    assert.equal(findings[0].line, RULE_LINE);
    for (const v of ['1.31', '1.37']) {
      const r = cli(['check', '--kubernetes-version', v, 'crd.yaml'], dir);
      assert.equal(r.code, 0, `${v}: ${r.out}${r.err}`);
    }
    assert.equal(cli(['check', 'crd.yaml'], dir).code, 0, 'the default is the newest');
    // The CR side: at 1.31 the rule runs on a custom resource.
    fs.writeFileSync(path.join(dir, 'cr.yaml'), CR);
    const cr = cli(['check', '--kubernetes-version', '1.31', '--crd', 'crd.yaml', 'cr.yaml'], dir);
    assert.equal(cr.code, 1, cr.out + cr.err);
    assert.match(cr.out, /spec\.cidr: Invalid value: "10\.0\.0\.0\/33": must be a CIDR/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
