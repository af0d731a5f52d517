/**
 * `crd-yaml test`: CRD rule test files run in process through the CLI. Pass and fail on create and update
 * cases, exit codes, JUnit; and, as proof of reach, the Gateway API CEL cases of the shared corpus (taken
 * from Gateway API's envtest-based tests) turned into test files at test time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { runCli } from '../../server/src/cli/main';
import { defaultSharedDir } from '../conformance/runner';
import { crdYaml, specSchemaYaml } from '../crd';
import { needsShared } from '../shared';

function cli(argv: string[], cwd: string): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = runCli(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), cwd });
  if (typeof code !== 'number') throw new Error('test answered asynchronously');
  return { code, out, err };
}

function tmp(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crd-yaml-crdtest-'));
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

const CRD = crdYaml(
  specSchemaYaml(`replicas:
  type: integer
  maximum: 10
  x-kubernetes-validations:
  - {rule: self >= oldSelf, message: must not decrease}
mode: {type: string, enum: [a, b]}
`),
);

const w = (spec: string) => `{apiVersion: example.com/v1, kind: Widget, metadata: {name: a}, spec: ${spec}}`;

const PASSING = `crd: ../config/widgets.yaml
tests:
  - name: replicas within bounds
    object: ${w('{replicas: 3}')}
    expect: valid
  - name: cannot scale down
    oldObject: ${w('{replicas: 3}')}
    object: ${w('{replicas: 2}')}
    expect:
      errors:
        - {type: FieldValueInvalid, field: spec.replicas, message: must not decrease}
  - name: an unchanged invalid value is ratcheted
    oldObject: ${w('{replicas: 30}')}
    object: ${w('{replicas: 30, mode: a}')}
    expect: valid
  - name: each expected error matches a distinct actual one
    object: ${w('{replicas: 30, mode: c}')}
    expect:
      errors:
        - {field: spec.replicas}
        - {type: NotSupported, message: 'supported values: "a", "b"'}
        - {message: some validation rules were not checked}
`;

const FAILING = `crd: example.com/Widget
tests:
  - name: expects valid but the object is not
    object: ${w('{replicas: 11}')}
    expect: valid
  - name: expects an error that does not happen
    object: ${w('{replicas: 1}')}
    expect:
      errors: [{message: must not decrease}]
  - name: the same expectation twice needs two errors
    object: ${w('{replicas: 11}')}
    expect:
      errors: [{field: spec.replicas}, {field: spec.replicas}]
  - name: scaling down on update fails the transition rule
    oldObject: ${w('{replicas: 5}')}
    object: ${w('{replicas: 4}')}
    expect: valid
`;

test('crd-yaml test: PASS and FAIL per case on create and update, the totals last, exit code 1 on a failure', () => {
  const dir = tmp({ 'config/widgets.yaml': CRD, 'tests/ok.crdtest.yaml': PASSING, 'tests/bad.crdtest.yaml': FAILING });
  const ok = cli(['test', 'tests/ok.crdtest.yaml'], dir);
  assert.equal(ok.code, 0, ok.out + ok.err);
  assert.deepEqual(
    ok.out.split('\n').filter((l) => /^(PASS|FAIL)/.test(l)),
    [
      'PASS tests/ok.crdtest.yaml:3: replicas within bounds',
      'PASS tests/ok.crdtest.yaml:6: cannot scale down',
      'PASS tests/ok.crdtest.yaml:12: an unchanged invalid value is ratcheted',
      'PASS tests/ok.crdtest.yaml:16: each expected error matches a distinct actual one',
    ],
  );
  assert.match(ok.out, /\n4 passed, 0 failed\n$/);

  // group/kind references are looked up among the CRDs found under the paths (and --crd).
  const all = cli(['test', '.'], dir);
  assert.equal(all.code, 1);
  const lines = all.out.trimEnd().split('\n');
  assert.equal(lines.at(-1), '4 passed, 4 failed');
  assert.deepEqual(
    lines.filter((l) => l.startsWith('FAIL')),
    [
      'FAIL tests/bad.crdtest.yaml:3: expects valid but the object is not',
      'FAIL tests/bad.crdtest.yaml:6: expects an error that does not happen',
      'FAIL tests/bad.crdtest.yaml:10: the same expectation twice needs two errors',
      'FAIL tests/bad.crdtest.yaml:14: scaling down on update fails the transition rule',
    ],
  );
  // A failure says what was reported and what was expected.
  assert.match(all.out, /FAIL tests\/bad\.crdtest\.yaml:3: .*\n {4}reported, not expected: spec\.replicas: Invalid value: 11: spec\.replicas in body should be less than or equal to 10 \[FieldValueInvalid\]/);
  assert.match(all.out, /FAIL tests\/bad\.crdtest\.yaml:6: .*\n {4}expected, not reported: "must not decrease"\n {4}the object is valid/);
  assert.match(all.out, /FAIL tests\/bad\.crdtest\.yaml:14: .*\n {4}reported, not expected: spec\.replicas: Invalid value: 4: must not decrease/);

  // JUnit for CI.
  const junit = cli(['test', '--format', 'junit', 'tests'], dir);
  assert.equal(junit.code, 1);
  assert.match(junit.out, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="crd-yaml test" tests="8" failures="4">/);
  assert.equal((junit.out.match(/<testcase /g) ?? []).length, 8);
  assert.equal((junit.out.match(/<failure message="/g) ?? []).length, 4);
  assert.match(junit.out, /<testcase name="cannot scale down" classname="tests\/ok\.crdtest\.yaml" file="tests\/ok\.crdtest\.yaml" line="6"\/>/);
});

test('crd-yaml test: broken test files and missing CRDs fail with the reason; no test files is a usage error', () => {
  const dir = tmp({
    'config/widgets.yaml': CRD,
    'a.crdtest.yaml': `crd: config/missing.yaml\ntests:\n  - name: x\n    object: ${w('{}')}\n    expect: valid\n`,
    'b.crdtest.yaml': `crd: config/widgets.yaml\ntests:\n  - name: no expect\n    object: ${w('{}')}\n  - name: typo\n    objet: {}\n    expect: valid\n`,
    'c.crdtest.yaml': 'tests: 3\n',
  });
  const r = cli(['test', '.'], dir);
  assert.equal(r.code, 1);
  assert.match(r.out, /FAIL a\.crdtest\.yaml:3: x\n {4}crd config\/missing\.yaml: no such file or directory/);
  assert.match(r.out, /FAIL b\.crdtest\.yaml:3: no expect\n {4}`expect` is `valid` or `\{errors: \[\.\.\.\]\}`/);
  assert.match(r.out, /FAIL b\.crdtest\.yaml:5: typo\n {4}unknown key `objet`/);
  assert.match(r.err, /c\.crdtest\.yaml:1: `crd` names the CRD/);
  const none = cli(['test', 'config'], dir);
  assert.equal(none.code, 2);
  assert.match(none.err, /no \*\.crdtest\.yaml files in config/);
});

/**
 * Corpus cases whose expectation the Go oracle proves wrong (test/conformance/expected-failures.json):
 * the test files take the API server's answer instead.
 */
