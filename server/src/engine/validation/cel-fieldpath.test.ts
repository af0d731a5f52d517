import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateCustomResourceValue } from '../customresource/value';
import { errorMessage } from '../field';

test('a rule whose messageExpression does not compile reports at the node, not at its fieldPath', () => {
  const node = (messageExpression: string) => ({
    type: 'object',
    properties: { in: { type: 'object', properties: { a: { type: 'boolean' }, port: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'has(self.port)', messageExpression, fieldPath: '.a' }] } },
  });
  const run = (me: string) => validateCustomResourceValue({ in: { a: true } }, node(me), { isResourceRoot: false }).map(errorMessage);
  assert.deepEqual(run('self'), ['in: Invalid value: failed rule: has(self.port)']);
  assert.deepEqual(run("'no port'"), ['in.a: Invalid value: no port']);
});
