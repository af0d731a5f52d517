import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { runCli } from '../../server/src/cli/main';
import { parseArgs, UsageError } from '../../server/src/cli/args';

const ROOT = path.resolve(__dirname, '../..');

/** Run the CLI in process from `cwd`; returns exit code and both streams. */
function cli(argv: string[], cwd = ROOT): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = runCli(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), cwd });
  // Only `convert` (a webhook call) answers with a promise; it has its own tests.
  if (typeof code !== 'number') throw new Error(`${argv[0]} answered asynchronously`);
  return { code, out, err };
}

/** A temporary directory with the given files. */
function tmp(files: Record<string, string | Buffer>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crd-yaml-cli-'));
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

const CR_NO_CRD = 'apiVersion: nowhere.example.com/v1\nkind: Gadget\nmetadata:\n  name: g\n';

test('args: commands, options and usage errors', () => {
  assert.deepEqual(parseArgs(['check', '-f', 'sarif', 'a', 'b']).paths, ['a', 'b']);
  assert.equal(parseArgs(['check', '--format=json', 'a']).format, 'json');
  assert.equal(parseArgs(['preview', 'a']).format, 'yaml');
  assert.deepEqual(parseArgs(['check', '--crd', 'x', '--crd=y', 'a']).crdPaths, ['x', 'y']);
  assert.equal(parseArgs(['--help']).command, 'help');
  assert.throws(() => parseArgs([]), UsageError);
  assert.throws(() => parseArgs(['lint', 'a']), /unknown command "lint"/);
  assert.throws(() => parseArgs(['check']), /no paths given/);
  assert.throws(() => parseArgs(['check', '--bogus', 'a']), /unknown option --bogus/);
  assert.throws(() => parseArgs(['check', '-f', 'yaml', 'a']), /unknown format "yaml"/);
  assert.throws(() => parseArgs(['check', 'a', '--format']), /needs a value/);
});

test('help prints usage and exits 0; usage errors exit 2 with one line and a hint', () => {
  const h = cli(['--help']);
  assert.equal(h.code, 0);
  assert.match(h.out, /^Usage: crd-yaml <command>/);
  assert.match(h.out, /--format/);
  const u = cli(['check']);
  assert.equal(u.code, 2);
  assert.equal(u.out, '');
  assert.equal(u.err.trim().split('\n')[0], 'crd-yaml: check: no paths given');
});

test('input errors: missing path, empty directory, binary file: exit 2, one line each, no stack', () => {
  const dir = tmp({ 'empty/readme.txt': 'hello', 'bin.yaml': Buffer.from([0x61, 0x3a, 0x00, 0x01, 0x02]) });
  const missing = path.join(dir, 'nope.yaml');
  for (const [p, msg] of [
    [missing, 'no such file or directory'],
    [path.join(dir, 'empty'), 'no .yaml or .yml files found in this directory'],
    [path.join(dir, 'bin.yaml'), 'binary file, not YAML'],
  ]) {
    const r = cli(['check', p]);
    assert.equal(r.code, 2, p);
    assert.equal(r.err, `crd-yaml: ${p}: ${msg}\n`);
    assert.doesNotMatch(r.err, /\n\s+at /);
  }
});

test('a missing path among good ones: the good ones are still checked, exit 2', () => {
  const dir = tmp({ 'ok.yaml': CR_NO_CRD });
  const r = cli(['check', '--unknown-kinds', 'hint', path.join(dir, 'ok.yaml'), path.join(dir, 'gone.yaml')]);
  assert.equal(r.code, 2);
  assert.match(r.out, /ok\.yaml:2:7: info: /);
});

test('YAML syntax errors: file:line:col, exit 1; other documents of the file still checked', () => {
  const dir = tmp({ 'bad.yaml': `${CR_NO_CRD}spec:\n  list: [1, 2\n---\n${CR_NO_CRD}` });
  const r = cli(['check', '--unknown-kinds=hint', 'bad.yaml'], dir);
  assert.equal(r.code, 1);
  const lines = r.out.trim().split('\n');
  const syntax = lines.filter((l) => l.includes(': error: '));
  assert.ok(syntax.length >= 1);
  assert.match(syntax[0], /^bad\.yaml:6:13: error: .+ \[YAMLSyntax [A-Z_]+\]$/);
  // The second document (line 9 onwards) still parsed: its CRD-not-found info is there.
  assert.ok(
    lines.some((l) => /^bad\.yaml:9:7: info: nowhere\.example\.com\/Gadget not checked: no CRD known for it \[UnknownKind\]$/.test(l)),
    r.out,
  );
  assert.match(r.err, /1 file, 2 documents: \d+ errors?/);
});

test('duplicate keys are warnings (exit 0), as the API server only warns', () => {
  const dir = tmp({ 'dup.yaml': 'apiVersion: v1\nkind: ConfigMap\nkind: ConfigMap\nmetadata: {name: c}\n' });
  const r = cli(['check', 'dup.yaml'], dir);
  assert.equal(r.code, 0);
  assert.match(r.out, /^dup\.yaml:3:1: warning: .*\[YAMLWarning DUPLICATE_KEY\]$/m);
});

test('files without Kubernetes objects and built-in objects give nothing (as in the editor); --quiet hides infos', () => {
  const dir = tmp({ 'a/list.yaml': '- 1\n- 2\n', 'a/cm.yml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n', 'a/notes.txt': ':', 'b/cr.yaml': CR_NO_CRD });
  const r = cli(['check', 'a'], dir);
  assert.equal(r.code, 0);
  assert.equal(r.out, '');
  assert.match(r.err, /2 files, 2 documents/);
  const q = cli(['check', '-q', '--unknown-kinds', 'hint', 'b'], dir);
  assert.equal(q.out, '');
});

test('a custom resource without its CRD is not checked: counted, listed with --unknown-kinds hint, never an error; exit 1 when nothing at all was checked', () => {
  const dir = tmp({ 'cr.yaml': CR_NO_CRD, 'pod.yaml': 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n' });
  const r = cli(['check', '--builtins', 'off', 'cr.yaml', 'pod.yaml'], dir);
  // kubeconform and kubectl-validate fail without a schema: a run that checked nothing must not pass.
  assert.equal(r.code, 1);
  assert.equal(r.out, '');
  assert.equal(
    r.err,
    'crd-yaml: 2 files, 2 documents: 0 errors, 0 warnings, 0 info; nothing checked (exit code 1): no CRD known for the kinds of its objects; ' +
      'not checked: 1 object with no CRD for its kind (give CRDs with --crd <file|url> or --cluster; --unknown-kinds hint lists them), 1 object of built-in kinds (--builtins off, or no schema at the Kubernetes version)\n',
  );
  // With the built-in kinds (the default), the Pod is checked: the API server requires its containers.
  const b = cli(['check', 'cr.yaml', 'pod.yaml'], dir);
  assert.equal(b.out, 'pod.yaml:2:1: error: spec.containers: Required value [FieldValueRequired spec.containers]\n');
  assert.match(b.err, /checked 1 object of built-in kinds; not checked: 1 object with no CRD/);
  const h = cli(['check', '--unknown-kinds', 'hint', 'cr.yaml'], dir);
  assert.equal(h.code, 1);
  assert.equal(h.out, 'cr.yaml:2:7: info: nowhere.example.com/Gadget not checked: no CRD known for it [UnknownKind]\n');
  assert.doesNotMatch(h.err, /--unknown-kinds hint lists them/);
  assert.throws(() => parseArgs(['check', '--unknown-kinds', 'loud', 'a']), /unknown --unknown-kinds "loud"/);
  // Built-in objects only: nothing to supply, nothing failed.
  assert.equal(cli(['check', '--builtins', 'off', 'pod.yaml'], dir).code, 0);
});

test('--fail-on-unchecked: exit 1 when any object had no CRD, even beside checked ones; the summary counts both', () => {
  const crd = fs.readFileSync(path.join(ROOT, 'examples/crontab-crd.yaml'), 'utf8');
  const valid = fs.readFileSync(path.join(ROOT, 'examples/crontab-valid.yaml'), 'utf8');
  const dir = tmp({ 'crd.yaml': crd, 'ok.yaml': valid, 'cr.yaml': CR_NO_CRD });
  const r = cli(['check', '.'], dir);
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /; checked 1 CRD, 1 custom resource; not checked: 1 object with no CRD for its kind \(give CRDs with --crd <file\|url> or --cluster; --unknown-kinds hint lists them\)\n$/);
  const f = cli(['check', '--fail-on-unchecked', '.'], dir);
  assert.equal(f.code, 1);
  assert.equal(f.out, '');
  // Nothing without a CRD: the flag changes nothing.
  assert.equal(cli(['check', '--fail-on-unchecked', 'crd.yaml', 'ok.yaml'], dir).code, 0);
  assert.throws(() => parseArgs(['preview', '--fail-on-unchecked', 'a']), /--fail-on-unchecked is for check/);
  // JSON and SARIF carry the same counts.
  const j = JSON.parse(cli(['check', '-f', 'json', '.'], dir).out);
  assert.deepEqual(j.summary.checked, { crd: 1, customResource: 1, builtinObject: 0, partialObject: 0, unservedKind: 0 });
  assert.equal(j.summary.notChecked.noCrd, 1);
  assert.equal(j.summary.unchecked, 1);
  const sarif = JSON.parse(cli(['check', '-f', 'sarif', '.'], dir).out);
  assert.deepEqual(sarif.runs[0].properties.checked, j.summary.checked);
  assert.deepEqual(sarif.runs[0].properties.notChecked, j.summary.notChecked);
});

test('the summary line: documents not checked by reason, each with its next step', () => {
  const dir = tmp({
    'mixed.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\n${CR_NO_CRD}---\n- just a list\n`,
    'kustomization.yaml': 'resources:\n- mixed.yaml\n',
    'kind.yaml': 'apiVersion: kind.x-k8s.io/v1alpha4\nkind: Cluster\nnodes: []\n',
    'skaffold.yaml': 'apiVersion: skaffold/v4beta11\nkind: Config\n',
    'chart/Chart.yaml': 'apiVersion: v2\nname: c\nversion: 0.1.0\n',
    'chart/templates/x.yaml': '{{- if .Values.on }}\napiVersion: {{ .Values.api }}\nkind: {{ .Values.kind }}\nmetadata:\n  name: x\n{{- end }}\n',
  });
  const r = cli(['check', '--builtins', 'off', '.'], dir);
  assert.equal(
    r.err,
    'crd-yaml: 6 files, 8 documents: 0 errors, 0 warnings, 0 info; nothing checked (exit code 1): no CRD known for the kinds of its objects; not checked: ' +
      '1 object with no CRD for its kind (give CRDs with --crd <file|url> or --cluster; --unknown-kinds hint lists them), 1 document a template decides (--unknown-kinds hint lists them), ' +
      '1 object of built-in kinds (--builtins off, or no schema at the Kubernetes version), 4 documents of client-side tools (kustomize, Helm, ...), 1 document that is not a Kubernetes object\n',
  );
  assert.match(cli(['check', '.'], dir).err, /0 errors, 0 warnings, 0 info; checked 1 object of built-in kinds; not checked: /);
  // hint lists the objects with no CRD and the documents a template decides.
  const h = cli(['check', '--unknown-kinds', 'hint', '.'], dir);
  assert.match(h.out, /^chart\/templates\/x\.yaml:2:1: info: not checked: the template decides what this document is \(its apiVersion or kind\) \[TemplateKind\]$/m);
  assert.match(h.out, /^mixed\.yaml:7:7: info: nowhere\.example\.com\/Gadget not checked: no CRD known for it \[UnknownKind\]$/m);
  assert.equal(h.out.trim().split('\n').length, 2, h.out);
});

test('a kind or version a built-in group does not have is an error (kubectl: no matches for kind); a built-in kind is not checked', () => {
  // The API server (kubectl apply) answers `no matches for kind "Deploymnet" in version "apps/v1"`, and the
  // same for extensions/v1beta1 (removed in Kubernetes 1.16 for Deployment, the group in 1.22).
  const dir = tmp({
    'typo.yaml': 'apiVersion: apps/v1\nkind: Deploymnet\nmetadata:\n  name: a\n',
    'removed.yaml': 'apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata:\n  name: a\n',
    'ok.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\n',
  });
  const r = cli(['check', '--builtins', 'off', '-f', 'json', 'typo.yaml', 'removed.yaml', 'ok.yaml'], dir);
  assert.equal(r.code, 1);
  const j = JSON.parse(r.out);
  assert.deepEqual(
    j.findings.map((f: { file: string; line: number; column: number; severity: string; code: string; message: string; apiMessage: string }) => [f.file, f.line, f.column, f.severity, f.code, f.message, f.apiMessage]),
    [
      ['typo.yaml', 2, 7, 'error', 'NoKindMatch', 'no matches for kind "Deploymnet" in version "apps/v1" (did you mean "Deployment"?)', 'no matches for kind "Deploymnet" in version "apps/v1"'],
      [
        'removed.yaml',
        2,
        7,
        'error',
        'NoKindMatch',
        'no matches for kind "Deployment" in version "extensions/v1beta1" (removed in Kubernetes 1.16: use apps/v1 Deployment)',
        'no matches for kind "Deployment" in version "extensions/v1beta1"',
      ],
    ],
  );
  assert.deepEqual(j.summary.checked, { crd: 0, customResource: 0, builtinObject: 0, partialObject: 0, unservedKind: 2 });
  assert.equal(j.summary.notChecked.builtinKind, 1);
  // Kubernetes older than the built-in table (1.34): not an error, said with --unknown-kinds hint.
  const old = cli(['check', '--kubernetes-version', '1.30', '--unknown-kinds', 'hint', 'typo.yaml'], dir);
  assert.equal(old.code, 0);
  assert.match(old.out, /^typo\.yaml:2:7: info: no matches for kind "Deploymnet" in version "apps\/v1" in Kubernetes 1\.34 and later \(did you mean "Deployment"\?\) \[UnknownKind\]$/m);
});

test('--format json: findings with 1-based ranges, counts, input errors', () => {
  const dir = tmp({ 'bad.yaml': 'a: [1\n' });
  const r = cli(['check', '--format', 'json', 'bad.yaml', 'missing.yaml'], dir);
  assert.equal(r.code, 2);
  const j = JSON.parse(r.out);
  assert.deepEqual(j.inputErrors, ['missing.yaml: no such file or directory']);
  assert.equal(j.summary.files, 1);
  assert.ok(j.summary.error >= 1);
  const f = j.findings[0];
  assert.equal(f.file, 'bad.yaml');
  assert.equal(f.severity, 'error');
  assert.equal(f.rule, 'YAMLSyntax');
  assert.equal(typeof f.line, 'number');
  assert.ok(f.endLine > f.line || (f.endLine === f.line && f.endColumn >= f.column));
});

test('--format sarif: a valid SARIF 2.1.0 log', () => {
  const dir = tmp({ 'sub/bad.yaml': 'a: [1\n', 'cr.yaml': CR_NO_CRD });
  const r = cli(['check', '--format', 'sarif', '--unknown-kinds', 'hint', 'sub', 'cr.yaml'], dir);
  assert.equal(r.code, 1);
  const s = JSON.parse(r.out);
  assert.equal(s.version, '2.1.0');
  assert.match(s.$schema, /sarif-2\.1\.0/);
  assert.equal(s.runs.length, 1);
  const run = s.runs[0];
  assert.equal(run.tool.driver.name, 'crd-yaml');
  assert.ok(Array.isArray(run.tool.driver.rules) && run.tool.driver.rules.length > 0);
  for (const rule of run.tool.driver.rules) assert.equal(typeof rule.id, 'string');
  assert.ok(run.results.length >= 2);
  for (const res of run.results) {
    assert.ok(['error', 'warning', 'note'].includes(res.level));
    assert.equal(typeof res.message.text, 'string');
    assert.equal(run.tool.driver.rules[res.ruleIndex].id, res.ruleId);
    const loc = res.locations[0].physicalLocation;
    assert.equal(loc.artifactLocation.uriBaseId, '%SRCROOT%');
    assert.ok(loc.region.startLine >= 1 && loc.region.startColumn >= 1);
  }
  const uris = run.results.map((x: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }) => x.locations[0].physicalLocation.artifactLocation.uri);
  assert.ok(uris.includes('sub/bad.yaml'));
  assert.ok(uris.includes('cr.yaml'));
  const note = run.results.find((x: { ruleId: string }) => x.ruleId === 'UnknownKind');
  assert.equal(note.level, 'note');
  assert.deepEqual(note.locations[0].physicalLocation.region, { startLine: 2, startColumn: 7, endLine: 2, endColumn: 13 });
  assert.match(run.originalUriBaseIds['%SRCROOT%'].uri, /^file:\/\/.*\/$/);
});

test('preview: nothing to preview is a usage error', () => {
  const dir = tmp({ 'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\n' });
  const r = cli(['preview', 'cm.yaml'], dir);
  assert.equal(r.code, 2);
  assert.match(r.err, /no custom resources to preview/);
});

test('preview: a CR without CRD is listed with a note, as a YAML comment', () => {
  const dir = tmp({ 'cr.yaml': CR_NO_CRD });
  const r = cli(['preview', 'cr.yaml'], dir);
  assert.equal(r.code, 0);
  assert.match(r.out, /^# cr\.yaml:1: Gadget g\n# no CustomResourceDefinition known for kind Gadget in group nowhere\.example\.com\n$/);
});

// The following use the real engine on the bundled examples.

test('check examples/: the invalid examples give their findings at the right places, exit 1', () => {
  const r = cli(['check', 'examples']);
  assert.equal(r.code, 1);
  const lines = r.out.split('\n');
  const has = (re: RegExp) =>
    assert.ok(
      lines.some((l) => re.test(l)),
      `${re} not in:\n${r.out}`,
    );
  const p = (f: string) => path.join('examples', f).replace(/[\\.]/g, (c) => '\\' + c);
  has(new RegExp(`^${p('crontab-bad-pattern.yaml')}:7:13: error: spec\\.cronSpec: Invalid value: "\\* \\* \\* \\*": .*should match.* \\[FieldValueInvalid spec\\.cronSpec\\]$`));
  has(new RegExp(`^${p('crontab-replicas-out-of-range.yaml')}:9:13: error: spec\\.replicas: Invalid value: 15: .* \\[FieldValueInvalid spec\\.replicas\\]$`));
  has(new RegExp(`^${p('crontab-wrong-type.yaml')}:9:13: error: .*must be of type integer.* \\[FieldValueTypeInvalid spec\\.replicas\\]$`));
  // Unknown fields are errors, in the API server's strict-decoding words (kubectl apply's default).
  has(
    new RegExp(
      `^${p('crontab-unknown-field.yaml')}:10:3: error: CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec\\.someRandomField" \\[UnknownField spec\\.someRandomField\\]$`,
    ),
  );
  has(new RegExp(`^${p('crontab-cel-failure.yaml')}:\\d+:\\d+: error: spec: Invalid value: .*replicas should be smaller than or equal to maxReplicas\\.`));
  has(new RegExp(`^${p('crontabs-multi.yaml')}:17:13: error: spec\\.replicas: Invalid value: 0: .*greater than or equal to 1`));
  has(new RegExp(`^${p('nonstructural-crd.yaml')}:22:13: error: spec\\.validation\\.openAPIV3Schema\\.properties\\[spec\\]\\.type: Required value`));
  // The valid ones are silent.
  assert.ok(!lines.some((l) => l.startsWith(path.join('examples', 'crontab-valid.yaml'))), r.out);
  assert.ok(!lines.some((l) => l.startsWith(path.join('examples', 'crontab-crd.yaml'))), r.out);
  assert.ok(!lines.some((l) => /crontabs-multi\.yaml:[1-9]:/.test(l)), r.out);
});

test('preview examples: pruned and defaulted fields are listed, the stored object printed', () => {
  const r = cli(['preview', '--crd', 'examples/crontab-crd.yaml', 'examples/crontabs-multi.yaml', 'examples/crontab-unknown-field.yaml']);
  assert.equal(r.code, 1); // the second CronTab of the multi-document file is invalid
  const docs = r.out.split(/^---\n/m);
  assert.equal(docs.length, 3);
  assert.match(docs[0], /# defaulted: spec\.cronSpec = "5 0 \* \* \*"/);
  assert.match(docs[0], /# defaulted: spec\.replicas = 1/);
  assert.match(docs[0], /\n {2}replicas: 1\n/);
  assert.match(docs[1], /# error: spec\.replicas: Invalid value: 0/);
  assert.match(docs[2], /# pruned: spec\.someRandomField \(unknown field\)/);
  assert.doesNotMatch(docs[2], /someRandomField: 42/);
  const j = JSON.parse(cli(['preview', '-f', 'json', 'examples']).out);
  const defaulted = j.find((e: { name: string }) => e.name === 'defaulted');
  assert.equal(defaulted.crd, 'crontabs.stable.example.com');
  assert.equal(defaulted.object.spec.replicas, 1);
});

test('the bundled entry never prints a stack trace and sets the exit code', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/src/cli.ts'), 'check', '/definitely/not/here'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, 'crd-yaml: /definitely/not/here: no such file or directory\n');
});

test("output cut short by a closed pipe (crd-yaml check | head): no stack trace, the exit code is still the check's", async () => {
  const crd = fs.readFileSync(path.join(ROOT, 'examples/crontab-crd.yaml'), 'utf8');
  // About 300 KB of findings: more than a pipe holds, so writes after the reader left fail with EPIPE.
  const crs = Array.from({ length: 2000 }, (_, i) => `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: c${i}\nspec:\n  replicas: 20\n`).join('---\n');
  const dir = tmp({ 'crd.yaml': crd, 'crs.yaml': crs });
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/src/cli.ts'), 'check', '--crd', path.join(dir, 'crd.yaml'), path.join(dir, 'crs.yaml')], { cwd: ROOT });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  // Read one chunk, then close the pipe, as head does.
  child.stdout.once('data', () => child.stdout.destroy());
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 1);
  assert.equal(err, 'crd-yaml: 1 file, 2000 documents: 2000 errors, 0 warnings, 0 info; checked 2000 custom resources\n');
});

test('scalars are read as Kubernetes reads them (0755 is octal); --yaml-1.2 reads YAML 1.2 core', () => {
  const crd = fs.readFileSync(path.join(ROOT, 'examples/crontab-crd.yaml'), 'utf8');
  const dir = tmp({
    'crd.yaml': crd,
    'cr.yaml': 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: octal\nspec:\n  replicas: 010\n',
  });
  // 010 is 8 for kubectl (within 1..10), 10 in YAML 1.2 (also within): use the JSON value via preview.
  const k8s = JSON.parse(cli(['preview', '-f', 'json', 'cr.yaml', '--crd', 'crd.yaml'], dir).out);
  assert.equal(k8s[0].object.spec.replicas, 8);
  const y12 = JSON.parse(cli(['preview', '-f', 'json', '--yaml-1.2', 'cr.yaml', '--crd', 'crd.yaml'], dir).out);
  assert.equal(y12[0].object.spec.replicas, 10);
});

test('a file that is not YAML at all gives one line, not one per syntax error', () => {
  const dir = tmp({
    'script.js': '"use strict";\nvar a = {b: 1}, c = [2];\nmodule.exports = {a: a};\n'.repeat(30),
    'notes.md': '# Title\n\nSome `code` here:\n\n```\nx\n```\n',
    // Plain text that happens to be one YAML string: no Kubernetes object, an information.
    'plain.js': 'function f(a) {\n  return a.map((x) => x + 1);\n}\n',
  });
  const p = cli(['check', 'plain.js'], dir);
  assert.equal(p.code, 0);
  assert.equal(p.out, '');
  for (const f of ['script.js', 'notes.md']) {
    const r = cli(['check', f], dir);
    assert.equal(r.code, 1, f);
    const lines = r.out.trim().split('\n');
    assert.equal(lines.length, 1, r.out);
    assert.match(lines[0], new RegExp(`^${f.replace('.', '\\.')}:\\d+:\\d+: error: not a YAML file: \\d+ syntax errors?, the first: .+ \\[NotYaml [A-Z_]+\\]$`));
  }
});

test('a CRD in apiextensions.k8s.io/v1beta1 is an error at its apiVersion (not served since 1.22)', () => {
  const crd = fs.readFileSync(path.join(ROOT, 'examples/crontab-crd.yaml'), 'utf8').replace('apiextensions.k8s.io/v1\n', 'apiextensions.k8s.io/v1beta1\n');
  const dir = tmp({ 'crd.yaml': crd });
  const r = cli(['check', 'crd.yaml'], dir);
  assert.equal(r.code, 1);
  const line = crd.split('\n').findIndex((l) => l.startsWith('apiVersion:')) + 1;
  assert.equal(r.out, `crd.yaml:${line}:13: error: no matches for kind "CustomResourceDefinition" in version "apiextensions.k8s.io/v1beta1" [NoKindMatch]\n`);
});

test('a CEL compile error in a CRD points inside the rule string, on one line', () => {
  const crd = fs.readFileSync(path.join(ROOT, 'examples/crontab-crd.yaml'), 'utf8').replace('self.replicas <= self.maxReplicas"', 'self.replicas <= self.maxReplica"');
  const dir = tmp({ 'crd.yaml': crd });
  const r = cli(['check', 'crd.yaml'], dir);
  assert.equal(r.code, 1);
  const lines = r.out.trim().split('\n');
  assert.equal(lines.length, 1, r.out);
  const m = /^crd\.yaml:(\d+):(\d+): error: .*x-kubernetes-validations\[0\]\.rule: .*undefined field 'maxReplica'/.exec(lines[0]);
  assert.ok(m, r.out);
  const srcLine = crd.split('\n')[Number(m[1]) - 1];
  const col = Number(m[2]) - 1;
  const ruleStart = srcLine.indexOf('"!has') + 1;
  assert.ok(col > ruleStart && col < srcLine.lastIndexOf('"'), `column ${col + 1} not inside the rule: ${srcLine}`);
  assert.doesNotMatch(lines[0], /\.\.\.\^/);
});

test('a CR whose CRD has YAML syntax errors: the CRD gets the syntax error, the CR an information', () => {
  const crd = fs.readFileSync(path.join(ROOT, 'examples/crontab-crd.yaml'), 'utf8').replace('    shortNames:\n      - ct\n', '    shortNames: [ct\n');
  const dir = tmp({ 'crd.yaml': crd, 'cr.yaml': fs.readFileSync(path.join(ROOT, 'examples/crontab-valid.yaml'), 'utf8') });
  const r = cli(['check', 'crd.yaml', 'cr.yaml'], dir);
  assert.equal(r.code, 1);
  assert.match(r.out, /^crd\.yaml:\d+:\d+: error: .*\[YAMLSyntax [A-Z_]+\]$/m);
  assert.match(r.out, /^cr\.yaml:3:7: info: not checked: the CustomResourceDefinition crontabs\.stable\.example\.com has YAML syntax errors \[CRDUnreadable\]$/m);
});

test('- reads the standard input (e.g. helm template | crd-yaml check - --crd crds/)', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/src/cli.ts'), 'check', '-', '--crd', 'examples/crontab-crd.yaml'], {
    cwd: ROOT,
    encoding: 'utf8',
    input: fs.readFileSync(path.join(ROOT, 'examples/crontab-replicas-out-of-range.yaml'), 'utf8'),
  });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stdout, /^<stdin>:9:13: error: spec\.replicas: Invalid value: 15: .*\[FieldValueInvalid spec\.replicas\]$/m);
});
