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
    const got = svc.findings(td);
    const fresh = new LanguageService();
    const ftd = TextDocument.create('file:///crd.yaml', 'yaml', td.version, td.getText());
    fresh.update(ftd);
    assert.deepEqual(got, fresh.findings(ftd), `edit ${i}: ${JSON.stringify(ins)} at ${at}`);
  }
});

test('structural edits on a 40 KB CRD (type, properties, items, junctor, x-kubernetes-* lines deleted and added): incremental findings = fresh findings', () => {
  const rand = rng(29);
  const svc = new LanguageService();
  let td = TextDocument.create('file:///crd.yaml', 'yaml', 1, CRD);
  svc.update(td);
  svc.findings(td);
  const STRUCTURAL = /^ *(?:type|properties|items|anyOf|allOf|oneOf|not|x-kubernetes-[a-z-]+|additionalProperties|required|- [a-z]+):/;
  let deleted: { at: number; line: string } | undefined;
  let changed = 0;
  for (let i = 0; i < 30; i++) {
    const text = td.getText();
    let next: string;
    if (deleted && rand() < 0.6) {
      // Put the deleted line back.
      next = text.slice(0, deleted.at) + deleted.line + text.slice(deleted.at);
      deleted = undefined;
    } else {
      const lines = [...text.matchAll(/^.*\n/gm)].filter((m) => STRUCTURAL.test(m[0]));
      const m = lines[Math.floor(rand() * lines.length)];
      if (rand() < 0.7) {
        next = text.slice(0, m.index) + text.slice(m.index + m[0].length);
        deleted = { at: m.index, line: m[0] };
      } else {
        // A property line or a type line added below a structural line, at its indentation.
        const indent = /^ */.exec(m[0])![0];
        const add = rand() < 0.5 ? `${indent}  zz${i}: {type: string}\n` : `${indent}type: ${rand() < 0.5 ? 'string' : 'object'}\n`;
        const at = m.index + m[0].length;
        next = text.slice(0, at) + add + text.slice(at);
        deleted = undefined;
      }
    }
    td = TextDocument.create(td.uri, 'yaml', td.version + 1, next);
    svc.update(td);
    const got = svc.findings(td);
    const fresh = new LanguageService();
    const ftd = TextDocument.create('file:///crd.yaml', 'yaml', td.version, next);
    fresh.update(ftd);
    const want = fresh.findings(ftd);
    if (want.length) changed++;
    assert.deepEqual(got, want, `edit ${i}`);
  }
  // The edits must make findings come and go, not only leave a clean CRD.
  assert.ok(changed > 5, `${changed} edits with findings`);
});
