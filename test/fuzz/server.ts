/**
 * A language server under test: `node dist/server.js --stdio` in a chosen working directory, with the
 * latest diagnostics per URI (and when they arrived), every log line (a guarded handler's failure is
 * logged, not answered), and the process' memory from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, type ProtocolConnection } from 'vscode-languageserver-protocol/node';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { ensureBuilt, SERVER } from '../lsp/client';
import type { StatsResponse } from '../../server/src/lsp/protocol';

export interface Published {
  version?: number;
  diagnostics: Diagnostic[];
  at: number;
}

export class FuzzServer {
  readonly proc: ChildProcess;
  readonly conn: ProtocolConnection;
  readonly latest = new Map<string, Published>();
  readonly logs: string[] = [];
  stderr = '';
  lastPublishAt = 0;
  /** Every publication, in the order received (uri, version, when): for ordering assertions. */
  readonly publications: Array<{ uri: string; version?: number; at: number }> = [];
  /** The last crdYaml/status: whether the workspace scan is running; whether one was seen running. */
  indexing = false;
  sawIndexing = false;
  private waiters: Array<() => void> = [];

  private constructor(cwd: string | undefined) {
    ensureBuilt();
    this.proc = spawn(process.execPath, [SERVER, '--stdio'], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stderr!.on('data', (d) => {
      if (this.stderr.length < 100_000) this.stderr += d;
    });
    this.conn = createProtocolConnection(new StreamMessageReader(this.proc.stdout!), new StreamMessageWriter(this.proc.stdin!));
    this.conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      this.lastPublishAt = performance.now();
      this.latest.set(p.uri, { version: p.version, diagnostics: p.diagnostics, at: this.lastPublishAt });
      if (this.publications.length < 100_000) this.publications.push({ uri: p.uri, version: p.version, at: this.lastPublishAt });
      const ws = this.waiters;
      this.waiters = [];
      for (const w of ws) w();
    });
    this.conn.onNotification('window/logMessage', (p: { message: string }) => {
      if (this.logs.length < 1000) this.logs.push(p.message);
    });
    this.conn.onNotification('crdYaml/status', (p: { indexing: boolean }) => {
      this.indexing = p.indexing;
      if (p.indexing) this.sawIndexing = true;
      const ws = this.waiters;
      this.waiters = [];
      for (const w of ws) w();
    });
    this.conn.onRequest('workspace/configuration', () => [null]);
    this.conn.onRequest('client/registerCapability', () => null);
    this.conn.listen();
  }

  /** Starts and initializes a server (for a workspace folder, or none). */
  static async start(workspace: string | null, cwd?: string): Promise<FuzzServer> {
    const s = new FuzzServer(cwd);
    await s.conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: workspace ? `file://${workspace}` : null,
      workspaceFolders: workspace ? [{ uri: `file://${workspace}`, name: 'ws' }] : null,
      capabilities: { textDocument: { publishDiagnostics: { relatedInformation: true } }, workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } },
    });
    await s.conn.sendNotification('initialized', {});
    return s;
  }

  open(uri: string, text: string, version = 1): Promise<void> {
    return this.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version, text } });
  }

  /** Resolves when the diagnostics of `uri` for `version` have been published (timeoutMs: a hang guard only, never a verdict on speed). */
  async diagnosticsFor(uri: string, version: number, timeoutMs = 20_000): Promise<Diagnostic[]> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const p = this.latest.get(uri);
      if (p && p.version === version) return p.diagnostics;
      if (this.proc.exitCode !== null || this.proc.signalCode) throw new Error(`server exited (${this.proc.exitCode ?? this.proc.signalCode}): ${this.stderr.slice(-3000)}`);
      if (performance.now() > deadline) throw new Error(`hang guard: no diagnostics for ${uri} version ${version} within ${timeoutMs} ms (latest: ${p?.version}); logs: ${this.logs.slice(-5).join('\n')}`);
      await new Promise<void>((r) => {
        const t = setTimeout(r, 200);
        this.waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
  }

  /** Resolves once the workspace scan has ended (crdYaml/status says so; timeoutMs: a hang guard only). */
  async scanned(timeoutMs = 120_000): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (this.indexing || !this.sawIndexing) {
      if (performance.now() > deadline) throw new Error(`hang guard: the workspace scan did not end within ${timeoutMs} ms`);
      await new Promise<void>((r) => {
        const t = setTimeout(r, 200);
        this.waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
  }

  /**
   * Resolves once no diagnostics have been published for `quietMs` (dependents re-checked, scan done).
   * A wait for quiet, not a verdict: callers first wait for the versions they sent by count
   * (diagnosticsFor); timeoutMs is a hang guard.
   */
  async settle(quietMs = 400, timeoutMs = 20_000): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    // A request round-trip first: everything sent before it has been read.
    await this.conn.sendRequest('textDocument/foldingRange', { textDocument: { uri: 'file:///nothing.yaml' } });
    while (performance.now() - this.lastPublishAt < quietMs) {
      if (performance.now() > deadline) throw new Error(`hang guard: diagnostics still published after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Failures the server logged (guarded handlers, uncaught exceptions) instead of crashing. */
  failures(): string[] {
    return this.logs.filter((l) => /failed|uncaught|unhandled/i.test(l) && !/^indexed /.test(l));
  }

  /** Resident and peak resident set size (MB) of the server process. */
  memoryMB(): { rss: number; peak: number } {
    try {
      const s = readFileSync(`/proc/${this.proc.pid}/status`, 'utf8');
      const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+) kB`).exec(s)?.[1] ?? NaN) / 1024;
      return { rss: kb('VmRSS'), peak: kb('VmHWM') };
    } catch {
      return { rss: NaN, peak: NaN };
    }
  }

  /** Each thread's CPU time and work counters (crdYaml/stats). */
  stats(): Promise<StatsResponse> {
    return this.conn.sendRequest('crdYaml/stats', {}) as Promise<StatsResponse>;
  }

  /** A hover, with the time it took to answer (ms, measured here: reported, never asserted). */
  async timedHover(uri: string, position: { line: number; character: number }): Promise<{ ms: number; result: unknown }> {
    const t0 = performance.now();
    const result = await this.conn.sendRequest('textDocument/hover', { textDocument: { uri }, position });
    return { ms: performance.now() - t0, result };
  }

  async stop(): Promise<void> {
    try {
      await Promise.race([this.conn.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 3000))]);
      await this.conn.sendNotification('exit');
    } catch {
      // already gone
    }
    await Promise.race([new Promise((r) => this.proc.once('exit', r)), new Promise((r) => setTimeout(r, 3000))]);
    if (this.proc.exitCode === null && !this.proc.signalCode) this.proc.kill('SIGKILL');
    this.conn.dispose();
  }
}

/** Diagnostics as comparable, order-independent data. */
export function normDiagnostics(ds: Diagnostic[]): string[] {
  return ds.map((d) => JSON.stringify([d.range, d.code, d.severity, d.message, d.relatedInformation?.map((r) => [r.message, r.location.uri, r.location.range])])).sort();
}

/** LSP position of an offset (lines split at \n as the server's TextDocument does for \n and \r\n). */
export function positionAt(text: string, offset: number): { line: number; character: number } {
  let line = 0;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, character: offset - lineStart };
}

/** The p-th percentile (0..100) of some numbers. */
export function percentile(xs: number[], p: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}
