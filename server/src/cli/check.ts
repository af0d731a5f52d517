/**
 * `crd-yaml check`: every document of every file through the engine, findings with positions.
 *
 * CRDs go through validateCustomResourceDefinition; custom resources through the API server's
 * create pipeline (validateCustomResource) against the CRD of the same group and kind found in the
 * inputs. An engine failure on one document is reported as an internal error on that document and
 * never stops the run.
 */
import { errorMessage, type FieldError } from '../engine/field';
import { validateCustomResourceDefinition } from '../engine/crd/validation';
import { validateCustomResource, type CustomResourceResult } from '../engine/customresource/strategy';
import { BUILTIN_API_GROUPS, parseYamlDocuments, splitYamlChunks, type PathRange, type YamlDocument, type YamlFile, type YamlVersion } from '../yaml';
import type { InputFile } from './files';

export type Severity = 'error' | 'warning' | 'info';

/** A 1-based line and column (UTF-16 code units, as SARIF's default column kind). */
export interface Location {
  line: number;
  column: number;
}

/** One finding, ready to print. */
export interface Finding {
  file: string;
  start: Location;
  end: Location;
  severity: Severity;
  /** For engine findings, errorMessage() of the FieldError (Go's field.Error.Error()); may span lines (CEL). */
  message: string;
  /** A Kubernetes error type (`FieldValueInvalid`, ...) or one of the CLI's own rules (see RULES). */
  rule: string;
  /** The field path as the API server prints it, when there is one. */
  field?: string;
}

/** The CLI's own rule ids, next to the Kubernetes error types. */
export const CLI_RULES = {
  YAMLSyntax: 'YAML syntax error (the document cannot be decoded as the API server would)',
  YAMLWarning: 'YAML problem the API server only warns about (e.g. duplicate keys)',
  UnknownField: 'Unknown field: pruned by the API server (reported as a warning: unknown field "path")',
  UnservedVersion: 'The API version is not served by the API server (e.g. apiextensions.k8s.io/v1beta1, removed in 1.22)',
  CRDNotFound: 'No CustomResourceDefinition for this object among the given paths: not checked',
  NoKubernetesObjects: 'The file has no document with apiVersion and kind',
} as const;

/** More syntax errors than this in a file without any Kubernetes object: the file is not YAML. */
const MAX_SYNTAX_ERRORS_OF_NON_YAML = 20;

/** A parsed input file. */
export interface ParsedInput {
  file: InputFile;
  yaml: YamlFile;
}

/** A CRD document known to the run, by `<group>/<kind>`. */
export interface CrdEntry {
  value: unknown;
  file: string;
  name: string;
  /** The CRD document has YAML syntax errors: its value is partial, objects are not checked against it. */
  broken?: boolean;
}

export type CrdIndex = Map<string, CrdEntry>;

export interface CheckOptions {
  /** Extra files to take CRDs from (their own problems are not reported). */
  crdFiles?: InputFile[];
  yamlVersion?: YamlVersion;
}

export interface CheckReport {
  findings: Finding[];
  files: number;
  documents: number;
}

/** Parse each input. */
export function parseInputs(files: InputFile[], yamlVersion?: YamlVersion): ParsedInput[] {
  return files.map((file) => ({ file, yaml: parseYamlDocuments(file.text, { yamlVersion }) }));
}

/**
 * Index the CRD documents by `spec.group` + `spec.names.kind`; the first wins, except that a CRD
 * without syntax errors wins over one with (kept as `broken`, to say why an object is not checked).
 */
export function buildCrdIndex(inputs: ParsedInput[]): CrdIndex {
  const index: CrdIndex = new Map();
  for (const { file, yaml } of inputs) {
    for (const doc of yaml.documents) {
      if (doc.kind !== 'crd') continue;
      const spec = (doc.value as { spec?: { group?: unknown; names?: { kind?: unknown } } }).spec;
      const group = spec?.group;
      const kind = spec?.names?.kind;
      if (typeof group !== 'string' || typeof kind !== 'string') continue;
      const key = `${group}/${kind}`;
      const broken = doc.hasSyntaxErrors;
      const known = index.get(key);
      if (!known || (known.broken && !broken)) index.set(key, { value: doc.value, file: file.path, name: doc.identity.name ?? key, broken });
    }
  }
  return index;
}

