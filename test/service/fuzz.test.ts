import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Position } from 'vscode-languageserver-types';
import { serviceWithCrd, WIDGET_CRD } from './helpers';
import { celTokensOnTheirLines, Probe } from '../fuzz/probe';

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

/**
 * Calls every feature at a position under the probe: an exception or work over the engine's bounds
 * (test/fuzz/probe.ts: counters, never the clock) is recorded. The service holds the widget CRD and this
 * text: what its calls can read.
 */
function exercise(p: Probe, s: ReturnType<typeof serviceWithCrd>, td: TextDocument, pos: Position): void {
  const text = td.getText();
  const chars = WIDGET_CRD.length + text.length;
  const call = (what: string, fn: () => unknown) => p.call(what, () => `${what} at ${pos.line}:${pos.character} of ${JSON.stringify(text.slice(0, 2000))}`, fn, chars);
  call('update', () => s.update(td));
  call('findings', () => s.findings(td));
  call('hover', () => s.hover(td, pos));
  call('completion', () => s.completion(td, pos));
  call('fixes', () => s.fixes(td, { start: pos, end: pos }));
  call('definition', () => s.definition(td, pos));
  call('documentSymbols', () => s.documentSymbols(td));
  call('foldingRanges', () => s.foldingRanges(td));
  call('codeLenses', () => s.codeLenses(td));
  call('celTokens', () => celTokensOnTheirLines(text, s.celTokens(td, { start: { line: 0, character: 0 }, end: { line: td.lineCount, character: 0 } })));
  call('preview', () => s.preview(td, pos));
  call('previewFile', () => s.previewFile(td));
}

test('random edits of a CRD and CRs: every feature answers without throwing, each call within the work bounds', () => {
  const s = serviceWithCrd();
  const p = new Probe(7);
  const rand = rng(7);
  let text = WIDGET_CRD + '---\n' + CR + '---\n' + CR;
  let td = TextDocument.create('file:///fuzz/a.yaml', 'yaml', 1, text);
  for (let i = 0; i < 100; i++) {
    const start = Math.floor(rand() * text.length);
    const end = Math.min(text.length, start + (rand() < 0.4 ? Math.floor(rand() * 30) : 0));
    text = text.slice(0, start) + (rand() < 0.8 ? JUNK[Math.floor(rand() * JUNK.length)] : '') + text.slice(end);
    td = TextDocument.create(td.uri, 'yaml', td.version + 1, text);
    exercise(p, s, td, td.positionAt(Math.floor(rand() * (text.length + 1))));
  }
  assert.deepEqual(p.findings, [], p.report());
});

test('truncations of a CR file at every line: features answer', () => {
  const s = serviceWithCrd();
  const p = new Probe(0);
  const full = (CR + '---\n').repeat(3);
  const lines = full.split('\n');
  for (let n = 0; n <= lines.length; n++) {
    const text = lines.slice(0, n).join('\n');
    const td = TextDocument.create('file:///fuzz/t.yaml', 'yaml', n + 1, text);
    exercise(p, s, td, td.positionAt(text.length));
  }
  assert.deepEqual(p.findings, [], p.report());
});

test('deep nesting, huge scalars, pathological patterns and rules stay within the work bounds', () => {
  const s = serviceWithCrd();
  const p = new Probe(0);
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
    exercise(p, s, td, td.positionAt(Math.floor(text.length / 2)));
  }
  assert.deepEqual(p.findings, [], p.report());
  // The pathological pattern met a 5,000-character value and the triple loop a list: the bounds were used.
  const w = p.work();
  assert.ok(w.patternSteps > 0 && w.celEvaluations > 0, p.workLine());
});
