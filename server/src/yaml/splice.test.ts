/**
 * The incremental parse (chunk reuse by position, in-place splice of one-line edits into large
 * documents) must give exactly what a fresh parse gives: values, errors, positions and every AST range.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isPair, isScalar, isSeq, isAlias } from 'yaml';
import { parseYamlDocuments, type YamlFile } from './document';
import { needsShared, sharedPath } from '../../../test/shared';

const CRDS = sharedPath('realworld', 'crds');
const NO_SHARED = needsShared('realworld', 'crds');
const CRD = NO_SHARED ? '' : readFileSync(join(CRDS, 'flux/kustomize.toolkit.fluxcd.io_kustomizations.yaml'), 'utf8');
const SMALL = NO_SHARED ? '' : readFileSync(join(CRDS, 'crossplane/pkg.crossplane.io_configurations.yaml'), 'utf8');

/** Everything observable of a parse, with absolute positions. */
function snapshot(f: YamlFile): unknown {
  return f.documents.map((d) => {
    const nodes: unknown[] = [];
    const stack: unknown[] = [d.contents];
    while (stack.length) {
      const n = stack.pop() as any;
      if (!n) continue;
      if (isPair(n)) {
        stack.push(n.value, n.key);
        continue;
      }
      const r = n.range ? n.range.map((x: number) => x + d.chunkOffset) : null;
      if (isScalar(n)) nodes.push(['s', r, n.type, typeof n.value === 'bigint' ? `${n.value}n` : n.value]);
      else if (isAlias(n)) nodes.push(['a', r, n.source]);
      else if (isMap(n) || isSeq(n)) {
        nodes.push([isMap(n) ? 'm' : 'q', r, !!n.flow, n.items.length]);
        for (let i = n.items.length - 1; i >= 0; i--) stack.push(n.items[i]);
      }
    }
    return { start: d.start, end: d.end, value: d.value, errors: d.errors, kind: d.kind, range: d.ast.range, nodes };
  });
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return s / 2 ** 32;
  };
}

const CHARS = ['---', '--- ', '%', '...', 'a', 'Z', '0', '7', ' ', ' ', ':', '-', '#', '"', "'", '[', ']', '{', ',', '|', '>', '&', '*', '!', '%', '?', '\t', 'true', 'null', '- x', 'k: v'];

test('incremental parse = fresh parse over random one-line edits of a CRD (two documents)', { skip: NO_SHARED }, () => {
  const rand = rng(6);
  const clean = SMALL + '---\nkind: X\n';
  let text = clean;
  let f = parseYamlDocuments(text);
  void f.documents.map((d) => d.value);
  let spliced = 0;
  for (let i = 0; i < 150; i++) {
    // Edits inside a line (where typing happens), sometimes a newline, a deletion, or back to the clean text.
    let at = Math.floor(rand() * text.length);
    // Line starts too: that is where `---`, `%` and `...` change the document structure.
    if (rand() < 0.25) at = text.lastIndexOf('\n', at) + 1;
    const r = rand();
    const del = r < 0.3 ? Math.floor(rand() * 4) : 0;
    const ins = r < 0.03 ? '\n' : r < 0.6 ? CHARS[Math.floor(rand() * CHARS.length)] : '';
    const next = i % 3 === 2 ? clean : text.slice(0, at) + ins + text.slice(at + (text.slice(at, at + del).includes('\n') ? 0 : del));
    const before = f.documents.map((d) => d.ast);
    const g = parseYamlDocuments(next, { previous: f, consumePrevious: true, spliceMinChars: 1000 });
    void g.documents.map((d) => d.value);
    if (g.documents.some((d) => !before.includes(d.ast) && d.ast.contents && before.some((b) => b.contents === d.ast.contents))) spliced++;
    const fresh = parseYamlDocuments(next);
    assert.deepEqual(snapshot(g), snapshot(fresh), `edit ${i} at ${at}: ${JSON.stringify(ins)} -${del}`);
    text = next;
    f = g;
  }
  // The test must exercise the splice, not only the fallback.
  assert.ok(spliced > 20, `spliced ${spliced}`);
});

test('splice: typing in a description of a large document re-parses only its block', { skip: NO_SHARED }, () => {
  const at = CRD.indexOf('description: ', CRD.length / 2) + 'description: '.length;
  const f = parseYamlDocuments(CRD);
  const v1 = f.documents[0].value;
  const next = CRD.slice(0, at) + 'New ' + CRD.slice(at);
  const g = parseYamlDocuments(next, { previous: f, consumePrevious: true });
  assert.equal(g.documents[0].ast.contents, f.documents[0].ast.contents, 'AST updated in place');
  assert.notEqual(g.documents[0].ast, f.documents[0].ast, 'a new document object');
  assert.deepEqual(g.documents[0].value, parseYamlDocuments(next).documents[0].value);
  // The previous value is not modified (other caches hold it).
  assert.deepEqual(v1, parseYamlDocuments(CRD).documents[0].value);
  // Without consumePrevious the previous parse stays valid and nothing is spliced.
  const h = parseYamlDocuments(CRD, { previous: g });
  assert.notEqual(h.documents[0].ast.contents, g.documents[0].ast.contents);
});

