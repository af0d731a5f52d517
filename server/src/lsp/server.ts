/**
 * The LSP main thread: capabilities, document sync, settings, and routing. It never parses a document or
 * runs a check (its bundle holds no engine or service code): checks, the workspace scan and previews run
 * in the check worker, interactive requests in the query worker (lsp/workers.ts, ARCHITECTURE.md
 * "Threads"), so the connection answers while any check runs. Every handler is guarded: a failure
 * answers the method's empty value and is logged, the server keeps running.
 *
 * One Session per connection: one method per LSP event, one way to hand a request to a worker
 * (`request`), and the document requests registered from one table (DOCUMENT_ROUTES).
 */
import { fileURLToPath } from 'node:url';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import {
  CodeActionKind,
  DidChangeConfigurationNotification,
  MessageType,
  PublishDiagnosticsNotification,
  ShowMessageNotification,
  FileChangeType,
  TextDocumentSyncKind,
  type Connection,
  type DidChangeConfigurationParams,
  type DidChangeWatchedFilesParams,
  type ExecuteCommandParams,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { OpenDocuments } from './openDocuments';
import { actionsForClient, isExtensionClient } from './clientCommands';
import {
  ConversionWebhookRequest,
  CrdsRequest,
  ImportCrdsRequest,
  KubeconfigContextsRequest,
  PreviewRequest,
  RUN_TESTS_COMMAND,
  SERVER_COMMANDS,
  SHOW_NOTES_COMMAND,
  StatsRequest,
  StatusNotification,
  TrustNotification,
  type StatsResponse,
} from './protocol';
import { QueuedEdits } from './queuedEdits';
import { RawJson } from './rawJson';
import { SEMANTIC_TOKENS_LEGEND } from './semanticTokens';
import { threadCpuMs } from './threadCpu';
import { emptyAnswer, type FromWorker, type WorkerStats } from './workerProtocol';
import { Workers, type Role } from './workers';

export interface StartOptions {
  queued?: QueuedEdits;
  /** The workers' script (dist/worker.js beside this bundle by default). */
  workerScript?: string;
  /** Heap limits of the workers (MB); CRD_YAML_WORKER_HEAP_MB overrides both. */
  heapMB?: Record<Role, number>;
}

/** Heap limits: a check beyond them ends the worker (restarted; the document is reported as not checked). */
const HEAP_MB: Record<Role, number> = { check: 2048, query: 1024 };

type DocumentParams = { textDocument: { uri: string } };
/** A document request's handler (its answer is the worker's, typed by the method). */
type DocumentHandler = (p: DocumentParams) => Promise<never>;

/**
 * The document requests and the worker that answers each. A new one: its method and empty answer in
 * workerProtocol.ts (DOCUMENT_METHODS), its service call in answer.ts, its capability in
 * Session.onInitialize, and a row here (the query worker for anything interactive: it is never behind a check).
 */
const DOCUMENT_ROUTES: ReadonlyArray<{ method: string; role: Role; register: (c: Connection, h: DocumentHandler) => void }> = [
  { method: 'textDocument/hover', role: 'query', register: (c, h) => c.onHover(h) },
  { method: 'textDocument/completion', role: 'query', register: (c, h) => c.onCompletion(h) },
  { method: 'textDocument/signatureHelp', role: 'query', register: (c, h) => c.onSignatureHelp(h) },
  { method: 'textDocument/codeAction', role: 'query', register: (c, h) => c.onCodeAction(h) },
  { method: 'textDocument/documentSymbol', role: 'query', register: (c, h) => c.onDocumentSymbol(h) },
  { method: 'textDocument/definition', role: 'query', register: (c, h) => c.onDefinition(h) },
  { method: 'textDocument/foldingRange', role: 'query', register: (c, h) => c.onFoldingRanges(h) },
  { method: 'textDocument/codeLens', role: 'query', register: (c, h) => c.onCodeLens(h) },
  { method: 'textDocument/semanticTokens/range', role: 'query', register: (c, h) => c.languages.semanticTokens.onRange(h) },
  { method: PreviewRequest.method, role: 'check', register: (c, h) => c.onRequest(PreviewRequest, h) },
  { method: ConversionWebhookRequest.method, role: 'check', register: (c, h) => c.onRequest(ConversionWebhookRequest, h) },
];

/** The repository features (lsp/repository.ts) live in the check worker: their requests go there as they are. */
const REPOSITORY_REQUESTS = [CrdsRequest, KubeconfigContextsRequest, ImportCrdsRequest];

/** Starts serving the language on a connection. */
export function startServer(connection: Connection, opts: StartOptions = {}): void {
  new Session(connection, opts).listen();
}

class Session {
  private readonly queued: QueuedEdits;
  private readonly workers: Workers;
  private readonly docs: OpenDocuments;
  private readonly heapMB: Record<Role, number>;
  /** The `crdYaml` settings object as the client sent it (the workers read it: lsp/settings.ts). */
  private settings: Record<string, unknown> = {};
  private folders: string[] = [];
  private pullConfiguration = false;
  /** The client's initializationOptions the check worker needs (trust, cache folder), replayed on restarts. */
  private init: { trusted?: unknown; cacheDir?: unknown } = {};
  /** Documents whose check exhausted a worker at a version: not checked again at that version. */
  private readonly poisoned = new Map<string, { version: number; why: string }>();
  private readonly pending = new Map<number, { method: string; params: unknown; resolve: (r: unknown) => void; role: Role }>();
  private nextId = 1;
  // Work counters of this thread (crdYaml/stats): it routes, it never parses nor checks.
  private readonly loopDelay = monitorEventLoopDelay({ resolution: 10 });
  private routed = 0;
  /** Answers of the query worker that arrived while the check worker was inside a check. */
  private answeredDuringChecks = 0;
  private readonly workerStats: Partial<Record<Role, WorkerStats>> = {};

  constructor(
    private readonly connection: Connection,
    opts: StartOptions,
  ) {
    this.queued = opts.queued ?? new QueuedEdits();
    this.loopDelay.enable();
    this.heapMB = opts.heapMB ?? envHeap() ?? HEAP_MB;
    this.workers = new Workers({
      script: opts.workerScript ?? path.join(__dirname, 'worker.js'),
      heapMB: this.heapMB,
      latest: this.queued.shared,
      log: this.log,
      onMessage: (role, m) => this.onWorkerMessage(role, m),
      onRestart: (_role, why, checking) => this.onWorkerRestart(why, checking),
    });
    this.docs = new OpenDocuments(this.queued, this.workers, this.log);
    this.workers.start();
  }

  private readonly log = (msg: string) => this.connection.console.log(msg);

  /** Registers every handler and starts reading the connection. */
  listen(): void {
    const c = this.connection;
    const d = this.docs.documents;
    d.onDidChangeContent((e) => this.onDidChangeContent(e.document));
    // The check worker reads the baseline again on save (a commit may have moved HEAD).
    d.onDidSave((e) => {
      if (this.docs.inWorkersHas(e.document.uri)) this.workers.post('check', { t: 'save', uri: e.document.uri });
    });
    d.onDidClose((e) => this.onDidClose(e.document.uri));
    c.onInitialize((p) => this.onInitialize(p));
    c.onInitialized(() => this.onInitialized());
    c.onDidChangeConfiguration((p) => this.onDidChangeConfiguration(p));
    c.onDidChangeWatchedFiles((p) => this.onDidChangeWatchedFiles(p));
    c.onShutdown(() => this.workers.stop());
    c.onExit(() => void this.workers.stop());
    for (const r of DOCUMENT_ROUTES) r.register(c, this.documentRequest(r.role, r.method) as DocumentHandler);
    c.onExecuteCommand((p) => this.onExecuteCommand(p));
    for (const type of REPOSITORY_REQUESTS) c.onRequest(type.method, (p: unknown) => this.request('check', type.method, p));
    c.onNotification(TrustNotification, (p) => this.workers.post('check', { t: 'notify', method: TrustNotification.method, params: p }));
    c.onRequest(StatsRequest, (p) => this.stats(p?.resetEventLoopDelay === true));
    // Each didChange notification QueuedEdits saw on the wire is marked handled once its handler ran (whatever
    // became of it): the last one of a document sends its text to the workers.
    d.listen(
      Object.assign(Object.create(c) as Connection, {
        onDidChangeTextDocument: (h: Parameters<Connection['onDidChangeTextDocument']>[0]) =>
          c.onDidChangeTextDocument((p) => {
            try {
              h(p);
            } finally {
              this.docs.handled(p?.textDocument?.uri);
            }
          }),
      }),
    );
    c.listen();
  }

  // ---- workers ------------------------------------------------------------------------------------

  /**
   * Hands a request to a worker (the texts waiting for the workers go first); resolves with its answer,
   * or the method's empty value if the worker dies.
   */
  private request(role: Role, method: string, params: unknown, uri?: string): Promise<unknown> {
    this.routed++;
    this.docs.flush(uri);
    return this.post(role, method, params);
  }

  /** Posts a request to a worker and waits for its answer. */
  private post(role: Role, method: string, params: unknown): Promise<unknown> {
    return new Promise((resolve) => {
      const id = this.nextId++;
      this.pending.set(id, { method, params, resolve, role });
      this.workers.post(role, { t: 'request', id, method, params });
    });
  }

  private onWorkerRestart(why: string, checking: { uri: string; version: number } | undefined): void {
    if (checking) {
      const what = /ERR_WORKER_OUT_OF_MEMORY|out of memory/i.test(why) ? `the check ran out of memory (${this.heapMB.check} MB)` : `the check stopped the worker (${why})`;
      this.poisoned.set(checking.uri, { version: checking.version, why: what });
      this.log(`not checking ${checking.uri} version ${checking.version} again: ${what}`);
    }
    // Requests the dead worker held get their empty answer; state is replayed to the new workers.
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.resolve(emptyAnswer(p.method));
    }
    this.replay();
  }

  private replay(): void {
    this.workers.post('check', { t: 'init', init: this.init });
    this.workers.post('query', { t: 'init', init: this.init });
    for (const [uri, p] of this.poisoned) this.workers.post('check', { t: 'poisoned', uri, version: p.version, why: p.why });
    this.workers.post('check', { t: 'settings', raw: this.settings });
    this.workers.post('query', { t: 'settings', raw: this.settings });
    this.docs.replay();
    // Even none: the check worker waits for its first scan before saying that a kind has no CRD.
    this.workers.post('check', { t: 'folders', folders: this.folders });
  }

  private onWorkerMessage(role: Role, m: FromWorker): void {
    switch (m.t) {
      case 'diagnostics': {
        if (m.stats) this.workerStats[role] = m.stats;
        const d = this.docs.inSync(m.uri);
        // A document closed, out of sync or changed since: its newer check publishes.
        if (!d || (m.version !== undefined && m.version !== d.version)) return;
        void this.connection.sendNotification(PublishDiagnosticsNotification.type, new RawJson(m.params) as never).catch(() => undefined);
        return;
      }
      case 'status':
        void this.connection.sendNotification(StatusNotification, { crdCount: m.crdCount, indexing: m.indexing, ...(m.catalogCount ? { catalogCount: m.catalogCount } : {}) }).catch(() => undefined);
        return;
      case 'log':
        this.log(m.message);
        return;
      case 'message':
        void this.connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: m.message }).catch(() => undefined);
        return;
      case 'stats':
        this.workerStats[role] = m.stats;
        return;
      case 'response':
        this.onWorkerResponse(role, m);
        return;
      default:
        return;
    }
  }

  private onWorkerResponse(role: Role, m: Extract<FromWorker, { t: 'response' }>): void {
    if (m.stats) this.workerStats[role] = m.stats;
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if (m.delegate && role === 'query') {
      // The query worker hands a large document's whole-document request to the check worker.
      this.docs.flush();
      void this.post('check', p.method, p.params).then(p.resolve);
      return;
    }
    if (role === 'query' && this.workers.checkRunning) this.answeredDuringChecks++;
    p.resolve(m.error ? emptyAnswer(p.method) : (m.result ?? emptyAnswer(p.method)));
  }

  // ---- documents ----------------------------------------------------------------------------------

  private onDidChangeContent(d: TextDocument): void {
    const uri = d.uri;
    if (this.docs.isDesynced(uri)) {
      // Its findings are cleared once, as it leaves the workers (later changes to it change nothing).
      if (this.docs.fromWorkers(uri)) void this.connection.sendDiagnostics({ uri, diagnostics: [] }).catch(() => undefined);
      return;
    }
    this.docs.changed(d);
  }

  private onDidClose(uri: string): void {
    this.docs.closed(uri);
    this.poisoned.delete(uri);
    void this.connection.sendDiagnostics({ uri, diagnostics: [] }).catch(() => undefined);
  }

  /** A guarded handler of a document request: the empty answer for a closed or desynced document, or on failure. */
  private documentRequest(role: Role, method: string) {
    return async (p: DocumentParams): Promise<unknown> => {
      try {
        const early = method === 'textDocument/completion' ? this.completionEarly(p as DocumentParams & CompletionTrigger) : undefined;
        if (early !== undefined) return early;
        const uri = p?.textDocument?.uri;
        if (!this.docs.inSync(uri)) {
          this.routed++;
          return emptyAnswer(method);
        }
        const answer = await this.request(role, method, p, uri);
        // Code actions that run a command only the VS Code extension has are for it alone.
        return method === 'textDocument/codeAction' ? actionsForClient(answer, isExtensionClient(this.init)) : answer;
      } catch (e) {
        this.log(`${method} failed: ${(e as Error).stack ?? e}`);
        return emptyAnswer(method);
      }
    };
  }

  /** A space only opens the completion list where a value starts (`key: `), not in indentation or prose. */
  private completionEarly(p: DocumentParams & CompletionTrigger): unknown[] | undefined {
    if (p.context?.triggerCharacter !== ' ') return undefined;
    const d = this.docs.documents.get(p.textDocument.uri);
    const line = d?.getText({ start: { line: p.position.line, character: 0 }, end: p.position }) ?? '';
    return /:\s$/.test(line) ? undefined : [];
  }

  // ---- lifecycle, settings, workspace ---------------------------------------------------------------

  private onInitialize(params: InitializeParams): InitializeResult {
    this.pullConfiguration = !!params.capabilities.workspace?.configuration;
    const options = params.initializationOptions as { settings?: unknown; trusted?: unknown; cacheDir?: unknown } | undefined;
    this.init = { trusted: options?.trusted, cacheDir: options?.cacheDir };
    this.workers.post('check', { t: 'init', init: this.init });
    this.workers.post('query', { t: 'init', init: this.init });
    if (options?.settings) this.applySettings(options.settings);
    this.folders = (params.workspaceFolders ?? []).map((f) => uriToPath(f.uri)).filter((p): p is string => !!p);
    if (!this.folders.length && params.rootUri) {
      const p = uriToPath(params.rootUri);
      if (p) this.folders = [p];
    }
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        hoverProvider: true,
        completionProvider: { triggerCharacters: ['.', ' '] },
        // Inside CEL rules: the overloads of the function being called.
        signatureHelpProvider: { triggerCharacters: ['(', ','] },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        documentSymbolProvider: true,
        definitionProvider: true,
        foldingRangeProvider: true,
        codeLensProvider: { resolveProvider: false },
        // CEL in validation rules, for YAML only (Go files have their own server's tokens); ranges only: an
        // editor asks for the lines it shows, and a 3 MB CRD is never tokenized whole (lsp/semanticTokens.ts).
        semanticTokensProvider: { legend: SEMANTIC_TOKENS_LEGEND, range: true, full: false, documentSelector: [{ language: 'yaml' }] },
        // A fix's notes; the Run lenses of CRD rule test files.
        executeCommandProvider: { commands: [...SERVER_COMMANDS] },
      },
      serverInfo: { name: 'crd-yaml', version: '0.1.0' },
    };
  }

  private onInitialized(): void {
    // Even none: the check worker waits for its first scan before saying that a kind has no CRD.
    const scan = () => this.workers.post('check', { t: 'folders', folders: this.folders });
    if (this.pullConfiguration) {
      void this.connection.client.register(DidChangeConfigurationNotification.type, undefined).catch(() => undefined);
      void this.refreshSettings().then(scan);
    } else scan();
  }

  private applySettings(raw: unknown): void {
    this.settings = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    this.workers.post('check', { t: 'settings', raw: this.settings });
    this.workers.post('query', { t: 'settings', raw: this.settings });
  }

  private async refreshSettings(): Promise<void> {
    try {
      this.applySettings(await this.connection.workspace.getConfiguration('crdYaml'));
    } catch {
      // Clients without configuration support keep the defaults.
    }
  }

  private async onDidChangeConfiguration(p: DidChangeConfigurationParams): Promise<void> {
    if (this.pullConfiguration) await this.refreshSettings();
    else this.applySettings((p.settings as { crdYaml?: unknown } | undefined)?.crdYaml);
  }

  private onDidChangeWatchedFiles(p: DidChangeWatchedFilesParams): void {
    for (const ch of p.changes) {
      if (typeof ch?.uri !== 'string') continue;
      this.workers.post('check', { t: 'fileChanged', uri: ch.uri, deleted: ch.type === FileChangeType.Deleted });
    }
  }

  // ---- commands and stats ---------------------------------------------------------------------------

  private async onExecuteCommand(p: ExecuteCommandParams): Promise<unknown> {
    if (p.command === RUN_TESTS_COMMAND) return this.runTests(p.arguments ?? []);
    if (p.command === SHOW_NOTES_COMMAND) this.showNotes(p.arguments ?? []);
    return null;
  }

  /** The check worker runs a test file's cases: their failures are findings of the file, the lenses show the outcomes. */
  private async runTests(args: unknown[]): Promise<unknown> {
    const uri = args[0];
    if (!this.docs.inSync(uri)) return null;
    const r = (await this.request('check', RUN_TESTS_COMMAND, args)) as { passed: number; failed: number } | null;
    if (!r) return null;
    void this.connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
    void this.connection.window.showInformationMessage(`crd-yaml test: ${r.passed} passed, ${r.failed} failed`);
    return r;
  }

  /** A fix's notes (what a migration changed): a message, the details in the server's log. */
  private showNotes(args: unknown[]): void {
    const [title, notes] = args;
    const lines = Array.isArray(notes) ? notes.map(String) : [];
    for (const l of lines) this.connection.console.info(`${String(title)}: ${l}`);
    // A notification (not window/showMessageRequest): nothing to answer.
    void this.connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Info, message: `${String(title)}: ${lines.length} change${lines.length === 1 ? '' : 's'} (listed in the crd-yaml output)` });
  }

  private stats(resetEventLoopDelay: boolean): StatsResponse {
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    const main = {
      cpuMs: threadCpuMs(),
      tasks: this.routed,
      parses: 0,
      eventLoopDelay: { p50: ms(this.loopDelay.percentile(50)), p99: ms(this.loopDelay.percentile(99)), max: ms(this.loopDelay.max) },
      ...this.docs.counts,
      answeredDuringChecks: this.answeredDuringChecks,
      heapUsedMB: Math.round(process.memoryUsage().heapUsed / 1048576),
    };
    if (resetEventLoopDelay) this.loopDelay.reset();
    return { main, check: this.workerStats.check, query: this.workerStats.query, workerRestarts: this.workers.restarts };
  }
}

type CompletionTrigger = { context?: { triggerCharacter?: string }; position: { line: number; character: number } };

function envHeap(): Record<Role, number> | undefined {
  const n = Number(process.env.CRD_YAML_WORKER_HEAP_MB);
  return Number.isFinite(n) && n > 0 ? { check: n, query: n } : undefined;
}

function uriToPath(uri: string): string | undefined {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
}
