/**
 * A check worker's side of cli/jobs.ts: it runs its job with the program and posts the outcome to the
 * main thread (all output at once, so a failed worker printed nothing).
 */
import { serialize } from 'node:v8';
import type * as WorkerThreads from 'node:worker_threads';
import type { CheckReport } from './check';
import type { FromWorker, JobData } from './jobs';
import { runCli, type CliIO } from './main';

// Loaded when asked: the program in the main thread has no use for it.
const threads = (): typeof WorkerThreads => require('node:worker_threads');

/** Whether this thread is a check worker (the program then runs its job instead of the CLI). */
export function isJobThread(): boolean {
  const { isMainThread, workerData } = threads();
  return !isMainThread && (workerData as JobData | undefined)?.argv !== undefined;
}

/** In a worker: runs its job and posts the outcome. */
export function runJob(): void {
  const { parentPort, workerData } = threads();
  const data = workerData as JobData;
  // The output as UTF-8 bytes, each piece encoded as it is written and handed over (not copied) at the
  // end: the JSON of the whole catalog, one string of 17 MB, was copied into the main thread and encoded
  // there again, 40 MB at the end of the check, its peak. (TextEncoder: an ArrayBuffer of its own for
  // each piece, never Buffer's shared pool.)
  const stdout: Uint8Array[] = [];
  const encoder = new TextEncoder();
  let stderr = '';
  const io: CliIO = { stdout: (s) => void stdout.push(encoder.encode(s)), stderr: (s) => (stderr += s), cwd: data.cwd };
  const post = (m: FromWorker) => parentPort!.postMessage(m);
  const postOut = (code: number) =>
    parentPort!.postMessage(
      { kind: 'out', stdout, stderr, code } satisfies FromWorker,
      stdout.map((b) => b.buffer as ArrayBuffer),
    );
  // Each input's report as soon as it is checked: should this worker run out of its heap, the check in
  // the main thread takes them and goes on from there instead of starting over.
  // (Handed over, not copied: a report may hold a CRD's text in a fix.)
  io.onInput = (file, report, total) => {
    const bytes = serialize(report);
    parentPort!.postMessage({ kind: 'input', file, report: bytes, total } satisfies FromWorker, [bytes.buffer as ArrayBuffer]);
  };
  if (data.shard) {
    let report: { report: CheckReport; inputErrors: string[] } | undefined;
    io.shard = { ...data.shard, report: (r) => (report = r) };
    // A promise when the catalog is asked for CRDs (cli/catalog.ts).
    void Promise.resolve(runCli(data.argv, io)).then(() => (report ? post({ kind: 'report', ...report, stderr }) : postOut(2)));
    return;
  }
  void Promise.resolve(runCli(data.argv, io)).then(postOut);
}
