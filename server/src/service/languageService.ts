/**
 * The language service: one object per session holding the CRD index and the parsed open files, with
 * one method per editor feature. It speaks editor terms (TextDocument, Position, Range) and returns
 * vscode-languageserver-types values; it does no IO and knows nothing of the connection.
 */
import { isBuiltinGroup } from '../engine';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeLens, CompletionItem, DocumentSymbol, FoldingRange, Hover, Location, Position, Range, SignatureHelp } from 'vscode-languageserver-types';
import { CrdIndex, crdKey, extractCrds, mayHoldCrd, type CrdOrigin, type CrdSourceKind, type IndexedCrd } from '../workspace/crdIndex';
import { lightCrds, type Rereadable } from '../workspace/lightIndex';
import { DEFAULT_SERVICE_SETTINGS, type CatalogAnswer, type FileContext, type ServiceContext, type ServiceSettings } from './context';
import { parseFile, templateDecidesSpec } from './templates';
import { hasGoTemplateActions } from '../yaml/template';
import { ServiceCaches } from './caches';
import type { FileBaseline, WorkspaceObjects } from './update';
import { isTestFile, runTests, testCrdKind, testFindings, testLenses, type TestRun } from './crdTests';
import type { Finding, Fix } from './finding';
import { fileFindings, lockFileFindings } from './findings';
import { fileCoverage, type DocumentCoverage } from './coverage';
import { fixesFor } from './fixes';
import { checkDocumentConversion, type DocumentConversionCheck, type PostReview } from './conversionWebhook';
import { roleOf } from './kube';
import { builtinCrd, isBuiltinSchemaFile } from './builtins';
import type { YamlFile } from '../yaml/file';
import { hover } from './hover';
import { completion } from './completion';
import { celAt, celSignatureHelp } from './celEditor';
import { preview, previewDocuments, previewFileText, previewLenses, type PreviewOptions, type StoredObjectPreview } from './preview';
import { definition, documentSymbols, foldingRanges } from './navigation';
import { celTokens, validationExpressions, type CelToken } from './celTokens';
import type { ItemScalarScan } from '../yaml';
import type { GoGeneration } from '../workspace/crdgenProtocol';
import { driftFindings, driftFixes, goCelAt, goCelCompletion, goCelHover, goCelSignatureHelp, goFindingsByFile, goFixes, goState, type GoState } from './goTypes';
import { fileURLToPath } from 'node:url';

/** A Go source file (its findings come from the CRDs its package generates: goTypes.ts). */
export function isGoUri(uri: string): boolean {
  return uri.startsWith('file:') && uri.endsWith('.go');
}

