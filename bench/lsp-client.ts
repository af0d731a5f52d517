/**
 * A minimal LSP client over a child process' stdio (JSON-RPC with Content-Length framing), for the
 * benchmark: requests, notifications, server->client requests answered, diagnostics awaited.
 */
import { spawn, type ChildProcess } from 'node:child_process';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface Diagnostics {
  uri: string;
  version?: number;
  diagnostics: Json[];
  at: number;
}

export class LspClient {
  readonly proc: ChildProcess;
  private buf = Buffer.alloc(0);
  private nextId = 1;
  private pending = new Map<number, { resolve: (v: Json) => void; reject: (e: Error) => void }>();
  private diagWaiters: { uri: string; after: number; resolve: (d: Diagnostics) => void }[] = [];
  /** Last diagnostics per uri. */
  readonly diagnostics = new Map<string, Diagnostics>();
  /** Answers for server->client requests by method (e.g. workspace/configuration). */
  readonly handlers = new Map<string, (params: Json) => Json>();
  /** Handlers of server notifications (other than diagnostics), by method. */
  readonly notificationHandlers = new Map<string, (params: Json) => void>();
  stderr = '';

  constructor(command: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
    this.proc = spawn(command, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stdout!.on('data', (d: Buffer) => this.onData(d));
    this.proc.stderr!.on('data', (d: Buffer) => {
      if (this.stderr.length < 20000) this.stderr += d.toString();
    });
    this.proc.on('exit', () => {
      for (const p of this.pending.values()) p.reject(new Error(`server exited: ${this.stderr.slice(-2000)}`));
      this.pending.clear();
    });
  }

  private onData(d: Buffer): void {
    this.buf = Buffer.concat([this.buf, d]);
    for (;;) {
      const headerEnd = this.buf.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const header = this.buf.subarray(0, headerEnd).toString();
      const m = /Content-Length: (\d+)/i.exec(header);
      if (!m) throw new Error(`bad header ${header}`);
      const len = Number(m[1]);
      if (this.buf.length < headerEnd + 4 + len) return;
      const body = this.buf.subarray(headerEnd + 4, headerEnd + 4 + len).toString('utf8');
      this.buf = this.buf.subarray(headerEnd + 4 + len);
      this.onMessage(JSON.parse(body));
    }
  }

  private onMessage(msg: Json): void {
    const now = performance.now();
    if (msg.id !== undefined && msg.method === undefined) {
      const p = this.pending.get(msg.id);
      if (p) {
        this.pending.delete(msg.id);
        if (msg.error) p.reject(new Error(JSON.stringify(msg.error)));
        else p.resolve(msg.result);
      }
      return;
    }
    if (msg.id !== undefined && msg.method) {
      const h = this.handlers.get(msg.method);
      this.send({ jsonrpc: '2.0', id: msg.id, result: h ? h(msg.params) : null });
      return;
    }
    if (msg.method && msg.method !== 'textDocument/publishDiagnostics') this.notificationHandlers.get(msg.method)?.(msg.params);
    if (msg.method === 'textDocument/publishDiagnostics') {
      const d: Diagnostics = { ...msg.params, at: now };
      this.diagnostics.set(d.uri, d);
      this.diagWaiters = this.diagWaiters.filter((w) => {
        if (w.uri === d.uri && now >= w.after) {
          w.resolve(d);
          return false;
        }
        return true;
      });
    }
  }

  private send(msg: Json): void {
    const body = Buffer.from(JSON.stringify(msg), 'utf8');
    this.proc.stdin!.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.proc.stdin!.write(body);
  }

  request(method: string, params: Json, timeoutMs = 60000): Promise<Json> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`timeout: ${method}`)), timeoutMs);
      this.pending.set(id, {
        resolve: (v) => {
          clearTimeout(t);
          resolve(v);
        },
        reject: (e) => {
          clearTimeout(t);
          reject(e);
        },
      });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string, params: Json): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  /** The next publishDiagnostics for uri that arrives after `after` (performance.now()). */
  nextDiagnostics(uri: string, after: number, timeoutMs = 60000): Promise<Diagnostics> {
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`timeout waiting for diagnostics of ${uri}`)), timeoutMs);
      this.diagWaiters.push({
        uri,
        after,
        resolve: (d) => {
          clearTimeout(t);
          resolve(d);
        },
      });
    });
  }

  async shutdown(): Promise<void> {
    try {
      await this.request('shutdown', null, 5000);
      this.notify('exit', null);
    } catch {
      /* already gone */
    }
    setTimeout(() => this.proc.kill('SIGKILL'), 1000).unref();
  }

  /** Peak resident set size (VmHWM) of the server process, in MB. */
  peakRssMB(): number {
    try {
      const s = require('node:fs').readFileSync(`/proc/${this.proc.pid}/status`, 'utf8') as string;
      const m = /VmHWM:\s+(\d+) kB/.exec(s);
      return m ? Number(m[1]) / 1024 : NaN;
    } catch {
      return NaN;
    }
  }
}
