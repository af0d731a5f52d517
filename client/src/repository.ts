/**
 * The client's part of issue 13: `crdYaml.syntaxDiagnostics: auto` resolved beside Red Hat's YAML
 * extension, workspace trust passed to the server, the status bar's list of indexed CRDs (and at zero, the
 * ways to add some), and "CRD: Import CRDs from Cluster...".
 */
import * as vscode from 'vscode';
import type { LanguageClient, Middleware } from 'vscode-languageclient/node';
import { useGoModules } from './sources';
import { CrdsRequest, ImportCrdsRequest, KubeconfigContextsRequest, TrustNotification, type CrdSummary, type ImportCrdsResult, type KubeconfigContexts } from '../../server/src/lsp/protocol';

/** Red Hat's YAML extension: it reports YAML syntax errors itself. */
export const REDHAT_YAML = 'redhat.vscode-yaml';

/**
 * Whether Red Hat's YAML extension is active beside us. It activates on YAML files as we do, so an
 * installed and enabled copy counts even before its activation event has fired.
 */
export function redhatYamlActive(): boolean {
  return vscode.extensions.getExtension(REDHAT_YAML) !== undefined;
}

/** The `crdYaml` settings as sent to the server: `syntaxDiagnostics: auto` becomes on or off. */
export function resolvedSettings(raw: unknown): Record<string, unknown> {
  const s = raw && typeof raw === 'object' ? (JSON.parse(JSON.stringify(raw)) as Record<string, unknown>) : {};
  if (s.syntaxDiagnostics === undefined || s.syntaxDiagnostics === 'auto') s.syntaxDiagnostics = redhatYamlActive() ? 'off' : 'on';
  return s;
}

/** Resolves `auto` in the settings the server pulls (workspace/configuration). */
export const configurationMiddleware: Middleware['workspace'] = {
  configuration: async (params, token, next) => {
    const r = await next(params, token);
    if (!Array.isArray(r)) return r;
    return r.map((v, i) => (params.items[i]?.section === 'crdYaml' ? resolvedSettings(v) : v));
  },
};

/** Installing, enabling or removing an extension may change what `auto` means: the server re-reads its settings. */
export function watchRedhatYaml(getClient: () => LanguageClient | undefined): vscode.Disposable {
  let was = redhatYamlActive();
  return vscode.extensions.onDidChange(() => {
    const now = redhatYamlActive();
    if (now === was) return;
    was = now;
    void getClient()?.sendNotification('workspace/didChangeConfiguration', { settings: { crdYaml: resolvedSettings(vscode.workspace.getConfiguration('crdYaml')) } });
  });
}

/** Tells the server when the user trusts the workspace (it then fetches sources and may contact clusters). */
export function watchTrust(getClient: () => LanguageClient | undefined): vscode.Disposable {
  return vscode.workspace.onDidGrantWorkspaceTrust(() => void getClient()?.sendNotification(TrustNotification.method, { trusted: true }));
}

interface CrdPick extends vscode.QuickPickItem {
  crd?: CrdSummary;
  run?: () => Thenable<unknown>;
}

function relative(uri: string): string {
  const u = vscode.Uri.parse(uri);
  return u.scheme === 'file' ? vscode.workspace.asRelativePath(u) : uri;
}

/**
 * The status bar item's list: the indexed CRDs (kind, group, versions, file); picking one opens it. With
 * none, the ways to add some. Returns the items shown (the list stays open until picked or dismissed).
 */
