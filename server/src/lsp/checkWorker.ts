/**
 * The check worker's side: the workspace scan and index, diagnostics of open documents (the edited
 * document first, its dependents after, one document per event-loop turn so that newer edits and
 * requests get in between), previews, and document requests the query worker hands over.
 *
 * Stale work is dropped: a check does not start when the main thread has already seen a newer version of
 * the document (the shared latest-version array), and a result that went stale while it was computed is
 * not published (the newer text's check follows). A check once started runs to its end: the engine is
 * synchronous and pure, and each of its checks is bounded (CEL cost, pattern work, YAML limits).
 */
import { pathToFileURL, fileURLToPath } from 'node:url';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-protocol';
import { isGoUri, LanguageService } from '../service';
import { GoModules } from './goModules';
import { RepositoryFeatures, type Handlers } from './repository';
import { isIndexedPath, listIndexedFiles, ReadableRoots, readCandidate } from '../workspace/scan';
import { answer } from './answer';
import { randomUUID } from 'node:crypto';
import { postJson } from '../net/webhook';
import { ConversionWebhookRequest, type ConversionWebhookParams, type ConversionWebhookResponse } from './protocol';
import { SOURCE, toDiagnostic } from './render';
import { jsonSafe } from './jsonSafe';
import { DiagnosticsScheduler } from './scheduler';
import { EditorBaselines } from './baselines';
import { RUN_TESTS_COMMAND } from '../service';
import { threadCpuMs } from './threadCpu';
import { LARGE_DOCUMENT_CHARS, type FromWorker, type IndexFeed, type ToWorker, type WorkerStats } from './workerProtocol';
import { QueryWorkerFeed } from './indexFeed';
import { DEFAULT_WORKER_SETTINGS, readWorkerSettings } from './settings';
import { builtinSchemaDir } from '../workspace/builtinSchemaFiles';

/** Work counters and CPU time of one worker (posted after each task). */
export class WorkMeter {
  readonly stats: WorkerStats = { cpuMs: 0, tasks: 0, parses: 0, staleSkipped: 0, staleDropped: 0, heapUsedMB: 0, cpuByDocument: {} };
  private readonly versions = new Map<string, number>();

  /** Counts a parse when the service is about to see a version of `uri` it has not seen. */
  sawVersion(uri: string, version: number): void {
    if (this.versions.get(uri) !== version) {
      this.versions.set(uri, version);
      this.stats.parses++;
    }
  }

  forget(uri: string): void {
    this.versions.delete(uri);
    delete this.stats.cpuByDocument[uri];
  }

  /** Runs a task and records its CPU time. */
  task<R>(what: string, fn: () => R, where?: { uri: string; version?: number }): R {
    const t0 = threadCpuMs();
    try {
      return fn();
    } finally {
      const cpuMs = threadCpuMs() - t0;
      const s = this.stats;
      s.tasks++;
      s.cpuMs = threadCpuMs();
      s.last = { what, uri: where?.uri, version: where?.version, cpuMs };
      if (!s.maxTask || cpuMs > s.maxTask.cpuMs) s.maxTask = { what, cpuMs };
      if (where && this.versions.has(where.uri)) s.cpuByDocument[where.uri] = (s.cpuByDocument[where.uri] ?? 0) + cpuMs;
      s.heapUsedMB = Math.round(process.memoryUsage().heapUsed / 1048576);
    }
  }
}

export class Checker {
  // Nothing is said of objects without a CRD before the first workspace scan has found the CRDs there.
  // A large document's first findings come from the fast reader's values (parseFully after: completeParse).
  private readonly service = new LanguageService({ unknownKinds: 'ignore' }, { lazyFromChars: LARGE_DOCUMENT_CHARS });
  private readonly docs = new Map<string, TextDocument>();
  private readonly slots = new Map<string, number>();
  private readonly readable = new ReadableRoots();
  private readonly poisoned = new Map<string, { version: number; why: string }>();
  /** The diagnostics last published for each large document (what a quiet re-check compares with). */
  private readonly published = new Map<string, string>();
  /** Documents checked again after their full parse (completeParse): the same findings are not published again. */
  private readonly recheckedQuietly = new Set<string>();
  /** Open documents the query worker was told to parse ahead (once per opening). */
  private readonly meter = new WorkMeter();
  private readonly scheduler: DiagnosticsScheduler;
  private settings = DEFAULT_WORKER_SETTINGS;
  private folders: string[] = [];
  private indexing = false;
  private scanGeneration = 0;
  /** The first workspace scan is over: "no CRD known" can be said (before, the CRD may not be indexed yet). */
  private scannedOnce = false;
  private fileEvents: Promise<void> = Promise.resolve();
  /** Custom requests and notifications of the repository features, by method. */
  private readonly customRequests = new Map<string, (p: never) => unknown>();
  private readonly customNotifications = new Map<string, (p: never) => void>();
  private readonly repo: RepositoryFeatures;
  /** Baselines of open files (crdYaml.baseline), read here and handed to the query worker too. */
  private readonly baselines: EditorBaselines;
  private trusted = true;
  private readonly feed: QueryWorkerFeed;
  /** Go API packages' generated CRDs (goModules.ts). */
  private readonly go: GoModules;

