/**
 * The main thread's two workers (dist/worker.js): started together with a channel between them, each with
 * a heap limit, and started again together when either dies (a check that exhausted its heap, a bug). The
 * document being checked when the check worker died is reported to the caller, which tells the new
 * workers not to check that text again.
 */
import { MessageChannel, Worker } from 'node:worker_threads';
import type { FromWorker, ToWorker } from './workerProtocol';

export type Role = 'check' | 'query';

export interface WorkersOptions {
  script: string;
  /** Old-generation heap limits (MB): a check beyond them ends its worker instead of the server. */
  heapMB: Record<Role, number>;
  /** Latest document versions the main thread has seen, by slot (read by the check worker). */
  latest: Int32Array;
  onMessage: (role: Role, m: FromWorker) => void;
  /** Both workers were started again after `role` died; `checking` is what the check worker was on. */
  onRestart: (role: Role, why: string, checking: { uri: string; version: number } | undefined) => void;
  log: (m: string) => void;
}

export class Workers {
  private workers: Record<Role, Worker> | undefined;
  private checking: { uri: string; version: number } | undefined;
  private stopped = false;
  restarts = 0;

  /** Whether the check worker is inside a check now (between its `checking` and its `stats`). */
  get checkRunning(): boolean {
    return this.checking !== undefined;
  }

  constructor(private readonly opts: WorkersOptions) {}

  start(): void {
    const { port1, port2 } = new MessageChannel();
    const make = (role: Role, feed: typeof port1): Worker => {
      const w = new Worker(this.opts.script, {
        workerData: { role, feed, latest: role === 'check' ? this.opts.latest.buffer : undefined },
        transferList: [feed],
        resourceLimits: { maxOldGenerationSizeMb: this.opts.heapMB[role] },
        stdout: false,
        stderr: false,
      });
      w.on('message', (m: FromWorker) => {
        if (w !== this.workers?.[role]) return;
        if (role === 'check' && m.t === 'checking') this.checking = { uri: m.uri, version: m.version };
        else if (role === 'check' && m.t === 'stats') this.checking = undefined;
        this.opts.onMessage(role, m);
      });
      w.on('error', (e) => this.died(w, role, e.message));
      w.on('exit', (code) => this.died(w, role, `exited with code ${code}`));
      return w;
    };
    this.workers = { check: make('check', port1), query: make('query', port2) };
  }

  post(role: Role, m: ToWorker): void {
    this.workers?.[role].postMessage(m);
  }

  private died(w: Worker, role: Role, why: string): void {
    if (this.stopped || !this.workers || this.workers[role] !== w) return;
    const old = this.workers;
    this.workers = undefined;
    const checking = role === 'check' ? this.checking : undefined;
    this.checking = undefined;
    this.opts.log(`${role} worker ${why}; starting both workers again`);
    for (const r of ['check', 'query'] as const) if (old[r] !== w) void old[r].terminate();
    this.restarts++;
    this.start();
    this.opts.onRestart(role, why, checking);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const w = this.workers;
    this.workers = undefined;
    if (w) await Promise.all([w.check.terminate(), w.query.terminate()]);
  }
}
