/**
 * The keystroke path (incremental parse with splicing, findings derived for description edits, cached
 * per-document results) must give exactly the findings of a fresh service, edit after edit, on a
 * large real CRD.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LanguageService } from './languageService';
import { needsShared, sharedPath } from '../../../test/shared';

const NO_SHARED = needsShared('realworld', 'crds', 'flux');
const CRD = NO_SHARED ? '' : readFileSync(sharedPath('realworld', 'crds', 'flux', 'kustomize.toolkit.fluxcd.io_kustomizations.yaml'), 'utf8');

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return s / 2 ** 32;
  };
}

const INSERTS = ['a', 'x', ' ', ':', '-', '#', '"', '[', '0', 'X', 'é'];

test('keystrokes on a 40 KB CRD: incremental findings = fresh findings', { skip: NO_SHARED }, () => {
  assert.ok(CRD.length > 30_000);
  const rand = rng(42);
  const svc = new LanguageService();
  let td = TextDocument.create('file:///crd.yaml', 'yaml', 1, CRD);
  svc.update(td);
  svc.findings(td);
  let derivedOrQuick = 0;
  for (let i = 0; i < 24; i++) {
    const text = td.getText();
    let at: number;
    if (i % 2 === 0) {
      // Typing inside a description (the findings are derived, not recomputed).
      const d = text.indexOf('description: ', Math.floor(rand() * text.length));
      at = d < 0 ? text.indexOf('description: ') + 13 : d + 13 + Math.floor(rand() * 5);
    } else {
      // Anywhere after a line's indentation (types, names, keys: a full check).
      const ls = text.lastIndexOf('\n', Math.floor(rand() * text.length)) + 1;
      at = ls + (/^ */.exec(text.slice(ls))?.[0].length ?? 0) + Math.floor(rand() * 6);
    }
    const del = rand() < 0.3 ? 1 : 0;
    const ins = rand() < 0.8 ? INSERTS[Math.floor(rand() * INSERTS.length)] : '';
    const start = td.positionAt(at);
    const end = td.positionAt(Math.min(at + del, text.length));
    if (text.slice(at, at + del).includes('\n')) continue;
    td = TextDocument.update(td, [{ range: { start, end }, text: ins }], td.version + 1);
    svc.update(td);
    const quick = svc.quickFindings(td);
    const got = quick.pending ? svc.findings(td) : quick.findings;
    if (!quick.pending) derivedOrQuick++;
    const fresh = new LanguageService();
    const ftd = TextDocument.create('file:///crd.yaml', 'yaml', td.version, td.getText());
    fresh.update(ftd);
    assert.deepEqual(got, fresh.findings(ftd), `edit ${i}: ${JSON.stringify(ins)} at ${at}`);
  }
  // Description edits give final findings in the keystroke pass.
  assert.ok(derivedOrQuick >= 8, `final in the keystroke pass: ${derivedOrQuick}`);
});
