/**
 * A minimal real LSP client for tests: starts `node dist/server.js --stdio` and talks JSON-RPC to it
 * through vscode-languageserver-protocol's connection (the same library editors use).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, type ProtocolConnection } from 'vscode-languageserver-protocol/node';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';

export const ROOT = join(__dirname, '..', '..');
export const SERVER = join(ROOT, 'dist', 'server.js');
/**
 * The command an editor test starts: the installed package's `crd-yaml lsp --stdio` where the e2e tier
 * installed it (scripts/e2e-run.mjs sets CRD_YAML_INSTALLED_BIN and puts its folder first on PATH, so the
 * command is the one docs/editors.md gives), else the checkout's dist/server.js.
 */
export function editorLspCommand(): string[] {
  return process.env.CRD_YAML_INSTALLED_BIN ? ['crd-yaml', 'lsp', '--stdio'] : [process.execPath, SERVER, '--stdio'];
}

/** Builds dist/ when it is missing (npm test builds first; a single-file run may not have). */
export function ensureBuilt(): void {
  if (!existsSync(SERVER)) spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
}

export interface TestServer {
  conn: ProtocolConnection;
  proc: ChildProcess;
  /** The server's answer to `initialize`. */
  initializeResult: unknown;
  /** Resolves with the next diagnostics for a URI that satisfy the predicate. */
  diagnostics(uri: string, pred?: (d: Diagnostic[], version?: number) => boolean, timeoutMs?: number): Promise<Diagnostic[]>;
  /**
   * Resolves with the next notification of a method that satisfies the predicate; for a status, the latest
   * one already received counts unless `fresh` (only notifications sent after this call).
   */
  notification<T>(method: string, pred?: (p: T) => boolean, timeoutMs?: number, fresh?: boolean): Promise<T>;
  stop(): Promise<void>;
  stderr(): string;
}

/** Starts the server over stdio and initializes it for a workspace folder. */
export async function startServer(workspace: string | null, initializationOptions?: unknown, opts: { env?: NodeJS.ProcessEnv; command?: string[] } = {}): Promise<TestServer> {
  // `command`: another way to start it (the installed package's `crd-yaml lsp --stdio`, test/package).
  if (!opts.command) ensureBuilt();
  const [cmd, ...args] = opts.command ?? [process.execPath, SERVER, '--stdio'];
  const proc = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'], env: opts.env ?? process.env });
  let err = '';
  proc.stderr!.on('data', (d) => (err += d));
  const conn = createProtocolConnection(new StreamMessageReader(proc.stdout!), new StreamMessageWriter(proc.stdin!));
  const latest = new Map<string, PublishDiagnosticsParams>();
  const waiters: Array<{ method: string; pred: (p: unknown) => boolean; resolve: (p: unknown) => void }> = [];
  const deliver = (method: string, p: unknown) => {
    for (const w of [...waiters]) {
      if (w.method === method && w.pred(p)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(p);
      }
    }
  };
  conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    latest.set(p.uri, p);
    deliver('textDocument/publishDiagnostics', p);
  });
  conn.onNotification('window/showMessage', (p: unknown) => deliver('window/showMessage', p));
  const lastOf = new Map<string, unknown>();
  conn.onNotification('crdYaml/status', (p: unknown) => {
    lastOf.set('crdYaml/status', p);
    deliver('crdYaml/status', p);
  });
  conn.onNotification('window/logMessage', (p: unknown) => deliver('window/logMessage', p));
  conn.onRequest('workspace/configuration', () => [null]);
  conn.onRequest('client/registerCapability', () => null);
  conn.listen();
  const wait = <T>(method: string, pred: (p: T) => boolean, timeoutMs: number): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const w = { method, pred: pred as (p: unknown) => boolean, resolve: resolve as (p: unknown) => void };
      waiters.push(w);
      setTimeout(() => {
        const i = waiters.indexOf(w);
        if (i >= 0) {
          waiters.splice(i, 1);
          reject(new Error(`hang guard: no ${method} within ${timeoutMs} ms; stderr: ${err}`));
        }
      }, timeoutMs).unref();
    });
  const initializeResult = await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: workspace ? `file://${workspace}` : null,
    workspaceFolders: workspace ? [{ uri: `file://${workspace}`, name: 'ws' }] : null,
    capabilities: { textDocument: { publishDiagnostics: { relatedInformation: true } } },
    initializationOptions,
  });
  await conn.sendNotification('initialized', {});
  return {
    conn,
    proc,
    initializeResult,
    diagnostics(uri, pred = () => true, timeoutMs = 10000) {
      return wait<PublishDiagnosticsParams>('textDocument/publishDiagnostics', (p) => p.uri === uri && pred(p.diagnostics, p.version), timeoutMs).then((p) => p.diagnostics);
    },
    notification<T>(method: string, pred: (p: T) => boolean = () => true, timeoutMs = 10000, fresh = false) {
      // Status notifications are state: the latest one counts even if it came before the call.
      const last = lastOf.get(method) as T | undefined;
      if (!fresh && last !== undefined && pred(last)) return Promise.resolve(last);
      return wait<T>(method, pred, timeoutMs);
    },
    async stop() {
      try {
        await Promise.race([conn.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
        await conn.sendNotification('exit');
      } catch {
        // already gone
      }
      setTimeout(() => proc.kill(), 500).unref();
      conn.dispose();
    },
    stderr: () => err,
  };
}
