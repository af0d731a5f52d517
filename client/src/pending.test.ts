import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PendingChecks, statusText, type Timers } from './pending';

/** Timers run by hand: `fire()` runs every timer set and not cleared. */
function manualTimers(): Timers & { fire(): void; live(): number } {
  const live = new Map<number, () => void>();
  let n = 0;
  return {
    set: (fn) => {
      live.set(++n, fn);
      return n;
    },
    clear: (h) => void live.delete(h as number),
    fire: () => {
      const fns = [...live.values()];
      live.clear();
      for (const f of fns) f();
    },
    live: () => live.size,
  };
}

test('a check is shown as pending only after the moment passes, and until its diagnostics arrive', () => {
  const timers = manualTimers();
  let changes = 0;
  const p = new PendingChecks(() => changes++, 600, timers);
  p.sent('file:///ws/a.yaml');
  p.sent('file:///ws/a.yaml'); // a second change of the same file: one timer
  assert.equal(timers.live(), 1);
  assert.deepEqual(p.overdue, []);
  timers.fire();
  assert.deepEqual(p.overdue, ['file:///ws/a.yaml']);
  assert.equal(changes, 1);
  assert.equal(statusText(3, false, p.overdue), '$(symbol-class) CRDs: 3 $(sync~spin) checking a.yaml...');
  p.settled('file:///ws/a.yaml');
  assert.deepEqual(p.overdue, []);
  assert.equal(changes, 2);
  assert.equal(statusText(3, false, p.overdue), '$(symbol-class) CRDs: 3');
  // Catalog CRDs counted apart.
  assert.equal(statusText(15, false, [], 3), '$(symbol-class) CRDs: 12 + 3 from catalog');
});

test('diagnostics within the moment: nothing is shown and the timer is gone', () => {
  const timers = manualTimers();
  let changes = 0;
  const p = new PendingChecks(() => changes++, 600, timers);
  p.sent('file:///ws/b.yaml');
  p.settled('file:///ws/b.yaml');
  assert.equal(timers.live(), 0);
  timers.fire();
  assert.deepEqual(p.overdue, []);
  assert.equal(changes, 0);
});

test('the status names the first overdue file and counts the others; a spinner while indexing', () => {
  assert.equal(statusText(undefined, true, []), '$(loading~spin) CRDs');
  assert.equal(statusText(0, true, ['file:///ws/x%20y.yaml', 'file:///ws/z.yaml']), '$(loading~spin) CRDs: 0 $(sync~spin) checking x y.yaml +1...');
});
