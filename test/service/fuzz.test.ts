import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Position } from 'vscode-languageserver-types';
import { serviceWithCrd, WIDGET_CRD } from './helpers';

/** Deterministic PRNG (failures reproduce). */
function rng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

const CR = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: small\n  replicas: 2\n  tags: [a, b]\n';
const JUNK = [
  '{',
  '}',
  '[',
  ']',
  ': ',
  '- ',
  '"',
  "'",
  '\n',
  '  ',
  '\t',
  '&x ',
  '*x',
  '!!str ',
  '---\n',
  '|\n',
  '#',
  '...\n',
  'self.',
  'x-kubernetes-validations:\n  - rule: ',
  'pattern: "(a*)*b["',
  'rule: "self.a.b.c +"',
  '\u00e9',
  '\r\n',
  'type: ',
  '<<: *x\n',
];

/** Calls every feature at a position; returns the slowest call in ms. */
function exercise(s: ReturnType<typeof serviceWithCrd>, td: TextDocument, pos: Position): number {
  let worst = 0;
  const time = (fn: () => unknown) => {
    const t0 = performance.now();
    fn();
    worst = Math.max(worst, performance.now() - t0);
  };
  time(() => s.update(td));
  time(() => s.findings(td));
  time(() => s.hover(td, pos));
  time(() => s.completion(td, pos));
  time(() => s.fixes(td, { start: pos, end: pos }));
  time(() => s.definition(td, pos));
  time(() => s.documentSymbols(td));
  time(() => s.foldingRanges(td));
  time(() => s.codeLenses(td));
  time(() => s.preview(td, pos));
  time(() => s.previewFile(td));
  return worst;
}

test('random edits of a CRD and CRs: every feature answers without throwing, each call bounded', () => {
  const s = serviceWithCrd();
  const rand = rng(7);
  let text = WIDGET_CRD + '---\n' + CR + '---\n' + CR;
  let td = TextDocument.create('file:///fuzz/a.yaml', 'yaml', 1, text);
  let worst = 0;
  for (let i = 0; i < 100; i++) {
    const start = Math.floor(rand() * text.length);
    const end = Math.min(text.length, start + (rand() < 0.4 ? Math.floor(rand() * 30) : 0));
    text = text.slice(0, start) + (rand() < 0.8 ? JUNK[Math.floor(rand() * JUNK.length)] : '') + text.slice(end);
    td = TextDocument.create(td.uri, 'yaml', td.version + 1, text);
    worst = Math.max(worst, exercise(s, td, td.positionAt(Math.floor(rand() * (text.length + 1)))));
  }
  assert.ok(worst < 2000, `slowest call ${worst.toFixed(0)} ms`);
});

test('truncations of a CR file at every line: features answer', () => {
  const s = serviceWithCrd();
  const full = (CR + '---\n').repeat(3);
  const lines = full.split('\n');
  for (let n = 0; n <= lines.length; n++) {
    const text = lines.slice(0, n).join('\n');
    const td = TextDocument.create('file:///fuzz/t.yaml', 'yaml', n + 1, text);
    exercise(s, td, td.positionAt(text.length));
  }
});

test('deep nesting, huge scalars, pathological patterns and rules stay bounded', () => {
  const s = serviceWithCrd();
  let deep = 'apiVersion: example.com/v1\nkind: Widget\nspec:\n';
  for (let i = 1; i < 300; i++) deep += '  '.repeat(i) + `k${i}:\n`;
  const huge = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: "' + 'x'.repeat(500000) + '"\n';
  const flowDeep = 'apiVersion: example.com/v1\nkind: Widget\nspec: ' + '['.repeat(200) + ']'.repeat(200) + '\n';
  const crd = WIDGET_CRD.replace('                  enum: [small, medium, large]', '                  pattern: "^(a+)+$"\n                  maxLength: 100000').replace(
    'self.replicas <= 5',
    "self.tags.all(a, self.tags.all(b, self.tags.all(c, a + b + c != 'x')))",
  );
  for (const text of [deep, huge, flowDeep, crd, crd + '---\n' + CR.replace('size: small', `size: "${'a'.repeat(5000)}!"`)]) {
    const td = TextDocument.create('file:///fuzz/p.yaml', 'yaml', 1, text);
    const worst = exercise(s, td, td.positionAt(Math.floor(text.length / 2)));
    assert.ok(worst < 3000, `slowest call ${worst.toFixed(0)} ms`);
  }
});
