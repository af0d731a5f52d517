/**
 * `crd-yaml check`: the language service's findings on the given files, as the editor shows them. The
 * inputs are opened in one LanguageService (their CRDs are indexed as open documents are); `--crd` files
 * enter the same CRD index as an editor's workspace files (names first, schemas parsed on first use).
 * This module only chooses the inputs and collects the findings; format.ts prints them.
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { readOnlyTextDocument } from '../service';
import type { FieldValidation, FileContext } from '../service';
import type { Finding, Fix } from '../service';
import { LanguageService } from '../service';
import type { YamlVersion } from '../yaml';
import { STDIN, shareOf, type InputFile } from './files';
import type { FileBaseline } from '../service';
import type { ServiceSettings } from '../service';
import { ClusterBaselineSource, GitBaselineSource, type BaselineSource } from '../baseline';
import { openCluster } from '../cluster';
import { parseYamlDocuments } from '../yaml';
import { isInside } from '../workspace/repository';
import { crdKey } from '../workspace/crdIndex';
import { addCoverage, addCoverageCounts, emptyCoverage, type CoverageCounts } from '../service';

/** A finding of one input file. */
export interface FileFinding extends Finding {
  /** The file as the user named it. */
  file: string;
  /** Quick fixes the editor would offer (SARIF and JSON carry them). */
  fixes: Fix[];
}

export interface CheckOptions {
  /** Extra files to take CRDs from (their own problems are not reported). */
  crdFiles?: InputFile[];
  yamlVersion?: YamlVersion;
  fieldValidation?: FieldValidation;
  /** `hint`: list the objects no known CRD defines and the documents a template decides (they are always counted). */
  unknownKinds?: 'ignore' | 'hint';
  /** The Kubernetes minor checked as (--kubernetes-version); undefined: the newest. */
  kubernetesMinor?: number;
  /** Built-in kinds checked too (default true; service/builtins.ts). */
  builtins?: boolean;
  /** The CRDs the CEL lints run on (--cel-lint-scope); undefined: `authored`. */
  celLintScope?: ServiceSettings['celLintScope'];
  /** The directory relative paths are resolved against. */
  cwd?: string;
  /**
   * Quick fixes computed (default true): only the JSON and SARIF reports carry them, and a fix needs the
   * document's syntax tree, a full parse of a file the fast reader read (380 ms for a 2.9 MB CRD).
   */
  fixes?: boolean;
  /** What input files are from their place in the repository (a chart template, a kustomize patch), by path as given. */
  contexts?: Map<string, FileContext>;
  /** Baselines by input path (--base, --base-cluster): the inputs are checked as updates of them. */
  baselines?: Map<string, FileBaseline>;
  /** Severities of CRD compatibility categories (--compat). */
  compatibility?: ServiceSettings['compatibility'];
  /**
   * Check only every `count`th input from `index` (a worker's share, cli/jobs.ts): every input is still
   * opened, so each share sees the same CRDs, and the shares' reports together are the whole one.
   */
  shard?: { index: number; count: number };
  /**
   * Told each input's report once it is checked (a worker posts them as it goes: cli/jobs.ts), with the
   * number of input files of the whole check (for the progress line).
   */
  onInput?: (file: string, report: InputReport, total: number) => void;
  /** Inputs already checked (by a worker that then failed), by path: their reports are taken as they are. */
  done?: ReadonlyMap<string, InputReport>;
}

/**
 * One input's part of a check report; `noCrd`: the group/kinds of its objects no known CRD defines (the
 * ones the catalog is asked for, cli/catalog.ts).
 */
export type InputReport = Pick<CheckReport, 'findings' | 'documents' | 'coverage'> & { noCrd?: string[] };

/**
 * The baselines of the inputs (IO): at a git revision (`--base REF`, the same path in the repository that
 * holds each file) or in the cluster (`--base-cluster`). The standard input has none.
 */