  constructor(
    private readonly post: (m: FromWorker) => void,
    /** The query worker's index feed (disk files as this worker reads them). */
    sendFeed: (m: IndexFeed) => void,
    /** Latest versions seen by the main thread, by slot (shared memory). */
    private readonly latest?: Int32Array,
  ) {
    this.scheduler = new DiagnosticsScheduler((uri, urgent) => this.check(uri, urgent));
    this.feed = new QueryWorkerFeed(this.service, sendFeed);
    const handlers: Handlers = {
      onRequest: (type, handler) => void this.customRequests.set(type.method, handler as (p: never) => unknown),
      onNotification: (type, handler) => void this.customNotifications.set(type.method, handler as (p: never) => void),
    };
    this.repo = new RepositoryFeatures({
      handlers,
      service: this.service,
      documents: { all: () => [...this.docs.values()], get: (uri) => this.docs.get(uri) },
      folders: () => this.folders,
      readable: this.readable,
      schedule: (uri) => this.scheduler.schedule(uri, false),
      sendStatus: () => this.sendStatus(),
      indexed: (uri) => this.feed.crds(uri, 'external'),
      log: (m) => this.log(m),
    });
    this.repo.register();
    this.baselines = new EditorBaselines(this.service, {
      folders: () => this.folders,
      openText: (uri) => this.docs.get(uri)?.getText(),
      openObjects: (uri) => {
        const doc = this.docs.get(uri);
        return doc ? this.service.file(doc).documents.map((d) => d.value) : [];
      },
      openUris: () => [...this.docs.keys()],
      log: (m) => this.log(m),
      trusted: () => this.trusted,
    });
    this.go = new GoModules({
      service: this.service,
      documents: () => this.docs.values(),
      readable: (file) => this.folders.some((f) => !path.relative(f, file).startsWith('..') && !path.isAbsolute(path.relative(f, file))),
      trusted: () => this.trusted,
      publish: (doc) => this.publishGo(doc),
      recheckYaml: () => {
        for (const uri of this.docs.keys()) if (!isGoUri(uri)) this.scheduler.schedule(uri, false);
      },
      say: (message) => this.post({ t: 'message', message }),
      log: (m) => this.log(m),
    });
    // The default baseline (git:HEAD) holds until settings say otherwise (clients without settings keep it).
    this.baselines.configure(this.settings.baseline);
  }

  /** Reads an open file's baseline, hands it to the query worker, then checks the file again. */
  private refreshBaseline(uri: string): void {
    const doc = this.docs.get(uri);
    if (!doc) return;
    // A text that exhausted this worker before is not parsed again (for its objects) either.
    if (this.poisoned.get(uri)?.version === doc.version) return;
    // Reading a cluster baseline parses the file first: if that kills the worker, this text is what did.
    this.post({ t: 'checking', uri, version: doc.version });
    const read = this.baselines.refresh(uri);
    this.post({ t: 'stats', stats: this.meter.stats });
    void read
      .then(() => {
        if (!this.docs.has(uri)) return;
        this.feed.baseline(uri, this.service.baselineOf(uri));
        this.scheduler.schedule(uri, false);
      })
      .catch((e) => this.log(`baseline of ${uri}: ${(e as Error).message}`));
  }

  private log(message: string): void {
    this.post({ t: 'log', message });
  }

  private sendStatus(): void {
    this.post({ t: 'status', crdCount: this.service.crdCount, indexing: this.indexing, catalogCount: this.repo.catalogCount() });
  }

  private isStale(uri: string, version: number): boolean {
    const slot = this.slots.get(uri);
    return slot !== undefined && this.latest !== undefined && Atomics.load(this.latest, slot) > version;
  }

