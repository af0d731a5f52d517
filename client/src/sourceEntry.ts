/** What `crdYaml.addCrdSource` writes into `crdYaml.crdSources` (no vscode import: tested under node). */

/** Why a text is not a URL crdSources can fetch (undefined when it is one). */
export function urlProblem(text: string): string | undefined {
  const t = text.trim();
  if (!t) return 'A URL of CRD YAML, e.g. https://github.com/cert-manager/cert-manager/releases/download/v1.17.2/cert-manager.crds.yaml';
  let u: URL;
  try {
    u = new URL(t);
  } catch {
    return 'Not a URL: it starts with http:// or https://';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `Only http:// and https:// URLs are fetched, not ${u.protocol}//`;
  return undefined;
}

/**
 * A folder as crdSources reads it: relative to the first workspace folder (`root`) when inside it (a value
 * the team can share in .vscode/settings.json), else absolute.
 */
export function sourceFolderEntry(folder: string, root: string | undefined): string {
  if (root === undefined) return folder;
  const r = root.replace(/[/\\]+$/, '');
  if (folder === r) return '.';
  if (folder.startsWith(`${r}/`) || folder.startsWith(`${r}\\`)) return folder.slice(r.length + 1);
  return folder;
}
