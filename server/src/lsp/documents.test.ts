import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { applyChanges } from './documents';

const doc = (text: string) => TextDocument.create('file:///a.yaml', 'yaml', 1, text);
const range = (sl: unknown, sc: unknown, el: unknown, ec: unknown) => ({ start: { line: sl, character: sc }, end: { line: el, character: ec } });

test('in range: applied as sent, in order, nothing clamped', () => {
  const d = doc('a: 1\nb: 2\nc: 3\n');
  const o = applyChanges(
    d,
    [
      { range: range(1, 3, 1, 4), text: '20' },
      { range: range(0, 0, 0, 0), text: '# x\n' },
    ],
    2,
    false,
  );
  assert.deepEqual(o, { t: 'applied', clamped: [], resynced: false });
  assert.equal(d.getText(), '# x\na: 1\nb: 20\nc: 3\n');
  assert.equal(d.version, 2);
});

test('out of range but numeric: clamped to the document as the earlier changes of the notification left it', () => {
  const d = doc('a: 1\nb: 2\nc: 3\n');
  // The first change removes two lines: line 2 is then the last (empty) line, line 3 is past it.
  const o = applyChanges(
    d,
    [
      { range: range(0, 0, 2, 0), text: '' },
      { range: range(3, 0, 7, 2), text: 'end: true\n' },
    ],
    2,
    false,
  );
  assert.equal(o.t, 'applied');
  assert.equal(d.getText(), 'c: 3\nend: true\n');
  assert.deepEqual(o.t === 'applied' && o.clamped, ['change 1: start line 3 is past the last line (1)', 'change 1: end line 7 is past the last line (1)']);
  // Negative and fractional positions.
  const e = doc('ab\ncd\n');
  const n = applyChanges(e, [{ range: range(-4, -1, 0.5, 1.9), text: 'X' }], 3, false);
  assert.equal(e.getText(), 'Xb\ncd\n');
  assert.deepEqual(n.t === 'applied' && n.clamped, ['change 0: start -4:-1 is negative']);
  // A character past the end of its line is the end of that line (the spec's rule), not a clamp.
  const f = doc('ab\ncd\n');
  assert.deepEqual(applyChanges(f, [{ range: range(0, 99, 0, 99), text: '!' }], 2, false), { t: 'applied', clamped: [], resynced: false });
  assert.equal(f.getText(), 'ab!\ncd\n');
});

test('not numeric anywhere in the notification: the whole notification is rejected, the text and version stay', () => {
  for (const bad of [
    [
      { range: range(0, 0, 0, 1), text: 'x' },
      { range: range(0, null, 0, 1), text: 'y' },
    ],
    [
      { range: range(0, 0, 0, 1), text: 'x' },
      { range: range(0, 0, Number.NaN, 1), text: 'y' },
    ],
    [
      { range: range(0, 0, 0, 1), text: 'x' },
      { range: range(0, 0, 0, '1'), text: 'y' },
    ],
    [
      { range: range(0, 0, 0, 1), text: 'x' },
      { range: null, text: 'y' },
    ],
    [
      { range: range(0, 0, 0, 1), text: 'x' },
      { range: { start: { line: 0, character: 0 } }, text: 'y' },
    ],
    [{ range: range(0, 0, 0, 1), text: 5 }],
    [null],
    'not a list',
  ]) {
    const d = doc('a: 1\n');
    const o = applyChanges(d, bad, 2, false);
    assert.equal(o.t, 'rejected', JSON.stringify(bad));
    assert.equal(d.getText(), 'a: 1\n');
    assert.equal(d.version, 1);
  }
});

test('out of sync: changes without a full text are ignored; a full text resyncs and the changes after it apply to it', () => {
  const d = doc('stale\n');
  assert.deepEqual(
    applyChanges(
      d,
      [
        { range: range(0, 0, 0, 5), text: 'x' },
        { range: range(99, 0, 99, 0), text: 'y' },
      ],
      3,
      true,
    ),
    { t: 'ignored' },
  );
  assert.equal(d.getText(), 'stale\n');
  assert.equal(d.version, 1);
  // Malformed is still rejected while out of sync.
  assert.equal(applyChanges(d, [{ text: 'full\n' }, { range: range('x', 0, 0, 0), text: '' }], 4, true).t, 'rejected');
  assert.equal(d.getText(), 'stale\n');
  // The changes before the last full text edit a text that is not the client's: not applied, not clamped.
  const o = applyChanges(d, [{ range: range(50, 0, 50, 0), text: 'lost' }, { text: 'a: 1\nb: 2\n' }, { range: range(1, 3, 9, 0), text: '3\n' }], 5, true);
  assert.deepEqual(o, { t: 'applied', clamped: ['change 2: end line 9 is past the last line (2)'], resynced: true });
  assert.equal(d.getText(), 'a: 1\nb: 3\n');
  assert.equal(d.version, 5);
  assert.deepEqual(d.positionAt(d.getText().length), { line: 2, character: 0 });
});