  handle(m: ToWorker): void {
    switch (m.t) {
      case 'settings': {
        const before = this.settings;
        const s = readWorkerSettings(m.raw);
        this.settings = s;
        this.service.configure({
          unknownKinds: this.scannedOnce ? s.unknownKinds : 'ignore',
          fieldValidation: s.fieldValidation,
          compatibility: s.compatibility,
          kubernetesMinor: s.kubernetesMinor,
          celLints: s.celLints,
          celLintScope: s.celLintScope,
          builtins: s.builtins,
        });
        const repoChanged = this.repo.configure(s.raw);
        this.scheduler.delayMs = s.diagnosticsDelayMs;
        if (repoChanged) void this.indexSources(false);
        if (this.baselines.configure(s.baseline)) for (const uri of this.docs.keys()) this.refreshBaseline(uri);
        const compatChanged = JSON.stringify(before.compatibility) !== JSON.stringify(s.compatibility) || JSON.stringify(before.celLints) !== JSON.stringify(s.celLints) || before.celLintScope !== s.celLintScope;
        if (repoChanged || compatChanged || before.unknownKinds !== s.unknownKinds || before.fieldValidation !== s.fieldValidation || before.kubernetesMinor !== s.kubernetesMinor || before.builtins !== s.builtins) {
          for (const uri of this.docs.keys()) this.scheduler.schedule(uri, false);
        }
        if (before.crdPaths.join() !== s.crdPaths.join() || before.exclude.join() !== s.exclude.join()) void this.scan();
        return;
      }
      case 'folders':
        this.folders = m.folders;
        this.readable.set(m.folders);
        this.service.setWorkspaceFolders(m.folders.map((f) => pathToFileURL(f).href));
        // A git baseline reads the repository of the workspace folder: the folders are known now.
        if (this.baselines.configure(this.settings.baseline, true)) for (const uri of this.docs.keys()) this.refreshBaseline(uri);
        void this.scan();
        return;
      case 'open':
        this.slots.set(m.uri, m.slot);
        this.docs.set(m.uri, TextDocument.create(m.uri, m.languageId, m.version, m.text));
        this.changed(m.uri);
        // The baseline is read when a file opens and again when it is saved.
        if (!isGoUri(m.uri)) this.refreshBaseline(m.uri);
        return;
      case 'change':
        this.docs.set(m.uri, TextDocument.create(m.uri, this.docs.get(m.uri)?.languageId ?? 'yaml', m.version, m.text));
        this.changed(m.uri);
        return;
      case 'close':
        this.close(m.uri);
        return;
      case 'save':
        if (isGoUri(m.uri)) {
          const d = this.docs.get(m.uri);
          if (d) this.go.changed(d, false);
        } else if (this.docs.has(m.uri)) this.refreshBaseline(m.uri);
        return;
      case 'fileChanged':
        this.fileEvents = this.fileEvents.then(() => this.fileChanged(m.uri, m.deleted)).catch((e) => this.log(`file change failed: ${(e as Error).message}`));
        return;
      case 'init':
        // Only a client that says the workspace is untrusted (VS Code) keeps exec credential plugins from running.
        this.trusted = m.init.trusted !== false;
        this.repo.initialize(m.init);
        if (typeof m.init.cacheDir === 'string' && m.init.cacheDir) this.go.setCacheDir(m.init.cacheDir);
        // The built-in schemas go to definition writes are generated files: neither indexed nor checked.
        this.service.setBuiltinSchemaDir(builtinSchemaDir(typeof m.init.cacheDir === 'string' && m.init.cacheDir ? m.init.cacheDir : undefined));
        return;
      case 'notify':
        try {
          this.customNotifications.get(m.method)?.(m.params as never);
        } catch (e) {
          this.log(`${m.method} failed: ${(e as Error).message}`);
        }
        this.fileEvents = this.fileEvents.then(() => this.feed.allSources());
        return;
      case 'poisoned':
        this.poisoned.set(m.uri, { version: m.version, why: m.why });
        return;
      case 'request':
        this.request(m.id, m.method, m.params);
        return;
    }
  }

  private changed(uri: string): void {
    this.scheduler.schedule(uri, true);
  }

