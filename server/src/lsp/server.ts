/**
 * The LSP wiring: capabilities, document sync, settings, the workspace scan, and handlers that turn
 * requests into language-service calls. Every handler is guarded: a failure answers null and is logged,
 * the server keeps running.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseKubernetesVersion } from '../engine/version';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { postJson } from '../net/webhook';
import {
  CodeActionKind,
  DiagnosticSeverity,
  DidChangeConfigurationNotification,
  MessageType,
  ShowMessageNotification,
  FileChangeType,
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LanguageService } from '../service/languageService';
import { DEFAULT_SCAN_SETTINGS, isIndexedPath, listIndexedFiles, ReadableRoots, readCandidate } from '../workspace/scan';
import { ConversionWebhookRequest, PreviewRequest, StatusNotification, type ConversionWebhookResponse, type PreviewResponse } from './protocol';
import { SHOW_NOTES_COMMAND, SOURCE, toCodeAction, toDiagnostic, toPreviewResponse } from './render';
import type { FieldValidation } from '../service/context';
import type { CompatSeverity } from '../engine/compat/categories';
import type { CelLintCode, CelLintSeverity } from '../service/celLints';
import { EditorBaselines } from './baselines';
import { RUN_TESTS_COMMAND } from '../service/crdTests';
import { DiagnosticsScheduler } from './scheduler';
import { RepositoryFeatures } from './repository';
import type { QueuedEdits } from './queuedEdits';

/** The `crdYaml.*` settings. */
export interface ServerSettings {
  crdPaths: string[];
  exclude: string[];
  unknownKinds: 'ignore' | 'hint';
  fieldValidation: FieldValidation;
  diagnosticsDelayMs: number;
  /** `git:HEAD` (default), `git:<ref>`, `cluster` or `none`: what open files are checked as updates of. */
  baseline: string;
  /** Severities of CRD compatibility categories. */
  compatibility: Record<string, CompatSeverity>;
  /** `crdYaml.kubernetesVersion` (`1.30` .. `1.37`) as a minor; undefined: the newest. */
  kubernetesMinor?: number;
  /** `crdYaml.cel.*`: severities of the CEL lints. */
  celLints: Partial<Record<CelLintCode, CelLintSeverity>>;
}

const DEFAULTS: ServerSettings = {
  crdPaths: DEFAULT_SCAN_SETTINGS.crdPaths,
  exclude: DEFAULT_SCAN_SETTINGS.exclude,
  unknownKinds: 'ignore',
  fieldValidation: 'Strict',
  diagnosticsDelayMs: 0,
  baseline: 'git:HEAD',
  compatibility: {},
  celLints: {},
};

const COMPAT_SEVERITIES = ['error', 'warning', 'information', 'off'];

function readSettings(raw: unknown): ServerSettings {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const strings = (v: unknown, d: string[]) => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : d);
  return {
    crdPaths: strings(r.crdPaths, DEFAULTS.crdPaths),
    exclude: strings(r.exclude, DEFAULTS.exclude),
    unknownKinds: r.unknownKinds === 'hint' ? 'hint' : 'ignore',
    fieldValidation: r.fieldValidation === 'Warn' || r.fieldValidation === 'Ignore' ? r.fieldValidation : 'Strict',
    diagnosticsDelayMs: typeof r.diagnosticsDelayMs === 'number' && r.diagnosticsDelayMs >= 0 ? r.diagnosticsDelayMs : 0,
    baseline: typeof r.baseline === 'string' && r.baseline.trim() ? r.baseline.trim() : DEFAULTS.baseline,
    compatibility: Object.fromEntries(
      Object.entries(r.compatibility && typeof r.compatibility === 'object' ? (r.compatibility as Record<string, unknown>) : {}).filter(
        (e): e is [string, CompatSeverity] => typeof e[1] === 'string' && COMPAT_SEVERITIES.includes(e[1]),
      ),
    ),
    kubernetesMinor: typeof r.kubernetesVersion === 'string' ? parseKubernetesVersion(r.kubernetesVersion) : undefined,
    celLints: readCelLints(r.cel),
  };
}