test('splice: typing in property names (keys) = fresh parse, the renamed entry keeps its value node', { skip: NO_SHARED }, () => {
  const rand = rng(12);
  let text = CRD;
  let f = parseYamlDocuments(text);
  void f.documents[0].value;
  const keysOf = (t: string) => [...t.matchAll(/\n( +)([a-zA-Z][a-zA-Z0-9]*):/g)].map((m) => m.index + 1 + m[1].length);
  let keys = keysOf(text);
  let kept = 0;
  for (let i = 0; i < 60; i++) {
    const key = keys[Math.floor(rand() * keys.length)];
    const len = /^[a-zA-Z0-9]*/.exec(text.slice(key))![0].length;
    const at = key + Math.floor(rand() * (len + 1));
    // A letter typed, one deleted (never the whole name), or a character that makes it no plain word.
    const r = rand();
    const cut = Math.min(at, key + len - 1);
    const next = r < 0.5 ? text.slice(0, at) + 'q' + text.slice(at) : r < 0.9 && len > 1 ? text.slice(0, cut) + text.slice(cut + 1) : text.slice(0, at) + ' ' + text.slice(at);
    const valueNode = f.documents[0].pathAt(key).node;
    const g = parseYamlDocuments(next, { previous: f, consumePrevious: true });
    if (valueNode && g.documents[0].pathAt(key).node === valueNode) kept++;
    const fresh = parseYamlDocuments(next);
    assert.deepEqual(snapshot(g), snapshot(fresh), `edit ${i} at ${at}`);
    assert.deepEqual(Object.keys(g.documents[0].value as object), Object.keys(fresh.documents[0].value as object), 'key order');
    text = next;
    f = g;
    keys = keysOf(text);
  }
  // Most edits rename the key in place: its value (often a large subtree) is not parsed again.
  assert.ok(kept > 30, `kept ${kept}`);
});

test('splice: whole lines deleted or added (type lines, properties, list items) = fresh parse', () => {
  const rand = rng(29);
  let text = CRD;
  let f = parseYamlDocuments(text);
  void f.documents[0].value;
  const lineStarts = (t: string) => [0, ...[...t.matchAll(/\n/g)].map((m) => m.index + 1).filter((i) => i < t.length)];
  // Lines as users add them: copies of the document's own lines (any indentation), moved ones, and odd ones.
  const ODD = ['\n', '# a comment\n', '---\n', '    - x\n', 'top: 1\n', '        type: string\n', '      extra: {type: string}\n', '  \n', '        "q": 1\n', '        a: &x 1\n'];
  let spliced = 0;
  for (let i = 0; i < 120; i++) {
    const starts = lineStarts(text);
    const k = Math.floor(rand() * starts.length);
    const at = starts[k];
    const lineEnd = k + 1 < starts.length ? starts[k + 1] : text.length;
    let next: string;
    if (rand() < 0.5) {
      // Delete one line or two.
      const two = rand() < 0.2 && k + 2 < starts.length;
      next = text.slice(0, at) + text.slice(two ? starts[k + 2] : lineEnd);
    } else {
      const src = starts[Math.floor(rand() * starts.length)];
      const copy = text.slice(src, text.indexOf('\n', src) + 1 || text.length);
      const line = rand() < 0.8 ? copy : ODD[Math.floor(rand() * ODD.length)];
      next = text.slice(0, at) + (line.endsWith('\n') ? line : line + '\n') + text.slice(at);
    }
    const before = f.documents.map((d) => d.ast);
    const g = parseYamlDocuments(next, { previous: f, consumePrevious: true });
    void g.documents.map((d) => d.value);
    if (g.documents.some((d) => !before.includes(d.ast) && d.ast.contents && before.some((b) => b.contents === d.ast.contents))) spliced++;
    const fresh = parseYamlDocuments(next);
    assert.deepEqual(snapshot(g), snapshot(fresh), `edit ${i} at ${at}`);
    // Every fifth edit goes back to the clean document (most edits then apply to a document without errors).
    text = i % 5 === 4 ? CRD : next;
    f = i % 5 === 4 ? parseYamlDocuments(text, { previous: g, consumePrevious: true }) : g;
    void f.documents.map((d) => d.value);
  }
  // The test must exercise the splice (an edit that breaks the document is parsed whole, and so are the next ones until it is clean).
  assert.ok(spliced > 15, `spliced ${spliced}`);
});

test('splice: a line added above the first entry of a block mapping, or that entry deleted, re-parses only that mapping', () => {
  const props = CRD.indexOf('properties:\n', CRD.length / 2) + 'properties:\n'.length;
  const indent = /^ */.exec(CRD.slice(props))![0];
  // A mapping whose first entry is one line, with more entries after it.
  const first = /:\n( +)description: [^\n]*\n\1[a-z]/g;
  first.lastIndex = CRD.length / 2;
  const m = first.exec(CRD)!;
  const firstStart = m.index + 2;
  const firstEnd = CRD.indexOf('\n', firstStart) + 1;
  const cases = [
    ['added', CRD.slice(0, props) + `${indent}zz: {type: string}\n` + CRD.slice(props)],
    ['deleted', CRD.slice(0, firstStart) + CRD.slice(firstEnd)],
    // At another indentation the mapping would not read the same: parsed whole, and still right.
    ['deeper', CRD.slice(0, props) + `${indent}  zz: 1\n` + CRD.slice(props)],
  ] as const;
  for (const [name, next] of cases) {
    const f = parseYamlDocuments(CRD);
    void f.documents[0].value;
    const root = f.documents[0].ast.contents;
    const g = parseYamlDocuments(next, { previous: f, consumePrevious: true });
    assert.deepEqual(snapshot(g), snapshot(parseYamlDocuments(next)), name);
    assert.equal(g.documents[0].ast.contents === root, name !== 'deeper', `${name}: spliced`);
  }
});
