/**
 * The line-by-line finder of validation rules (yaml/itemScalars.ts, for the highlighting of CEL) against
 * the full parse: on every real CRD with rules, it finds the same rule and messageExpression strings; and
 * against itself: read on after an edit from a checkpoint, it finds what a fresh scan finds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ItemScalarScan, itemScalarWork, parseYamlDocuments, scalarSourceValue } from '../../server/src/yaml';
import { needsShared, sharedPath, yamlFilesUnder } from '../shared';
import { Rng } from '../fuzz/gen';

const CRDS = sharedPath('realworld', 'crds');
const KEYS = new Set(['rule', 'messageExpression']);

/** The rule and messageExpression strings of every x-kubernetes-validations item under `v`. */
function parsedRules(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) for (const x of v) parsedRules(x, out);
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k === 'x-kubernetes-validations' && Array.isArray(x)) {
        for (const item of x) for (const key of KEYS) if (typeof item?.[key] === 'string') out.push(item[key]);
      }
      parsedRules(x, out);
    }
  }
  return out;
}

test('on every real CRD with rules, the scan finds the rules the full parse reads', { skip: needsShared('realworld', 'crds') }, () => {
  let checked = 0;
  let rules = 0;
  for (const f of yamlFilesUnder(CRDS)) {
    const text = readFileSync(f, 'utf8');
    if (!text.includes('x-kubernetes-validations')) continue;
    const expected = parseYamlDocuments(text).documents.flatMap((d) => parsedRules(d.value));
    const found = new ItemScalarScan(text, 'x-kubernetes-validations', KEYS).all().map((s) => scalarSourceValue(text.slice(s.start, s.end)));
    // The parse reads one item's keys in its own order; both sorted.
    assert.deepEqual([...found].sort(), [...expected].sort(), f);
    checked++;
    rules += expected.length;
  }
  assert.ok(checked >= 10 && rules >= 100, `${checked} files, ${rules} rules`);
});

/** One random edit: a character that changes YAML's structure inserted, a character or a line deleted. */
function edit(text: string, r: Rng): string {
  const at = r.int(text.length);
  const kind = r.next();
  if (kind < 0.5) return text.slice(0, at) + r.pick(['"', "'", '|', '- ', ' ', '\n', '#', ': ', 'x', '>', '\n---\n']) + text.slice(at);
  if (kind < 0.8) return text.slice(0, at) + text.slice(at + 1);
  const start = text.lastIndexOf('\n', at) + 1;
  const end = text.indexOf('\n', at);
  return text.slice(0, start) + (end < 0 ? '' : text.slice(end + 1));
}

test('an edited text read on from a checkpoint before the edit finds what a fresh scan finds', { skip: needsShared('realworld', 'crds') }, () => {
  const r = new Rng(29);
  let edits = 0;
  for (const f of yamlFilesUnder(CRDS)) {
    let text = readFileSync(f, 'utf8');
    if (!text.includes('x-kubernetes-validations')) continue;
    for (let i = 0; i < 4; i++) {
      // The previous text read partly (the editor's viewport) or whole, checkpoints every 16 lines.
      const prev = new ItemScalarScan(text, 'x-kubernetes-validations', KEYS, 16);
      const lines = text.split('\n').length;
      prev.upTo(r.chance(0.5) ? lines : r.int(lines));
      text = edit(text, r);
      const fresh = new ItemScalarScan(text, 'x-kubernetes-validations', KEYS, 16).all();
      assert.deepEqual(ItemScalarScan.after(prev, text).all(), fresh, `${f}, edit ${i}`);
      edits++;
    }
  }
  assert.ok(edits >= 40, `${edits} edits`);
});

test('after an edit near the end of the 2.9 MB argo CRD, the lines shown are read from the checkpoint before it, not from the top', { skip: needsShared('realworld', 'crds', 'argo-workflows') }, () => {
  const text = readFileSync(sharedPath('realworld', 'crds', 'argo-workflows', 'argoproj.io_cronworkflows.yaml'), 'utf8');
  const lines = text.split('\n');
  const prev = new ItemScalarScan(text, 'x-kubernetes-validations', KEYS);
  prev.all();
  const at = Math.floor(lines.length * 0.9);
  const offset = lines.slice(0, at).join('\n').length + 1;
  const edited = `${text.slice(0, offset)}# a comment\n${text.slice(offset)}`;
  const before = itemScalarWork.lines;
  const resumed = ItemScalarScan.after(prev, edited);
  resumed.upTo(at + 60);
  const read = itemScalarWork.lines - before;
  // At most the checkpoint interval (1,000 lines) and the 60 asked, each line read at most twice.
  assert.ok(read <= 2 * (1000 + 61), `${read} lines read`);
  assert.deepEqual(resumed.all(), new ItemScalarScan(edited, 'x-kubernetes-validations', KEYS).all());
});

test('a checkpoint is not used when the scan looked past it at what the edit changed (a plain rule that now goes on)', () => {
  const before = 'x-kubernetes-validations:\n- rule: self.a\n  message: m\n';
  const after = 'x-kubernetes-validations:\n- rule: self.a\n    && self.b\n';
  // A checkpoint after every line: the one after `- rule: self.a` was made having looked at the next line.
  const prev = new ItemScalarScan(before, 'x-kubernetes-validations', KEYS, 1);
  assert.deepEqual(
    prev.all().map((s) => before.slice(s.start, s.end)),
    ['self.a'],
  );
  const resumed = ItemScalarScan.after(prev, after).all();
  assert.deepEqual(
    resumed.map((s) => after.slice(s.start, s.end)),
    ['self.a\n    && self.b'],
  );
  assert.deepEqual(resumed, new ItemScalarScan(after, 'x-kubernetes-validations', KEYS, 1).all());
});
