/**
 * The VS Code client: starts the crd-yaml language server over IPC, shows the number of indexed CRDs in
 * the status bar (a list of them on click, repository.ts), and provides the "CRD: Preview Pruned/Defaulted
 * Object" command with a read-only virtual document (and a diff view) that follows the source as it
 * changes, "CRD: Import CRDs from Cluster..." and "CRD: Check Conversion Webhook".
 */
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { addCrdSource, type AddSourceArg } from './sources';
import { PendingChecks, statusText } from './pending';
import { previewFixes } from './fixPreview';
import { configurationMiddleware, importFromCluster, resolvedSettings, showCrds, watchRedhatYaml, watchTrust } from './repository';
import {
  ConversionWebhookRequest,
  PreviewRequest,
  StatusNotification,
  type ConversionWebhookParams,
  type ConversionWebhookResponse,
  type PreviewParams,
  type PreviewResponse,
  type StatusParams,
} from '../../server/src/lsp/protocol';

const PREVIEW_SCHEME = 'crd-yaml-preview';
let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('CRD YAML', { log: true });
  // Declared before the client: its middleware reports to it; the status bar item renders it.
  const pending = new PendingChecks(() => render());
  context.subscriptions.push({ dispose: () => pending.dispose() });
  const serverModule = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'yaml' },
      { scheme: 'untitled', language: 'yaml' },
      // Go files of kubebuilder API packages: findings of the CRDs they generate (the server ignores other Go files).
      { scheme: 'file', language: 'go' },
    ],
    synchronize: {
      configurationSection: 'crdYaml',
      fileEvents: vscode.workspace.createFileSystemWatcher('**/*.{yaml,yml}'),
    },
    initializationOptions: { settings: resolvedSettings(vscode.workspace.getConfiguration('crdYaml')), trusted: vscode.workspace.isTrusted, cacheDir: context.globalStorageUri.fsPath },
    middleware: {
      workspace: configurationMiddleware,
      provideCodeActions: previewFixes,
      // A check is pending from the text sent until its diagnostics arrive (pending.ts: the status bar).
      didOpen: (doc, next) => {
        pending.sent(doc.uri.toString());
        return next(doc);
      },
      didChange: (e, next) => {
        pending.sent(e.document.uri.toString());
        return next(e);
      },
      didClose: (doc, next) => {
        pending.settled(doc.uri.toString());
        return next(doc);
      },
      handleDiagnostics: (uri, diagnostics, next) => {
        pending.settled(uri.toString());
        next(uri, diagnostics);
      },
    },
    outputChannel: output,
  };
  // The id makes the client read `crdYaml.trace.server`.
  client = new LanguageClient('crdYaml', 'CRD YAML', serverOptions, clientOptions);

  const status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Right, 100);
  let last: StatusParams | undefined;
  const render = () => {
    status.text = statusText(last?.crdCount, last?.indexing ?? true, pending.overdue, last?.catalogCount);
  };
  render();
  status.tooltip = 'crd-yaml: CustomResourceDefinitions indexed from open files, the workspace and configured sources (click for the list)';
  status.command = 'crdYaml.showCrds';
  status.show();
  context.subscriptions.push(status, output);
  context.subscriptions.push(
    vscode.commands.registerCommand('crdYaml.showOutput', () => output.show()),
    vscode.commands.registerCommand('crdYaml.showCrds', () => showCrds(() => client)),
    vscode.commands.registerCommand('crdYaml.addCrdSource', (arg?: AddSourceArg) => addCrdSource(arg)),
    vscode.commands.registerCommand('crdYaml.importFromCluster', (arg?: { context?: string; folder?: string }) => importFromCluster(() => client, arg)),
    watchRedhatYaml(() => client),
    watchTrust(() => client),
  );

  // What the last conversion webhook check said, on the objects it sent.
  const webhookFindings = vscode.languages.createDiagnosticCollection('crd-yaml conversion webhook');
  context.subscriptions.push(webhookFindings);

  const previews = new PreviewProvider(() => client);
  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, previews), previews);
  context.subscriptions.push(
    vscode.commands.registerCommand('crdYaml.preview', (uri?: string | vscode.Uri, position?: vscode.Position | { line: number; character: number }) => openPreview(uri, position, false)),
    vscode.commands.registerCommand('crdYaml.previewDiff', (uri?: string | vscode.Uri, position?: { line: number; character: number }) => openPreview(uri, position, true)),
    vscode.commands.registerCommand('crdYaml.previewReadBack', (uri?: string | vscode.Uri, position?: { line: number; character: number }) => openPreview(uri, position, false, true)),
    vscode.commands.registerCommand('crdYaml.checkConversionWebhook', () => checkConversionWebhook(context, webhookFindings)),
  );

  // Registered before start so that the first status (sent while the workspace is scanned) is not missed.
  context.subscriptions.push(
    client.onNotification(StatusNotification.method, (p: StatusParams) => {
      last = p;
      render();
    }),
  );
  await client.start();
}

async function openPreview(uriArg: string | vscode.Uri | undefined, posArg: { line: number; character: number } | undefined, diff: boolean, readBack = false): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  const source = uriArg ? (typeof uriArg === 'string' ? vscode.Uri.parse(uriArg) : uriArg) : editor?.document.uri;
  if (!source) {
    void vscode.window.showInformationMessage('Open a YAML file with a custom resource to preview it.');
    return;
  }
  const pos = posArg ?? (editor && editor.document.uri.toString() === source.toString() ? editor.selection.active : new vscode.Position(0, 0));
  if (diff) {
    // The whole file as stored (each CR replaced by its stored object, the rest as written): the diff lines
    // up document by document instead of showing every other document as deleted.
    const stored = PreviewProvider.uriFor(source, 'file');
    // Its language first (a virtual document without an extension opens as Plain Text): the diff's stored
    // side is highlighted as YAML, as the source side is.
    await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(stored), 'yaml');
    await vscode.commands.executeCommand('vscode.diff', source, stored, `${baseName(source)} ↔ as stored`, { viewColumn: vscode.ViewColumn.Beside, preview: false });
    return;
  }
  const previewUri = PreviewProvider.uriFor(source, pos, readBack);
  const doc = await vscode.workspace.openTextDocument(previewUri);
  await vscode.languages.setTextDocumentLanguage(doc, 'yaml');
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false, preserveFocus: true });
}