export async function showCrds(getClient: () => LanguageClient | undefined): Promise<CrdPick[]> {
  const c = getClient();
  const crds = c ? await c.sendRequest<CrdSummary[]>(CrdsRequest.method, {}) : [];
  const items: CrdPick[] = crds.map((crd) => ({
    label: `$(symbol-class) ${crd.kind}`,
    description: `${crd.group} · ${crd.versions.join(', ') || 'no served version'}`,
    detail: `${crd.catalog ? `from the catalog: ${crd.catalog.url} (tag ${crd.catalog.tag})` : relative(crd.uri)}${crd.alsoDefinedIn?.length ? ` (also defined in ${crd.alsoDefinedIn.map(relative).join(', ')})` : ''}`,
    crd,
  }));
  // The ways to add CRDs: all of them with none indexed, the first two below the list otherwise. Each
  // asks in place and writes the setting where this window reads it (sources.ts), never the Settings
  // editor (which hides machine-overridable settings under the Remote tab of a remote window).
  const add: CrdPick[] = [
    {
      label: '$(folder-library) Add a folder or URL of CRDs...',
      detail: 'A folder (file dialog) or an http(s) URL of CRD YAML, saved in crdYaml.crdSources',
      run: () => vscode.commands.executeCommand('crdYaml.addCrdSource'),
    },
    {
      label: '$(cloud-download) Import CRDs from a cluster...',
      detail: 'Writes the CRDs of a kubeconfig context into .crds/<context>/ (read-only list)',
      run: () => vscode.commands.executeCommand('crdYaml.importFromCluster'),
    },
  ];
  if (items.length === 0) {
    items.push(
      ...add,
      {
        label: '$(package) Use the CRDs of Go module dependencies',
        detail: 'crdYaml.goModules: CRD files of the modules go.mod requires, from the module cache',
        run: () => useGoModules(),
      },
      {
        label: '$(file-add) Open a file that defines a CRD',
        detail: 'CRDs in open files and in the workspace (crdYaml.crdPaths) are used',
        run: () => vscode.commands.executeCommand('workbench.action.quickOpen', '.yaml'),
      },
    );
  } else items.push({ label: 'Add CRDs', kind: vscode.QuickPickItemKind.Separator }, ...add);
  const qp = vscode.window.createQuickPick<CrdPick>();
  qp.title = crds.length ? `${crds.length} CRD${crds.length === 1 ? '' : 's'} indexed` : 'No CRDs indexed yet';
  qp.placeholder = crds.length ? 'Open a CRD (kind, group, versions, file)' : 'Add CRDs';
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  qp.items = items;
  qp.onDidAccept(async () => {
    const pick = qp.selectedItems[0];
    qp.hide();
    if (pick?.crd) {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(pick.crd.uri));
      const pos = new vscode.Position(pick.crd.line, 0);
      await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos) });
    } else await pick?.run?.();
  });
  qp.onDidHide(() => qp.dispose());
  qp.show();
  return items;
}

/** "CRD: Import CRDs from Cluster...": a context of the kubeconfig, then its CRDs written into the workspace. */
export async function importFromCluster(getClient: () => LanguageClient | undefined, arg?: { context?: string; folder?: string }): Promise<ImportCrdsResult | undefined> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage('CRDs are not imported from a cluster in an untrusted workspace: trust the workspace first (no cluster is contacted and no credential plugin runs until then).');
    return undefined;
  }
  const c = getClient();
  if (!c) return undefined;
  let context = arg?.context;
  if (!context) {
    const r = await c.sendRequest<KubeconfigContexts>(KubeconfigContextsRequest.method, {});
    if (r.error || r.contexts.length === 0) {
      void vscode.window.showErrorMessage(r.error ?? (r.files.length ? `No contexts in ${r.files.join(', ')}` : 'No kubeconfig: none of the files $KUBECONFIG lists exists'));
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(
      r.contexts.map((name) => ({ label: name, description: name === r.current ? 'current context' : undefined })),
      { title: 'Import CRDs from Cluster', placeHolder: `A context of ${r.files.join(', ')}` },
    );
    if (!pick) return undefined;
    context = pick.label;
  }
  const ctx = context;
  const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Reading the CRDs of ${ctx}...` }, () =>
    c.sendRequest<ImportCrdsResult>(ImportCrdsRequest.method, { context: ctx, folder: arg?.folder }),
  );
  if (result.error) void vscode.window.showErrorMessage(`Import from ${ctx} failed: ${result.error}`);
  else void vscode.window.showInformationMessage(`Imported ${result.written} CRD${result.written === 1 ? '' : 's'} from ${ctx} into ${relative(vscode.Uri.file(result.folder).toString())}.`);
  return result;
}
