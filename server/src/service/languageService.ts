/**
 * The language service: one object per session holding the CRD index and the parsed open files, with
 * one method per editor feature. It speaks editor terms (TextDocument, Position, Range) and returns
 * vscode-languageserver-types values; it does no IO and knows nothing of the connection.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type {
  CodeAction,
  CodeLens,
  CompletionItem,
  Diagnostic,
  DocumentSymbol,
  FoldingRange,
  Hover,
  Location,
  Position,
  Range,
} from 'vscode-languageserver-types';
import { CrdIndex, crdKey, extractCrds, type IndexedCrd } from '../workspace/crdIndex';
import { lightCrds } from '../workspace/lightIndex';
import { DEFAULT_SERVICE_SETTINGS, type ServiceContext, type ServiceSettings } from './context';
import { fileDiagnostics } from './diagnostics';
import { roleOf } from './kube';
import { parseYamlFile, type YamlFile } from './yamlDocument';
import { hover } from './hover';
import { completion } from './completion';
import { codeActions } from './codeActions';
import { preview, previewLenses, type PreviewResult } from './preview';
import { definition, documentSymbols, foldingRanges } from './navigation';

function lineOf(text: string, offset: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

export class LanguageService {
  readonly index = new CrdIndex();
  private readonly ctx: ServiceContext;
  /** Parsed open files by URI (and the text they were parsed from). */
  private readonly files = new Map<string, YamlFile>();
  /** The CRD kinds (group/kind) each open file's CRs use: which files a CRD change re-checks. */
  private readonly uses = new Map<string, Set<string>>();

  constructor(settings: Partial<ServiceSettings> = {}) {
    this.ctx = { index: this.index, settings: { ...DEFAULT_SERVICE_SETTINGS, ...settings } };
  }

  /** Changes settings (the caller re-checks open documents). */
  configure(settings: Partial<ServiceSettings>): void {
    Object.assign(this.ctx.settings, settings);
  }

  /** The parsed file for a document's current text (re-parsing only documents whose text changed). */
  file(td: TextDocument): YamlFile {
    const text = td.getText();
    let f = this.files.get(td.uri);
    if (!f || f.text !== text) {
      f = parseYamlFile(text, f);
      this.files.set(td.uri, f);
    }
    return f;
  }

  /**
   * Records an open document's new text: indexes its CRDs and returns the group/kind keys whose CRD
   * changed (their CRs elsewhere need re-checking).
   */
  update(td: TextDocument): string[] {
    const f = this.file(td);
    const used = new Set<string>();
    for (const d of f.docs) {
      const role = roleOf(d.value);
      if (role.role === 'cr') used.add(crdKey(role.group, role.kind));
    }
    this.uses.set(td.uri, used);
    return this.index.set(td.uri, this.crdsOf(td.uri, f, (o) => td.positionAt(o).line), 'open');
  }

  /** Forgets an open document (its CRDs leave the index unless a disk copy is indexed). */
  close(uri: string): string[] {
    this.files.delete(uri);
    this.uses.delete(uri);
    return this.index.remove(uri, 'open');
  }

  /** Indexes (or re-indexes) a workspace file that is not open; `undefined` text removes it. */
  indexDiskFile(uri: string, text: string | undefined): string[] {
    if (text === undefined) return this.index.remove(uri, 'disk');
    // Names only, schemas parsed on first use (lightIndex.ts); the full parse when that does not apply.
    const light = lightCrds(uri, text);
    if (light) return this.index.set(uri, light, 'disk');
    const f = parseYamlFile(text);
    return this.index.set(uri, this.crdsOf(uri, f, (o) => lineOf(text, o)), 'disk');
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
    const docs = f.docs
      .filter((d) => roleOf(d.value).role === 'crd')
      .map((d) => ({ index: d.index, text: d.text, value: d.value, startLine: lineAt(d.start) }));
    return extractCrds(uri, docs);
  }

  /** Diagnostics of a document. */
  diagnostics(td: TextDocument): Diagnostic[] {
    return fileDiagnostics(this.ctx, td, this.file(td)).diagnostics;
  }

  /**
   * Diagnostics for the keystroke: large CRDs whose text changed keep their previous API server findings
   * (re-mapped onto the new text) and `pending` says a full pass (`diagnostics`) is due.
   */
  quickDiagnostics(td: TextDocument): { diagnostics: Diagnostic[]; pending: boolean } {
    return fileDiagnostics(this.ctx, td, this.file(td), { quick: true });
  }

  hover(td: TextDocument, pos: Position): Hover | null {
    return hover(this.ctx, td, this.file(td), pos);
  }

  completion(td: TextDocument, pos: Position): CompletionItem[] {
    return completion(this.ctx, td, this.file(td), pos);
  }

  codeActions(td: TextDocument, range: Range, diagnostics: Diagnostic[]): CodeAction[] {
    return codeActions(this.ctx, td, this.file(td), range, diagnostics);
  }

  preview(td: TextDocument, pos: Position): PreviewResult | null {
    return preview(this.ctx, td, this.file(td), pos);
  }

  codeLenses(td: TextDocument): CodeLens[] {
    return previewLenses(this.ctx, td, this.file(td));
  }

  documentSymbols(td: TextDocument): DocumentSymbol[] {
    return documentSymbols(td, this.file(td));
  }

  definition(td: TextDocument, pos: Position): Location[] {
    return definition(this.ctx, td, this.file(td), pos);
  }

  foldingRanges(td: TextDocument): FoldingRange[] {
    return foldingRanges(td, this.file(td));
  }
}
