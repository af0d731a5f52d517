/**
 * The custom messages between the crd-yaml server and its clients, declared once here.
 */
// The protocol package (not the server library) so that the VS Code client can share these declarations.
import { NotificationType, RequestType, type Diagnostic, type Position } from 'vscode-languageserver-protocol';

export interface PreviewParams {
  textDocument: { uri: string };
  /** Any position inside the CR document to preview (files may hold many documents). */
  position: Position;
  /**
   * `document` (default): the CR at `position`. `file`: the whole file with each CR of a known CRD replaced
   * by its stored object and everything else as written (to diff with the source document by document);
   * the answer then has only `yaml`.
   */
  scope?: 'document' | 'file';
  /** With `document`: also the stored object as a client reading each served version gets it. */
  readBack?: boolean;
}

export interface PreviewResponse {
  /** The object the API server would store, as YAML, after a comment header saying what was pruned and defaulted (with values), whether status was dropped, and the errors. */
  yaml: string;
  /** The same object as JSON; integers beyond 2^53 (which JSON numbers in JavaScript cannot hold) are strings of their exact digits. */
  object: unknown;
  /** Field paths removed by pruning. */
  pruned: string[];
  /** Field paths set by defaulting (or nulls dropped). */
  defaulted: string[];
  /** The request's status was dropped (status subresource). */
  statusDropped?: boolean;
  /** The errors and warnings the API server would return for this document. */
  diagnostics: Diagnostic[];
}

/**
 * `crdYaml/preview`, sent by a client (the VS Code command "CRD: Preview Pruned/Defaulted Object", its
 * CodeLens, or any LSP client) to see a CR as it would be stored: pruned, defaulted, and with the API
 * server's errors. Answers null when the position is not in a CR of a known CRD.
 */
export const PreviewRequest = new RequestType<PreviewParams, PreviewResponse | null, void>('crdYaml/preview');

export interface ConversionWebhookParams {
  textDocument: { uri: string };
  /** A position in a custom resource: its CRD's objects in the file are sent (default: the first CRD's). */
  position: Position;
  /** The webhook the user runs (http or https). */
  webhook: string;
  /** The version to convert to (`v1` or `group/v1`). */
  to: string;
  /** PEM certificates to trust for https; default the CRD's caBundle, else the system's. */
  caBundle?: string;
}

export interface ConversionWebhookResponse {
  /** `group/version` the objects were converted to. */
  desiredAPIVersion: string;
  /** The ConversionReview version sent (absent when nothing was sent). */
  reviewVersion?: string;
  /** How many objects were sent. */
  sent: number;
  /** The API server's messages on the request and the answer, and the converted objects' errors, at the objects. */
  diagnostics: Diagnostic[];
  /** The converted objects as YAML (what the API server says of each in comments). */
  yaml: string;
}

/**
 * `crdYaml/checkConversionWebhook`, sent by a client (the VS Code command "CRD: Check Conversion Webhook")
 * to test a conversion webhook the user runs: the server sends the file's custom resources in a
 * ConversionReview, applies the API server's checks to the answer and validates the converted objects.
 * Answers null when the file has no custom resource of a known CRD.
 */
export const ConversionWebhookRequest = new RequestType<ConversionWebhookParams, ConversionWebhookResponse | null, void>('crdYaml/checkConversionWebhook');

export interface StatusParams {
  /** Distinct CRDs (group/kind) indexed from open documents and workspace files. */
  crdCount: number;
  /** Whether the workspace scan is still running. */
  indexing: boolean;
  /** Of crdCount, the CRDs fetched from the catalog (workspace/catalog.ts). */
  catalogCount?: number;
}

/** `crdYaml/status`, sent by the server whenever the CRD index changes, for the client's status bar. */
export const StatusNotification = new NotificationType<StatusParams>('crdYaml/status');

/** One indexed CRD, as the client lists them (the status bar's quick pick). */
export interface CrdSummary {
  kind: string;
  group: string;
  name: string;
  /** Served versions, the storage version first. */
  versions: string[];
  /** Where it is defined, and the line of its document. */
  uri: string;
  line: number;
  /** Other definitions of the same group/kind (not used), if any. */
  alsoDefinedIn?: string[];
  /** Fetched from the CRD catalog (uri: its cached copy): the URL and the catalog's tag. */
  catalog?: { url: string; tag: string };
}

