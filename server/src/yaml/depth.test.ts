import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_YAML_DEPTH, parseYamlDocuments } from './document';

// Regression (found by test/fuzz): composing '['.repeat(10000) a second time aborted the process with
// "FATAL ERROR: RegExpCompiler Allocation failed" (the yaml composer's stack overflow, then a regex
// compiled with no stack left). The server died on the second keystroke in such a document.
test('documents nested deeper than MAX_YAML_DEPTH are reported, never composed (no process abort)', () => {
  const inputs = ['['.repeat(10_000), '{a: '.repeat(5000) + '1' + '}'.repeat(5000), '- '.repeat(3000) + 'x', Array.from({ length: 600 }, (_, i) => `${' '.repeat(i)}k:`).join('\n') + ' x'];
  for (const text of inputs) {
    for (let i = 0; i < 2; i++) {
      const f = parseYamlDocuments(`${text}${' '.repeat(i)}`);
      assert.equal(f.documents.length, 1);
      const d = f.documents[0];
      // A warning: kubectl reads up to 10,000 levels; the layer does not check deeper than MAX_YAML_DEPTH.
      assert.deepEqual(
        d.errors.map((e) => [e.severity, e.code, e.message]),
        [['warning', 'RESOURCE_EXHAUSTION', `not checked: the document is nested more than ${MAX_YAML_DEPTH} levels deep`]],
      );
      assert.equal(d.value, null);
    }
  }
});

test('documents nested up to MAX_YAML_DEPTH parse as usual', () => {
  const n = MAX_YAML_DEPTH;
  const flow = parseYamlDocuments('['.repeat(n) + ']'.repeat(n)).documents[0];
  assert.deepEqual(flow.errors, []);
  let v = flow.value;
  for (let i = 0; i < n - 1; i++) v = (v as unknown[])[0];
  assert.deepEqual(v, []);
  const block = parseYamlDocuments(Array.from({ length: n }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n') + ' x').documents[0];
  assert.deepEqual(block.errors, []);
  assert.equal(JSON.stringify(block.value).split('{').length - 1, n);
  // One level more is refused.
  assert.equal(parseYamlDocuments('['.repeat(n + 1) + ']'.repeat(n + 1)).documents[0].errors[0]?.code, 'RESOURCE_EXHAUSTION');
});

test('a deep document does not hide its neighbours', () => {
  const f = parseYamlDocuments(`a: 1\n---\n${'['.repeat(5000)}\n---\nb: 2\n`);
  assert.deepEqual(
    f.documents.map((d) => [d.value, d.errors.length]),
    [
      [{ a: 1 }, 0],
      [null, 1],
      [{ b: 2 }, 0],
    ],
  );
});
