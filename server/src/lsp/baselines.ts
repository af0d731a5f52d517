/**
 * The editor's side of the update path (IO the service does not do): reading the baseline of each open
 * file (`crdYaml.baseline`: the same file at a git revision, read without running git; or the objects in
 * the cluster of the kubeconfig's current context) and remembering the workspace files that hold custom
 * resources, for what a CRD change breaks.
 */
import { fileURLToPath } from 'node:url';
import { ClusterBaselineSource, GitBaselineSource, parseBaselineSetting, type BaselineSource } from '../baseline';
import { openCluster } from '../cluster';
import type { LanguageService } from '../service';

/** The most text kept for workspace files with custom resources (beyond it, older files are forgotten). */
const MAX_OBJECT_TEXT = 64 * 1024 * 1024;

function uriToPath(uri: string): string | undefined {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
}

export class EditorBaselines {
  private source: BaselineSource | undefined;
  private setting = '';
  /** Custom resource files of the workspace (not open): uri -> text and the group/kinds in it. */
  private readonly objectFiles = new Map<string, { text: string; kinds: Set<string> }>();
  private objectBytes = 0;

  constructor(
    private readonly service: LanguageService,
    private readonly opts: {
      folders: () => string[];
      openText: (uri: string) => string | undefined;
      /** The top-level objects of an open file, from the service's own parse (read only when a source needs them). */
      openObjects: (uri: string) => unknown[];
      openUris: () => string[];
      log: (m: string) => void;
      trusted: () => boolean;
    },
  ) {
    service.setWorkspaceObjects((group, kind) => this.objectsOf(group, kind));
  }

  /**
   * Applies `crdYaml.baseline`; true when it changed (the open files need their baselines again). `again`:
   * the workspace folders changed, so the source is made again even with the same setting.
   */
  configure(value: unknown, again = false): boolean {
    const s = typeof value === 'string' ? value : 'git:HEAD';
    if (s === this.setting && !again) return false;
    this.setting = s;
    this.source?.close();
    this.source = undefined;
    const parsed = parseBaselineSetting(s);
    if ('error' in parsed) {
      this.opts.log(`crdYaml.baseline: ${parsed.error}; files are checked as new objects`);
      return true;
    }
    if (parsed.kind === 'git') {
      const folders = this.opts.folders();
      this.source = new GitBaselineSource(parsed.ref, folders.length === 1 ? folders[0] : undefined);
    } else if (parsed.kind === 'cluster') {
      // The client is made on first use (reading the kubeconfig); exec credential plugins only when trusted.
      this.source = new LazyClusterSource(this.opts.trusted());
    }
    return true;
  }

  /** Reads the baseline of an open file and gives it to the service; resolves to whether it changed. */
  async refresh(uri: string): Promise<void> {
    const file = uriToPath(uri);
    const text = this.opts.openText(uri);
    if (!this.source || !file || text === undefined) {
      this.service.setBaseline(uri, undefined);
      return;
    }
    // A git source gives all the file had and does not look at the objects: no parse for it.
    const objects = this.source instanceof GitBaselineSource ? [] : this.opts.openObjects(uri);
    try {
      this.service.setBaseline(uri, await this.source.objectsFor(file, objects));
    } catch (e) {
      this.service.setBaseline(uri, { label: this.source.label, objects: [], problem: e instanceof Error ? e.message : String(e) });
    }
  }

  forget(uri: string): void {
    this.service.setBaseline(uri, undefined);
  }

  /** A workspace file was read (or deleted: text undefined): remember it when it holds custom resources. */
  diskFile(uri: string, text: string | undefined): void {
    const before = this.objectFiles.get(uri);
    if (before) {
      this.objectBytes -= before.text.length;
      this.objectFiles.delete(uri);
    }
    const kinds = text === undefined ? undefined : customResourceKinds(text);
    if (text !== undefined && kinds && kinds.size > 0) {
      this.objectFiles.set(uri, { text, kinds });
      this.objectBytes += text.length;
      for (const k of this.objectFiles.keys()) {
        if (this.objectBytes <= MAX_OBJECT_TEXT) break;
        this.objectBytes -= this.objectFiles.get(k)!.text.length;
        this.objectFiles.delete(k);
      }
    }
    if (before || (kinds && kinds.size > 0)) this.service.workspaceChanged();
  }

  private objectsOf(group: string, kind: string): Array<{ uri: string; text: string }> {
    const key = `${group}/${kind}`;
    const out: Array<{ uri: string; text: string }> = [];
    const open = new Set(this.opts.openUris());
    for (const uri of open) {
      const text = this.opts.openText(uri);
      if (text !== undefined && customResourceKinds(text).has(key)) out.push({ uri, text });
    }
    for (const [uri, f] of this.objectFiles) if (!open.has(uri) && f.kinds.has(key)) out.push({ uri, text: f.text });
    return out;
  }
}

/**
 * The group/kinds of the top-level objects of a text, from `apiVersion:` and `kind:` lines at column 0 (a
 * cheap pre-selection; the service parses the files it is given).
 */
export function customResourceKinds(text: string): Set<string> {
  const out = new Set<string>();
  for (const doc of text.split(/^---/m)) {
    const api = /^apiVersion:\s*["']?([^\s"'#]+)/m.exec(doc)?.[1];
    const kind = /^kind:\s*["']?([^\s"'#]+)/m.exec(doc)?.[1];
    if (!api || !kind || !api.includes('/')) continue;
    const group = api.slice(0, api.indexOf('/'));
    if (group.includes('.') && group !== 'apiextensions.k8s.io') out.add(`${group}/${kind}`);
  }
  return out;
}

/** The cluster source, connected on first use. */
class LazyClusterSource implements BaselineSource {
  readonly label = 'the cluster';
  private inner: Promise<BaselineSource> | undefined;
  constructor(private readonly trusted: boolean) {}
  private get(): Promise<BaselineSource> {
    return (this.inner ??= openCluster({ allowExec: this.trusted }).then((c) => new ClusterBaselineSource(c)));
  }
  async forFile(file: string, objects: unknown[]) {
    return (await this.get()).forFile(file, objects);
  }
  async objectsFor(file: string, objects: unknown[]) {
    return (await this.get()).objectsFor(file, objects);
  }
  close(): void {
    void this.inner?.then((s) => s.close()).catch(() => undefined);
  }
}
