/**
 * One voice: `crd-yaml check --format json` and the language service (as an editor sees a workspace: CRD
 * files indexed, the file opened) give the same set of (file, line, severity, code) findings.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { runCli } from '../../server/src/cli/main';
import { collectYamlFiles } from '../../server/src/cli/files';
import { LanguageService } from '../../server/src/service/languageService';
import type { FindingSeverity } from '../../server/src/service/finding';
import { needsShared, sharedPath } from '../shared';

const ROOT = path.resolve(__dirname, '../..');
const REALWORLD = sharedPath('realworld');
const NO_SHARED = needsShared('realworld');

const cliSeverity = (s: FindingSeverity) => (s === 'error' || s === 'warning' ? s : 'info');

/** The CLI's findings as `file:line:severity:code` (file relative to the repository). */
function cliSet(args: string[]): Set<string> {
  let out = '';
  const code = runCli(['check', '--format', 'json', ...args], { stdout: (s) => (out += s), stderr: () => undefined, cwd: ROOT });
  assert.ok(code === 0 || code === 1, `exit ${code}`);
  const j = JSON.parse(out) as { findings: Array<{ file: string; line: number; severity: string; code: string }> };
  return new Set(j.findings.map((f) => `${path.relative(ROOT, path.resolve(ROOT, f.file))}:${f.line}:${f.severity}:${f.code}`));
}

/** The editor's: a service with the workspace's CRD files indexed, then each input opened and checked. */
function editorSet(inputs: string[], workspace: string[]): Set<string> {
  const s = new LanguageService();
  const read = (paths: string[]) => collectYamlFiles(paths, ROOT).files;
  for (const f of read(workspace)) s.indexDiskFile(pathToFileURL(path.resolve(ROOT, f.path)).href, f.text);
  const out = new Set<string>();
  for (const f of read(inputs)) {
    const td = TextDocument.create(pathToFileURL(path.resolve(ROOT, f.path)).href, 'yaml', 1, f.text);
    s.update(td);
    for (const x of s.findings(td)) out.add(`${path.relative(ROOT, path.resolve(ROOT, f.path))}:${x.range.start.line + 1}:${cliSeverity(x.severity)}:${x.code}`);
    s.close(td.uri);
  }
  return out;
}

function assertSame(cli: Set<string>, editor: Set<string>): void {
  const onlyCli = [...cli].filter((k) => !editor.has(k));
  const onlyEditor = [...editor].filter((k) => !cli.has(k));
  assert.deepEqual({ onlyCli, onlyEditor }, { onlyCli: [], onlyEditor: [] });
}

test('CLI and editor agree on every file of examples/', () => {
  const cli = cliSet(['examples']);
  assertSame(cli, editorSet(['examples'], ['examples']));
  // The examples are invalid on purpose in several ways (values, CEL, unknown field, NonStructural).
  const codes = new Set([...cli].map((k) => k.split(':').pop()));
  for (const c of ['FieldValueInvalid', 'FieldValueTypeInvalid', 'UnknownField', 'FieldValueRequired']) assert.ok(codes.has(c), `${c} in ${[...codes]}`);
});

test('CLI (--crd) and editor (CRDs in the workspace) agree on the real-world samples', { skip: NO_SHARED }, () => {
  const samples = path.relative(ROOT, path.join(REALWORLD, 'samples'));
  const crds = path.relative(ROOT, path.join(REALWORLD, 'crds'));
  const cli = cliSet([samples, '--crd', crds]);
  assertSame(cli, editorSet([samples], [crds, samples]));
  // Real work was done (the cluster-api templates' `${VAR}` values are no longer findings: see
  // test/service/substitution.test.ts).
  assert.ok(cli.size >= 10, `${cli.size} findings`);
  // Unknown fields are errors by default in both (kubectl apply's strict field validation).
  assert.ok([...cli].some((k) => k.endsWith(':error:UnknownField')));
});

test('batch service (the CLI: fast reader, syntax trees on demand, no memo) = editor service, on real CRDs checked as inputs', { skip: NO_SHARED }, () => {
  const dirs = ['gateway-api', 'cert-manager', 'cluster-api'].map((d) => path.join(REALWORLD, 'crds', d));
  const files = collectYamlFiles(dirs, ROOT).files;
  const batch = new LanguageService({ unknownKinds: 'hint' }, { batch: true });
  const editor = new LanguageService({ unknownKinds: 'hint' });
  const tds = files.map((f) => TextDocument.create(pathToFileURL(path.resolve(ROOT, f.path)).href, 'yaml', 1, f.text));
  for (const td of tds) {
    batch.update(td);
    editor.update(td);
  }
  let findings = 0;
  for (const td of tds) {
    const a = batch.findings(td);
    assert.deepEqual(a, editor.findings(td), td.uri);
    for (const f of a) assert.deepEqual(batch.fixesOf(td, f, a), editor.fixesOf(td, f, a), `${td.uri}: fixes of ${f.code}`);
    findings += a.length;
  }
  // Duplicate definitions (standard and experimental channels) need positions: syntax trees were built.
  assert.ok(findings > 5, `${findings} findings`);
});
