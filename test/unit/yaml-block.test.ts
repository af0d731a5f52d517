/**
 * The fast reader of generated CRD YAML (yaml/block.ts) is a shortcut to the full parse: on every real
 * CRD document and on random one-character edits of them, it gives the full parse's value or gives up,
 * and it gives up on every document the full parse finds an error in.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { BlockLocator, newKeyTable, readBlockYaml, readBlockYamlCounted } from '../../server/src/yaml/block';
import { estimateParseBytes, parseBytesOfTokens } from '../../server/src/yaml/budget';
import type { PathSegment } from '../../server/src/engine/field';
import { blockLocator } from '../../server/src/yaml/file';
import { formatFieldPath, parseBlockYamlDocuments, parseYamlDocuments, splitYamlChunks } from '../../server/src/yaml';
import { needsShared, sharedPath, yamlFilesUnder } from '../shared';

const CRDS = sharedPath('realworld', 'crds');

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return s / 2 ** 32;
  };
}

/** The full parse of one document's text: its value, or undefined when it has errors or is not one document. */
function full(text: string): { value: unknown; ok: boolean } {
  const docs = parseYamlDocuments(text).documents;
  const ok = docs.length === 1 && docs[0].errors.every((e) => e.severity !== 'error') && docs[0].errors.length === 0;
  return { value: docs[0]?.value, ok };
}

/** Every path of a value (maps by key, lists by index), the root first. */
function pathsOf(value: unknown): PathSegment[][] {
  const paths: PathSegment[][] = [];
  const walk = (v: unknown, p: PathSegment[]) => {
    paths.push(p);
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...p, { kind: 'index', index: i }]));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...p, { kind: 'field', name: k }]);
  };
  walk(value, []);
  return paths;
}

const NO_SHARED = needsShared('realworld', 'crds');
const chunks = NO_SHARED ? [] : yamlFilesUnder(CRDS).flatMap((f) => splitYamlChunks(readFileSync(f, 'utf8')).map((c) => ({ file: f, text: c.text })));

test('block YAML reader: every real CRD document read as the full parse reads it', { skip: NO_SHARED }, () => {
  let read = 0;
  let bytes = 0;
  let readBytes = 0;
  for (const c of chunks) {
    const fast = readBlockYaml(c.text);
    bytes += c.text.length;
    if (fast === undefined) continue;
    const f = full(c.text);
    assert.ok(f.ok, `${c.file}: read a document the full parse rejects`);
    assert.deepStrictEqual(fast, f.value, c.file);
    read++;
    readBytes += c.text.length;
  }
  // The shortcut is taken for nearly all of the generated YAML.
  assert.ok(readBytes > 0.9 * bytes, `read ${read} of ${chunks.length} documents, ${readBytes} of ${bytes} characters`);
});

const EDITS = ['', ' ', 'a', ':', '-', '#', "'", '"', '|', '>', '[', '{', '&', '*', '!', '?', '0', '\n', '  ', ',', '\\'];

test('block YAML reader: random edits of real CRDs read as the full parse reads them, or left to it', { skip: NO_SHARED }, () => {
  const rand = rng(7);
  const small = chunks.filter((c) => c.text.length < 60_000);
  let compared = 0;
  let refused = 0;
  for (let n = 0; n < 1200; n++) {
    const c = small[Math.floor(rand() * small.length)];
    let text = c.text;
    for (let k = 0; k < 1 + Math.floor(rand() * 2); k++) {
      // Often at a line's indentation or just after a colon, where the structure is decided.
      const line = text.lastIndexOf('\n', Math.floor(rand() * text.length)) + 1;
      const indent = /^ */.exec(text.slice(line))![0].length;
      const colon = text.indexOf(': ', line);
      const at = rand() < 0.4 ? line + indent : rand() < 0.5 && colon >= 0 ? colon + 2 : line + Math.floor(rand() * 40);
      const del = rand() < 0.4 ? 1 + Math.floor(rand() * 2) : 0;
      text = text.slice(0, at) + EDITS[Math.floor(rand() * EDITS.length)] + text.slice(at + del);
    }
    const fast = readBlockYaml(text);
    const f = full(text);
    if (fast === undefined) {
      refused++;
      continue;
    }
    assert.ok(f.ok, `read an edited document the full parse rejects (${c.file}):\n${text}`);
    assert.deepStrictEqual(fast, f.value, c.file);
    compared++;
  }
  assert.ok(compared > 300, `compared ${compared}, refused ${refused}`);
});