function pathOfUri(uri: string): string | undefined {
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/** Whether two ranges overlap or touch (a cursor at a finding's edge is on it). */
function meets(a: Range, b: Range): boolean {
  const before = (p: Position, q: Position) => p.line < q.line || (p.line === q.line && p.character < q.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
}

function lineOf(text: string, offset: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** A file's Rereadable (lightIndex.ts) within the caches' budget. Out of indexDiskFile: its closures would keep the text. */
function heldBy(caches: ServiceCaches, reread: () => string): Rereadable {
  return { reread, held: (crd, chars, drop) => caches.holdCrd(crd, chars, drop) };
}

export class LanguageService {
  readonly index = new CrdIndex();
  private readonly ctx: ServiceContext;
  /** The CRD kinds (group/kind) each open file's CRs use: which files a CRD change re-checks. */
  private readonly uses = new Map<string, Set<string>>();
  /** The CRDs indexDiskFile indexed as `open` before the document was opened (what release restores). */
  private readonly indexedOpen = new Map<string, IndexedCrd[]>();
  /** Each Go module's last generation (goTypes.ts), by module folder. */
  private readonly goStates = new Map<string, GoState>();
  /** The CEL expressions of each document celTokens was asked about, for its text (found without a parse). */
  private readonly celExpressions = new Map<string, { text: string; scan: ItemScalarScan }>();

  /**
   * `batch`: a one-shot check of many files (the CLI): no per-node memo of CRD checks (it pays off only
   * across edits), and documents of generated YAML are read by the fast reader, their syntax trees
   * built only when a finding needs a position.
   * `lazyFromChars`: an open document at least this long is first read by the fast reader too (its first
   * findings come without a syntax tree); parseFully builds its trees after.
   */
  constructor(
    settings: Partial<ServiceSettings> = {},
    private readonly options: { batch?: boolean; lazyFromChars?: number } = {},
  ) {
    this.ctx = {
      index: this.index,
      settings: { ...DEFAULT_SERVICE_SETTINGS, ...settings },
      files: new Map(),
      caches: new ServiceCaches({ memo: !options.batch }),
      baselines: new Map(),
      baselineGeneration: 0,
      workspaceGeneration: 0,
      testRuns: new Map(),
      catalog: new Map(),
    };
    this.index.builtins = (group, kind) => (this.ctx.settings.builtins ? builtinCrd(group, kind, this.ctx.settings.kubernetesMinor) : undefined);
  }

  /**
   * Says what a file is from its place in the repository (a Helm chart template, a kustomize patch, a
   * test tool's file...). Returns true when that changed (the caller re-checks the file).
   */
  setFileContext(uri: string, fc: FileContext): boolean {
    const before = this.ctx.files.get(uri) ?? {};
    if (JSON.stringify(contextKey(before)) === JSON.stringify(contextKey(fc))) return false;
    if (Object.keys(contextKey(fc)).length) this.ctx.files.set(uri, { ...fc });
    else this.ctx.files.delete(uri);
    // A chart template, a file of a kustomize tree or a Chainsaw test's file is parsed differently.
    if (JSON.stringify(parseOptionsOf(before)) !== JSON.stringify(parseOptionsOf(fc))) this.ctx.caches.openFiles.delete(uri);
    return true;
  }

  /**
   * The baseline of a file (the objects it had at a git revision, or has in a cluster): its documents are
   * then checked as updates of the objects with their keys. `undefined`: checked as creates.
   */
  setBaseline(uri: string, baseline: FileBaseline | undefined): void {
    if (baseline) this.ctx.baselines.set(uri, baseline);
    else this.ctx.baselines.delete(uri);
    this.ctx.baselineGeneration++;
  }

  /** The baseline a file was given (for its label and problem). */
  baselineOf(uri: string): FileBaseline | undefined {
    return this.ctx.baselines.get(uri);
  }

  /** Where the workspace's objects of a kind are read from (for what a CRD change breaks). */
  setWorkspaceObjects(provider: WorkspaceObjects | undefined): void {
    this.ctx.workspaceObjects = provider;
    this.ctx.workspaceGeneration++;
  }

  /** The workspace folders' URIs (the CLI: its working directory): where paths in messages start. */
  setWorkspaceFolders(uris: string[]): void {
    if (JSON.stringify(uris) === JSON.stringify(this.ctx.folders ?? [])) return;
    this.ctx.folders = [...uris];
    this.ctx.workspaceGeneration++;
  }

  /** Where go to definition writes built-in kinds' schemas (their fields lead there); undefined: nowhere. */
  setBuiltinSchemaDir(dir: string | undefined): void {
    this.ctx.builtinSchemaDir = dir;
  }

  /** Workspace files changed: what CRD changes break is computed again. */
  workspaceChanged(): void {
    this.ctx.workspaceGeneration++;
  }

  /** Changes settings (the caller re-checks open documents). */
  configure(settings: Partial<ServiceSettings>): void {
    if (settings.yamlVersion && settings.yamlVersion !== this.ctx.settings.yamlVersion) this.ctx.caches.openFiles.clear();
    if (settings.templates && settings.templates !== this.ctx.settings.templates) this.ctx.caches.openFiles.clear();
    // Another Kubernetes version: every engine answer may change (the checks' caches start over).
    if ('kubernetesMinor' in settings && settings.kubernetesMinor !== this.ctx.settings.kubernetesMinor) this.ctx.caches = new ServiceCaches({ memo: !this.options.batch });
    if ('builtins' in settings && settings.builtins !== this.ctx.settings.builtins) this.ctx.caches = new ServiceCaches({ memo: !this.options.batch });
    Object.assign(this.ctx.settings, settings);
  }

  /** The current settings. */
  get settings(): Readonly<ServiceSettings> {
    return this.ctx.settings;
  }

  /** The parsed file for a document's current text (re-parsing only documents whose text changed). */
  file(td: TextDocument): YamlFile {
    const text = td.getText();
    const open = this.ctx.caches.openFiles.get(td.uri);
    let f = open?.file;
    if (!open || !f || (f.source ?? f.text) !== text) {
      const lazy = this.options.batch || (!f && text.length >= (this.options.lazyFromChars ?? Infinity));
      f = parseFile(text, f, { yamlVersion: this.ctx.settings.yamlVersion, ...parseOptionsOf(this.ctx.files.get(td.uri)), lazy });
      this.ctx.caches.openFiles.set(td.uri, { td, file: f, ...(lazy && !this.options.batch && f.readByFastReader ? { lazy: true } : {}) });
    } else if (open.td !== td) open.td = td;
    return f;
  }

  /** Whether an open document's parse is still the fast reader's (`lazyFromChars`). */
  readLazily(uri: string): boolean {
    return this.ctx.caches.openFiles.get(uri)?.lazy === true;
  }

  /**
   * A document the fast reader read first (`lazyFromChars`) parsed again in full, its syntax trees and
   * values the ones later edits are parsed from: true when it was (its findings are then computed afresh,
   * so that the checks' memo holds the new values and a keystroke re-checks only its path).
   */
  parseFully(td: TextDocument): boolean {
    if (!this.readLazily(td.uri)) return false;
    const open = this.ctx.caches.openFiles.get(td.uri)!;
    open.lazy = false;
    const text = td.getText();
    if ((open.file.source ?? open.file.text) !== text) return false;
    this.ctx.caches.openFiles.set(td.uri, { td, file: parseFile(text, undefined, { yamlVersion: this.ctx.settings.yamlVersion, ...parseOptionsOf(this.ctx.files.get(td.uri)) }) });
    return true;
  }

  /**
   * Records an open document's new text: indexes its CRDs and returns the group/kind keys whose CRD
   * changed (their CRs elsewhere need re-checking).
   */
  update(td: TextDocument): string[] {
    const f = this.file(td);
    const used = new Set<string>();
    for (const d of f.documents) {
      const role = roleOf(d.value);
      if (role.role === 'cr') used.add(crdKey(role.group, role.kind));
    }
    // A CRD rule test file uses the CRD it names by group/kind (the catalog may give it).
    const named = isTestFile(td.uri) ? testCrdKind(td.getText()) : undefined;
    if (named) used.add(crdKey(named.group, named.kind));
    this.uses.set(td.uri, used);
    return this.index.set(
      td.uri,
      this.crdsOf(td.uri, f, (o) => td.positionAt(o).line),
      'open',
    );
  }

  /**
   * Forgets an open document's parse and findings but keeps its CRDs indexed as indexDiskFile indexed
   * them before it was opened (names, values on first use): a one-shot check of many files keeps one
   * file's parse at a time.
   */
  release(uri: string): void {
    const indexed = this.indexedOpen.get(uri);
    this.close(uri);
    if (indexed) this.index.set(uri, indexed, 'open');
  }

  /** Forgets an open document (its CRDs leave the index unless a disk copy is indexed). */
  close(uri: string): string[] {
    this.ctx.caches.closeDocument(uri);
    this.ctx.testRuns.delete(uri);
    this.uses.delete(uri);
    this.celExpressions.delete(uri);
    return this.index.remove(uri, 'open');
  }

  /**
   * Indexes (or re-indexes) a workspace file that is not open (`external`: a file of a CRD source outside
   * the workspace); `undefined` text removes it. `open`: a document the caller will open later, indexed
   * the same light way meanwhile (the CLI indexes every input so, then opens them one at a time).
   */
  indexDiskFile(uri: string, text: string | undefined, source: CrdSourceKind = 'disk', reread?: () => string): string[] {
    if (text === undefined) {
      this.indexedOpen.delete(uri);
      return this.index.remove(uri, source);
    }
    // Names only, schemas parsed on first use (lightIndex.ts); the full parse when that does not apply.
    // `reread` (a one-shot check): the CRDs do not keep the text either, within the budget of caches.ts.
    const parsing = parseOptionsOf(this.ctx.files.get(uri));
    const helmTemplate = parsing.helmTemplate;
    const rereadable = reread && heldBy(this.ctx.caches, reread);
    // A file of custom resources is indexed without a parse.
    const light = !mayHoldCrd(text) ? [] : helmTemplate || (!parsing.plainYaml && hasGoTemplateActions(text)) ? undefined : lightCrds(uri, text, this.ctx.settings.yamlVersion, rereadable);
    let crds: IndexedCrd[];
    if (light) crds = light;
    else {
      // A one-shot check reads generated YAML with the fast reader here too (values are all the index needs).
      const f = parseFile(text, undefined, { yamlVersion: this.ctx.settings.yamlVersion, ...parsing, lazy: this.options.batch });
      crds = this.crdsOf(uri, f, (o) => lineOf(text, o));
    }
    if (source === 'open') this.indexedOpen.set(uri, crds);
    return this.index.set(uri, crds, source);
  }

  /**
   * Indexes a CRD file of the catalog (workspace/catalog.ts; `undefined` text removes it): YAML as the API
   * server serves it (never a template), another project's CRD (no authoring lints), its findings say
   * where it came from. Returns the group/kind keys whose CRD changed.
   */
  indexCatalogCrd(uri: string, text: string | undefined, origin: CrdOrigin, reread?: () => string): string[] {
    this.setFileContext(uri, text === undefined ? {} : { plainYaml: true, vendored: 'it is from the CRD catalog' });
    const changed = this.indexDiskFile(uri, text, 'external', reread);
    // Marked in place (a lazily parsed CRD is not copied).
    for (const c of this.index.entriesOf(uri, 'external')) c.catalog = origin;
    return changed;
  }

  /**
   * Records what the catalog answered for a group/kind it did not give (`undefined`: forgotten): the
   * objects of that kind say it (coverage.ts, findings.ts). True when that changed (re-check dependents).
   */
  setCatalogAnswer(group: string, kind: string, answer: CatalogAnswer | undefined): boolean {
    const key = crdKey(group, kind);
    if (JSON.stringify(this.ctx.catalog.get(key)) === JSON.stringify(answer)) return false;
    if (answer) this.ctx.catalog.set(key, answer);
    else this.ctx.catalog.delete(key);
    return true;
  }

  /**
   * The group/kinds a document needs a CRD for that no known CRD defines (what the catalog is asked
   * for): its objects' (coverage.ts: not built-in, not a client tool's) and a CRD rule test file's
   * `crd: group/Kind`.
   */
  kindsWithoutCrd(td: TextDocument): Array<{ group: string; kind: string }> {
    const out = new Map<string, { group: string; kind: string }>();
    for (const c of this.coverage(td)) if ('notChecked' in c && c.notChecked === 'noCrd' && c.group !== undefined && c.kind !== undefined) out.set(crdKey(c.group, c.kind), { group: c.group, kind: c.kind });
    const named = isTestFile(td.uri) ? testCrdKind(td.getText()) : undefined;
    if (named && !this.index.lookup(named.group, named.kind)) out.set(crdKey(named.group, named.kind), named);
    return [...out.values()];
  }

  /**
   * Whether an open file has objects of a group/kind no indexed CRD defines, outside Kubernetes' built-in
   * groups (cheap: no coverage computed; coverage.ts says which and why).
   */
  usesUnknownKinds(uri: string): boolean {
    for (const k of this.uses.get(uri) ?? []) {
      const i = k.lastIndexOf('/');
      const group = k.slice(0, i);
      if (group.includes('.') && !isBuiltinGroup(group) && !this.index.lookup(group, k.slice(i + 1))) return true;
    }
    return false;
  }

  /** Open files whose CRs use one of the given CRD keys. */
  dependents(keys: string[]): string[] {
    const out: string[] = [];
    for (const [uri, used] of this.uses) if (keys.some((k) => used.has(k))) out.push(uri);
    return out;
  }

  /** Number of CRDs (distinct group/kind) indexed. */
  get crdCount(): number {
    return this.index.size;
  }

  private crdsOf(uri: string, f: YamlFile, lineAt: (offset: number) => number): IndexedCrd[] {
    // A built-in kind's schemas written for go to definition are not a CRD of the workspace (opened, they
    // would stand for the built-in kind).
    if (isBuiltinSchemaFile(this.ctx, uri)) return [];
    const docs = f.documents
      // A CRD whose spec a template decides is not one to check objects against.
      .filter((d) => roleOf(d.value).role === 'crd' && !templateDecidesSpec(d))
      .map((d) => ({ index: d.index, text: d.text, value: d.value, startLine: lineAt(d.start), broken: d.errors.some((s) => s.severity === 'error') }));
    // A one-shot check gives each CRD a new id: looking ids up by text would keep every text alive.
    return extractCrds(uri, docs, { freshIds: this.options.batch });
  }

  /** The findings of a document (finding.ts: lsp/ renders them as diagnostics, cli/ as text, JSON, SARIF). */
  findings(td: TextDocument): Finding[] {
    if (isGoUri(td.uri)) return this.goFindings(td.uri);
    if (isBuiltinSchemaFile(this.ctx, td.uri)) return [];
    const file = this.file(td);
    const f = fileFindings(this.ctx, td, file);
    // A checked-in CRD that its Go types (generated in this session) no longer make.
    for (const s of this.goStates.values()) f.push(...driftFindings(s, td, file));
    if (td.uri.endsWith('/crd-yaml.lock')) return [...f, ...lockFileFindings(this.ctx, td.uri)];
    return isTestFile(td.uri) ? [...f, ...testFindings(this.ctx, td)] : f;
  }

  /**
   * A Go module's CRDs as its types generate them (workspace/goGenerator.ts), `text`: the Go texts they
   * were generated from (the open buffers, the files on disk). `undefined` forgets the module.
   */
  setGoGeneration(moduleDir: string, generation: GoGeneration | undefined, text?: (file: string) => string | undefined): void {
    if (!generation) this.goStates.delete(moduleDir);
    else this.goStates.set(moduleDir, goState(generation, text ?? (() => undefined)));
  }

  /** The generation a Go file's package is part of (its module's). */
  private goStateOf(file: string): GoState | undefined {
    let best: { dir: string; s: GoState } | undefined;
    for (const [dir, s] of this.goStates) if ((file.startsWith(dir + '/') || file.startsWith(dir + '\\')) && (!best || dir.length > best.dir.length)) best = { dir, s };
    return best?.s;
  }

  /** The Go files a module's generation has findings in (to publish, and to clear when they are gone). */
  goFindingFiles(moduleDir: string): string[] {
    const s = this.goStates.get(moduleDir);
    return s ? [...goFindingsByFile(s, (td) => this.checkGenerated(td)).keys()] : [];
  }

  /** A Go file's findings: those of the CRDs its module generates that its lines made (goTypes.ts). */
  goFindings(uri: string): Finding[] {
    const file = pathOfUri(uri);
    const s = file && this.goStateOf(file);
    if (!s) return [];
    return goFindingsByFile(s, (td) => this.checkGenerated(td)).get(file) ?? [];
  }

  /** A generated CRD checked as a CRD file is (its parse kept under its own URI: an edit re-checks only what changed). */
  private checkGenerated(td: TextDocument): { findings: Finding[]; file: YamlFile } {
    const file = this.file(td);
    return { findings: fileFindings(this.ctx, td, file), file };
  }

  private goStateOfUri(uri: string): GoState | undefined {
    const file = pathOfUri(uri);
    return file ? this.goStateOf(file) : undefined;
  }

  private goCel(td: TextDocument, pos: Position) {
    const file = pathOfUri(td.uri);
    const s = file && this.goStateOf(file);
    return s ? goCelAt(this.ctx, s, file, td.getText(), pos) : undefined;
  }

  /** What of a document was checked, document by document, and why the rest was not (coverage.ts). */
  coverage(td: TextDocument): DocumentCoverage[] {
    return fileCoverage(this.ctx, td.uri, this.file(td));
  }

  /** Runs the cases of a CRD rule test file (all, or the one at `index`); their failures become findings. */
  runTests(td: TextDocument, index?: number): { passed: number; failed: number } {
    return runTests(this.ctx, td, index);
  }

  /** The last run of a test file's cases (for another service that shows them: the editor's query worker). */
  testRunOf(uri: string): TestRun | undefined {
    return this.ctx.testRuns.get(uri);
  }

  /** Takes over a test file's last run from another service (`undefined`: none). */
  setTestRun(uri: string, run: TestRun | undefined): void {
    if (run) this.ctx.testRuns.set(uri, run);
    else this.ctx.testRuns.delete(uri);
  }

  hover(td: TextDocument, pos: Position): Hover | null {
    if (isGoUri(td.uri)) return goCelHover(this.goCel(td, pos));
    return hover(this.ctx, td, this.file(td), pos);
  }

  completion(td: TextDocument, pos: Position): CompletionItem[] {
    if (isGoUri(td.uri)) return goCelCompletion(this.goCel(td, pos), pos);
    return completion(this.ctx, td, this.file(td), pos);
  }

  /** The CEL call being written at a position of a CRD's rule or messageExpression (celEditor.ts). */
  signatureHelp(td: TextDocument, pos: Position): SignatureHelp | null {
    if (isGoUri(td.uri)) return goCelSignatureHelp(this.goCel(td, pos));
    const file = this.file(td);
    const offset = td.offsetAt(pos);
    const doc = file.documentAt(offset);
    if (!doc || roleOf(doc.value).role !== 'crd') return null;
    const at = celAt(this.ctx, td, doc, offset);
    return at ? celSignatureHelp(at) : null;
  }

  /** The quick fixes of the findings whose range meets `range` (fixes/index.ts). */
  fixes(td: TextDocument, range: Range): Fix[] {
    if (isGoUri(td.uri)) return goFixes(td, this.goFindings(td.uri), range, this.goStateOfUri(td.uri));
    const out: Fix[] = [];
    const seen = new Set<string>();
    const all = this.findings(td);
    for (const f of all) {
      if (!meets(f.range, range)) continue;
      for (const fix of this.fixesOf(td, f, all)) {
        // "Add all ..." fixes come with each of their findings: once.
        const key = fix.title + JSON.stringify(fix.edits);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(fix);
      }
    }
    return out;
  }

  /** The quick fixes of one finding of the document (`all`: the document's findings, when at hand). */
  fixesOf(td: TextDocument, f: Finding, all: Finding[] = this.findings(td)): Fix[] {
    if (isGoUri(td.uri)) return goFixes(td, [f], f.range, this.goStateOfUri(td.uri));
    const file = this.file(td);
    if (f.code === 'GeneratedDrift') return [...this.goStates.values()].flatMap((s) => driftFixes(s, td, file, f)).slice(0, 1);
    const doc = file.documentAt(td.offsetAt(f.range.start));
    if (!doc) return [];
    const startLine = td.positionAt(doc.start).line;
    const endLine = td.positionAt(doc.end).line;
    const docFindings = all.filter((x) => x.range.start.line >= startLine && x.range.start.line <= endLine && file.documentAt(td.offsetAt(x.range.start)) === doc);
    return fixesFor({ service: this.ctx, td, file, doc, findings: docFindings }, f);
  }

  /** The stored object of the CR document at a position (null: not a CR of a known CRD). */
  preview(td: TextDocument, pos: Position, opts: PreviewOptions = {}): StoredObjectPreview | null {
    return preview(this.ctx, td, this.file(td), pos, opts);
  }

  /**
   * Sends the custom resources of the file that belong to the CRD of the object at `pos` to a conversion
   * webhook through `post` (the caller's HTTP call) and checks the answer as the API server does.
   */
  checkConversionWebhook(td: TextDocument, pos: Position, to: string, uid: string, post: PostReview): Promise<DocumentConversionCheck | undefined> {
    return checkDocumentConversion(this.ctx, td, this.file(td), pos, to, uid, post);
  }

  /** The previews of every CR document (`unknownKinds`: also those of kinds no known CRD defines, with a note). */
  previews(td: TextDocument, opts: PreviewOptions = {}): StoredObjectPreview[] {
    return previewDocuments(this.ctx, td, this.file(td), opts);
  }

  /** The whole file as stored: each CR of a known CRD replaced by its preview, other documents as written. */
  previewFile(td: TextDocument): string {
    return previewFileText(this.ctx, td, this.file(td));
  }

  codeLenses(td: TextDocument): CodeLens[] {
    if (isGoUri(td.uri)) return [];
    if (isTestFile(td.uri)) return testLenses(this.ctx, td);
    return previewLenses(this.ctx, td, this.file(td));
  }

  documentSymbols(td: TextDocument): DocumentSymbol[] {
    if (isGoUri(td.uri)) return [];
    return documentSymbols(td, this.file(td));
  }

  definition(td: TextDocument, pos: Position): Location[] {
    if (isGoUri(td.uri)) return [];
    return definition(this.ctx, td, this.file(td), pos);
  }

  foldingRanges(td: TextDocument): FoldingRange[] {
    if (isGoUri(td.uri)) return [];
    return foldingRanges(td, this.file(td));
  }

  /**
   * Semantic tokens of the CEL in validation rules on the lines `range` covers. Needs no update() and
   * parses nothing: a large document is highlighted before (and without) its parse.
   */
  celTokens(td: TextDocument, range: Range): CelToken[] {
    if (isGoUri(td.uri)) return [];
    const text = td.getText();
    let known = this.celExpressions.get(td.uri);
    if (known?.text !== text) {
      known = { text, scan: validationExpressions(text, known?.scan) };
      this.celExpressions.set(td.uri, known);
    }
    return celTokens(text, known.scan, range.start.line, range.end.line);
  }
}

/** The members of a file context that say something (absent and false ones dropped), in one order. */
function contextKey(fc: FileContext): FileContext {
  const out: FileContext = {};
  if (fc.helmTemplate) out.helmTemplate = true;
  if (fc.patch) out.patch = fc.patch;
  if (fc.kustomize) out.kustomize = fc.kustomize;
  if (fc.testTool) out.testTool = { tool: fc.testTool.tool, role: fc.testTool.role };
  if (fc.vendored) out.vendored = fc.vendored;
  return out;
}

/** How a file of this context is parsed (templates.ts). */
function parseOptionsOf(fc: FileContext | undefined): { helmTemplate?: boolean; kustomizeVars?: boolean; testExpressions?: boolean; plainYaml?: boolean } {
  return { helmTemplate: !!fc?.helmTemplate, kustomizeVars: !!fc?.kustomize, testExpressions: fc?.testTool?.tool === 'chainsaw', plainYaml: !!fc?.plainYaml };
}
