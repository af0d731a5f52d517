/**
 * The YAML layer's bounds under hostile input, asserted with work counters and memory measurements
 * (never with time): duplicate keys cost one hash lookup per key, aliases are counted as go-yaml v2
 * counts them but never expanded, and a file's parse stays within its stated memory bound.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathWork } from './path';
import { ALIAS_RATIO_RANGE_LOW, MAX_YAML_DOCUMENTS, allowedAliasRatio, excessiveAliasing, parseBytesBound, parseYamlDocuments } from './index';

test('a map of 40,000 keys: one hash lookup per key, duplicates still found', () => {
  const n = 40_000;
  const lines = Array.from({ length: n }, (_, i) => `key${i}: v${i}`);
  const d = parseYamlDocuments(lines.join('\n') + '\n').documents[0];
  assert.deepEqual(d.errors, []);
  assert.equal(Object.keys(d.value as object).length, n);
  assert.equal(d.decodeWork.keyLookups, n);
  // Keys, values, the map and the document: nothing is visited twice.
  assert.equal(d.decodeWork.nodesVisited, 2 * n + 1);
  // The same map with its first key repeated at the end: found, with one more lookup.
  const dup = parseYamlDocuments([...lines, 'key0: again'].join('\n') + '\n').documents[0];
  assert.deepEqual(
    dup.errors.map((e) => [e.code, e.start]),
    [['DUPLICATE_KEY', lines.join('\n').length + 1]],
  );
  assert.equal(dup.decodeWork.keyLookups, n + 1);
  assert.equal((dup.value as Record<string, string>).key0, 'again');
});

test('ranges of every key of a 40,000-key map: each key indexed once, one lookup per path step', () => {
  const n = 40_000;
  const text = 'spec:\n' + Array.from({ length: n }, (_, i) => `  k${i}: v`).join('\n') + '\n';
  const d = parseYamlDocuments(text).documents[0];
  const before = { ...pathWork };
  for (let i = 0; i < n; i += 1) {
    const r = d.rangeOfPath(`spec.k${i}`, 'key');
    if (i % 9973 === 0) assert.equal(text.slice(r.start, r.end), `k${i}`);
  }
  // A missing field falls back to its parent's key, also without scanning.
  assert.equal(text.slice(d.rangeOfPath('spec.nope', 'key').start, d.rangeOfPath('spec.nope', 'key').end), 'spec');
  assert.equal(pathWork.pairsIndexed - before.pairsIndexed, n + 1);
  assert.ok(pathWork.lookups - before.lookups <= 2 * n + 10, String(pathWork.lookups - before.lookups));
});

test('paths through many aliases resolve each alias once per document', () => {
  const text = `base: &b {x: 1}\nlist: [${Array.from({ length: 5000 }, () => '*b').join(', ')}]\n`;
  const d = parseYamlDocuments(text).documents[0];
  const before = { ...pathWork };
  for (let i = 0; i < 5000; i += 1) {
    const r = d.rangeOfPath(`list[${i}].x`, 'value');
    assert.equal(text.slice(r.start, r.end), '1');
  }
  // One index for the root, one for the anchored map, and one walk of the document for its aliases.
  assert.equal(pathWork.pairsIndexed - before.pairsIndexed, 3);
  assert.ok(pathWork.aliasWalkNodes - before.aliasWalkNodes < 5020, String(pathWork.aliasWalkNodes - before.aliasWalkNodes));
});

/** `a0: &a0 [x, ...]`, then each level a list of `width` aliases of the level before. */
function laughs(levels: number, width: number): string {
  const lines = [`a0: &a0 [${Array.from({ length: width }, () => 'x').join(', ')}]`];
  for (let i = 1; i <= levels; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: width }, () => `*a${i - 1}`).join(', ')}]`);
  return lines.join('\n') + '\n';
}

test('aliases are counted as go-yaml v2 counts them, never expanded: a billion laughs costs one walk', () => {
  const d = parseYamlDocuments(laughs(9, 10)).documents[0];
  assert.deepEqual(
    d.errors.map((e) => e.code),
    ['EXCESSIVE_ALIASING'],
  );
  assert.equal(d.errors[0].kubectl, 'error converting YAML to JSON: yaml: document contains excessive aliasing');
  // The walk visited each AST node at most once (101 per level at most).
  assert.ok(d.decodeWork.nodesVisited <= 10 * 12, `${d.decodeWork.nodesVisited} nodes visited`);
  // go-yaml stops as soon as the aliased share passes the allowed ratio, which the counters reflect.
  const w = d.decodeWork;
  assert.ok(excessiveAliasing(w.decodeCount, w.aliasCount));
  // Two levels (10 x 10 aliased items) are well within: the value is complete.
  const ok = parseYamlDocuments(laughs(2, 10)).documents[0];
  assert.deepEqual(ok.errors, []);
  assert.equal((ok.value as Record<string, unknown[][]>).a2.flat().length, 100);
});

test('a 290 KB custom resource that would expand to millions of keys is stopped after one walk, and not walked again when another document changes', () => {
  const keys = Array.from({ length: 21_500 }, (_, i) => `    k${i}: 1`).join('\n');
  const cr = `apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  base: &base\n${keys}\n  copies: [${Array.from({ length: 100 }, () => '*base').join(', ')}]\n`;
  assert.ok(cr.length > 280_000 && cr.length < 300_000, String(cr.length));
  const other = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n';
  const f1 = parseYamlDocuments(`${cr}---\n${other}`);
  const d = f1.documents[0];
  assert.deepEqual(
    d.errors.map((e) => e.code),
    ['EXCESSIVE_ALIASING'],
  );
  // 2 million keys as go-yaml would decode them, 43,000 as walked.
  assert.ok(d.decodeWork.nodesVisited < 44_000, String(d.decodeWork.nodesVisited));
  // The first decode operations over go-yaml's low mark fail: the ratio is then at most 0.99.
  assert.ok(d.decodeWork.decodeCount > ALIAS_RATIO_RANGE_LOW && d.decodeWork.aliasCount / d.decodeWork.decodeCount > allowedAliasRatio(d.decodeWork.decodeCount));
  // An edit in the other document reuses this one: its value is not computed again.
  const f2 = parseYamlDocuments(`${cr}---\n${other.replace('name: c', 'name: d')}`, { previous: f1 });
  assert.equal(f2.documents[0].ast, d.ast);
  assert.equal(f2.documents[0].decodeWork, d.decodeWork);
});

interface Probe {
  chars: number;
  peak: number;
  parsed: number;
  unparsed: number;
  firstMessage?: string;
}

function probe(kind: string): Probe {
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(__dirname, 'memory.probe.ts'), kind], { encoding: 'utf8', maxBuffer: 1 << 20 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Probe;
}

const MB = 1024 * 1024;

test('memory: hostile files stay within the stated bound (20 times their size plus 128 MB), and say what they did not parse', { timeout: 10 * 60_000 }, () => {
  const results: string[] = [];
  for (const kind of ['list-2mb', 'document-20mb', 'documents-100k', 'lists-200x30kb', 'map-40k']) {
    const p = probe(kind);
    const bound = parseBytesBound(p.chars);
    results.push(`${kind}: ${Math.round(p.peak / MB)} MB of ${Math.round(bound / MB)} MB`);
    assert.ok(p.peak <= bound, `${kind}: peak ${Math.round(p.peak / MB)} MB over the bound ${Math.round(bound / MB)} MB`);
    switch (kind) {
      case 'list-2mb':
      case 'document-20mb':
        assert.deepEqual([p.parsed, p.unparsed], [0, 1], kind);
        assert.match(p.firstMessage ?? '', /^not checked: parsing this document would take more memory/);
        break;
      case 'documents-100k':
        assert.deepEqual([p.parsed, p.unparsed], [MAX_YAML_DOCUMENTS - 1, 1]);
        assert.match(p.firstMessage ?? '', /^not checked: this file has more than 10,000 documents/);
        break;
      case 'lists-200x30kb':
        assert.ok(p.parsed > 0 && p.unparsed > 0 && p.parsed + p.unparsed === 200, JSON.stringify(p));
        break;
      case 'map-40k':
        assert.deepEqual([p.parsed, p.unparsed], [1, 0]);
        break;
    }
  }
  // eslint-disable-next-line no-console
  console.log(results.join('; '));
});