  /** One document's check (urgent: the document just edited, checked before its dependents). */
  private check(uri: string, urgent: boolean): void {
    const doc = this.docs.get(uri);
    if (!doc) return;
    if (isGoUri(uri)) {
      // Its findings come from its module's generated CRDs, published when the generation ends.
      this.go.changed(doc, urgent);
      return;
    }
    if (this.isStale(uri, doc.version)) {
      this.meter.stats.staleSkipped++;
      return;
    }
    const poison = this.poisoned.get(uri);
    if (poison) {
      if (poison.version === doc.version) {
        this.publish(uri, doc.version, [notCheckedDiagnostic(poison.why)]);
        return;
      }
      this.poisoned.delete(uri);
    }
    this.post({ t: 'checking', uri, version: doc.version });
    let publish: Diagnostic[] | undefined;
    let changed: string[] = [];
    try {
      this.meter.task(
        urgent ? 'check (keystroke)' : 'check',
        () => {
          this.meter.sawVersion(uri, doc.version);
          this.updateContext(uri);
          changed = this.service.update(doc);
          this.feed.crds(uri, 'open', doc.version);
          if (this.repo.isExcluded(uri)) {
            // crdYaml.validate.exclude: no diagnostics (the CRDs it defines are still used).
            publish = [];
            return;
          }
          // An edit of a large CRD re-checks only the path to the edit: the keystroke's findings are final.
          const findings = this.service.findings(doc);
          if (this.isStale(uri, doc.version) || this.docs.get(uri) !== doc) this.meter.stats.staleDropped++;
          else publish = jsonSafe(findings.map((f) => toDiagnostic(f, uri)));
          // The CRDs of its objects no local CRD defines, from the catalog (after the scan: a workspace CRD wins).
          if (this.scannedOnce) this.repo.catalogFor(doc);
        },
        { uri, version: doc.version },
      );
    } catch (e) {
      this.log(`diagnostics failed for ${uri}: ${(e as Error).stack ?? e}`);
    }
    if (publish) this.publish(uri, doc.version, publish, this.meter.stats);
    this.post({ t: 'stats', stats: this.meter.stats });
    if (changed.length) {
      for (const dep of this.service.dependents(changed)) if (dep !== uri) this.scheduler.schedule(dep, false);
      this.sendStatus();
    }
    // Its findings are out: a large document read by the fast reader gets its syntax trees next.
    if (this.service.readLazily(uri)) setImmediate(() => this.completeParse(uri, doc.version));
  }

  /**
   * A large document's full parse after its first findings (LanguageService.parseFully): what edits,
   * code actions and symbols need, then its check again (same findings, not published twice) so that the
   * checks' memo holds the values edits are parsed from.
   */
  private completeParse(uri: string, version: number): void {
    const doc = this.docs.get(uri);
    if (!doc || doc.version !== version || this.isStale(uri, version)) return;
    if (!this.service.readLazily(uri)) return;
    this.post({ t: 'checking', uri, version });
    this.meter.task('parse', () => this.service.parseFully(doc), { uri, version });
    this.post({ t: 'stats', stats: this.meter.stats });
    this.recheckedQuietly.add(uri);
    this.scheduler.schedule(uri, false);
  }

  /** A Go document's findings (those of the CRDs its module generates), as diagnostics. */
  private publishGo(doc: TextDocument): void {
    if (this.docs.get(doc.uri) !== doc) return;
    const diagnostics = this.meter.task('check (go)', () => jsonSafe(this.service.findings(doc).map((f) => toDiagnostic(f, doc.uri))), { uri: doc.uri, version: doc.version });
    this.publish(doc.uri, doc.version, diagnostics, this.meter.stats);
  }

  /** Diagnostics go to the main thread serialized here: it forwards the text (lsp/rawJson.ts). */
  private publish(uri: string, version: number, diagnostics: Diagnostic[], stats?: WorkerStats): void {
    const params = JSON.stringify({ uri, version, diagnostics });
    if (this.recheckedQuietly.delete(uri) && this.published.get(uri) === params) return;
    if ((this.docs.get(uri)?.getText().length ?? 0) >= LARGE_DOCUMENT_CHARS) this.published.set(uri, params);
    else this.published.delete(uri);
    this.post({ t: 'diagnostics', uri, version, params, stats });
  }

