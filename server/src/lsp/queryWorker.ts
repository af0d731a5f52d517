/**
 * The query worker's side: hover, completion, code actions, symbols, folding, definitions, code lenses and
 * the highlighting of CEL (semantic tokens: from the text alone, no parse), answered from its own language
 * service, which never runs a check. It parses a document when a request (other than highlighting) is
 * about it, and a large open one once the check worker has published its first findings (so that the
 * first hover in it does not wait for its parse). Its CRD index is the check worker's, fed as names and
 * texts (a CRD's schema is parsed here the first time a request needs it): so it never parses a document
 * the check worker has not read first, however hostile, and the index follows the check worker (a CRD
 * edited while a long check runs elsewhere shows its new schema here once the check worker has reached it).
 *
 * A large document (LARGE_DOCUMENT_CHARS) it has not parsed yet is handed to the check worker for the
 * requests that concern the whole document (symbols, folding, code lenses): parsing it here would hold
 * every hover meanwhile, and the check worker parses it anyway. Its code actions always are: they need
 * the document's findings, which the check worker has and this worker would compute again.
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import { isGoUri, LanguageService } from '../service';
import { fromNames } from '../workspace/lightIndex';
import { readRepositorySettings } from './repository';
import { DEFAULT_WORKER_SETTINGS, readWorkerSettings } from './settings';
import { answer, PARSE_FREE } from './answer';
import { emptyAnswer, LARGE_DOCUMENT_CHARS } from './workerProtocol';
import { WorkMeter } from './checkWorker';
import { jsonSafe } from './jsonSafe';
import { customResourceKinds } from './baselines';
import type { FromWorker, IndexFeed, ToWorker } from './workerProtocol';
import { builtinSchemaDir } from '../workspace/builtinSchemaFiles';

/** The requests on a Go file (inside XValidation markers, the marker fixes): answered by the check worker. */
const GO_METHODS = new Set(['textDocument/hover', 'textDocument/completion', 'textDocument/signatureHelp', 'textDocument/codeAction']);
const HANDED_OVER = new Set(['textDocument/documentSymbol', 'textDocument/foldingRange', 'textDocument/codeLens', 'textDocument/codeAction']);

export class Queries {
  // The editor's defaults until the client's settings arrive (a client may send none).
  private readonly service = new LanguageService({ unknownKinds: DEFAULT_WORKER_SETTINGS.unknownKinds });
  private readonly docs = new Map<string, TextDocument>();
  /** The version of each open document this worker's service has parsed. */
  private readonly parsed = new Map<string, number>();
  private readonly meter = new WorkMeter();

  constructor(private readonly post: (m: FromWorker) => void) {
    // The objects a fix names (the v1beta1 upgrade's changed verdicts): the open ones (no disk reads here).
    this.service.setWorkspaceObjects((group, kind) => [...this.docs.values()].filter((d) => customResourceKinds(d.getText()).has(`${group}/${kind}`)).map((d) => ({ uri: d.uri, text: d.getText() })));
  }

  handle(m: ToWorker): void {
    switch (m.t) {
      case 'settings': {
        const settings = readWorkerSettings(m.raw);
        const repo = readRepositorySettings(settings.raw);
        this.service.configure({
          unknownKinds: settings.unknownKinds,
          fieldValidation: settings.fieldValidation,
          compatibility: settings.compatibility,
          kubernetesMinor: settings.kubernetesMinor,
          celLints: settings.celLints,
          celLintScope: settings.celLintScope,
          builtins: settings.builtins,
          syntaxDiagnostics: repo.syntaxDiagnostics !== 'off',
          templates: repo.templates,
        });
        return;
      }
      case 'init':
        // Go to definition on a built-in object's field opens its kind's schemas, written to the cache folder.
        this.service.setBuiltinSchemaDir(builtinSchemaDir(typeof m.init.cacheDir === 'string' && m.init.cacheDir ? m.init.cacheDir : undefined));
        return;
      case 'open':
        this.docs.set(m.uri, TextDocument.create(m.uri, m.languageId, m.version, m.text));
        return;
      case 'change':
        this.docs.set(m.uri, TextDocument.create(m.uri, this.docs.get(m.uri)?.languageId ?? 'yaml', m.version, m.text));
        return;
      case 'close':
        this.docs.delete(m.uri);
        this.parsed.delete(m.uri);
        this.meter.forget(m.uri);
        this.service.close(m.uri);
        this.service.setBaseline(m.uri, undefined);
        return;
      case 'request':
        this.request(m.id, m.method, m.params);
        return;
    }
  }

  /** The check worker's index feed: CRDs by their names and texts, values parsed on first use. */
  handleFeed(m: IndexFeed): void {
    if (m.t === 'context') {
      if (this.docs.has(m.uri)) this.service.setFileContext(m.uri, m.context);
      return;
    }
    if (m.t === 'baseline') {
      if (this.docs.has(m.uri)) this.service.setBaseline(m.uri, m.baseline);
      return;
    }
    if (m.t === 'testRun') {
      if (this.docs.has(m.uri)) this.service.setTestRun(m.uri, m.run);
      return;
    }
    // This worker's own parse of an open document is newer than a check's: keep it.
    if (m.source === 'open' && m.version !== undefined && (this.parsed.get(m.uri) ?? -Infinity) >= m.version) return;
    if (m.source === 'open' && !this.docs.has(m.uri)) return; // closed meanwhile
    const crds = m.crds.map((n) => fromNames(m.uri, n)).filter((c): c is NonNullable<typeof c> => !!c);
    this.service.index.set(m.uri, crds, m.source);
  }

  private request(id: number, method: string, params: unknown): void {
    const uri = (params as { textDocument?: { uri?: string } })?.textDocument?.uri;
    const doc = uri ? this.docs.get(uri) : undefined;
    if (!doc) {
      this.post({ t: 'response', id, result: emptyAnswer(method) });
      return;
    }
    // A Go file's requests need its module's generated CRDs, which the check worker holds (and so does
    // the fix of a checked-in CRD's drift from them).
    const drift = method === 'textDocument/codeAction' && (params as { context?: { diagnostics?: Array<{ code?: unknown }> } }).context?.diagnostics?.some((d) => d.code === 'GeneratedDrift');
    if (drift) {
      this.post({ t: 'response', id, delegate: true });
      return;
    }
    if (isGoUri(doc.uri)) {
      if (GO_METHODS.has(method)) this.post({ t: 'response', id, delegate: true });
      else this.post({ t: 'response', id, result: emptyAnswer(method) });
      return;
    }
    if (HANDED_OVER.has(method) && doc.getText().length >= LARGE_DOCUMENT_CHARS && (method === 'textDocument/codeAction' || this.parsed.get(doc.uri) !== doc.version)) {
      this.post({ t: 'response', id, delegate: true });
      return;
    }
    const result = this.meter.task(
      method,
      () => {
        // Highlighting needs no parse: a large document opening is not parsed here for it.
        if (!PARSE_FREE.has(method)) {
          this.meter.sawVersion(doc.uri, doc.version);
          this.service.update(doc);
          this.parsed.set(doc.uri, doc.version);
        }
        return answer(this.service, method, doc, params, (message) => this.post({ t: 'log', message }));
      },
      { uri: doc.uri, version: doc.version },
    );
    this.post({ t: 'response', id, result: jsonSafe(result), stats: this.meter.stats });
    this.post({ t: 'stats', stats: this.meter.stats });
  }
}