/**
 * "CRD: Check Conversion Webhook": asks for the URL of a webhook the user runs and the version to convert
 * to, has the server send the file's custom resources in a ConversionReview and check the answer as the
 * API server does, and shows the API server's messages on the objects and the converted objects beside.
 */
async function checkConversionWebhook(context: vscode.ExtensionContext, findings: vscode.DiagnosticCollection): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  const c = client;
  if (!editor || !c) {
    void vscode.window.showInformationMessage('Open a YAML file with custom resources to send them to a conversion webhook.');
    return;
  }
  const webhook = await vscode.window.showInputBox({
    title: 'Conversion webhook',
    prompt: 'URL of the conversion webhook you run (http or https)',
    value: context.workspaceState.get<string>('crdYaml.webhookUrl') ?? 'https://localhost:9443/convert',
    ignoreFocusOut: true,
  });
  if (!webhook) return;
  const to = await vscode.window.showInputBox({ title: 'Conversion webhook', prompt: 'Version to convert to (e.g. v1)', value: context.workspaceState.get<string>('crdYaml.webhookTo') ?? '', ignoreFocusOut: true });
  if (!to) return;
  await context.workspaceState.update('crdYaml.webhookUrl', webhook);
  await context.workspaceState.update('crdYaml.webhookTo', to);
  const params: ConversionWebhookParams = { textDocument: { uri: editor.document.uri.toString() }, position: editor.selection.active, webhook, to };
  const r = await c.sendRequest<ConversionWebhookResponse | null>(ConversionWebhookRequest.method, params);
  if (!r) {
    void vscode.window.showInformationMessage('No custom resource of a known CRD in this file.');
    return;
  }
  findings.set(editor.document.uri, await c.protocol2CodeConverter.asDiagnostics(r.diagnostics));
  const doc = await vscode.workspace.openTextDocument({ language: 'yaml', content: r.yaml });
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
  const errors = r.diagnostics.filter((d) => d.severity === 1).length;
  const what = `${r.sent} object${r.sent === 1 ? '' : 's'} to ${r.desiredAPIVersion}${r.reviewVersion ? ` (ConversionReview ${r.reviewVersion})` : ''}`;
  if (errors) void vscode.window.showErrorMessage(`Conversion webhook: ${what}: ${r.diagnostics[0].message}`);
  else void vscode.window.showInformationMessage(`Conversion webhook: ${what}: the API server would accept the answer.`);
}

function baseName(u: vscode.Uri): string {
  return u.path.slice(u.path.lastIndexOf('/') + 1);
}

/** Read-only documents `crd-yaml-preview:<name>?<source>#<line>:<character>` answered by `crdYaml/preview`. */
class PreviewProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly getClient: () => LanguageClient | undefined) {
    this.subscriptions = [
      // Follow the source: re-ask the server shortly after each edit.
      // (Open previews are found among the open documents: setting their language closes and reopens them.)
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.scheme === PREVIEW_SCHEME) return;
        const src = e.document.uri.toString();
        for (const d of vscode.workspace.textDocuments) {
          if (d.uri.scheme !== PREVIEW_SCHEME || PreviewProvider.sourceOf(d.uri).toString() !== src) continue;
          const key = d.uri.toString();
          clearTimeout(this.timers.get(key));
          this.timers.set(
            key,
            setTimeout(() => this.changed.fire(d.uri), 150),
          );
        }
      }),
    ];
  }

  /** A preview of the CR at `pos` (with `readBack`: also as read back at each served version), or of the whole file (`'file'`). */
  static uriFor(source: vscode.Uri, pos: { line: number; character: number } | 'file', readBack = false): vscode.Uri {
    const fragment = pos === 'file' ? 'file' : `${pos.line}:${pos.character}${readBack ? ':readback' : ''}`;
    return vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${baseName(source)} (${readBack ? 'read back' : 'stored'})`, query: source.toString(), fragment });
  }

  static sourceOf(uri: vscode.Uri): vscode.Uri {
    return vscode.Uri.parse(uri.query);
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const c = this.getClient();
    if (!c) return '# the crd-yaml server is not running\n';
    const whole = uri.fragment === 'file';
    const [line, character] = whole ? [0, 0] : uri.fragment.split(':').map(Number);
    const readBack = uri.fragment.endsWith(':readback');
    const source = PreviewProvider.sourceOf(uri);
    try {
      const params: PreviewParams = { textDocument: { uri: source.toString() }, position: { line: line || 0, character: character || 0 }, scope: whole ? 'file' : 'document', ...(readBack ? { readBack } : {}) };
      // By method name: the client library's RequestType class is another jsonrpc version's.
      const r = await c.sendRequest<PreviewResponse | null>(PreviewRequest.method, params);
      if (!r) return '# no custom resource of a known CRD at this position\n';
      // The server renders the header (pruned, defaulted values, dropped status, errors) with the object.
      return r.yaml;
    } catch (e) {
      return `# preview failed: ${(e as Error).message}\n`;
    }
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