  private request(id: number, method: string, params: unknown): void {
    const custom = this.customRequests.get(method);
    if (custom) {
      // The repository features' requests (CRD list, kubeconfig contexts, import from a cluster).
      void Promise.resolve()
        .then(() => custom(params as never))
        .then(
          (result) => this.post({ t: 'response', id, result: jsonSafe(result) }),
          (e) => {
            this.log(`${method} failed: ${(e as Error).stack ?? e}`);
            this.post({ t: 'response', id, error: (e as Error).message });
          },
        )
        .then(() => this.feed.allSources());
      return;
    }
    if (method === RUN_TESTS_COMMAND) {
      this.runTests(id, params as unknown[]);
      return;
    }
    const uri = (params as { textDocument?: { uri?: string } })?.textDocument?.uri;
    const doc = uri ? this.docs.get(uri) : undefined;
    if (!doc) {
      this.post({ t: 'response', id, result: null });
      return;
    }
    if (method === ConversionWebhookRequest.method) {
      void this.conversionWebhook(doc, params as ConversionWebhookParams).then((result) => this.post({ t: 'response', id, result: jsonSafe(result) }));
      return;
    }
    const result = this.meter.task(
      method,
      () => {
        this.meter.sawVersion(doc.uri, doc.version);
        // A Go file is not YAML: its requests read the module's last generation (goModules.ts).
        if (isGoUri(doc.uri)) return answer(this.service, method, doc, params, (msg) => this.log(msg));
        this.updateContext(doc.uri);
        const changed = this.service.update(doc);
        this.feed.crds(doc.uri, 'open', doc.version);
        for (const dep of this.service.dependents(changed)) if (dep !== doc.uri) this.scheduler.schedule(dep, false);
        // A request about a large document read by the fast reader: its syntax trees now (completeParse's work).
        if (this.service.parseFully(doc)) {
          this.recheckedQuietly.add(doc.uri);
          this.scheduler.schedule(doc.uri, false);
        }
        return answer(this.service, method, doc, params, (msg) => this.log(msg));
      },
      { uri: doc.uri, version: doc.version },
    );
    this.post({ t: 'response', id, result: jsonSafe(result), stats: this.meter.stats });
    this.post({ t: 'stats', stats: this.meter.stats });
  }

  /** crdYaml.runTests (arguments `[uri, caseIndex?]`): the failures become findings, the outcomes go to the query worker's lenses. */
  private runTests(id: number, args: unknown[]): void {
    const [uri, index] = args as [unknown, unknown];
    const doc = typeof uri === 'string' ? this.docs.get(uri) : undefined;
    if (!doc) {
      this.post({ t: 'response', id, result: null });
      return;
    }
    const result = this.meter.task(
      RUN_TESTS_COMMAND,
      () => {
        this.updateContext(doc.uri);
        this.service.update(doc);
        return this.service.runTests(doc, typeof index === 'number' ? index : undefined);
      },
      { uri: doc.uri, version: doc.version },
    );
    this.feed.testRun(doc.uri, this.service.testRunOf(doc.uri));
    this.scheduler.schedule(doc.uri, false);
    this.post({ t: 'response', id, result: jsonSafe(result), stats: this.meter.stats });
    this.post({ t: 'stats', stats: this.meter.stats });
  }

  /** crdYaml/checkConversionWebhook: the file's custom resources through the webhook the user runs. */
  private async conversionWebhook(doc: TextDocument, p: ConversionWebhookParams): Promise<ConversionWebhookResponse | null> {
    try {
      this.updateContext(doc.uri);
      this.service.update(doc);
      // The user named this URL; the CA is theirs or the CRD's (net/webhook.ts is the one outgoing call).
      const r = await this.service.checkConversionWebhook(doc, p.position, p.to, randomUUID(), (body, crdCa) => postJson(p.webhook, body, { ca: p.caBundle ?? crdCa }));
      if (!r) return null;
      return {
        desiredAPIVersion: r.result.desiredAPIVersion,
        ...(r.result.reviewVersion ? { reviewVersion: r.result.reviewVersion } : {}),
        sent: r.result.sent.length,
        diagnostics: r.messages.map((m) => ({ range: m.range, severity: m.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning, source: SOURCE, message: m.message })),
        yaml: r.yaml,
      };
    } catch (e) {
      this.log(`checkConversionWebhook failed: ${(e as Error).stack ?? e}`);
      return null;
    }
  }

  private close(uri: string): void {
    this.scheduler.cancel(uri);
    this.published.delete(uri);
    this.recheckedQuietly.delete(uri);
    this.docs.delete(uri);
    this.slots.delete(uri);
    this.meter.forget(uri);
    this.repo.forget(uri);
    this.baselines.forget(uri);
    this.feed.forget(uri);
    const changed = this.service.close(uri);
    this.feed.crds(uri, 'open');
    this.afterIndexChange(changed);
    // The file on disk counts again, if it is one the index reads (and may read).
    this.fileEvents = this.fileEvents.then(() => this.fileChanged(uri, false)).catch((e) => this.log(`reading ${uri} failed: ${(e as Error).message}`));
  }

