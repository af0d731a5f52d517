/**
 * What the CRD catalog answered for a kind no local CRD defines, said on the objects of that kind
 * (LanguageService.setCatalogAnswer; lsp/repository.ts and cli/test.ts set it): not in the catalog, in the
 * "not checked" information; refused by crd-yaml.lock, an error on the kind whatever unknownKinds says,
 * linked to the lock's entry, the object still not checked; forgotten, as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LanguageService } from '../../server/src/service/languageService';
import type { UnknownKinds } from '../../server/src/service/context';

const TEXT = 'apiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: a\n---\napiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: b\n';
const LOCK = { uri: 'file:///ws/crd-yaml.lock', range: { start: { line: 1, character: 0 }, end: { line: 1, character: 26 } } };
const REFUSED = { refused: 'its CRD in the catalog is not the one crd-yaml.lock pins', detail: 'catalog CRD Gadget.example.com: http://127.0.0.1/x has sha256 1, crd-yaml.lock locks 0', lock: LOCK };

function check(unknownKinds: UnknownKinds, answer?: Parameters<LanguageService['setCatalogAnswer']>[2]) {
  const s = new LanguageService({ unknownKinds });
  const td = TextDocument.create('file:///ws/gadget.yaml', 'yaml', 1, TEXT);
  s.update(td);
  // Asked for before the answer (the editor's order): the answer changes what is said.
  s.findings(td);
  assert.equal(s.setCatalogAnswer('example.com', 'Gadget', answer), answer !== undefined);
  return { findings: s.findings(td).map((f) => `${f.range.start.line} ${f.severity} ${f.code} ${f.message}`), coverage: s.coverage(td), related: s.findings(td)[0]?.related };
}

test('not in the catalog: the "not checked" information says so, in file and hint modes', () => {
  assert.deepEqual(check('file', { notFound: true }).findings, ['1 information UnknownKind example.com/Gadget not checked: no CRD known for it (not in the catalog either) (nor for 1 more object of this file)']);
  assert.deepEqual(check('hint', { notFound: true }).findings, [
    '1 information UnknownKind example.com/Gadget not checked: no CRD known for it (not in the catalog either)',
    '6 information UnknownKind example.com/Gadget not checked: no CRD known for it (not in the catalog either)',
  ]);
  // Not asked: as before.
  assert.deepEqual(check('file').findings, ['1 information UnknownKind example.com/Gadget not checked: no CRD known for it (nor for 1 more object of this file)']);
});

test('refused by crd-yaml.lock: an error on each object of the kind, linked to the lock entry, the objects not checked', () => {
  for (const mode of ['ignore', 'file', 'hint'] as const) {
    const r = check(mode, REFUSED);
    assert.deepEqual(
      r.findings,
      [1, 6].map((l) => `${l} error CatalogLockMismatch example.com/Gadget not checked: its CRD in the catalog is not the one crd-yaml.lock pins`),
      mode,
    );
    assert.deepEqual(r.related, [{ location: LOCK, message: REFUSED.detail }]);
    assert.deepEqual(
      r.coverage.map((c) => ('notChecked' in c ? c.notChecked : c.checked)),
      ['noCrd', 'noCrd'],
    );
  }
});
