/**
 * "CRD: Add a Folder or URL of CRDs...": asks in place (a folder dialog or a URL box) and writes
 * `crdYaml.crdSources` where this window reads it, instead of sending the user to the Settings editor:
 * `crdSources` and `goModules` are machine-overridable, so in a remote window (code-server, Remote-SSH, WSL,
 * Dev Containers) the Settings editor shows them only under its Remote tab, and the User tab says "No
 * Settings Found". The workspace settings apply in every kind of window; with no folder open, the user
 * settings do (VS Code writes a machine-overridable user value to the remote user settings in a remote
 * window). The server re-indexes when the setting changes.
 */
import * as vscode from 'vscode';
import { sourceFolderEntry, urlProblem } from './sourceEntry';

/** Where a source is written, and how the user is told. */
export interface SettingTarget {
  target: vscode.ConfigurationTarget;
  label: string;
}

/** The settings this window reads `crdYaml` machine-overridable values from. */
export function settingTarget(): SettingTarget {
  if (vscode.workspace.workspaceFolders?.length) {
    return { target: vscode.ConfigurationTarget.Workspace, label: vscode.workspace.workspaceFile ? 'the workspace file' : 'the workspace settings (.vscode/settings.json)' };
  }
  return { target: vscode.ConfigurationTarget.Global, label: vscode.env.remoteName ? `the remote user settings (${vscode.env.remoteName})` : 'the user settings' };
}

/**
 * A folder as crdSources reads it (sourceEntry.ts): relative to the first workspace folder when inside it,
 * else absolute.
 */
function folderEntry(folder: vscode.Uri): string {
  const first = vscode.workspace.workspaceFolders?.[0]?.uri;
  const path = (u: vscode.Uri) => (u.scheme === 'file' ? u.fsPath : u.path);
  return sourceFolderEntry(path(folder), first && first.scheme === folder.scheme ? path(first) : undefined);
}

/** The value at the target, with `entry` added (unless there). */
async function appendSource(entry: string, t: SettingTarget): Promise<boolean> {
  const cfg = vscode.workspace.getConfiguration('crdYaml');
  const seen = cfg.inspect<string[]>('crdSources');
  const now = (t.target === vscode.ConfigurationTarget.Global ? seen?.globalValue : seen?.workspaceValue) ?? [];
  if (now.includes(entry)) return false;
  await cfg.update('crdSources', [...now, entry], t.target);
  return true;
}

export type AddSourceArg = { folder?: string; url?: string };

/**
 * The command. With an argument (`{ folder }` or `{ url }`) it writes that source without asking (tests,
 * other commands); without one it asks: a folder (the file dialog) or a URL (an input box, checked as it
 * is typed). Returns the entry written, if any.
 */
export async function addCrdSource(arg?: AddSourceArg): Promise<string | undefined> {
  let entry: string | undefined;
  if (arg?.folder) entry = folderEntry(vscode.Uri.file(arg.folder));
  else if (arg?.url !== undefined) entry = urlProblem(arg.url) ? undefined : arg.url.trim();
  else {
    const how = await vscode.window.showQuickPick(
      [
        { label: '$(folder-opened) Add a folder...', detail: 'CRD YAML files in a folder (read with its subfolders)', pick: 'folder' as const },
        { label: '$(globe) Add a URL...', detail: 'An http(s) URL of CRD YAML, fetched once and read offline afterwards', pick: 'url' as const },
      ],
      { title: 'Add CRDs', placeHolder: 'Where are the CRDs?' },
    );
    if (!how) return undefined;
    if (how.pick === 'folder') {
      const picked = await vscode.window.showOpenDialog({
        canSelectFolders: true,
        canSelectFiles: false,
        canSelectMany: false,
        openLabel: 'Use CRDs from this folder',
        title: 'A folder of CRD YAML files',
        defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
      });
      if (!picked?.[0]) return undefined;
      entry = folderEntry(picked[0]);
    } else {
      const url = await vscode.window.showInputBox({ title: 'Add CRDs from a URL', prompt: 'An http(s) URL of CRD YAML', placeHolder: 'https://...', validateInput: urlProblem, ignoreFocusOut: true });
      if (!url) return undefined;
      entry = url.trim();
    }
  }
  if (!entry) {
    void vscode.window.showErrorMessage(arg?.url ? `Not added: ${urlProblem(arg.url)}` : 'Not added: no folder or URL given.');
    return undefined;
  }
  const t = settingTarget();
  const added = await appendSource(entry, t);
  const untrusted = !vscode.workspace.isTrusted && t.target !== vscode.ConfigurationTarget.Global;
  const note = untrusted ? ' It is read once you trust this workspace (an untrusted workspace may not name places outside it).' : '';
  void vscode.window.showInformationMessage(added ? `Added ${entry} to crdYaml.crdSources in ${t.label}: reading its CRDs.${note}` : `${entry} is already in crdYaml.crdSources (${t.label}).${note}`);
  return entry;
}

/** "Use the CRDs of Go module dependencies": `crdYaml.goModules: true`, written where this window reads it. */
export async function useGoModules(): Promise<void> {
  const t = settingTarget();
  await vscode.workspace.getConfiguration('crdYaml').update('goModules', true, t.target);
  void vscode.window.showInformationMessage(`crdYaml.goModules is on in ${t.label}: reading the CRDs of the modules go.mod requires.`);
}
