/**
 * `crd-yaml check`: the language service's findings on the given files, as the editor shows them. The
 * inputs are opened in one LanguageService (their CRDs are indexed as open documents are); `--crd` files
 * enter the same CRD index as an editor's workspace files (names first, schemas parsed on first use).
 * This module only chooses the inputs and collects the findings; format.ts prints them.
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { FieldValidation, FileContext } from '../service/context';
import type { Finding, Fix } from '../service/finding';
import { LanguageService } from '../service/languageService';
import type { YamlVersion } from '../yaml';
import { STDIN, type InputFile } from './files';

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
  /** `hint`: list the objects no known CRD defines (they are always counted). */
  unknownKinds?: 'ignore' | 'hint';
  /** The directory relative paths are resolved against. */
  cwd?: string;
  /** What input files are from their place in the repository (a chart template, a kustomize patch), by path as given. */
  contexts?: Map<string, FileContext>;
}

export interface CheckReport {
  findings: FileFinding[];
  files: number;
  documents: number;
  /** Objects not checked because no known CRD defines their kind. */
  unchecked: number;
  /** Display paths of files by URI (for related locations in other files). */
  paths: Map<string, string>;
}

/** The URI the service knows a CLI input by. */
export function uriOfInput(file: string, cwd: string): string {
  return file === STDIN ? 'untitled:stdin' : pathToFileURL(path.resolve(cwd, file)).href;
}

/** A service holding the inputs (as open documents) and the `--crd` files (as workspace files). */
export function openInputs(files: InputFile[], opts: CheckOptions): { service: LanguageService; docs: Array<{ file: InputFile; td: TextDocument }>; paths: Map<string, string> } {
  const cwd = opts.cwd ?? process.cwd();
  // The CLI always asks for unknown-kind hints: they are counted, and printed only with --unknown-kinds hint.
  const service = new LanguageService({ yamlVersion: opts.yamlVersion ?? '1.1', fieldValidation: opts.fieldValidation ?? 'Strict', unknownKinds: 'hint' });
  const paths = new Map<string, string>();
  for (const f of opts.crdFiles ?? []) {
    const uri = uriOfInput(f.path, cwd);
    paths.set(uri, f.path);
    service.indexDiskFile(uri, f.text);
  }
  const docs = files.map((file) => {
    const uri = uriOfInput(file.path, cwd);
    paths.set(uri, file.path);
    const fc = opts.contexts?.get(file.path);
    if (fc) service.setFileContext(uri, fc);
    // Like an editor's language mode: a named file is YAML by its name (the standard input always).
    const languageId = file.path === STDIN || /\.ya?ml$/i.test(file.path) ? 'yaml' : 'plaintext';
    return { file, td: TextDocument.create(uri, languageId, 1, file.text) };
  });
  // Every input is indexed before any is checked: a CR may come before its CRD.
  for (const d of docs) service.update(d.td);
  return { service, docs, paths };
}

/** Check files: the same findings as in the editor, sorted by file (input order), line, column. */
export function checkFiles(files: InputFile[], opts: CheckOptions = {}): CheckReport {
  const { service, docs, paths } = openInputs(files, opts);
  const findings: FileFinding[] = [];
  let documents = 0;
  let unchecked = 0;
  for (const { file, td } of docs) {
    documents += service.file(td).docs.length;
    const all = service.findings(td);
    const out: FileFinding[] = [];
    for (const f of all) {
      if (f.code === 'UnknownKind') {
        unchecked++;
        if (opts.unknownKinds !== 'hint') continue;
      }
      out.push({ ...f, file: file.path, fixes: [] });
    }
    for (const f of out) f.fixes = service.fixesOf(td, f, all);
    out.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
    findings.push(...out);
  }
  return { findings, files: files.length, documents, unchecked, paths };
}