test('block locator: path ranges (key and value) as the full parse gives them, on real CRDs, or left to the parse', { skip: NO_SHARED }, () => {
  const rand = rng(13);
  let compared = 0;
  let left = 0;
  for (const c of chunks.filter((_, i) => i % 4 === 1)) {
    const value = readBlockYaml(c.text);
    if (value === undefined) continue;
    const layer = parseYamlDocuments(c.text).documents[0];
    const locator = new BlockLocator(c.text);
    const paths = pathsOf(value);
    for (let n = 0; n < 80; n++) {
      let p = paths[Math.floor(rand() * paths.length)];
      if (rand() < 0.15) p = [...p, { kind: 'field', name: 'missing' }];
      const target = rand() < 0.5 ? 'key' : 'value';
      const got = locator.pathRange(p, target);
      const want = layer.rangeOfPath(p, target);
      if (got === undefined) {
        left++;
        continue;
      }
      assert.ok(want.exact, `${c.file}: ${JSON.stringify(p)} does not exist, the locator placed it`);
      assert.deepEqual(got, { start: want.start, end: want.end, on: want.on }, `${c.file}: ${JSON.stringify(p)} ${target}`);
      compared++;
    }
  }
  // Most paths a finding names are answered without the parse.
  assert.ok(compared > left, `compared ${compared}, left to the parse ${left}`);
});

test('blockLocator (related locations in CRDs read from disk): the key ranges of the full parse, for paths that exist, go beyond the text or end at list items', { skip: NO_SHARED }, () => {
  const rand = rng(11);
  let compared = 0;
  for (const c of chunks.filter((_, i) => i % 5 === 0)) {
    const value = readBlockYaml(c.text);
    if (value === undefined) continue;
    const layer = parseYamlDocuments(c.text).documents[0];
    const locator = blockLocator(c.text);
    const paths = pathsOf(value);
    for (let n = 0; n < 60; n++) {
      let p = paths[Math.floor(rand() * paths.length)];
      const r = rand();
      if (r < 0.2) p = [...p, { kind: 'field', name: 'missing' }];
      else if (r < 0.3 && p.length > 0) p = [...p.slice(0, -1), { kind: 'field', name: 'nope' }, { kind: 'field', name: 'deeper' }];
      else if (r < 0.35) p = [...p, { kind: 'index', index: 0 }, { kind: 'field', name: 'x' }];
      const got = locator.rangeOfPath(p, 'key');
      const want = layer.rangeOfPath(p, 'key');
      assert.deepEqual([got.start, got.end, got.on], [want.start, want.end, want.on], `${c.file}: ${JSON.stringify(p)}`);
      compared++;
    }
  }
  assert.ok(compared > 800, `compared ${compared}`);
});

test('block YAML reader: its token counts bound the full parse memory estimate from above, closely on real CRDs, and on random edits', { skip: NO_SHARED }, () => {
  let worst = 0;
  let checked = 0;
  const bounded = (text: string, where: string) => {
    const r = readBlockYamlCounted(text);
    if (!r) return;
    const exact = estimateParseBytes(text).bytes;
    const bound = parseBytesOfTokens(r.counts);
    assert.ok(bound >= exact, `${where}: bound ${bound} < estimate ${exact}\n${text.length < 2000 ? text : ''}`);
    checked++;
    return bound / exact;
  };
  for (const c of chunks) worst = Math.max(worst, bounded(c.text, c.file) ?? 0);
  // Tight enough that a real CRD the full parse takes is never sent to it by the bound.
  assert.ok(worst < 1.3, `bound up to ${worst.toFixed(2)} times the estimate`);
  const rand = rng(17);
  const small = chunks.filter((c) => c.text.length < 30_000);
  for (let n = 0; n < 600; n++) {
    const c = small[Math.floor(rand() * small.length)];
    let text = c.text;
    for (let k = 0; k < 1 + Math.floor(rand() * 3); k++) {
      const line = text.lastIndexOf('\n', Math.floor(rand() * text.length)) + 1;
      const at = rand() < 0.5 ? line + /^ */.exec(text.slice(line))![0].length : line + Math.floor(rand() * 40);
      text = text.slice(0, at) + EDITS[Math.floor(rand() * EDITS.length)] + text.slice(at + (rand() < 0.3 ? 1 : 0));
    }
    bounded(text, `${c.file} (edited)`);
  }
  for (const t of ['a: [x, "y", z]  # c\n', 'a:\n- - x\n  - y\n- k: v\n  j: w\n', '# c\n\na: |-\n  x\n\n  y\nb: {}\n', 'a:\n  - x\n  -\n    b: c\n', '--- # d\na: "q\n  r"\nb: p\n  q\n']) bounded(t, JSON.stringify(t));
  assert.ok(checked > 250, `checked ${checked}`);
});