export async function readBaselines(
  files: InputFile[],
  opts: { base?: string; cluster: boolean; cwd: string; kubeconfig?: string; context?: string },
): Promise<{ baselines: Map<string, FileBaseline> } | { error: string }> {
  let source: BaselineSource;
  if (opts.cluster) {
    try {
      source = new ClusterBaselineSource(await openCluster({ kubeconfig: opts.kubeconfig, context: opts.context, allowExec: true }));
    } catch (e) {
      return { error: `--base-cluster: ${e instanceof Error ? e.message : String(e)}` };
    }
  } else source = new GitBaselineSource(opts.base ?? 'HEAD');
  const baselines = new Map<string, FileBaseline>();
  try {
    for (const f of files) {
      if (f.path === STDIN) continue;
      const objects = parseYamlDocuments(f.text).documents.map((d) => d.value);
      baselines.set(f.path, await source.objectsFor(path.resolve(opts.cwd, f.path), objects));
    }
  } finally {
    source.close();
  }
  return { baselines };
}

export interface CheckReport {
  findings: FileFinding[];
  files: number;
  documents: number;
  /** The documents checked, and those not checked by reason (service/coverage.ts). */
  coverage: CoverageCounts;
  /** Display paths of files by URI (for related locations in other files). */
  paths: Map<string, string>;
  /** The CRD catalog was asked for the kinds without a CRD (cli/catalog.ts), or could not be reached. */
  catalog?: 'asked' | 'unreachable';
}

/** The URI the service knows a CLI input by. */
export function uriOfInput(file: string, cwd: string): string {
  return file === STDIN ? 'untitled:stdin' : pathToFileURL(path.resolve(cwd, file)).href;
}

/**
 * A service holding the inputs (as open documents) and the `--crd` files (as workspace files).
 * `indexed`: the inputs' CRDs are only indexed the light way (names now, schemas on first use), for a
 * caller that opens each input itself and releases it after (checkFiles: one parse alive at a time).
 */
export function openInputs(files: InputFile[], opts: CheckOptions, how: 'open' | 'indexed' = 'open'): { service: LanguageService; docs: Array<{ file: InputFile; td: TextDocument }>; paths: Map<string, string> } {
  const cwd = opts.cwd ?? process.cwd();
  // Objects not checked are counted in the summary (coverage); --unknown-kinds hint also lists them.
  const service = new LanguageService(
    {
      yamlVersion: opts.yamlVersion ?? '1.1',
      fieldValidation: opts.fieldValidation ?? 'Strict',
      unknownKinds: opts.unknownKinds ?? 'ignore',
      compatibility: opts.compatibility ?? {},
      kubernetesMinor: opts.kubernetesMinor,
      celLintScope: opts.celLintScope,
      builtins: opts.builtins ?? true,
    },
    { batch: true },
  );
  // The working directory is the CLI's workspace folder: paths in messages start there, and CRDs from
  // outside it rank as the editor's sources outside the workspace (crdIndex.ts).
  service.setWorkspaceFolders([pathToFileURL(cwd).href]);
  const paths = new Map<string, string>();
  // Indexed only: the index reads a CRD's text again when it is used (a file on disk), and may drop it.
  const reread = (f: InputFile) => (how === 'indexed' ? f.reread : undefined);
  for (const f of opts.crdFiles ?? []) {
    const uri = uriOfInput(f.path, cwd);
    paths.set(uri, f.path);
    if (f.catalog) service.indexCatalogCrd(uri, f.text, f.catalog, reread(f));
    else service.indexDiskFile(uri, f.text, f.external || !isInside(path.resolve(cwd, f.path), cwd) ? 'external' : 'disk', reread(f));
  }
  const docs = files.map((file) => {
    const uri = uriOfInput(file.path, cwd);
    paths.set(uri, file.path);
    const fc = opts.contexts?.get(file.path);
    if (fc) service.setFileContext(uri, fc);
    // Like an editor's language mode: a named file is YAML by its name (the standard input always).
    const languageId = file.path === STDIN || /\.ya?ml$/i.test(file.path) ? 'yaml' : 'plaintext';
    if (how === 'open') return { file, td: readOnlyTextDocument(uri, languageId, 1, file.text) };
    // Indexed: the document is made from the text when it is checked (a new one each time asked).
    return new IndexedInput(file, uri, languageId);
  });
  // Every input is indexed before any is checked: a CR may come before its CRD.
  for (const d of docs) {
    if (how === 'open') service.update(d.td);
    else {
      service.indexDiskFile(uriOfInput(d.file.path, cwd), d.file.text, 'open', reread(d.file));
    }
  }
  for (const d of docs) {
    const b = opts.baselines?.get(d.file.path);
    if (b) service.setBaseline(d.td.uri, b);
  }
  // The objects a CRD change breaks are looked for among the inputs.
  if (opts.baselines) service.setWorkspaceObjects(() => docs.map((d) => ({ uri: d.td.uri, text: d.file.text })));
  return { service, docs, paths };
}

