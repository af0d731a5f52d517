/**
 * The server's view of the repository around the open documents (issue 13): which files are Helm chart
 * templates or kustomize patches, which are excluded from diagnostics (`crdYaml.validate.exclude`), the
 * CRD sources outside the workspace (`crdYaml.crdSources` folders and URLs, `crdYaml.goModules`), and the
 * requests behind the status bar's CRD list and "CRD: Import CRDs from Cluster...". In an untrusted
 * workspace nothing is fetched, no cluster is contacted and no credential plugin runs.
 */
import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Location, NotificationType, RequestType } from 'vscode-languageserver-protocol';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { stringify } from 'yaml';
import { contextNames, kubeconfigPaths, loadKubeconfig, openCluster, storedCrdManifest } from '../cluster';
import type { CatalogAnswer, FileContext } from '../service';
import { crdVersions } from '../service';
import type { LanguageService } from '../service';
import { isKustomizationFile } from '../workspace/kustomize';
import { isInside, repositoryAround, repositoryRoleOf, workspaceFs } from '../workspace/repository';
import { isTestToolFile } from '../workspace/testTools';
import { globToRegExp, readCandidate, type ReadableRoots } from '../workspace/scan';
import { defaultSourceCache, goModuleCrds, isUrl, urlSource, yamlFilesUnder } from '../workspace/sources';
import { parseKubernetesVersion } from '../engine';
import { Catalog, catalogable, catalogConfig, LOCK_FILE, lockEntryLine, parseLock, repositoryRootOf } from '../workspace/catalog';
import { crdKey } from '../workspace/crdIndex';
import { CrdsRequest, ImportCrdsRequest, KubeconfigContextsRequest, TrustNotification, type CrdSummary, type ImportCrdsResult } from './protocol';

/** The `crdYaml.*` settings this module reads. */
export interface RepositorySettings {
  /** `auto` is resolved by the VS Code client (off beside redhat.vscode-yaml); other clients: on. */
  syntaxDiagnostics: 'auto' | 'on' | 'off';
  /** Globs of files that get no diagnostics (relative to a workspace folder, or absolute). */
  validateExclude: string[];
  templates: 'check' | 'ignore';
  /** Folders and http(s) URLs of CRD YAML outside the workspace. */
  crdSources: string[];
  /** Index the CRD files of the Go modules the workspace's go.mod requires. */
  goModules: boolean;
  /** The CRD catalog's URL template or `off` (workspace/catalog.ts); undefined: the public catalog. */
  catalog?: string;
  /** The Kubernetes minor checked as (the catalog's tag). */
  kubernetesMinor?: number;
}

export function readRepositorySettings(raw: Record<string, unknown>): RepositorySettings {
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const validate = raw.validate && typeof raw.validate === 'object' ? (raw.validate as Record<string, unknown>) : {};
  return {
    syntaxDiagnostics: raw.syntaxDiagnostics === 'on' || raw.syntaxDiagnostics === 'off' ? raw.syntaxDiagnostics : 'auto',
    validateExclude: strings(validate.exclude ?? raw['validate.exclude']),
    templates: raw.templates === 'ignore' ? 'ignore' : 'check',
    crdSources: strings(raw.crdSources),
    goModules: raw.goModules === true,
    ...(typeof raw.catalog === 'string' ? { catalog: raw.catalog } : {}),
    ...(typeof raw.kubernetesVersion === 'string' && parseKubernetesVersion(raw.kubernetesVersion) !== undefined ? { kubernetesMinor: parseKubernetesVersion(raw.kubernetesVersion) } : {}),
  };
}

/**
 * Where this module's requests and notifications are registered: the check worker's table (the main thread
 * forwards them there by method, lsp/server.ts), shaped like the connection's own methods.
 */
export interface Handlers {
  onRequest<P, R>(type: RequestType<P, R, void>, handler: (params: P) => R | Promise<R>): void;
  onNotification<P>(type: NotificationType<P>, handler: (params: P) => void): void;
}

/** Bound of the walk of one configured source folder. */
const SOURCE_WALK_ENTRIES = 100_000;

