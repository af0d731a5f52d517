/**
 * `crd-yaml migrate`: the v1 CRDs printed or written in place, comments kept, notes on stderr, exit codes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { runCli } from '../../server/src/cli/main';
import { validateCustomResourceDefinition } from '../../server/src/engine/crd/validation';

const FIXTURES = path.resolve(__dirname, '..', 'fixtures', 'v1beta1');

function cli(argv: string[], cwd: string): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = runCli(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), cwd });
  if (typeof code !== 'number') throw new Error('migrate answered asynchronously');
  return { code, out, err };
}

function tmp(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crd-yaml-migrate-'));
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), content);
  return dir;
}

const errorsOf = (crd: unknown) => validateCustomResourceDefinition(crd).filter((e) => (e.severity ?? 'error') === 'error');

test("migrate prints the v1 CRDs of the documentation's CronTabs with their comments, notes on stderr", () => {
  const files = fs
    .readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  const r = cli(['migrate', ...files], FIXTURES);
  assert.equal(r.code, 0, r.err);
  const docs = parseAllDocuments(r.out);
  assert.equal(docs.length, files.length);
  for (const d of docs) {
    assert.deepEqual(d.errors, []);
    assert.equal(d.get('apiVersion'), 'apiextensions.k8s.io/v1');
    assert.deepEqual(errorsOf(d.toJSON()), []);
  }
  // Comments travel with what they describe: the schema's comment moved with it into the version.
  assert.match(r.out, / {4}# What a CronTab may hold\.\n {4}schema:\n {6}openAPIV3Schema:/);
  assert.match(r.out, /minimum: 1 # at least one/);
  assert.match(r.err, /^crontab-validation\.yaml:3:1: note: spec\.versions\[0\]\.schema\.openAPIV3Schema\.properties\[spec\]: type: object added \(inferred from properties\)/m);
  assert.match(r.err, /^crontab-webhook-conversion\.yaml:3:1: note: spec\.conversion\.webhook\.conversionReviewVersions: set to \[v1beta1\]/m);
});

test('migrate --write rewrites only the v1beta1 CRDs of a file, in place', () => {
  const crd = fs.readFileSync(path.join(FIXTURES, 'crontab-subresources.yaml'), 'utf8');
  const before = '# leading comment of the file\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: keep   # as is\n';
  const after = '---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: c}\nspec: {replicas: 1}\n';
  const dir = tmp({ 'all.yaml': `${before}---\n${crd}${after}`, 'v1.yaml': 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n' });
  const r = cli(['migrate', '--write', '.'], dir);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, '');
  assert.match(r.err, /^all\.yaml: rewrote 1 CustomResourceDefinition as apiextensions\.k8s\.io\/v1$/m);
  const text = fs.readFileSync(path.join(dir, 'all.yaml'), 'utf8');
  assert.ok(text.startsWith(`${before}---\n`), text);
  assert.ok(text.endsWith(after), text);
  assert.match(text, / {6}# status enables the \/status endpoint\n {6}status: \{\}/);
  const docs = parseAllDocuments(text);
  assert.equal(docs.length, 3);
  assert.deepEqual(errorsOf(docs[1].toJSON()), []);
  // The v1 file is not touched; running again finds nothing to do.
  assert.equal(fs.readFileSync(path.join(dir, 'v1.yaml'), 'utf8'), 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n');
  const again = cli(['migrate', '--write', '.'], dir);
  assert.equal(again.code, 2);
  assert.match(again.err, /no apiextensions\.k8s\.io\/v1beta1 CustomResourceDefinition in \./);
});

test('migrate: what v1 still rejects is an error (exit 1); a document with anchors is printed without its comments', () => {
  const bad = [
    'apiVersion: apiextensions.k8s.io/v1beta1',
    'kind: CustomResourceDefinition',
    'metadata: {name: widgets.example.com}',
    'spec:',
    '  group: example.com',
    '  version: v1',
    '  names: {plural: widgets, kind: Widget}',
    '  preserveUnknownFields: false',
    '  validation:',
    '    openAPIV3Schema:',
    '      type: object',
    '      properties:',
    '        a: &s {type: string, anyOf: [{type: string}]}',
    '        b: *s',
    '',
  ].join('\n');
  const dir = tmp({ 'bad.yaml': bad });
  const r = cli(['migrate', 'bad.yaml'], dir);
  assert.equal(r.code, 1, r.err);
  assert.match(r.err, /^bad\.yaml:1:1: warning: comments not kept: the document uses anchors or aliases$/m);
  assert.match(r.err, /^bad\.yaml:1:1: error: spec\.validation\.openAPIV3Schema\.properties\[a\]\.anyOf\[0\]\.type: Forbidden: must be empty to be structural \(v1 still rejects it: fix by hand\)$/m);
  assert.match(r.err, /note: spec\.scope: set to Namespaced/);
  const [doc] = parseAllDocuments(r.out);
  assert.equal(doc.getIn(['spec', 'versions', 0, 'schema', 'openAPIV3Schema', 'properties', 'b', 'type']), 'string');
});

test('migrate usage errors', () => {
  const dir = tmp({});
  assert.match(cli(['migrate', '--write', '-'], dir).err, /migrate: --write cannot rewrite the standard input/);
  assert.match(cli(['migrate', '--webhook', 'http://x', 'a.yaml'], dir).err, /migrate: --webhook is for convert/);
  assert.match(cli(['check', '--write', 'a.yaml'], dir).err, /check: --write is for migrate/);
});
