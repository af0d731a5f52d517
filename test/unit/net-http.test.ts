/**
 * Bodies of the requests crd-yaml makes are read within a size bound (net/http.ts collectBody): a URL
 * download and a webhook answer larger than the bound are refused, with or without a Content-Length.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getUrl } from '../../server/src/net/http';
import { postJson } from '../../server/src/net/webhook';

async function serve(body: string, withLength: boolean): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => {
    if (withLength) res.setHeader('Content-Length', Buffer.byteLength(body));
    // Without a length the body comes in chunks, so only counting what arrives can refuse it.
    for (let i = 0; i < body.length; i += 1000) res.write(body.slice(i, i + 1000));
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/x.yaml` };
}

test('a download or a webhook answer over the size bound is refused; within it, it is read whole', async () => {
  const body = 'a: 1\n'.repeat(2000);
  for (const withLength of [true, false]) {
    const { server, url } = await serve(body, withLength);
    try {
      assert.deepEqual(await getUrl(url, { timeoutMs: 10_000, maxBytes: 5000 }), { tooLarge: true });
      const whole = await getUrl(url, { timeoutMs: 10_000, maxBytes: 20_000 });
      assert.ok('body' in whole && whole.body.toString() === body && whole.status === 200);
      assert.deepEqual(await postJson(url, '{}', { maxBytes: 5000 }), { error: `Post "${url}": the response is larger than 5000 bytes` });
      assert.deepEqual(await postJson(url, '{}', { maxBytes: 20_000 }), { status: 200, body });
    } finally {
      server.close();
    }
  }
});