export class RepositoryFeatures {
  private settings: RepositorySettings = readRepositorySettings({});
  private trusted = true;
  private cacheDir = defaultSourceCache();
  private readonly contexts = new Map<string, FileContext>();
  private exclude: { test(p: string): boolean }[] = [];
  private sourcesKey = '';
  /** The CRD catalog (workspace/catalog.ts), made again when its settings, the folders or the trust change. */
  private catalog: { key: string; catalog?: Catalog } = { key: '' };
  private catalogDir = path.join(path.dirname(defaultSourceCache()), 'catalog');
  /** The group/kinds asked of the catalog, and the cached files of the CRDs it gave (indexed as external sources). */
  private readonly asked = new Set<string>();
  private readonly catalogUris = new Set<string>();
  /** The crd-yaml.lock the catalog was made with (its path and text). */
  private lock: { file: string; text: string } | undefined;

  constructor(
    private readonly deps: {
      handlers: Handlers;
      service: LanguageService;
      /** The open documents. */
      documents: { all(): TextDocument[]; get(uri: string): TextDocument | undefined };
      folders: () => string[];
      /** What the server may read (scan.ts): the workspace folders, to which the sources' places are added. */
      readable: ReadableRoots;
      /** Re-check a document. */
      schedule: (uri: string) => void;
      sendStatus: () => void;
      /** The CRDs of an external source changed (the query worker's copy follows). */
      indexed?: (uri: string) => void;
      log: (msg: string) => void;
    },
  ) {}

  /**
   * From the client's initializationOptions: `trusted` (VS Code's workspace trust; clients without that
   * notion: the user started the server on their own files) and `cacheDir` (where fetched sources go).
   */
  initialize(init: { trusted?: unknown; cacheDir?: unknown }): void {
    this.trusted = init.trusted !== false;
    if (typeof init.cacheDir === 'string' && init.cacheDir) {
      this.cacheDir = path.join(init.cacheDir, 'crd-sources');
      this.catalogDir = path.join(init.cacheDir, 'catalog');
    }
  }

  /** Applies settings; true when open documents need re-checking. */
  configure(raw: Record<string, unknown>): boolean {
    const before = JSON.stringify(this.settings);
    this.settings = readRepositorySettings(raw);
    this.exclude = this.settings.validateExclude.map((g) => globToRegExp(g.split(path.sep).join('/')));
    this.deps.service.configure({ syntaxDiagnostics: this.settings.syntaxDiagnostics !== 'off', templates: this.settings.templates });
    return before !== JSON.stringify(this.settings);
  }

  /** Registers the requests and notifications of this module. */
  register(): void {
    const c = this.deps.handlers;
    c.onRequest(CrdsRequest, () => this.crdList());
    c.onRequest(KubeconfigContextsRequest, async () => {
      const files = kubeconfigPaths();
      try {
        const cfg = await loadKubeconfig(files);
        return { files: cfg.files, contexts: contextNames(cfg), current: cfg.currentContext };
      } catch (e) {
        return { files, contexts: [], error: (e as Error).message };
      }
    });
    c.onRequest(ImportCrdsRequest, (p) => this.importCrds(p.context, p.folder));
    c.onNotification(TrustNotification, (p) => {
      const was = this.trusted;
      this.trusted = p.trusted !== false;
      if (this.trusted && !was) void this.indexSources(true);
    });
  }

  /** Whether a document gets no diagnostics (crdYaml.validate.exclude). */
  isExcluded(uri: string): boolean {
    if (!this.exclude.length) return false;
    const file = uriToPath(uri);
    if (!file) return false;
    const candidates = [file.split(path.sep).join('/')];
    for (const f of this.deps.folders()) if (isInside(file, f)) candidates.push(path.relative(f, file).split(path.sep).join('/'));
    return candidates.some((p) => {
      const parts = p.split('/');
      for (let i = parts.length; i > 0; i--) if (this.exclude.some((r) => r.test(parts.slice(0, i).join('/')))) return true;
      return false;
    });
  }

  /** Tells the service what an open document is (a chart template, a kustomize patch, a test file, a vendored copy...), once per document. */
  updateContext(uri: string): void {
    if (this.contexts.has(uri)) return;
    const file = uriToPath(uri);
    const fc: FileContext = {};
    const folder = file && this.deps.folders().find((f) => isInside(file, f));
    if (file && folder) {
      // The same classification as the CLI's (cli/sources.ts), from what is around this one file.
      const rfs = workspaceFs(folder);
      Object.assign(fc, repositoryRoleOf(file, repositoryAround([file], rfs, folder), rfs, folder, folder).role);
    } else if (file && this.deps.folders().length) {
      // A CRD source, a Go module's file, another project's file opened beside the workspace.
      fc.vendored = 'it is outside the workspace folders';
    }
    this.contexts.set(uri, fc);
    this.deps.service.setFileContext(uri, fc);
  }

