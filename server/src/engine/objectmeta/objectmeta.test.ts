import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeObjectMeta } from './objectmeta';

test('decodeObjectMeta: keys named like Object.prototype members are unknown fields, dropped as Go drops them', () => {
  // As the YAML and JSON readers give them: own keys (JSON.parse makes `__proto__` an own key too).
  const metadata = JSON.parse('{"name":"web","constructor":"x","toString":1,"__proto__":{"namespace":"elsewhere"},"labels":{"app":"web"}}');
  const d = decodeObjectMeta(metadata);
  assert.equal(d.error, undefined);
  assert.deepEqual(Object.keys(d.meta!), ['name', 'labels']);
  assert.equal(Object.getPrototypeOf(d.meta), Object.prototype, 'the prototype is not set from the input');
  assert.equal(d.meta!.namespace, undefined);
});