/**
 * Index the CRDs of extra sources (`--crd`), parsing only the chunks that can define a CRD some
 * object needs: a chunk is parsed when its text contains `CustomResourceDefinition` and the group and
 * kind of a needed pair. Parsing is most of the run's time and a CRD folder can be tens of megabytes.
 */
export function addCrdSources(index: CrdIndex, sources: InputFile[], inputs: ParsedInput[], yamlVersion?: YamlVersion): void {
  const needed: { group: string; kind: string }[] = [];
  const seen = new Set<string>();
  for (const { yaml } of inputs) {
    for (const doc of yaml.documents) {
      const id = doc.identity;
      if (doc.kind !== 'cr' || id.group === undefined || id.objectKind === undefined || BUILTIN_API_GROUPS.has(id.group)) continue;
      const key = `${id.group}/${id.objectKind}`;
      if ((index.has(key) && !index.get(key)!.broken) || seen.has(key)) continue;
      seen.add(key);
      needed.push({ group: id.group, kind: id.objectKind });
    }
  }
  if (needed.length === 0) return;
  for (const file of sources) {
    for (const chunk of splitYamlChunks(file.text)) {
      const t = chunk.text;
      if (!t.includes('CustomResourceDefinition') || !needed.some((n) => t.includes(n.group) && t.includes(n.kind))) continue;
      const sub = buildCrdIndex([{ file, yaml: parseYamlDocuments(t, { yamlVersion }) }]);
      for (const [k, v] of sub) {
        const known = index.get(k);
        if (!known || (known.broken && !v.broken)) index.set(k, v);
      }
    }
  }
}

/** The CRD for an object document, by the group of its apiVersion and its kind. */
export function findCrd(index: CrdIndex, doc: YamlDocument): CrdEntry | undefined {
  const id = doc.identity;
  if (id.group === undefined || id.objectKind === undefined) return undefined;
  return index.get(`${id.group}/${id.objectKind}`);
}

/** Check files: syntax, CRDs, custom resources. Findings sorted by file (input order), line, column. */
export function checkFiles(files: InputFile[], opts: CheckOptions = {}): CheckReport {
  const inputs = parseInputs(files, opts.yamlVersion);
  const index = buildCrdIndex(inputs);
  addCrdSources(index, opts.crdFiles ?? [], inputs, opts.yamlVersion);
  const findings: Finding[] = [];
  let documents = 0;
  for (const input of inputs) {
    const out: Finding[] = [];
    const at = (r: { start: number; end: number }) => toLocations(input.yaml, r);
    let objects = 0;
    for (const doc of input.yaml.documents) {
      documents++;
      for (const e of doc.errors) {
        out.push({
          file: input.file.path,
          ...at(e),
          severity: e.severity,
          message: e.message,
          rule: e.severity === 'error' ? 'YAMLSyntax' : 'YAMLWarning',
          field: e.code,
        });
      }
      if (doc.kind === 'crd' || doc.kind === 'cr') objects++;
      if (doc.hasSyntaxErrors) continue; // a half-decoded object would only give misleading findings
      if (doc.kind === 'crd') out.push(...checkCrdDocument(input, doc));
      else if (doc.kind === 'cr') out.push(...checkObjectDocument(input, doc, index));
    }
    const syntax = out.filter((f) => f.rule === 'YAMLSyntax');
    if (objects === 0 && syntax.length > 0 && (syntax.length > MAX_SYNTAX_ERRORS_OF_NON_YAML || !/\.ya?ml$/i.test(input.file.path))) {
      // Not YAML at all (a script, Markdown, ...): one line, not a screenful.
      const first = syntax[0];
      out.length = 0;
      out.push({ ...first, message: `not a YAML file: ${syntax.length} syntax error${syntax.length === 1 ? '' : 's'}, the first: ${first.message}` });
    } else if (objects === 0 && !out.some((f) => f.severity === 'error')) {
      out.push({
        file: input.file.path,
        start: { line: 1, column: 1 },
        end: { line: 1, column: 1 },
        severity: 'info',
        message: 'no Kubernetes object (a document with apiVersion and kind) in this file',
        rule: 'NoKubernetesObjects',
      });
    }
    out.sort((a, b) => a.start.line - b.start.line || a.start.column - b.start.column);
    findings.push(...out);
  }
  return { findings, files: inputs.length, documents };
}