  /** What an open document is (after updateContext). */
  contextOf(uri: string): FileContext | undefined {
    return this.contexts.get(uri);
  }

  /** Forgets a closed document's context. */
  forget(uri: string): void {
    this.contexts.delete(uri);
  }

  /**
   * A watched file changed: a kustomization, a chart's Chart.yaml or a test definition changes what open
   * documents are.
   */
  onWatchedFile(uri: string): void {
    const file = uriToPath(uri);
    if (!file || !(isKustomizationFile(file) || isTestToolFile(file) || path.basename(file) === 'Chart.yaml')) return;
    for (const d of this.deps.documents.all()) {
      this.contexts.delete(d.uri);
      this.updateContext(d.uri);
      this.deps.schedule(d.uri);
    }
  }

  /**
   * Indexes the CRD sources outside the workspace (after the workspace scan, and when the settings
   * change). URLs are fetched only when trusted; what was fetched before is read from the cache.
   */
  async indexSources(force = false): Promise<void> {
    const key = JSON.stringify([this.settings.crdSources, this.settings.goModules, this.trusted, this.deps.folders()]);
    if (key === this.sourcesKey && !force) return;
    this.sourcesKey = key;
    const want = new Map<string, string>();
    const notes: string[] = [];
    // The places of the sources become readable (and only they, beside the workspace folders).
    const roots: string[] = [this.cacheDir, this.catalogDir];
    const readable = this.deps.readable;
    const readInto = async (file: string) => {
      const text = await readCandidate(file, readable);
      if (text !== undefined) want.set(pathToFileURL(file).href, text);
    };
    readable.set([...this.deps.folders(), ...roots]);
    for (const src of this.settings.crdSources) {
      if (isUrl(src)) {
        const r = await urlSource(src, { cacheDir: this.cacheDir, allowNetwork: this.trusted });
        if (r.file) await readInto(r.file);
        else notes.push(r.error ?? src);
        continue;
      }
      const p = path.resolve(this.deps.folders()[0] ?? os.homedir(), src.replace(/^~(?=$|\/)/, os.homedir()));
      let st: import('node:fs').Stats | undefined;
      try {
        st = await fs.stat(p);
      } catch {
        notes.push(`crdSources: ${src}: no such file or folder`);
        continue;
      }
      roots.push(p);
      readable.set([...this.deps.folders(), ...roots]);
      if (st.isFile()) await readInto(p);
      else if (st.isDirectory()) {
        const budget = { entries: SOURCE_WALK_ENTRIES, cut: false };
        for (const f of await yamlFilesUnder(p, budget)) await readInto(f);
        if (budget.cut) notes.push(`crdSources: ${src}: stopped after ${SOURCE_WALK_ENTRIES} entries`);
      }
    }
    if (this.settings.goModules) {
      for (const folder of this.deps.folders()) {
        let gomod: string;
        try {
          gomod = await fs.readFile(path.join(folder, 'go.mod'), 'utf8');
        } catch {
          continue;
        }
        const r = await goModuleCrds(gomod);
        roots.push(...r.modules.map((m) => m.dir));
        readable.set([...this.deps.folders(), ...roots]);
        for (const m of r.modules) for (const f of m.files) await readInto(f);
        if (r.missing.length) notes.push(`goModules: ${r.missing.length} required modules are not in the module cache (go mod download fetches them)`);
        if (r.cut) notes.push('goModules: the walk of the module cache was cut');
        this.deps.log(`goModules: ${r.modules.map((m) => `${m.module}@${m.version} (${m.files.length})`).join(', ') || 'no module with CRD files'}`);
      }
    }
    const svc = this.deps.service;
    const changed: string[] = [];
    for (const uri of svc.index.externalSources()) if (!want.has(uri) && !this.catalogUris.has(uri)) changed.push(...svc.indexDiskFile(uri, undefined, 'external'));
    for (const [uri, text] of want) changed.push(...svc.indexDiskFile(uri, text, 'external'));
    for (const n of notes) this.deps.log(n);
    if (changed.length) {
      for (const dep of svc.dependents(changed)) this.deps.schedule(dep);
      this.deps.sendStatus();
    }
  }

