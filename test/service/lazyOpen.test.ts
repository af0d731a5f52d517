/**
 * A large open document's first findings come from the fast reader's values (LanguageService
 * `lazyFromChars`, yaml/document.ts parseBlockYamlDocuments: what the editor's check worker does on open), its syntax
 * trees built after (parseFully): its findings, their positions and their fixes are the full parse's at
 * open, after parseFully and after an edit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LanguageService } from '../../server/src/service/languageService';
import { needsShared, REPO_ROOT, sharedPath } from '../shared';

const NO_SHARED = needsShared('realworld', 'crds', 'argo-workflows');

/** Real CRDs with a mistake planted: a misspelt keyword (argo, as the editor bench), a bad type, a misspelt property. */
function realCrds(): Array<{ name: string; text: string }> {
  const read = (...p: string[]) => readFileSync(sharedPath('realworld', 'crds', ...p), 'utf8');
  const plant = (text: string, from: string, to: string) => {
    assert.ok(text.includes(from), from);
    return text.replace(from, to);
  };
  return [
    {
      name: 'argo',
      text: plant(read('argo-workflows', 'argoproj.io_cronworkflows.yaml'), '              lastScheduledTime:\n                format: date-time', '              lastScheduledTime:\n                formatx: date-time'),
    },
    { name: 'httproutes', text: plant(read('gateway-api', 'standard', 'gateway.networking.k8s.io_httproutes.yaml'), 'type: string', 'type: strin') },
    { name: 'certificates', text: plant(read('cert-manager', 'cert-manager.io_certificates.yaml'), 'minLength: 1', 'minLenght: 1') },
  ];
}

function examples(): Array<{ name: string; text: string }> {
  const dir = path.join(REPO_ROOT, 'examples');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => ({ name: f, text: readFileSync(path.join(dir, f), 'utf8') }));
}

/** Each file opened in a service that reads it lazily and in one that parses it in full: the same answers. */
function assertSameAsFullParse(files: Array<{ name: string; text: string }>): number {
  let lazilyRead = 0;
  const lazy = new LanguageService({}, { lazyFromChars: 1 });
  const full = new LanguageService();
  const tds = files.map((f) => TextDocument.create(`file:///ws/${f.name}`, 'yaml', 1, f.text));
  // Every file's CRDs first (a CR file's findings need them), as an editor with the workspace open.
  for (const td of tds) {
    lazy.update(td);
    full.update(td);
  }
  for (const td of tds) {
    const expected = full.findings(td);
    assert.deepEqual(lazy.findings(td), expected, `${td.uri}: at open`);
    if (!lazy.readLazily(td.uri)) continue;
    lazilyRead++;
    assert.equal(lazy.parseFully(td), true);
    assert.equal(lazy.readLazily(td.uri), false);
    assert.equal(lazy.parseFully(td), false, 'parsed in full once');
    const after = lazy.findings(td);
    assert.deepEqual(after, expected, `${td.uri}: after parseFully`);
    for (const f of after) assert.deepEqual(lazy.fixesOf(td, f, after), full.fixesOf(td, f, expected), `${td.uri}: fixes of ${f.code}`);
  }
  return lazilyRead;
}

test('examples/: findings at open and after the full parse are the full parse’s', () => {
  // The CRD files among them are plain block YAML (read lazily); the others are parsed in full at once.
  assert.ok(assertSameAsFullParse(examples()) >= 3);
});

test('real CRDs with planted mistakes: findings, positions and fixes are the full parse’s', { skip: NO_SHARED }, () => {
  assert.equal(assertSameAsFullParse(realCrds()), 3);
});

test('the first findings of the 2.9 MB argo CRD read no syntax tree; an edit before parseFully is checked as in a full parse', { skip: NO_SHARED }, () => {
  const { text } = realCrds()[0];
  const td = TextDocument.create('file:///ws/argo.yaml', 'yaml', 1, text);
  const lazy = new LanguageService({}, { lazyFromChars: 256 * 1024 });
  lazy.update(td);
  assert.equal(lazy.readLazily(td.uri), true);
  // A syntax tree is built on a document's first use of its parse (yaml/document.ts); none may be made.
  const f = lazy.file(td);
  assert.equal(f.readByFastReader, true);
  const findings = lazy.findings(td);
  assert.deepEqual(
    f.documents.filter((d) => d.parsedIfMade !== undefined).map((d) => d.index),
    [],
    'documents parsed',
  );
  assert.deepEqual(
    findings.map((x) => [x.code, x.range.start.line, x.range.start.character, x.message]),
    [['UnknownField', 43580, 16, 'unknown field "formatx" (did you mean "format"?): rejected by strict field validation (kubectl apply); other clients drop it (pruning)']],
  );

  // A keystroke before the full parse: the new text is parsed from the lazily read one.
  const at = text.indexOf('formatx') + 'formatx'.length - 1;
  const v2 = TextDocument.create(td.uri, 'yaml', 2, text.slice(0, at) + text.slice(at + 1));
  const edited = new LanguageService({}, { lazyFromChars: 256 * 1024 });
  edited.update(td);
  edited.findings(td);
  edited.update(v2);
  assert.equal(edited.readLazily(td.uri), false);
  const full = new LanguageService();
  full.update(v2);
  assert.deepEqual(edited.findings(v2), full.findings(v2));
  assert.deepEqual(
    edited.findings(v2).map((x) => x.code),
    [],
  );
});
