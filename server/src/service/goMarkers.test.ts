import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goStringAt, markerArguments, markerOfLine, utf16Column } from './goMarkers';

test('an interpreted Go string: each value character at its source column, escapes counted as written', () => {
  const line = String.raw`// +kubebuilder:validation:XValidation:rule="self.a == \"x\\y\" && self.replica > 0",message="m"`;
  const start = line.indexOf('"');
  const lit = goStringAt(line, start);
  assert.equal(lit.value, String.raw`self.a == "x\y" && self.replica > 0`);
  // `replica` in the value is at its own column in the source, after three escapes (two columns each).
  assert.equal(lit.offsets[lit.value.indexOf('replica')], line.indexOf('replica'));
  assert.equal(line[lit.end - 1], '"');
  assert.equal(lit.open, false);
});

test('raw strings, \\u escapes and a string still being typed', () => {
  const raw = goStringAt('x=`^[a-z]+\\d$`', 2);
  assert.equal(raw.value, '^[a-z]+\\d$');
  assert.equal(raw.offsets[2], 5);
  const u = goStringAt('"\\u00e9t\\x41"', 0);
  assert.equal(u.value, 'étA');
  assert.deepEqual(u.offsets, [1, 7, 8, 12]);
  const open = goStringAt('rule="self.', 5);
  assert.equal(open.value, 'self.');
  assert.equal(open.open, true);
  assert.equal(open.offsets[5], 11);
});

test('the arguments of an XValidation marker: commas inside strings do not split', () => {
  const line = '\t// +kubebuilder:validation:XValidation:rule="a, b",message="x, y",reason=FieldValueForbidden';
  const mk = markerOfLine(line);
  assert.ok(mk?.xvalidationArgs);
  const args = markerArguments(line, mk.xvalidationArgs);
  assert.deepEqual(
    args.map((a) => [a.name, a.literal.value]),
    [
      ['rule', 'a, b'],
      ['message', 'x, y'],
      ['reason', 'FieldValueForbidden'],
    ],
  );
  assert.equal(markerOfLine('// a comment'), undefined);
  assert.equal(markerOfLine('\t// +optional')?.xvalidationArgs, undefined);
});

test('byte columns (go/token) to UTF-16 columns', () => {
  assert.equal(utf16Column('// é +x', 7), 5);
  assert.equal(utf16Column('abc', 1), 0);
});
