/**
 * The LSP main thread: capabilities, document sync, settings, and routing. It never parses a document or
 * runs a check (its bundle holds no engine or service code): checks, the workspace scan and previews run
 * in the check worker, interactive requests in the query worker (lsp/workers.ts, ARCHITECTURE.md
 * "Threads"), so the connection answers while any check runs. Every handler is guarded: a failure
 * answers the method's empty value and is logged, the server keeps running.
 */
import { fileURLToPath } from 'node:url';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import {
  CodeActionKind,
  type CodeActionParams,
  DidChangeConfigurationNotification,
  MessageType,
  PublishDiagnosticsNotification,
  ShowMessageNotification,
  FileChangeType,
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver-protocol';
import { applyChanges } from './documents';
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

/** A misbehaving client's changes are logged this many times (then counted in crdYaml/stats). */
const MAX_CHANGE_LOGS = 20;

/** Turns of the event loop the texts for the workers wait for the messages already read (lsp/server.ts scheduleFlush). */
const MAX_FLUSH_WAITS = 64;

/** Heap limits: a check beyond them ends the worker (restarted; the document is reported as not checked). */
const HEAP_MB: Record<Role, number> = { check: 2048, query: 1024 };

/** Starts serving the language on a connection. */
export function startServer(connection: Connection, opts: StartOptions = {}): void {
  const queued = opts.queued ?? new QueuedEdits();
  /** The `crdYaml` settings object as the client sent it (the workers read it: lsp/settings.ts). */
  let settings: Record<string, unknown> = {};
  let folders: string[] = [];
  let pullConfiguration = false;
  const log = (msg: string) => connection.console.log(msg);

  // ---- work counters of this thread (crdYaml/stats): it routes, it never parses nor checks ----------
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  let routed = 0;
  /** Answers of the query worker that arrived while the check worker was inside a check. */
  let answeredDuringChecks = 0;
  let clampedChanges = 0;
  let rejectedChanges = 0;
  let ignoredChanges = 0;
  let textsSent = 0;
  const workerStats: Partial<Record<Role, WorkerStats>> = {};

  // ---- documents: changes checked against the text (clamped or rejected, see documents.ts) ----------
  /** Documents whose text may differ from the client's (a rejected change): no findings, no answers. */
  const desynced = new Set<string>();
  const documents = new TextDocuments<TextDocument>({
    create: TextDocument.create,
    update(doc: TextDocument, changes: TextDocumentContentChangeEvent[], version: number): TextDocument {
      const o = applyChanges(doc, changes, version, desynced.has(doc.uri));
      switch (o.t) {
        case 'rejected':
          rejectedChanges++;
          desynced.add(doc.uri);
          if (rejectedChanges <= MAX_CHANGE_LOGS) {
            log(`rejected a change of ${doc.uri} (version ${version}): ${o.why}; the document is out of sync until the client sends its full text or reopens it`);
          }
          return doc;
        case 'ignored':
          ignoredChanges++;
          return doc;
        case 'applied':
          if (o.resynced) desynced.delete(doc.uri);
          if (o.clamped.length) {
            clampedChanges++;
            if (clampedChanges <= MAX_CHANGE_LOGS) log(`clamped a change of ${doc.uri} (version ${version}) to the document: ${o.clamped.join('; ')}`);
          }
          return doc;
      }
    },
  });
  /** Documents the workers hold (open, in sync). */
  const inWorkers = new Set<string>();

  // ---- workers ------------------------------------------------------------------------------------
  const poisoned = new Map<string, { version: number; why: string }>();
  const pending = new Map<number, { method: string; params: unknown; resolve: (r: unknown) => void; role: Role }>();
  let nextId = 1;
  const heapMB = opts.heapMB ?? envHeap() ?? HEAP_MB;
  const workers = new Workers({
    script: opts.workerScript ?? path.join(__dirname, 'worker.js'),
    heapMB,
    latest: queued.shared,
    log,
    onMessage,
    onRestart(role, why, checking) {
      if (checking) {
        const what = /ERR_WORKER_OUT_OF_MEMORY|out of memory/i.test(why) ? `the check ran out of memory (${heapMB.check} MB)` : `the check stopped the worker (${why})`;
        poisoned.set(checking.uri, { version: checking.version, why: what });
        log(`not checking ${checking.uri} version ${checking.version} again: ${what}`);
      }
      // Requests the dead worker held get their empty answer; state is replayed to the new workers.
      for (const [id, p] of pending) {
        pending.delete(id);
        p.resolve(emptyAnswer(p.method));
      }
      replay();
      void role;
    },
  });
  workers.start();

  /** The client's initializationOptions the check worker needs (trust, cache folder), replayed on restarts. */
  let init: { trusted?: unknown; cacheDir?: unknown } = {};

  function replay(): void {
    workers.post('check', { t: 'init', init });
    for (const [uri, p] of poisoned) workers.post('check', { t: 'poisoned', uri, version: p.version, why: p.why });
    workers.post('check', { t: 'settings', raw: settings });
    workers.post('query', { t: 'settings', raw: settings });
    inWorkers.clear();
    unsent.clear();
    for (const d of documents.all()) if (!desynced.has(d.uri)) toWorkers(d);
    // Even none: the check worker waits for its first scan before saying that a kind has no CRD.
    workers.post('check', { t: 'folders', folders });
  }

  function onMessage(role: Role, m: FromWorker): void {
    switch (m.t) {
      case 'diagnostics': {
        if (m.stats) workerStats[role] = m.stats;
        const d = documents.get(m.uri);
        // A document closed, out of sync or changed since: its newer check publishes.
        if (!d || desynced.has(m.uri) || (m.version !== undefined && m.version !== d.version)) return;
        void connection.sendNotification(PublishDiagnosticsNotification.type, new RawJson(m.params) as never).catch(() => undefined);
        return;
      }
      case 'status':
        void connection.sendNotification(StatusNotification, { crdCount: m.crdCount, indexing: m.indexing }).catch(() => undefined);
        return;
      case 'log':
        log(m.message);
        return;
      case 'stats':
        workerStats[role] = m.stats;
        return;
      case 'response': {
        if (m.stats) workerStats[role] = m.stats;
        const p = pending.get(m.id);
        if (!p) return;
        pending.delete(m.id);
        if (m.delegate && role === 'query') {
          flush();
          // The query worker hands a large document's whole-document request to the check worker.
          const id = nextId++;
          pending.set(id, { ...p, role: 'check' });
          workers.post('check', { t: 'request', id, method: p.method, params: p.params });
          return;
        }
        if (role === 'query' && workers.checkRunning) answeredDuringChecks++;
        p.resolve(m.error ? emptyAnswer(p.method) : (m.result ?? emptyAnswer(p.method)));
        return;
      }
      default:
        return;
    }
  }

  /** Sends a request to a worker; resolves with its answer (the method's empty value if the worker dies). */
  function ask(role: Role, method: string, params: { textDocument: { uri: string } }): Promise<unknown> {
    routed++;
    const uri = params.textDocument?.uri;
    if (typeof uri !== 'string' || !documents.get(uri) || desynced.has(uri)) return Promise.resolve(emptyAnswer(method));
    flush(uri);
    return new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, { method, params, resolve, role });
      workers.post(role, { t: 'request', id, method, params });
    });
  }

  /**
   * Texts waiting to go to the workers. A document's text goes once no more of its didChange notifications
   * wait to be handled (QueuedEdits): a burst of edits costs one copy to each worker, not one per
   * notification, and an open followed at once by edits sends only the latest text. A request about a
   * document sends its text first, so a request never sees an older text than it should.
   */
  const unsent = new Map<string, TextDocument>();
  let flushScheduled = false;
  let flushWaits = 0;
  function scheduleFlush(): void {
    if (flushScheduled) return;
    flushScheduled = true;
    setImmediate(function run() {
      // Messages already read go first (one per turn): a hover read behind a large open is answered before
      // the open's text is copied to the workers (at most MAX_FLUSH_WAITS turns: see QueuedEdits.backlog).
      if (queued.backlog && flushWaits++ < MAX_FLUSH_WAITS) {
        setImmediate(run);
        return;
      }
      flushWaits = 0;
      flushScheduled = false;
      for (const [uri, d] of unsent) {
        if (queued.hasUnhandled(uri)) continue; // its last notification schedules the flush again
        unsent.delete(uri);
        toWorkers(d);
      }
    });
  }
  /** Sends the waiting texts (of one document, or all) now. */
  function flush(uri?: string): void {
    for (const d of uri === undefined ? [...unsent.values()] : [unsent.get(uri)]) {
      if (!d) continue;
      unsent.delete(d.uri);
      toWorkers(d);
    }
  }

  function changed(d: TextDocument): void {
    queued.record(d.uri, d.version);
    unsent.set(d.uri, d);
    scheduleFlush();
  }

  function toWorkers(d: TextDocument): void {
    const text = d.getText();
    textsSent++;
    queued.record(d.uri, d.version);
    if (!inWorkers.has(d.uri)) {
      inWorkers.add(d.uri);
      const slot = queued.slotOf(d.uri) ?? -1;
      workers.post('check', { t: 'open', uri: d.uri, languageId: d.languageId, version: d.version, text, slot });
      workers.post('query', { t: 'open', uri: d.uri, languageId: d.languageId, version: d.version, text, slot });
    } else {
      workers.post('check', { t: 'change', uri: d.uri, version: d.version, text });
      workers.post('query', { t: 'change', uri: d.uri, version: d.version, text });
    }
  }

  /** Tells the workers to drop a document; whether they held it. */
  function fromWorkers(uri: string): boolean {
    unsent.delete(uri);
    if (!inWorkers.delete(uri)) return false;
    workers.post('check', { t: 'close', uri });
    workers.post('query', { t: 'close', uri });
    return true;
  }

  documents.onDidChangeContent((e) => {
    const d = e.document;
    if (desynced.has(d.uri)) {
      // Its findings are cleared once, as it leaves the workers (later changes to it change nothing).
      if (fromWorkers(d.uri)) void connection.sendDiagnostics({ uri: d.uri, diagnostics: [] }).catch(() => undefined);
      return;
    }
    changed(d);
  });
  // The check worker reads the baseline again on save (a commit may have moved HEAD).
  documents.onDidSave((e) => {
    if (inWorkers.has(e.document.uri)) workers.post('check', { t: 'save', uri: e.document.uri });
  });
  documents.onDidClose((e) => {
    const uri = e.document.uri;
    desynced.delete(uri);
    fromWorkers(uri);
    queued.forget(uri);
    poisoned.delete(uri);
    void connection.sendDiagnostics({ uri, diagnostics: [] }).catch(() => undefined);
  });

  // ---- lifecycle, settings, workspace ---------------------------------------------------------------
  connection.onInitialize((params: InitializeParams): InitializeResult => {
    pullConfiguration = !!params.capabilities.workspace?.configuration;
    const options = params.initializationOptions as { settings?: unknown; trusted?: unknown; cacheDir?: unknown } | undefined;
    init = { trusted: options?.trusted, cacheDir: options?.cacheDir };
    workers.post('check', { t: 'init', init });
    if (options?.settings) applySettings(options.settings);
    folders = (params.workspaceFolders ?? []).map((f) => uriToPath(f.uri)).filter((p): p is string => !!p);
    if (!folders.length && params.rootUri) {
      const p = uriToPath(params.rootUri);
      if (p) folders = [p];
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
        // A fix's notes; the Run lenses of CRD rule test files.
        executeCommandProvider: { commands: [...SERVER_COMMANDS] },
      },
      serverInfo: { name: 'crd-yaml', version: '0.1.0' },
    };
  });

  connection.onInitialized(() => {
    // Even none: the check worker waits for its first scan before saying that a kind has no CRD.
    const scan = () => workers.post('check', { t: 'folders', folders });
    if (pullConfiguration) {
      void connection.client.register(DidChangeConfigurationNotification.type, undefined).catch(() => undefined);
      void refreshSettings().then(scan);
    } else scan();
  });

  function applySettings(raw: unknown): void {
    settings = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    workers.post('check', { t: 'settings', raw: settings });
    workers.post('query', { t: 'settings', raw: settings });
  }

  async function refreshSettings(): Promise<void> {
    try {
      applySettings(await connection.workspace.getConfiguration('crdYaml'));
    } catch {
      // Clients without configuration support keep the defaults.
    }
  }

  connection.onDidChangeConfiguration(async (p) => {
    if (pullConfiguration) await refreshSettings();
    else applySettings((p.settings as { crdYaml?: unknown } | undefined)?.crdYaml);
  });

  connection.onDidChangeWatchedFiles((p) => {
    for (const ch of p.changes) {
      if (typeof ch?.uri !== 'string') continue;
      workers.post('check', { t: 'fileChanged', uri: ch.uri, deleted: ch.type === FileChangeType.Deleted });
    }
  });

  connection.onShutdown(() => workers.stop());
  connection.onExit(() => void workers.stop());

  // ---- requests -----------------------------------------------------------------------------------
  const guarded =
    <P extends { textDocument: { uri: string } }>(role: Role, method: string, pre?: (p: P) => unknown) =>
    async (p: P): Promise<never> => {
      try {
        const early = pre?.(p);
        if (early !== undefined) return early as never;
        return (await ask(role, method, p)) as never;
      } catch (e) {
        log(`${method} failed: ${(e as Error).stack ?? e}`);
        return emptyAnswer(method) as never;
      }
    };

  // A new document request: its method and empty answer in workerProtocol.ts (DOCUMENT_METHODS), its
  // service call in answer.ts, its capability above, and one line here naming the worker that answers it
  // (the query worker for anything interactive: it is never behind a check).
  connection.onHover(guarded('query', 'textDocument/hover'));
  connection.onCompletion(
    guarded('query', 'textDocument/completion', (p) => {
      // A space only opens the list where a value starts (`key: `), not in indentation or prose.
      if (p.context?.triggerCharacter !== ' ') return undefined;
      const d = documents.get(p.textDocument.uri);
      const line = d?.getText({ start: { line: p.position.line, character: 0 }, end: p.position }) ?? '';
      return /:\s$/.test(line) ? undefined : [];
    }),
  );
  connection.onSignatureHelp(guarded('query', 'textDocument/signatureHelp'));
  const codeActions = guarded<CodeActionParams>('query', 'textDocument/codeAction');
  connection.onCodeAction(async (p) => actionsForClient(await codeActions(p), isExtensionClient(init)));
  connection.onDocumentSymbol(guarded('query', 'textDocument/documentSymbol'));
  connection.onDefinition(guarded('query', 'textDocument/definition'));
  connection.onFoldingRanges(guarded('query', 'textDocument/foldingRange'));
  connection.onCodeLens(guarded('query', 'textDocument/codeLens'));
  connection.onRequest(PreviewRequest, guarded('check', 'crdYaml/preview'));
  connection.onRequest(ConversionWebhookRequest, guarded('check', ConversionWebhookRequest.method));
  // A fix's notes (what a migration changed): a message, the details in the server's log.
  connection.onExecuteCommand(async (p) => {
    if (p.command === RUN_TESTS_COMMAND) {
      // The check worker runs the cases: their failures are findings of the test file, the lenses show the outcomes.
      const args = p.arguments ?? [];
      const uri = args[0];
      if (typeof uri !== 'string' || !documents.get(uri) || desynced.has(uri)) return null;
      routed++;
      flush();
      const r = (await new Promise<unknown>((resolve) => {
        const id = nextId++;
        pending.set(id, { method: RUN_TESTS_COMMAND, params: args, resolve, role: 'check' });
        workers.post('check', { t: 'request', id, method: RUN_TESTS_COMMAND, params: args });
      })) as { passed: number; failed: number } | null;
      if (!r) return null;
      void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
      void connection.window.showInformationMessage(`crd-yaml test: ${r.passed} passed, ${r.failed} failed`);
      return r;
    }
    if (p.command !== SHOW_NOTES_COMMAND) return null;
    const [title, notes] = (p.arguments ?? []) as [unknown, unknown];
    const lines = Array.isArray(notes) ? notes.map(String) : [];
    for (const l of lines) connection.console.info(`${String(title)}: ${l}`);
    // A notification (not window/showMessageRequest): nothing to answer.
    void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Info, message: `${String(title)}: ${lines.length} change${lines.length === 1 ? '' : 's'} (listed in the crd-yaml output)` });
    return null;
  });
  // The repository features (lsp/repository.ts) live in the check worker: their messages go there.
  for (const type of [CrdsRequest, KubeconfigContextsRequest, ImportCrdsRequest]) {
    connection.onRequest(type.method, (p: unknown) => {
      routed++;
      flush();
      return new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, { method: type.method, params: p, resolve, role: 'check' });
        workers.post('check', { t: 'request', id, method: type.method, params: p });
      });
    });
  }
  connection.onNotification(TrustNotification, (p) => workers.post('check', { t: 'notify', method: TrustNotification.method, params: p }));

  connection.onRequest(StatsRequest, (p): StatsResponse => {
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    const main = {
      cpuMs: threadCpuMs(),
      tasks: routed,
      parses: 0,
      eventLoopDelay: { p50: ms(loopDelay.percentile(50)), p99: ms(loopDelay.percentile(99)), max: ms(loopDelay.max) },
      clampedChanges,
      rejectedChanges,
      ignoredChanges,
      textsSent,
      answeredDuringChecks,
      heapUsedMB: Math.round(process.memoryUsage().heapUsed / 1048576),
    };
    if (p?.resetEventLoopDelay) loopDelay.reset();
    return { main, check: workerStats.check, query: workerStats.query, workerRestarts: workers.restarts };
  });

  // Each didChange notification QueuedEdits saw on the wire is marked handled once its handler ran (whatever
  // became of it): the last one of a document sends its text to the workers.
  documents.listen(
    Object.assign(Object.create(connection) as Connection, {
      onDidChangeTextDocument: (h: Parameters<Connection['onDidChangeTextDocument']>[0]) =>
        connection.onDidChangeTextDocument((p) => {
          const uri = p?.textDocument?.uri;
          try {
            h(p);
          } finally {
            if (queued.handled(uri) === 0 && unsent.has(uri)) scheduleFlush();
          }
        }),
    }),
  );
  connection.listen();
}

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