/**
 * An input only indexed: its document is made from its text each time it is asked for. A class: an object
 * literal with a getter is a hash table in V8 (400 bytes an input, 3 MB of the catalog's check).
 */
class IndexedInput {
  constructor(
    readonly file: InputFile,
    private readonly uri: string,
    private readonly languageId: string,
  ) {}
  get td(): TextDocument {
    return readOnlyTextDocument(this.uri, this.languageId, 1, this.file.text);
  }
}

/** Check files: the same findings as in the editor, sorted by file (input order), line, column. */
export function checkFiles(files: InputFile[], opts: CheckOptions = {}): CheckReport {
  const cwd = opts.cwd ?? process.cwd();
  // One input parsed at a time: 34 MB of CRDs parsed at once keep hundreds of megabytes alive.
  const { service, docs, paths } = openInputs(files, opts, 'indexed');
  const findings: FileFinding[] = [];
  let documents = 0;
  const coverage = emptyCoverage();
  const inputs = new Set(docs.map((d) => uriOfInput(d.file.path, cwd)));
  const share = opts.shard && shareOf(files, opts.shard);
  for (const [i, d] of docs.entries()) {
    if (share && (i < share.from || i >= share.to)) continue;
    const { file, td } = d;
    const before = opts.done?.get(file.path);
    if (before) {
      findings.push(...before.findings);
      documents += before.documents;
      addCoverageCounts(coverage, before.coverage);
      continue;
    }
    const counted = documents;
    service.update(td);
    documents += service.file(td).documents.length;
    const covered = service.coverage(td);
    const mine = addCoverage(emptyCoverage(), covered);
    addCoverageCounts(coverage, mine);
    const noCrd = [...new Set(covered.flatMap((c) => ('notChecked' in c && c.notChecked === 'noCrd' && c.group !== undefined && c.kind !== undefined ? [crdKey(c.group, c.kind)] : [])))];
    const all = service.findings(td);
    const out: FileFinding[] = [];
    for (const f of all) {
      // A copy of a duplicated CRD not in use: the line is the copy in use's, unless that one is not checked.
      if (f.code === 'DuplicateCRD' && f.severity === 'hint' && f.related?.some((r) => inputs.has(r.location.uri))) continue;
      out.push({ ...f, file: file.path, fixes: [] });
    }
    // Fixes that edit the file (an editor's commands, such as importing CRDs, are not for the CLI).
    if (opts.fixes !== false) for (const f of out) f.fixes = service.fixesOf(td, f, all).filter((x) => x.edits.length > 0);
    // The objects a CRD change breaks, where the user can open them.
    for (const f of out) {
      if (f.code !== 'BreaksObjects') continue;
      f.notes = (f.related ?? []).map((r) => `${paths.get(r.location.uri) ?? r.location.uri}:${r.location.range.start.line + 1}:${r.location.range.start.character + 1}: ${r.message}`);
    }
    out.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
    // Copied: the report outlives the inputs, and a message made of a slice of a CRD's text (a name, a
    // group) would keep the whole text alive (V8 slices point into their parent string).
    const kept = structuredClone(out);
    findings.push(...kept);
    opts.onInput?.(file.path, { findings: kept, documents: documents - counted, coverage: mine, ...(noCrd.length ? { noCrd } : {}) }, files.length);
    service.release(td.uri);
  }
  return { findings, files: files.length, documents, coverage, paths };
}