/** `crdYaml.cel.noSuchKey`, `.constantRule`, `.emptyMessage`: the CEL lints' severities (celLints.ts). */
function readCelLints(raw: unknown): Partial<Record<CelLintCode, CelLintSeverity>> {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const out: Partial<Record<CelLintCode, CelLintSeverity>> = {};
  for (const [setting, code] of Object.entries(CEL_LINT_SETTINGS)) {
    const v = r[setting];
    if (typeof v === 'string' && LINT_SEVERITIES.includes(v)) out[code] = v as CelLintSeverity;
  }
  return out;
}

const LINT_SEVERITIES = ['error', 'warning', 'information', 'hint', 'off'];
const CEL_LINT_SETTINGS: Record<string, CelLintCode> = { noSuchKey: 'CELNoSuchKey', constantRule: 'CELConstantRule', emptyMessage: 'CELEmptyMessage' };

/** Starts serving the language on a connection. */
export function startServer(connection: Connection, opts: { queued?: QueuedEdits } = {}): void {
  const documents = new TextDocuments(TextDocument);
  const service = new LanguageService();
  let settings = DEFAULTS;
  let folders: string[] = [];
  /** The one check before any read: inside a workspace folder (or a configured CRD source), links resolved. */
  const readable = new ReadableRoots();
  let pullConfiguration = false;
  let indexing = false;

  const log = (msg: string) => connection.console.log(msg);
  let trusted = true;
  const baselines = new EditorBaselines(service, {
    folders: () => folders,
    openText: (uri) => documents.get(uri)?.getText(),
    openUris: () => documents.all().map((d) => d.uri),
    log,
    trusted: () => trusted,
  });
  /** Reads an open file's baseline, then checks it again. */
  const refreshBaseline = (uri: string) =>
    void baselines
      .refresh(uri)
      .then(() => scheduler.schedule(uri, false))
      .catch((e) => log(`baseline of ${uri}: ${(e as Error).message}`));
  const sendStatus = () => void connection.sendNotification(StatusNotification, { crdCount: service.crdCount, indexing }).catch(() => undefined);

  const scheduler = new DiagnosticsScheduler((uri, urgent) => {
    const doc = documents.get(uri);
    if (!doc) return;
    // A newer edit is already read and queued: checking this text would be wasted (it reschedules).
    if (opts.queued?.isStale(uri, doc.version)) return;
    try {
      const t0 = performance.now();
      repo.updateContext(uri);
      const changed = service.update(doc);
      if (repo.isExcluded(uri)) {
        // crdYaml.validate.exclude: no diagnostics (the CRDs it defines are still used).
        void connection.sendDiagnostics({ uri, version: doc.version, diagnostics: [] });
        for (const dep of service.dependents(changed)) if (dep !== uri) scheduler.schedule(dep, false);
        if (changed.length) sendStatus();
        return;
      }
      // On a keystroke, large CRDs get syntax + re-mapped previous findings now, the full check after
      // (skipped if another edit is queued by then).
      const { findings, pending } = urgent ? service.quickFindings(doc) : { findings: service.findings(doc), pending: false };
      void connection.sendDiagnostics({ uri, version: doc.version, diagnostics: findings.map((f) => toDiagnostic(f, uri)) });
      if (pending) fullPassWhenIdle(uri);
      const ms = performance.now() - t0;
      if (ms > 200) log(`checked ${uri} in ${ms.toFixed(0)} ms`);
      if (changed.length) {
        for (const dep of service.dependents(changed)) if (dep !== uri) scheduler.schedule(dep, false);
        sendStatus();
      }
    } catch (e) {
      log(`diagnostics failed for ${uri}: ${(e as Error).stack ?? e}`);
    }
  });

  const repo = new RepositoryFeatures({ connection, service, documents, folders: () => folders, readable, schedule: (uri) => scheduler.schedule(uri, false), sendStatus, log });
  repo.register();

  /**
   * The full check of a large CRD (a second or more for the largest) starts once the user has paused
   * typing, so that it does not hold up the next keystrokes; a newer edit drops the waiting pass.
   */
  const idleTimers = new Map<string, NodeJS.Timeout>();
  const FULL_PASS_IDLE_MS = 300;
  function fullPassWhenIdle(uri: string): void {
    clearTimeout(idleTimers.get(uri));
    idleTimers.set(
      uri,
      setTimeout(() => {
        idleTimers.delete(uri);
        scheduler.schedule(uri, false);
      }, FULL_PASS_IDLE_MS),
    );
  }
  documents.onDidChangeContent((e) => {
    clearTimeout(idleTimers.get(e.document.uri));
    idleTimers.delete(e.document.uri);
  });

  const guarded =
    <P, R>(name: string, fn: (p: P) => R, fallback: R) =>
    (p: P): R => {
      try {
        return fn(p);
      } catch (e) {
        log(`${name} failed: ${(e as Error).stack ?? e}`);
        return fallback;
      }
    };

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    pullConfiguration = !!params.capabilities.workspace?.configuration;
    const init = params.initializationOptions as { settings?: unknown; trusted?: unknown; cacheDir?: unknown } | undefined;
    repo.initialize(init ?? {});
    // Only a client that says the workspace is untrusted (VS Code) keeps exec credential plugins from running.
    trusted = init?.trusted !== false;
    if (init?.settings) applySettings(init.settings);
    folders = (params.workspaceFolders ?? []).map((f) => uriToPath(f.uri)).filter((p): p is string => !!p);
    if (!folders.length && params.rootUri) {
      const p = uriToPath(params.rootUri);
      if (p) folders = [p];
    }
    readable.set(folders);
    // The default baseline (git:HEAD) holds until settings say otherwise (clients without settings keep it).
    baselines.configure(settings.baseline);
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
        executeCommandProvider: { commands: [SHOW_NOTES_COMMAND, RUN_TESTS_COMMAND] },
      },
      serverInfo: { name: 'crd-yaml', version: '0.1.0' },
    };
  });

  connection.onInitialized(() => {
    if (pullConfiguration) {
      void connection.client.register(DidChangeConfigurationNotification.type, undefined).catch(() => undefined);
      void refreshSettings().then(scan);
    } else void scan();
  });

  function applySettings(raw: unknown): void {
    const before = settings;
    settings = readSettings(raw);
    service.configure({ unknownKinds: settings.unknownKinds, fieldValidation: settings.fieldValidation, compatibility: settings.compatibility, kubernetesMinor: settings.kubernetesMinor, celLints: settings.celLints });
    const repoChanged = repo.configure(raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {});
    scheduler.delayMs = settings.diagnosticsDelayMs;
    if (repoChanged) void repo.indexSources();
    if (baselines.configure(settings.baseline)) for (const d of documents.all()) refreshBaseline(d.uri);
    const compatChanged = JSON.stringify(before.compatibility) !== JSON.stringify(settings.compatibility) || JSON.stringify(before.celLints) !== JSON.stringify(settings.celLints);
    if (repoChanged || compatChanged || before.unknownKinds !== settings.unknownKinds || before.fieldValidation !== settings.fieldValidation || before.kubernetesMinor !== settings.kubernetesMinor) for (const d of documents.all()) scheduler.schedule(d.uri, false);
  }

  async function refreshSettings(): Promise<void> {
    try {
      applySettings(await connection.workspace.getConfiguration('crdYaml'));
    } catch {
      // Clients without configuration support keep the defaults.
    }
  }

  connection.onDidChangeConfiguration(async (p) => {
    const before = settings;
    if (pullConfiguration) await refreshSettings();
    else applySettings((p.settings as { crdYaml?: unknown } | undefined)?.crdYaml);
    if (before.crdPaths.join() !== settings.crdPaths.join() || before.exclude.join() !== settings.exclude.join()) void scan();
  });

  /** Indexes the workspace's CRD files, yielding between files so edits are served meanwhile. */
  async function scan(): Promise<void> {
    // Without a folder there is nothing to scan, but configured sources still count.
    if (!folders.length) {
      await repo.indexSources(true);
      return;
    }
    indexing = true;
    sendStatus();
    const t0 = performance.now();
    try {
      const files = await listIndexedFiles(folders, settings);
      // Files no longer selected (settings changed, deleted meanwhile) leave the index.
      const keep = new Set(files.map((f) => pathToFileURL(f).toString()));
      for (const uri of service.index.diskSources()) if (!keep.has(uri)) service.indexDiskFile(uri, undefined);
      for (const file of files) {
        const text = await readCandidate(file, readable);
        const uri = pathToFileURL(file).toString();
        baselines.diskFile(uri, text);
        if (text !== undefined && !documents.get(uri)) {
          // Open CRs get their findings as soon as their CRD is indexed, not at the end of the scan.
          for (const dep of service.dependents(service.indexDiskFile(uri, text))) scheduler.schedule(dep, false);
        }
        await new Promise((r) => setImmediate(r));
      }
    } catch (e) {
      log(`workspace scan failed: ${(e as Error).message}`);
    }
    await repo.indexSources(true);
    indexing = false;
    log(`indexed ${service.crdCount} CRDs in ${(performance.now() - t0).toFixed(0)} ms`);
    sendStatus();
    for (const d of documents.all()) scheduler.schedule(d.uri, false);
  }

  function relPath(file: string): string | undefined {
    for (const f of folders) {
      const rel = path.relative(f, file);
      if (!rel.startsWith('..') && !path.isAbsolute(rel)) return rel.split(path.sep).join('/');
    }
    return undefined;
  }

  // File events are applied one batch after the other, in the order they came (each awaits reads).
  let fileEvents: Promise<void> = Promise.resolve();
  connection.onDidChangeWatchedFiles((p) => {
    fileEvents = fileEvents.then(() => applyFileChanges(p.changes)).catch((e) => log(`file change failed: ${(e as Error).message}`));
  });
  async function applyFileChanges(changes: { uri: string; type: FileChangeType }[]): Promise<void> {
    for (const ch of changes) {
      repo.onWatchedFile(ch.uri);
      if (documents.get(ch.uri)) continue; // the open document is what counts
      const file = uriToPath(ch.uri);
      const rel = file && relPath(file);
      if (!file || rel === undefined || !isIndexedPath(rel, settings)) continue;
      const text = ch.type === FileChangeType.Deleted ? undefined : await readCandidate(file, readable);
      const changed = service.indexDiskFile(ch.uri, text);
      baselines.diskFile(ch.uri, text);
      for (const dep of service.dependents(changed)) scheduler.schedule(dep, false);
      if (changed.length) sendStatus();
    }
  }

  documents.onDidChangeContent((e) => scheduler.schedule(e.document.uri, true));
  // The baseline is read when a file opens and again when it is saved (a commit may have moved HEAD).
  documents.onDidOpen((e) => refreshBaseline(e.document.uri));
  documents.onDidSave((e) => refreshBaseline(e.document.uri));
  documents.onDidClose(async (e) => {
    const uri = e.document.uri;
    scheduler.cancel(uri);
    repo.forget(uri);
    opts.queued?.forget(uri);
    void connection.sendDiagnostics({ uri, diagnostics: [] });
    baselines.forget(uri);
    let changed = service.close(uri);
    const file = uriToPath(uri);
    const rel = file && relPath(file);
    if (file && rel !== undefined && isIndexedPath(rel, settings)) {
      const text = await readCandidate(file, readable);
      if (text !== undefined && !documents.get(uri)) changed = [...changed, ...service.indexDiskFile(uri, text)];
    }
    for (const dep of service.dependents(changed)) scheduler.schedule(dep, false);
    if (changed.length) sendStatus();
  });

  connection.onHover(guarded('hover', (p) => withDoc(p.textDocument.uri, (d) => service.hover(d, p.position)), null));
  connection.onCompletion(
    guarded(
      'completion',
      (p) =>
        withDoc(p.textDocument.uri, (d) => {
          // A space only opens the list where a value starts (`key: `), not in indentation or prose.
          if (p.context?.triggerCharacter === ' ') {
            const line = d.getText({ start: { line: p.position.line, character: 0 }, end: p.position });
            if (!/:\s$/.test(line)) return [];
          }
          return service.completion(d, p.position);
        }) ?? [],
      [],
    ),
  );
  connection.onSignatureHelp(guarded('signatureHelp', (p) => withDoc(p.textDocument.uri, (d) => service.signatureHelp(d, p.position)) ?? null, null));
  connection.onCodeAction(guarded('codeAction', (p) => withDoc(p.textDocument.uri, (d) => service.fixes(d, p.range).map((f) => toCodeAction(f, d.uri))) ?? [], []));
  connection.onDocumentSymbol(guarded('documentSymbol', (p) => withDoc(p.textDocument.uri, (d) => service.documentSymbols(d)) ?? [], []));
  connection.onDefinition(guarded('definition', (p) => withDoc(p.textDocument.uri, (d) => service.definition(d, p.position)) ?? [], []));
  connection.onFoldingRanges(guarded('foldingRange', (p) => withDoc(p.textDocument.uri, (d) => service.foldingRanges(d)) ?? [], []));
  connection.onCodeLens(guarded('codeLens', (p) => withDoc(p.textDocument.uri, (d) => service.codeLenses(d)) ?? [], []));
  connection.onRequest(ConversionWebhookRequest, async (p): Promise<ConversionWebhookResponse | null> => {
    const d = documents.get(p.textDocument.uri);
    if (!d) return null;
    try {
      service.update(d);
      // The user named this URL; the CA is theirs or the CRD's (net/webhook.ts is the one outgoing call).
      const r = await service.checkConversionWebhook(d, p.position, p.to, randomUUID(), (body, crdCa) => postJson(p.webhook, body, { ca: p.caBundle ?? crdCa }));
      if (!r) return null;
      return {
        desiredAPIVersion: r.result.desiredAPIVersion,
        ...(r.result.reviewVersion ? { reviewVersion: r.result.reviewVersion } : {}),
        sent: r.result.sent.length,
        diagnostics: r.messages.map((m) => ({ range: m.range, severity: m.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning, source: SOURCE, message: m.message })),
        yaml: r.yaml,
      };
    } catch (e) {
      log(`checkConversionWebhook failed: ${(e as Error).stack ?? e}`);
      return null;
    }
  });
  // A fix's notes (what a migration changed): a message, the details in the server's log.
  connection.onExecuteCommand(
    guarded(
      'executeCommand',
      (p) => {
        if (p.command === RUN_TESTS_COMMAND) {
          const [uri, index] = (p.arguments ?? []) as [string, number | undefined];
          const r = withDoc(uri, (d) => service.runTests(d, typeof index === 'number' ? index : undefined));
          if (!r) return null;
          // The failures are findings of the test file; the lenses show the outcomes.
          scheduler.schedule(uri, false);
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
      },
      null,
    ),
  );
  connection.onRequest(
    PreviewRequest,
    guarded(
      'preview',
      (p) =>
        withDoc(p.textDocument.uri, (d): PreviewResponse | null => {
          if (p.scope === 'file') return { yaml: service.previewFile(d), object: null, pruned: [], defaulted: [], diagnostics: [] };
          const r = service.preview(d, p.position, { readBack: p.readBack === true });
          return r && toPreviewResponse(r, d.uri);
        }) ?? null,
      null,
    ),
  );

  function withDoc<R>(uri: string, fn: (d: TextDocument) => R): R | null {
    const d = documents.get(uri);
    if (!d) return null;
    // Requests see the index as of the latest text (the scheduler may not have run yet).
    repo.updateContext(uri);
    const changed = service.update(d);
    for (const dep of service.dependents(changed)) if (dep !== uri) scheduler.schedule(dep, false);
    return fn(d);
  }

  documents.listen(connection);
  connection.listen();
}

function uriToPath(uri: string): string | undefined {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
}
