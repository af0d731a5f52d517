/**
 * The one style the service writes YAML in (write.ts), and that what it writes reads back as the value.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseYamlDocuments } from './document';
import { readAsYaml12, yamlText } from './write';

test('yamlText: a value held twice is written twice (no anchors), long strings stay on one line, empty collections compact', () => {
  const shared = { name: 'a', value: 'x' };
  const long = 'word '.repeat(40).trim();
  const value = { env: [shared, shared], description: long, labels: {}, args: [] };
  const text = yamlText(value);
  assert.doesNotMatch(text, /[&*]a1/);
  assert.equal(text.split('\n').filter((l) => l.includes('word')).length, 1);
  assert.match(text, /^labels: \{\}$/m);
  assert.match(text, /^args: \[\]$/m);
  const back = parseYamlDocuments(text).documents;
  assert.equal(back.length, 1);
  assert.deepEqual(back[0].value, value);
});

test('readAsYaml12: plain YAML 1.2 reads what kubectl (YAML 1.1) reads otherwise', () => {
  assert.deepEqual(readAsYaml12('off'), { value: 'off' });
  assert.deepEqual(readAsYaml12('0755'), { value: 755 });
  assert.deepEqual(readAsYaml12('true'), { value: true });
  assert.equal(readAsYaml12('a: [b'), undefined);
  // kubectl's reading of the same sources differs: that difference is what findings.ts names.
  assert.deepEqual(parseYamlDocuments('v: off\n').documents[0].value, { v: false });
});