  /**
   * Asks the catalog for the CRDs of a checked document's objects no local CRD defines (each group/kind
   * once per session), indexes those it has and checks their dependents again. Built-in kinds are never
   * asked (coverage.ts counts them apart); in an untrusted workspace only cached answers are used.
   */
  catalogFor(td: TextDocument): void {
    const svc = this.deps.service;
    // Most checks: every kind has its CRD (or is built in); coverage is computed only otherwise.
    if (!svc.usesUnknownKinds(td.uri)) return;
    const catalog = this.currentCatalog();
    if (!catalog) return;
    const keys: Array<{ group: string; kind: string }> = [];
    for (const k of svc.kindsWithoutCrd(td)) {
      const key = crdKey(k.group, k.kind);
      if (this.asked.has(key) || !catalogable(k.group, k.kind)) continue;
      this.asked.add(key);
      keys.push(k);
    }
    if (!keys.length) return;
    void catalog.lookupAll(keys).then((answers) => {
      // Settings changed meanwhile: these answers are another catalog's.
      if (this.catalog.catalog !== catalog) return;
      const changed: string[] = [];
      for (const a of answers) {
        if (!a.found) {
          if ('error' in a) this.deps.log(`catalog: ${a.error}`);
          // Said on the objects of the kind: not in the catalog, or refused by the lock (with its entry).
          const answer: CatalogAnswer | undefined = 'notFound' in a ? { notFound: true } : a.mismatch ? { refused: a.mismatch, detail: a.error, ...this.lockEntry(a.group, a.kind) } : undefined;
          if (answer && svc.setCatalogAnswer(a.group, a.kind, answer)) {
            changed.push(crdKey(a.group, a.kind));
            // crd-yaml.lock, when open, shows the refused entry too.
            if ('lock' in answer && answer.lock) this.deps.schedule(answer.lock.uri);
          }
          continue;
        }
        // A local CRD indexed meanwhile wins anyway (crdIndex.ts ranks external sources last).
        const uri = pathToFileURL(a.file).href;
        this.catalogUris.add(uri);
        this.contexts.set(uri, { plainYaml: true, vendored: 'it is from the CRD catalog' });
        changed.push(...svc.indexCatalogCrd(uri, a.text, { url: a.url, tag: a.tag }));
        this.deps.indexed?.(uri);
        this.deps.log(`catalog: ${a.kind}.${a.group} from ${a.url}`);
      }
      if (changed.length) {
        for (const dep of svc.dependents(changed)) this.deps.schedule(dep);
        this.deps.sendStatus();
      }
    });
  }

  /** The catalog of the current settings (undefined: off), with the repository's crd-yaml.lock. */
  private currentCatalog(): Catalog | undefined {
    const s = this.settings;
    const root = this.deps.folders()[0];
    const key = JSON.stringify([s.catalog, s.kubernetesMinor, this.trusted, root]);
    if (key === this.catalog.key) return this.catalog.catalog;
    // Another catalog: the CRDs of the previous one leave the index.
    const svc = this.deps.service;
    const changed: string[] = [];
    for (const uri of this.catalogUris) {
      changed.push(...svc.indexDiskFile(uri, undefined, 'external'));
      this.deps.indexed?.(uri);
    }
    this.catalogUris.clear();
    for (const key of this.asked) {
      const i = key.lastIndexOf('/');
      if (svc.setCatalogAnswer(key.slice(0, i), key.slice(i + 1), undefined)) changed.push(key);
    }
    this.asked.clear();
    this.lock = undefined;
    if (changed.length) {
      for (const dep of svc.dependents(changed)) this.deps.schedule(dep);
      this.deps.sendStatus();
    }
    this.catalog = { key };
    // Unset (a client without the setting, the tests): CRD_YAML_CATALOG, else the public catalog.
    const config = catalogConfig(s.catalog ?? process.env.CRD_YAML_CATALOG, s.kubernetesMinor);
    if (config && 'error' in config) {
      this.deps.log(`crdYaml.catalog: ${config.error}`);
      return undefined;
    }
    if (!config) return undefined;
    let lock: ReturnType<typeof parseLock> | undefined;
    if (root) {
      const file = path.join(repositoryRootOf(root), LOCK_FILE);
      try {
        const text = readFileSync(file, 'utf8');
        lock = parseLock(text);
        this.lock = { file, text };
      } catch {
        // no lock file
      }
      if (lock && 'error' in lock) {
        this.deps.log(`${file}: ${lock.error}`);
        return undefined;
      }
    }
    this.catalog.catalog = new Catalog({ config, cacheDir: this.catalogDir, allowNetwork: this.trusted, lock: lock && !('error' in lock) ? lock : undefined });
    return this.catalog.catalog;
  }

