import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RawJson, rawJsonEncoder } from './rawJson';

const params = { uri: 'file:///a.yaml', version: 3, diagnostics: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message: 'é "quoted" \u2028' }] };
const decode = async (m: object) => JSON.parse(Buffer.from(await rawJsonEncoder.encode(m as never, { charset: 'utf-8' })).toString('utf8'));

test('a notification with RawJson params is written with the text as its params; other messages as JSON.stringify writes them', async () => {
  const raw = new RawJson(JSON.stringify(params));
  assert.deepEqual(await decode({ jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: raw }), { jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params });
  const response = { jsonrpc: '2.0', id: 7, result: { contents: 'x' } };
  assert.deepEqual(await decode(response), response);
  // Transports that serialize by themselves (node-ipc) get the value back.
  assert.equal(JSON.stringify({ params: raw }), JSON.stringify({ params }));
});
