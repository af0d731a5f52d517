import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byVersionPriority, preferredVersion } from './versionpriority';

test('version priority: GA > beta > alpha, then by number; other names last, alphabetically', () => {
  // The order the Kubernetes documentation gives for version priority.
  const want = ['v10', 'v2', 'v1', 'v11beta2', 'v10beta3', 'v3beta1', 'v12alpha1', 'v11alpha2', 'foo1', 'foo10'];
  const shuffled = ['foo10', 'v3beta1', 'v1', 'v11alpha2', 'v10', 'foo1', 'v12alpha1', 'v2', 'v11beta2', 'v10beta3'];
  assert.deepEqual(
    byVersionPriority(shuffled.map((name) => ({ name }))).map((v) => v.name),
    want,
  );
  assert.equal(
    preferredVersion([
      { name: 'v1', served: false },
      { name: 'v1beta1', served: true },
      { name: 'v2alpha1', served: true },
    ])?.name,
    'v1beta1',
  );
  assert.equal(preferredVersion([{ name: 'v1', served: false }]), undefined);
});
