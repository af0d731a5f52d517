/**
 * Entry of the language server's workers (dist/worker.js, started by lsp/workers.ts): `role` picks the
 * check worker (lsp/checkWorker.ts) or the query worker (lsp/queryWorker.ts). The two talk over `feed`, a channel
 * of their own (the check worker's disk reads feed the query worker's index).
 */
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { Checker } from './lsp/checkWorker';
import { Queries } from './lsp/queryWorker';
import type { FromWorker, IndexFeed, ToWorker } from './lsp/workerProtocol';

const data = workerData as { role: 'check' | 'query'; feed: MessagePort; latest?: SharedArrayBuffer };
const port = parentPort!;
const post = (m: FromWorker) => port.postMessage(m);
// A bug must cost one answer, not the worker.
process.on('uncaughtException', (e) => post({ t: 'log', message: `uncaught in ${data.role} worker: ${e.stack ?? e}` }));
process.on('unhandledRejection', (e) => post({ t: 'log', message: `unhandled rejection in ${data.role} worker: ${e instanceof Error ? e.stack : String(e)}` }));

if (data.role === 'check') {
  const checker = new Checker(post, (m: IndexFeed) => data.feed.postMessage(m), data.latest ? new Int32Array(data.latest) : undefined);
  port.on('message', (m: ToWorker) => {
    try {
      checker.handle(m);
    } catch (e) {
      post({ t: 'log', message: `check worker: ${m.t} failed: ${(e as Error).stack ?? e}` });
      if (m.t === 'request') post({ t: 'response', id: m.id, result: null });
    }
  });
} else {
  const queries = new Queries(post);
  const feed = (m: IndexFeed) => {
    try {
      queries.handleFeed(m);
    } catch (e) {
      post({ t: 'log', message: `query worker: index feed failed: ${(e as Error).stack ?? e}` });
    }
  };
  data.feed.on('message', feed);
  port.on('message', (m: ToWorker) => {
    // The feed's waiting messages first: what the check worker sent before the client saw its outcome (the
    // index after a scan, a CRD after its check) is known to the answer. The two channels have no order
    // between them otherwise, and a busy or starting worker can find both waiting.
    if (m.t === 'request') for (let r = receiveMessageOnPort(data.feed); r; r = receiveMessageOnPort(data.feed)) feed(r.message as IndexFeed);
    try {
      queries.handle(m);
    } catch (e) {
      post({ t: 'log', message: `query worker: ${m.t} failed: ${(e as Error).stack ?? e}` });
      if (m.t === 'request') post({ t: 'response', id: m.id, result: null });
    }
  });
}
post({ t: 'ready' });
