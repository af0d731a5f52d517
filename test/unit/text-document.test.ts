/**
 * The read-only TextDocument (service/textDocument.ts) gives the positions, offsets, lines and texts the
 * library's document gives, on random texts with every kind of line break.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { readOnlyTextDocument } from '../../server/src/service/textDocument';

test('read-only documents agree with the library on random texts (\\n, \\r\\n, lone \\r)', () => {
  let seed = 11;
  const rnd = (k: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % k;
  };
  const pieces = ['a', 'bc', ' ', '\n', '\r', '\r\n', '\n\n', '\r\r', 'é', '😀'];
  let compared = 0;
  for (let n = 0; n < 400; n++) {
    let text = '';
    for (let i = 0, len = rnd(20); i < len; i++) text += pieces[rnd(pieces.length)];
    const want = TextDocument.create('file:///x.yaml', 'yaml', 3, text);
    const got = readOnlyTextDocument('file:///x.yaml', 'yaml', 3, text);
    assert.equal(got.lineCount, want.lineCount, JSON.stringify(text));
    assert.equal(got.getText(), text);
    for (let o = -1; o <= text.length + 1; o++) assert.deepEqual(got.positionAt(o), want.positionAt(o), `${JSON.stringify(text)} at ${o}`);
    for (let line = -1; line <= want.lineCount; line++) {
      assert.deepEqual(got.getLineRange(line), want.getLineRange(line), `${JSON.stringify(text)} line ${line}`);
      assert.equal(got.getEOLCharacters(line), want.getEOLCharacters(line), `${JSON.stringify(text)} line ${line}`);
      for (let character = -1; character <= text.length + 1; character++) {
        const p = { line, character };
        assert.equal(got.offsetAt(p), want.offsetAt(p), `${JSON.stringify(text)} at ${line}:${character}`);
        compared++;
      }
    }
    const a = { line: rnd(4), character: rnd(6) };
    const b = { line: a.line + rnd(3), character: rnd(6) };
    assert.equal(got.getText({ start: a, end: b }), want.getText({ start: a, end: b }));
  }
  assert.ok(compared > 10_000, `${compared} offsets compared`);
});