test('parseBlockYamlDocuments (the CLI reading files of real CRDs): the documents of the full parse, parsed only when an AST is asked for', { skip: NO_SHARED }, () => {
  const rand = rng(5);
  let read = 0;
  let compared = 0;
  for (let i = 0; i + 3 <= chunks.length; i += 7) {
    const text = chunks
      .slice(i, i + 3)
      .map((c) => (c.text.startsWith('---') ? c.text : `---\n${c.text}`))
      .map((t) => (t.endsWith('\n') ? t : `${t}\n`))
      .join('');
    const lazy = parseBlockYamlDocuments(text);
    if (!lazy) continue;
    const want = parseYamlDocuments(text);
    assert.equal(lazy.documents.length, want.documents.length);
    for (const [j, d] of lazy.documents.entries()) {
      const w = want.documents[j];
      assert.deepEqual([d.index, d.start, d.end, d.text, d.kind, d.errors], [w.index, w.start, w.end, w.text, w.kind, w.errors]);
      assert.deepEqual(d.value, w.value);
    }
    // Offsets, texts, values and kinds made no parse; an AST asked for does.
    assert.ok(lazy.documents.every((d) => d.parsedIfMade === undefined));
    assert.equal(lazy.documents.at(-1)!.ast.contents?.range?.[0], want.documents.at(-1)!.ast.contents?.range?.[0]);
    assert.ok(lazy.documents.at(-1)!.parsedIfMade);
    for (const [j, d] of lazy.documents.entries()) {
      const w = want.documents[j];
      const paths = pathsOf(d.value);
      for (let n = 0; n < 10; n++) {
        const p = paths[Math.floor(rand() * paths.length)];
        const type = rand() < 0.3 ? 'FieldValueRequired' : 'FieldValueInvalid';
        const err = { type, field: formatFieldPath(p), segments: p } as const;
        const got = d.rangeOfFieldError(err);
        const exp = w.rangeOfFieldError(err);
        assert.deepEqual([got.start, got.end, got.on, got.exact], [exp.start, exp.end, exp.on, exp.exact], JSON.stringify(p));
        assert.deepEqual(d.pathAt(got.start).segments, w.pathAt(got.start).segments);
        compared++;
      }
    }
    read++;
  }
  assert.ok(read > 20 && compared > 500, `${read} files, ${compared} ranges compared`);
});

test('block YAML reader: a document longer than the line arrays kept between reads, and short ones after it, read whole', () => {
  // The reader keeps its line arrays for the next read up to 65,536 lines: past that, and after it, nothing of another text shows.
  const lines: string[] = ['# generated'];
  const want: Record<string, unknown> = {};
  for (let i = 0; i < 70_000; i++) {
    lines.push(i % 1000 === 0 ? `k${i}: [${i}, "x"]  # ${i}` : `k${i}: v${i}`);
    want[`k${i}`] = i % 1000 === 0 ? [i, 'x'] : `v${i}`;
  }
  const long = `${lines.join('\n')}\n`;
  const r = readBlockYamlCounted(long);
  assert.deepStrictEqual(r?.value, want);
  assert.ok(parseBytesOfTokens(r!.counts) >= estimateParseBytes(long).bytes);
  assert.deepStrictEqual(readBlockYaml('a:\n  - b\nc: d\n'), { a: ['b'], c: 'd' });
  // A text of fewer lines than the last: its end is its own (a line of the longer text would be read as more of the list).
  assert.deepStrictEqual(readBlockYaml('a:\n  - b'), { a: ['b'] });
  assert.equal(readBlockYaml('a:\n  - b\n c'), undefined);
});

test('block YAML reader: keys found again in a file (its key table) read as when read alone, in the same order', () => {
  // Keys of one length and first and last character share a slot; resolved keys (1e3, yes) and keys the reader refuses stay as they are.
  const docs = [
    'name: a\nnode: b\nnone: c\nspec:\n  name: d\n  node: e\n',
    'none: 1\nname: 2\nnode: 3\n',
    'yes: 1\nyas: 2\nno: 3\n',
    'yes: 1\nYes: 2\n',
    '1e3: x\n1f3: y\n1e3x: z\n',
    'name: x\nname : y\n',
    'na#e: x\nn #e: y\n',
    'a:\n  - name: x\n    nome: y\n  - nome: z\n    name: w\n',
    'name: x\nname: y\n',
    '__proto__: x\nconstructor: y\n',
  ];
  const keys = newKeyTable();
  for (let pass = 0; pass < 2; pass++) {
    for (const d of docs) {
      const alone = readBlockYamlCounted(d);
      const shared = readBlockYamlCounted(d, keys);
      assert.deepStrictEqual(shared, alone, d);
      assert.equal(JSON.stringify(shared?.value), JSON.stringify(alone?.value), d);
    }
  }
  assert.deepStrictEqual(readBlockYamlCounted(docs[2], keys)?.value, { true: 1, yas: 2, false: 3 });
  // The same key twice, once as written and once as resolved: refused (the full parse reports it).
  assert.equal(readBlockYamlCounted(docs[3], keys), undefined);
});