const ORACLE_CORRECTIONS: Record<string, { type: string; field: string; detail?: string }[]> = {
  // listtype validateListSet reports a Duplicate only at the second occurrence of a value.
  'gateway-api-cel/validategateway/names-are-not-unique-within-the-gateway': [
    { type: 'FieldValueDuplicate', field: 'spec.listeners[1]' },
    { type: 'FieldValueInvalid', field: 'spec.listeners', detail: 'Listener name must be unique within the Gateway' },
  ],
  // kube-openapi oneOf/anyOf errors carry no path: kubeOpenAPIResultToFieldErrors reports them at "".
  'gateway-api-cel/validategateway/ip-address-and-hostname-in-addresses-are-invalid': [
    { type: 'FieldValueInvalid', field: '', detail: '"spec.addresses[0]" must validate one and only one schema (oneOf). Found none valid' },
    { type: 'FieldValueInvalid', field: '', detail: '"spec.addresses[0].value" must validate at least one schema (anyOf)' },
    { type: 'FieldValueTypeInvalid', field: 'spec.addresses[0].value', detail: 'spec.addresses[0].value in body must be of type ipv4' },
    { type: 'FieldValueInvalid', field: '', detail: 'some validation rules were not checked because the object was invalid' },
  ],
};

test('the Gateway API CEL cases of the shared corpus, as test files, pass with crd-yaml test', { skip: needsShared('conformance', 'gateway-api-cel.jsonl'), timeout: 10 * 60_000 }, () => {
  const shared = defaultSharedDir();
  const corpus = path.join(shared, 'conformance', 'gateway-api-cel.jsonl');
  const cases = fs
    .readFileSync(corpus, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { id: string; crdFile: string; object: unknown; oldObject?: unknown; expect: { errors: { type: string; field: string; detail?: string }[] } });
  assert.equal(cases.length, 146);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crd-yaml-gateway-'));
  // One test file per CRD file, the CRD named by its path relative to the test file.
  const byCrd = new Map<string, typeof cases>();
  for (const c of cases) byCrd.set(c.crdFile, [...(byCrd.get(c.crdFile) ?? []), c]);
  for (const [crdFile, group] of byCrd) {
    const doc = {
      crd: path.relative(dir, path.join(shared, crdFile)),
      tests: group.map((c) => {
        const errors = ORACLE_CORRECTIONS[c.id] ?? c.expect.errors;
        return {
          name: c.id,
          ...(c.oldObject !== undefined ? { oldObject: c.oldObject } : {}),
          object: c.object,
          expect: errors.length === 0 ? 'valid' : { errors: errors.map((e) => ({ type: e.type, field: e.field, ...(e.detail ? { message: e.detail } : {}) })) },
        };
      }),
    };
    fs.writeFileSync(path.join(dir, `${path.basename(crdFile, '.yaml')}.crdtest.yaml`), stringify(doc, { lineWidth: 0 }));
  }
  const r = cli(['test', '.'], dir);
  assert.equal(
    r.out.trimEnd().split('\n').at(-1),
    '146 passed, 0 failed',
    r.out
      .split('\n')
      .filter((l) => !l.startsWith('PASS'))
      .join('\n'),
  );
  assert.equal(r.code, 0);
  fs.rmSync(dir, { recursive: true, force: true });
});
