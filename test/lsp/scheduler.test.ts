/**
 * The diagnostics scheduler's delay (`crdYaml.diagnosticsDelayMs`), on node:test's mock timers: what runs
 * is decided by the timers the scheduler set, never by the machine's clock (the developers' guide).
 */
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticsScheduler } from '../../server/src/lsp/scheduler';

function scheduler(delayMs: number) {
  const runs: string[] = [];
  const s = new DiagnosticsScheduler((uri, urgent) => runs.push(`${uri}${urgent ? '' : ' (later)'}`), delayMs);
  return { s, runs };
}

test('a configured delay: the edited document is checked once the delay has passed since its last edit, dependents after it', () => {
  mock.timers.enable({ apis: ['setTimeout', 'setImmediate'] });
  try {
    const { s, runs } = scheduler(300);
    s.schedule('a.yaml', true);
    mock.timers.tick(299);
    assert.deepEqual(runs, [], 'not before the delay');
    // A keystroke restarts the delay; a dependent waits behind the edited document.
    s.schedule('a.yaml', true);
    s.schedule('b.yaml', false);
    mock.timers.tick(299);
    assert.deepEqual(runs, [], 'the delay restarts at each edit');
    mock.timers.tick(1);
    assert.deepEqual(runs, ['a.yaml', 'b.yaml (later)']);
  } finally {
    mock.timers.reset();
  }
});

test('no delay: the edited document is checked on the next turn, before its dependents', () => {
  mock.timers.enable({ apis: ['setTimeout', 'setImmediate'] });
  try {
    const { s, runs } = scheduler(0);
    s.schedule('b.yaml', false);
    s.schedule('a.yaml', true);
    assert.deepEqual(runs, [], 'not in the same turn');
    mock.timers.tick(0);
    assert.deepEqual(runs, ['a.yaml', 'b.yaml (later)']);
  } finally {
    mock.timers.reset();
  }
});