/** Findings of a CRD document. */
function checkCrdDocument(input: ParsedInput, doc: YamlDocument): Finding[] {
  if (doc.identity.version !== 'v1') {
    // apiextensions.k8s.io/v1beta1 has not been served since Kubernetes 1.22: kubectl's REST mapping fails.
    return [
      {
        file: input.file.path,
        ...toLocations(input.yaml, doc.rangeOfPath('apiVersion', 'value')),
        severity: 'error',
        message: `no matches for kind "CustomResourceDefinition" in version "${doc.identity.apiVersion}" (served: apiextensions.k8s.io/v1)`,
        rule: 'UnservedVersion',
      },
    ];
  }
  let errs: FieldError[];
  try {
    errs = validateCustomResourceDefinition(doc.value);
  } catch (e) {
    return [internalErrorFinding(input, doc, e)];
  }
  return errs.map((e) => fieldErrorFinding(input, doc, e, 'error'));
}

/** Findings of an object document: nothing for built-ins, an info line without CRD, else the create pipeline. */
function checkObjectDocument(input: ParsedInput, doc: YamlDocument, index: CrdIndex): Finding[] {
  const id = doc.identity;
  if (id.group !== undefined && BUILTIN_API_GROUPS.has(id.group)) return [];
  const crd = findCrd(index, doc);
  if (!crd) {
    const r = doc.rangeOfPath('kind', 'value');
    return [
      {
        file: input.file.path,
        ...toLocations(input.yaml, r),
        severity: 'info',
        message: `no CustomResourceDefinition for kind ${id.objectKind} in group ${id.group} among the given paths; not checked`,
        rule: 'CRDNotFound',
      },
    ];
  }
  if (crd.broken) {
    return [
      {
        file: input.file.path,
        ...toLocations(input.yaml, doc.rangeOfPath('kind', 'value')),
        severity: 'info',
        message: `the CustomResourceDefinition ${crd.name} (${crd.file}) has YAML syntax errors; not checked`,
        rule: 'CRDNotFound',
      },
    ];
  }
  let res: CustomResourceResult;
  try {
    res = validateCustomResource(crd.value, doc.value);
  } catch (e) {
    return [internalErrorFinding(input, doc, e)];
  }
  return customResourceFindings(input, doc, res);
}

/** Findings from the create pipeline's result: errors, warnings, pruned fields. */
export function customResourceFindings(input: ParsedInput, doc: YamlDocument, res: CustomResourceResult): Finding[] {
  const out: Finding[] = [];
  for (const e of res.errors ?? []) out.push(fieldErrorFinding(input, doc, e, 'error'));
  for (const w of res.warnings ?? []) out.push(fieldErrorFinding(input, doc, w, 'warning'));
  for (const p of res.pruned ?? []) {
    const r = doc.rangeOfPath(p.segments?.length ? p.segments : p.path, 'key');
    out.push({
      file: input.file.path,
      ...toLocations(input.yaml, r),
      severity: 'warning',
      message: `unknown field "${p.path}"`,
      rule: 'UnknownField',
      field: p.path,
    });
  }
  return out;
}

function fieldErrorFinding(input: ParsedInput, doc: YamlDocument, e: FieldError, dflt: Severity): Finding {
  const r: PathRange = doc.rangeOfFieldError(e);
  const severity: Severity = e.severity === 'information' ? 'info' : (e.severity ?? dflt);
  const f: Finding = { file: input.file.path, ...toLocations(input.yaml, r), severity, message: errorMessage(e), rule: e.type };
  if (e.field !== '') f.field = e.field;
  return f;
}

function internalErrorFinding(input: ParsedInput, doc: YamlDocument, e: unknown): Finding {
  const r = doc.rangeOfPath('', 'key');
  const msg = e instanceof Error ? e.message : String(e);
  return {
    file: input.file.path,
    ...toLocations(input.yaml, r),
    severity: 'error',
    message: `internal error: ${oneLine(msg)}`,
    rule: 'InternalError',
  };
}

/** Absolute offsets -> 1-based start/end locations. */
export function toLocations(yaml: YamlFile, r: { start: number; end: number }): { start: Location; end: Location } {
  const s = yaml.positionAt(r.start);
  const e = yaml.positionAt(Math.max(r.start, r.end));
  return { start: { line: s.line + 1, column: s.character + 1 }, end: { line: e.line + 1, column: e.character + 1 } };
}

/** One line of text (an exception message may carry more). */
export function oneLine(s: string): string {
  return s.replace(/\s*\r?\n\s*/g, ' ').trim();
}
