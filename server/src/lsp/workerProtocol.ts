/**
 * The messages between the LSP main thread and its two workers (see ARCHITECTURE.md, "Threads"):
 *
 * - the check worker owns the checks: the workspace scan and index, diagnostics (scheduled, stale work
 *   dropped), previews, and anything a query worker hands over;
 * - the query worker owns the interactive requests (hover, completion, code actions, symbols, folding,
 *   definitions, code lenses) and is never blocked by a check.
 *
 * The main thread keeps the documents' texts and the connection, and only routes: it never parses or
 * checks. Everything a worker posts is JSON-safe already (jsonSafe), so the main thread forwards it as is.
 */
import type { FileContext } from '../service';
import type { TestRun } from '../service';
import type { FileBaseline } from '../service';
import type { CrdSourceKind } from '../workspace/crdIndex';
import type { CrdNames } from '../workspace/lightIndex';

/** Main → worker. */
export type ToWorker =
  /** The `crdYaml` settings object as the client sent it (each worker reads it: lsp/settings.ts). */
  | { t: 'settings'; raw: Record<string, unknown> }
  /** The client's initializationOptions that concern the repository features (trust, cache folder). */
  | { t: 'init'; init: { trusted?: unknown; cacheDir?: unknown } }
  /** A custom notification (crdYaml/trust) for the check worker's handlers. */
  | { t: 'notify'; method: string; params: unknown }
  /** Workspace folders: the check worker scans them; both may read only inside them (ReadableRoots). */
  | { t: 'folders'; folders: string[] }
  /** An open document's full text at a version; `slot` indexes the shared latest-version array. */
  | { t: 'open'; uri: string; languageId: string; version: number; text: string; slot: number }
  | { t: 'change'; uri: string; version: number; text: string }
  | { t: 'close'; uri: string }
  /** The document was saved (the check worker reads its baseline again: a commit may have moved HEAD). */
  | { t: 'save'; uri: string }
  /** A watched file changed on disk (the check worker re-reads it, if it may). */
  | { t: 'fileChanged'; uri: string; deleted: boolean }
  /** A request to answer; `method` is the LSP method (or crdYaml/preview). */
  | { t: 'request'; id: number; method: string; params: unknown }
  /** Documents whose check must not be retried (a previous check of that text exhausted the worker). */
  | { t: 'poisoned'; uri: string; version: number; why: string };

/** Worker → main. */
export type FromWorker =
  | { t: 'ready' }
  /** `stats` as of this message, so that whoever sees the diagnostics sees the work that made them. */
  /** `params`: the publishDiagnostics params as JSON text (lsp/rawJson.ts: forwarded as they are). */
  | { t: 'diagnostics'; uri: string; version?: number; params: string; stats?: WorkerStats }
  | { t: 'status'; crdCount: number; indexing: boolean; catalogCount?: number }
  /** The answer; `delegate`: the query worker hands the request to the check worker (a large document it has not parsed). */
  | { t: 'response'; id: number; result?: unknown; error?: string; delegate?: boolean; stats?: WorkerStats }
  | { t: 'log'; message: string }
  /** Something people should read once (Go missing for Go types: lsp/goModules.ts). */
  | { t: 'message'; message: string }
  /** A check is starting: if the worker dies now, this text is what killed it. */
  | { t: 'checking'; uri: string; version: number }
  | { t: 'stats'; stats: WorkerStats };

/**
 * Check worker → query worker, over their own channel: the CRDs the check worker indexed (from open
 * documents as it checks them, from disk as it reads them), as texts and names. The query worker parses
 * a CRD's text only when a request needs its schema, and never parses anything else it did not ask for.
 */
export type IndexFeed =
  | { t: 'crds'; uri: string; source: CrdSourceKind; version?: number; crds: CrdNames[] }
  /** What an open document is (a chart template, a kustomize patch), as the check worker found out. */
  | { t: 'context'; uri: string; context: FileContext }
  /** An open file's baseline, as the check worker read it (hover shows baseline values, fixes see updates). */
  | { t: 'baseline'; uri: string; baseline?: FileBaseline }
  /** The last run of a CRD rule test file's cases (the query worker's code lenses show the outcomes). */
  | { t: 'testRun'; uri: string; run?: TestRun };
/** A large open document's first findings are out: the query worker parses it now, before a request waits for it. */

/**
 * Open documents at least this long are first read by the check worker's fast reader (their findings
 * before their syntax trees: LanguageService.parseFully builds those after), and the query worker parses
 * them for hover, completion and definitions only, once their first findings are out.
 */
export const LARGE_DOCUMENT_CHARS = 256 * 1024;

/** What a worker reports after each task (for crdYaml/stats and the tests' work bounds). */
export interface WorkerStats {
  /** CPU time of the worker thread so far (ms). */
  cpuMs: number;
  /** Tasks done: documents checked (check worker) or requests answered (query worker). */
  tasks: number;
  /** Documents parsed by this worker's language service (full parses of open files' changed documents). */
  parses: number;
  /** The last task: what, and its CPU time (ms). */
  last?: { what: string; uri?: string; version?: number; cpuMs: number };
  /** The most CPU time one task took (ms), and which. */
  maxTask?: { what: string; cpuMs: number };
  /** Checks skipped because a newer edit of the document was already waiting. */
  staleSkipped: number;
  /** Check results not published because the document changed while the check ran. */
  staleDropped: number;
  heapUsedMB: number;
  /** CPU time (ms) spent on each open document since it was opened, all its tasks together. */
  cpuByDocument: Record<string, number>;
}

/** Requests about one document, by LSP method. */
export const DOCUMENT_METHODS = [
  'textDocument/hover',
  'textDocument/completion',
  'textDocument/signatureHelp',
  'textDocument/codeAction',
  'textDocument/documentSymbol',
  'textDocument/definition',
  'textDocument/foldingRange',
  'textDocument/codeLens',
  'textDocument/semanticTokens/range',
  'crdYaml/preview',
  'crdYaml/checkConversionWebhook',
] as const;

export type DocumentMethod = (typeof DOCUMENT_METHODS)[number];

const EMPTY: Record<DocumentMethod, unknown> = {
  'textDocument/hover': null,
  'textDocument/completion': [],
  'textDocument/signatureHelp': null,
  'textDocument/codeAction': [],
  'textDocument/documentSymbol': [],
  'textDocument/definition': [],
  'textDocument/foldingRange': [],
  'textDocument/codeLens': [],
  'textDocument/semanticTokens/range': { data: [] },
  'crdYaml/preview': null,
  'crdYaml/checkConversionWebhook': null,
};

/** The empty answer of a method (no document, a failure). */
export function emptyAnswer(method: string): unknown {
  return (EMPTY as Record<string, unknown>)[method] ?? null;
}
