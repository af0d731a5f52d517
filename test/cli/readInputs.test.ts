/**
 * Input files are read into one buffer kept for all of them (cli/files.ts): whatever the order of sizes
 * (a small file after a large one, a file larger than any before, one past KEPT_TEXT_CHARS read again),
 * each text is the file's, a byte order mark left out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { collectYamlFiles, KEPT_TEXT_CHARS } from '../../server/src/cli/files';

test('texts of files read into one buffer: small after large, larger than any before, read again, with a BOM', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crd-yaml-read-'));
  try {
    const line = (i: number) => `k${i}: "é ${'x'.repeat(i % 70)}"\n`;
    const sized = (chars: number) => Array.from({ length: Math.ceil(chars / 40) }, (_, i) => line(i)).join('');
    const texts = [sized(100), sized(300_000), 'a: 1\n', sized(KEPT_TEXT_CHARS), sized(70_000), 'b: 2\n', sized(2 * KEPT_TEXT_CHARS)];
    texts.forEach((t, i) => fs.writeFileSync(path.join(dir, `f${i}.yaml`), t));
    fs.writeFileSync(path.join(dir, 'g.yaml'), `\ufeff${texts[2]}`);
    const { files, inputErrors } = collectYamlFiles(['.'], dir);
    assert.deepEqual(inputErrors, []);
    const byName = new Map(files.map((f) => [f.path, f]));
    texts.forEach((t, i) => {
      const f = byName.get(`f${i}.yaml`)!;
      assert.equal(f.text, t, `f${i}.yaml`);
      assert.equal(f.bytes, Buffer.byteLength(t));
    });
    assert.equal(byName.get('g.yaml')!.text, texts[2]);
    // Read again (past what is kept): the same text, after other files were read into the buffer.
    for (const f of files) assert.equal(f.reread?.() ?? f.text, f.text);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
