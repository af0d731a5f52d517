/** The service's least-recently-used maps: bounded by entries and, when weighed, by their total weight. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Lru } from './caches';

test('Lru: the least recently used go first, past the count or the weight; the newest stays whatever it weighs', () => {
  const lru = new Lru<string, number>(3, 10, (v) => v);
  lru.set('a', 4);
  lru.set('b', 4);
  assert.equal(lru.get('a'), 4); // a is now the most recent
  lru.set('c', 4); // 12 > 10: b (least recent) goes
  assert.deepEqual(
    ['a', 'b', 'c'].map((k) => lru.get(k)),
    [4, undefined, 4],
  );
  lru.set('c', 1); // replaced: its old weight no longer counts (a 4 + c 1)
  lru.set('d', 1);
  lru.set('e', 1); // four entries > 3: the least recent (a) goes
  assert.deepEqual(
    ['a', 'c', 'd', 'e'].map((k) => lru.get(k)),
    [undefined, 1, 1, 1],
  );
  lru.set('big', 50); // heavier than the budget: everything else goes, it stays
  assert.equal(lru.size, 1);
  assert.equal(lru.get('big'), 50);
  lru.set('small', 1); // the heavy one is now the oldest and goes
  assert.deepEqual([lru.get('big'), lru.get('small')], [undefined, 1]);
  lru.delete('small');
  assert.equal(lru.size, 0);
});

test('Lru: without weights, only the count bounds it', () => {
  const lru = new Lru<number, string>(2);
  for (let i = 0; i < 5; i++) lru.set(i, 'x'.repeat(1_000_000));
  assert.equal(lru.size, 2);
  assert.equal(lru.get(4)?.length, 1_000_000);
});