  /** Where crd-yaml.lock pins a group/kind (a refused CRD's finding links there). */
  private lockEntry(group: string, kind: string): { lock?: Location } {
    const line = this.lock && lockEntryLine(this.lock.text, group, kind);
    if (!this.lock || line === undefined) return {};
    return { lock: { uri: pathToFileURL(this.lock.file).href, range: { start: { line, character: 0 }, end: { line, character: this.lock.text.split('\n')[line].length } } } };
  }

  /** Of the CRDs in use, those from the catalog (the status bar counts them apart). */
  catalogCount(): number {
    return this.catalogUris.size ? this.deps.service.index.all().filter((c) => c.catalog).length : 0;
  }

  /** The CRDs in use, for the client's list. */
  private crdList(): CrdSummary[] {
    const svc = this.deps.service;
    return svc.index
      .all()
      .map((c): CrdSummary => {
        const versions = crdVersions(c.crd).filter((v) => v.served);
        versions.sort((a, b) => Number(b.storage) - Number(a.storage));
        const others = svc.index.definitions(c.group, c.kind).slice(1);
        return {
          kind: c.kind,
          group: c.group,
          name: c.name,
          versions: versions.map((v) => v.name),
          uri: c.uri,
          line: c.startLine,
          ...(others.length ? { alsoDefinedIn: others.map((o) => o.uri) } : {}),
          ...(c.catalog ? { catalog: c.catalog } : {}),
        };
      })
      .sort((a, b) => a.kind.localeCompare(b.kind) || a.group.localeCompare(b.group));
  }

  /** Writes the CRDs of a cluster context into the workspace (then indexed). */
  private async importCrds(context: string, folderArg?: string): Promise<ImportCrdsResult> {
    const root = this.deps.folders()[0];
    if (!this.trusted) return { folder: '', written: 0, error: 'CRDs are not imported from a cluster in an untrusted workspace' };
    if (!root) return { folder: '', written: 0, error: 'open a folder first: CRDs are written into the workspace' };
    const folder = path.resolve(root, folderArg ?? path.join('.crds', context.replace(/[^A-Za-z0-9._-]+/g, '_')));
    if (!isInside(folder, root)) return { folder, written: 0, error: `${folder} is not inside the workspace folder ${root}` };
    let crds: Record<string, unknown>[];
    try {
      const client = await openCluster({ context, allowExec: true });
      const r = await client.listCustomResourceDefinitions();
      crds = r.crds;
      if (r.truncated) this.deps.log(`import from ${context}: ${r.truncated}`);
    } catch (e) {
      return { folder, written: 0, error: (e as Error).message };
    }
    await fs.mkdir(folder, { recursive: true });
    const header = `# Imported by crd-yaml from the cluster of kubeconfig context "${context}" (read-only list of CustomResourceDefinitions).\n`;
    const names = new Set<string>();
    const changed: string[] = [];
    for (const crd of crds) {
      const name = String((crd.metadata as { name?: unknown } | undefined)?.name ?? '').replace(/[^A-Za-z0-9._-]+/g, '_');
      if (!name) continue;
      names.add(`${name}.yaml`);
      const file = path.join(folder, `${name}.yaml`);
      const text = header + stringify(storedCrdManifest(crd), { lineWidth: 0 });
      await fs.writeFile(file, text);
      const uri = pathToFileURL(file).href;
      if (!this.deps.documents.get(uri)) changed.push(...this.deps.service.indexDiskFile(uri, text));
    }
    // CRDs since removed from the cluster: their files, written by an earlier import, go too.
    for (const f of await fs.readdir(folder)) {
      if (!f.endsWith('.yaml') || names.has(f)) continue;
      const file = path.join(folder, f);
      const text = await fs.readFile(file, 'utf8').catch(() => '');
      if (!text.startsWith('# Imported by crd-yaml from the cluster')) continue;
      await fs.rm(file, { force: true });
      changed.push(...this.deps.service.indexDiskFile(pathToFileURL(file).href, undefined));
    }
    for (const dep of this.deps.service.dependents(changed)) this.deps.schedule(dep);
    this.deps.sendStatus();
    return { folder, written: names.size };
  }
}

function uriToPath(uri: string): string | undefined {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
}
