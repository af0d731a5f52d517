import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queries } from './queries';
import { fromWire, SHARED_TEXT_CHARS, toWire, type FromWorker } from './workerProtocol';

const CRD = readFileSync(join(__dirname, '..', '..', '..', 'test', 'service', 'fixtures', 'widget-crd.yaml'), 'utf8');
/** The Widget CRD followed by enough non-ASCII comment lines to be a large text. */
const LARGE = `${CRD}---\n${Array.from({ length: 4000 }, (_, i) => `# é 💥 line ${i} ${'x'.repeat(60)}`).join('\n')}\n`;

test('large texts go to the workers as shared UTF-8 bytes, decoded to the same text; small or not encodable ones as strings', () => {
  assert.ok(LARGE.length >= SHARED_TEXT_CHARS);
  const w = toWire(LARGE);
  assert.ok(w instanceof Uint8Array && w.buffer instanceof SharedArrayBuffer);
  assert.equal(fromWire(w), LARGE);
  assert.equal(toWire(CRD), CRD);
  // A lone surrogate has no UTF-8 form: the text goes as it is.
  const lone = `${LARGE}\ud800`;
  assert.equal(toWire(lone), lone);
});

test('the query worker decodes a shared text only when a request is about it, and answers as from the string', () => {
  const uri = 'file:///large.yaml';
  const run = (text: string | Uint8Array) => {
    const out: FromWorker[] = [];
    const q = new Queries((m) => out.push(m));
    q.handle({ t: 'open', uri, languageId: 'yaml', version: 1, text, slot: 0 });
    const ask = (id: number, method: string, extra: object = {}) => {
      q.handle({ t: 'request', id, method, params: { textDocument: { uri }, ...extra } });
      return out.find((m) => m.t === 'response' && m.id === id) as Extract<FromWorker, { t: 'response' }>;
    };
    const folding = ask(1, 'textDocument/foldingRange');
    const hover = ask(2, 'textDocument/hover', { position: { line: 10, character: 8 } });
    return { folding, hover, later: ask(3, 'textDocument/foldingRange') };
  };
  const fromString = run(LARGE);
  const fromShared = run(toWire(LARGE));
  // Not parsed yet: the whole-document request goes to the check worker either way.
  assert.equal(fromString.folding.delegate, true);
  assert.equal(fromShared.folding.delegate, true);
  assert.match(JSON.stringify(fromShared.hover.result), /The kind of the resources/);
  assert.deepEqual(fromShared.hover.result, fromString.hover.result);
  assert.ok(Array.isArray(fromShared.later.result) && fromShared.later.result.length > 0);
  assert.deepEqual(fromShared.later.result, fromString.later.result);
});