/** `crdYaml/crds`, sent by the VS Code client when the status bar item is clicked: the CRDs in use. */
export const CrdsRequest = new RequestType<Record<string, never>, CrdSummary[], void>('crdYaml/crds');

export interface KubeconfigContexts {
  /** The kubeconfig files read (as kubectl reads them: $KUBECONFIG, else ~/.kube/config). */
  files: string[];
  /** Context names, the current one first. */
  contexts: string[];
  current?: string;
  /** Why the kubeconfig could not be read, if it could not. */
  error?: string;
}

/** `crdYaml/kubeconfigContexts`: the contexts "CRD: Import CRDs from Cluster..." offers. */
export const KubeconfigContextsRequest = new RequestType<Record<string, never>, KubeconfigContexts, void>('crdYaml/kubeconfigContexts');

export interface ImportCrdsParams {
  context: string;
  /** Workspace-relative folder to write to (default `.crds/<context>`). */
  folder?: string;
}

export interface ImportCrdsResult {
  /** The folder written (absolute path). */
  folder: string;
  /** Files written, one per CRD. */
  written: number;
  /** Why nothing was written, when nothing was. */
  error?: string;
}

/**
 * `crdYaml/importCrds`, sent by "CRD: Import CRDs from Cluster...": lists the cluster's CRDs (read-only)
 * and writes each as `<folder>/<name>.yaml` in the first workspace folder, which is then indexed. Refused
 * in an untrusted workspace.
 */
export const ImportCrdsRequest = new RequestType<ImportCrdsParams, ImportCrdsResult, void>('crdYaml/importCrds');

/** `crdYaml/trust`, sent by the VS Code client when the user trusts the workspace (initializationOptions.trusted before). */
export const TrustNotification = new NotificationType<{ trusted: boolean }>('crdYaml/trust');

/** One thread's work, as `crdYaml/stats` reports it. */
export interface ThreadStats {
  /** CPU time of the thread so far (ms). */
  cpuMs: number;
  /** Tasks done: requests routed (main), documents checked (check worker), requests answered (query worker). */
  tasks: number;
  /** YAML documents parsed: always 0 on the main thread, which neither parses nor checks. */
  parses: number;
  /** The longest task in CPU time (ms). */
  maxTask?: { what: string; cpuMs: number };
  heapUsedMB?: number;
}

export interface StatsResponse {
  main: ThreadStats & {
    /** Event-loop delay of the main thread (ms): what any answer may have waited for the thread. */
    eventLoopDelay: { p50: number; p99: number; max: number };
    /** didChange notifications clamped, rejected, or ignored while their document was out of sync (lsp/documents.ts). */
    clampedChanges: number;
    rejectedChanges: number;
    ignoredChanges: number;
    /** Document texts sent to the workers (each to both): one per document for edits read together, not one per notification. */
    textsSent: number;
    /** Query-worker answers that arrived while the check worker was inside a check. */
    answeredDuringChecks: number;
  };
  check?: ThreadStats & {
    staleSkipped: number;
    staleDropped: number;
    last?: { what: string; uri?: string; version?: number; cpuMs: number };
    /** CPU time (ms) spent on each open document since it was opened. */
    cpuByDocument: Record<string, number>;
  };
  query?: ThreadStats & { cpuByDocument: Record<string, number> };
  /** Times the workers were started again (a worker died). */
  workerRestarts: number;
}

/**
 * `crdYaml/stats`, sent by tests and troubleshooting clients: each thread's CPU time and work counters.
 * Answered by the main thread from what the workers last reported (it never waits for a busy worker).
 */
export const StatsRequest = new RequestType<{ resetEventLoopDelay?: boolean }, StatsResponse, void>('crdYaml/stats');

/** The command a code action runs after its edit to show the fix's notes (the server shows them: lsp/server.ts). */
export const SHOW_NOTES_COMMAND = 'crdYaml.showFixNotes';

/**
 * The command of the Run lenses of CRD rule test files (arguments `[uri, caseIndex?]`), run by the check
 * worker. The name the service's lenses carry (service/crdTests.ts); repeated here because the main
 * thread's bundle holds no service code (test/lsp/threads.test.ts holds the two equal).
 */
export const RUN_TESTS_COMMAND = 'crdYaml.runTests';

/** The commands the server itself runs (workspace/executeCommand): the only ones a client other than the VS Code extension is offered. */
export const SERVER_COMMANDS = [SHOW_NOTES_COMMAND, RUN_TESTS_COMMAND] as const;
