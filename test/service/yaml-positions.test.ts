/**
 * The service's node lookups are the YAML layer's (yaml/file.ts over yaml/path.ts): paths go
 * through aliases and `<<` merge keys as the decoded value does, and the cursor path names the pair it is on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFieldPath } from '../../server/src/yaml';
import { findPath, findWrittenPath, keyRange, nodeRange, parseYamlFile, pathAtOffset } from '../../server/src/yaml/file';

const TEXT = [
  'apiVersion: example.com/v1', // a first document, so that offsets are file offsets
  '---',
  'defaults: &d',
  '  size: small',
  '  replicas: 3',
  'spec:',
  '  <<: *d',
  '  replicas: 5',
  'other: *d',
  '',
].join('\n');

const slice = (r: [number, number] | undefined) => (r ? TEXT.slice(r[0], r[1]) : undefined);

test('findPath: through `<<` merge keys (own keys win) and aliases, to the written nodes', () => {
  const doc = parseYamlFile(TEXT).documents[1];
  const merged = findPath(doc, parseFieldPath('spec.size'));
  assert.equal(merged.matched, 2);
  assert.equal(slice(nodeRange(doc, merged.node)), 'small');
  assert.equal(slice(keyRange(doc, merged.pair)), 'size');
  // The mapping's own key wins over the merged one, as in the value.
  assert.equal(slice(nodeRange(doc, findPath(doc, parseFieldPath('spec.replicas')).node)), '5');
  assert.equal((doc.value as { spec: { replicas: number } }).spec.replicas, 5);
  // An alias is followed to its anchored node.
  assert.equal(slice(nodeRange(doc, findPath(doc, parseFieldPath('other.replicas')).node)), '3');
  // A path beyond the text: how far it got, and the deepest pair reached.
  const missing = findWrittenPath(doc, parseFieldPath('spec.template.name'));
  assert.equal(missing.node, null);
  assert.equal(missing.matched, 1);
  assert.equal(slice(keyRange(doc, missing.parentPair)), 'spec');
});

test('pathAtOffset: the path under the cursor, on a key (with its pair) or on a value', () => {
  const doc = parseYamlFile(TEXT).documents[1];
  const onKey = pathAtOffset(doc, TEXT.indexOf('replicas: 5') + 2)!;
  assert.deepEqual(onKey.segments, parseFieldPath('spec.replicas'));
  assert.equal(onKey.onKey, true);
  assert.equal(slice(keyRange(doc, onKey.pair)), 'replicas');
  const onValue = pathAtOffset(doc, TEXT.indexOf('small'))!;
  assert.deepEqual(onValue.segments, parseFieldPath('defaults.size'));
  assert.equal(onValue.onKey, false);
  assert.equal(slice(nodeRange(doc, onValue.node)), 'small');
  assert.equal(slice(keyRange(doc, onValue.pair)), 'size');
  // Outside the document: nothing.
  assert.equal(pathAtOffset(doc, 3), undefined);
});