  private relPath(file: string): string | undefined {
    for (const f of this.folders) {
      const rel = path.relative(f, file);
      if (!rel.startsWith('..') && !path.isAbsolute(rel)) return rel.split(path.sep).join('/');
    }
    return undefined;
  }

  private async fileChanged(uri: string, deleted: boolean): Promise<void> {
    // A kustomization or a chart's Chart.yaml changes what open documents are.
    this.repo.onWatchedFile(uri);
    if (this.docs.has(uri)) return; // the open document is what counts
    const file = uriToPath(uri);
    const rel = file && this.relPath(file);
    if (!file || rel === undefined || !isIndexedPath(rel, this.settings)) return;
    const text = deleted ? undefined : await readCandidate(file, this.readable);
    this.baselines.diskFile(uri, text);
    if (this.docs.has(uri)) return; // opened meanwhile
    this.indexDisk(uri, text);
  }

  private indexDisk(uri: string, text: string | undefined): void {
    const changed = this.meter.task('index', () => this.service.indexDiskFile(uri, text), { uri });
    this.feed.crds(uri, 'disk');
    this.afterIndexChange(changed);
  }

  /** Tells the query worker what an open document is, when that changed. */
  private updateContext(uri: string): void {
    this.repo.updateContext(uri);
    this.feed.context(uri, this.repo.contextOf(uri) ?? {});
  }

  /** The CRD sources outside the workspace (crdYaml.crdSources, goModules), then the query worker's copy. */
  private async indexSources(force: boolean): Promise<void> {
    try {
      await this.repo.indexSources(force);
    } catch (e) {
      this.log(`CRD sources failed: ${(e as Error).message}`);
    }
    this.feed.allSources();
  }

  private afterIndexChange(changed: string[]): void {
    for (const dep of this.service.dependents(changed)) this.scheduler.schedule(dep, false);
    if (changed.length) this.sendStatus();
  }

  /** Indexes the workspace's CRD files, yielding between files so edits and requests are served meanwhile. */
  private async scan(): Promise<void> {
    // Without a folder there is nothing to scan, but configured sources still count.
    if (!this.folders.length) {
      await this.indexSources(true);
      this.scanDone();
      return;
    }
    const generation = ++this.scanGeneration;
    this.indexing = true;
    this.sendStatus();
    const t0 = performance.now();
    try {
      const files = await listIndexedFiles(this.folders, this.settings);
      if (generation !== this.scanGeneration) return;
      // Files no longer selected (settings changed, deleted meanwhile) leave the index.
      const keep = new Set(files.map((f) => pathToFileURL(f).toString()));
      for (const uri of this.service.index.diskSources()) if (!keep.has(uri)) this.indexDisk(uri, undefined);
      for (const file of files) {
        const text = await readCandidate(file, this.readable);
        if (generation !== this.scanGeneration) return;
        const uri = pathToFileURL(file).toString();
        this.baselines.diskFile(uri, text);
        if (text !== undefined && !this.docs.has(uri)) this.indexDisk(uri, text);
        await new Promise((r) => setImmediate(r));
      }
    } catch (e) {
      this.log(`workspace scan failed: ${(e as Error).message}`);
    }
    if (generation !== this.scanGeneration) return;
    await this.indexSources(true);
    if (generation !== this.scanGeneration) return;
    this.indexing = false;
    this.log(`indexed ${this.service.crdCount} CRDs in ${(performance.now() - t0).toFixed(0)} ms`);
    this.sendStatus();
    this.scanDone();
    for (const uri of this.docs.keys()) this.scheduler.schedule(uri, false);
  }

  /** After the first scan, objects without a CRD are reported as crdYaml.unknownKinds says. */
  private scanDone(): void {
    if (this.scannedOnce) return;
    this.scannedOnce = true;
    this.service.configure({ unknownKinds: this.settings.unknownKinds });
    for (const uri of this.docs.keys()) this.scheduler.schedule(uri, false);
  }
}

/** The one finding of a document whose check was stopped by a bound of the worker itself. */
export function notCheckedDiagnostic(why: string): Diagnostic {
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    message: `not checked: ${why}`,
    severity: DiagnosticSeverity.Information,
    code: 'NotChecked',
    source: 'crd-yaml',
  };
}

function uriToPath(uri: string): string | undefined {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
}
