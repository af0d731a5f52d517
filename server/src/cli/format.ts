/**
 * Printing the service's findings: text (one line each, compiler style, the API server's exact message),
 * JSON and SARIF 2.1.0 (both messages, related locations, and the quick fixes as SARIF fixes).
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Fix as SarifFix, Location as SarifLocation, Log, Region, Result } from 'sarif';
import { errorTypeString, type ErrorType } from '../engine';
import { FINDING_CODES, type FindingSeverity } from '../service';
import type { CheckReport, FileFinding } from './check';
import { checkedCount, type CoverageCounts, type NotCheckedReason } from '../service';
import { STDIN } from './files';

/** The CLI's severity words (`info` for the editor's information and hint). */
export type Severity = 'error' | 'warning' | 'info';

export function cliSeverity(s: FindingSeverity): Severity {
  return s === 'error' || s === 'warning' ? s : 'info';
}

/** One line of text (an exception or API server message may carry more). */
export function oneLine(s: string): string {
  return s.replace(/\s*\r?\n\s*/g, ' ').trim();
}

/** 1-based line and column (UTF-16 code units, SARIF's default column kind) of a finding's range. */
function region(r: FileFinding['range']): { line: number; column: number; endLine: number; endColumn: number } {
  return { line: r.start.line + 1, column: r.start.character + 1, endLine: r.end.line + 1, endColumn: r.end.character + 1 };
}

/** The bracketed tag of the text format: the code, then the field path (or the YAML error code). */
function tag(f: FileFinding): string {
  const detail = f.field ?? (f.code.startsWith('YAML') || f.code === 'NotYaml' ? f.params?.origin : undefined);
  return detail ? `${f.code} ${detail}` : f.code;
}

/**
 * `file:line:col: severity: message [Code field.path]`, one line per finding, with the API server's exact
 * message where there is one (so it can be searched); notes follow as `file:line:col: note: ...`. A CEL
 * compile error's source snippet (the ` | rule` and ` | ..^` lines) is left out: line:col point at the spot.
 */
export function formatText(findings: FileFinding[]): string {
  return findings
    .map((f) => {
      const at = region(f.range);
      const where = `${f.file}:${at.line}:${at.column}`;
      // The API server's text, and when the finding applies only on update, from what.
      const onUpdate = f.apiMessage && f.params?.update && f.code !== 'Incompatible' && f.code !== 'BreaksObjects' ? `on update from ${f.params.update.from}: ` : '';
      const message = (onUpdate + (f.apiMessage ?? f.message))
        .split('\n')
        .filter((l, i) => i === 0 || !/^\s*\|/.test(l))
        .join('\n');
      const notes = (f.notes ?? []).map((n) => `${where}: note: ${oneLine(n)}\n`).join('');
      return `${where}: ${cliSeverity(f.severity)}: ${oneLine(message)} [${tag(f)}]\n${notes}`;
    })
    .join('');
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The documents not checked, by reason, in the summary's words: each with the next step where there is one.
 * Those the user can act on come first.
 */
const NOT_CHECKED_WORDS: Array<[NotCheckedReason, (n: number, hint: boolean, catalog?: boolean) => string]> = [
  [
    'noCrd',
    (n, hint, catalog) =>
      `${plural(n, 'object')} with no CRD for ${n === 1 ? 'its' : 'their'} kind${catalog ? ' (not in the catalog either)' : ''} (give CRDs with --crd <file|url> or --cluster${hint ? '' : '; --unknown-kinds hint lists them'})`,
  ],
  ['crdUnreadable', (n) => `${plural(n, 'object')} whose CRD has YAML syntax errors`],
  ['template', (n, hint) => `${plural(n, 'document')} a template decides${hint ? '' : ' (--unknown-kinds hint lists them)'}`],
  ['builtinKind', (n) => `${plural(n, 'object')} of built-in kinds (--builtins off, or no schema at the Kubernetes version)`],
  ['patch', (n) => plural(n, 'patch', 'patches')],
  ['clientSide', (n) => `${plural(n, 'document')} of client-side tools (kustomize, Helm, ...)`],
  ['yamlError', (n) => `${plural(n, 'document')} with YAML syntax errors`],
  ['notObject', (n) => `${plural(n, 'document')} that ${n === 1 ? 'is' : 'are'} not a Kubernetes object`],
];

/** Whether nothing at all was checked while objects of kinds no known CRD defines were there. */
export function nothingChecked(c: CoverageCounts): boolean {
  return checkedCount(c) === 0 && c.notChecked.noCrd > 0;
}

/**
 * The text format's summary line: the files and documents, the findings by severity, what was checked and
 * what was not, by reason. `hint`: --unknown-kinds hint listed the objects and documents not checked;
 * `catalog`: the CRD catalog was asked for the kinds without a CRD.
 */
export function formatSummary(report: CheckReport, counts: Record<Severity, number>, opts: { hint: boolean; catalog?: boolean }): string {
  const c = report.coverage;
  const checked = [
    c.checked.crd && plural(c.checked.crd, 'CRD'),
    c.checked.customResource && plural(c.checked.customResource, 'custom resource'),
    c.checked.builtinObject && `${plural(c.checked.builtinObject, 'object')} of built-in kinds`,
    c.checked.partialObject && `${plural(c.checked.partialObject, 'partial object')} (patches, test assertions)`,
    c.checked.unservedKind && `${plural(c.checked.unservedKind, 'object')} of a kind Kubernetes does not serve`,
  ].filter(Boolean);
  const notChecked = NOT_CHECKED_WORDS.filter(([r]) => c.notChecked[r] > 0).map(([r, words]) => words(c.notChecked[r], opts.hint, opts.catalog));
  const parts = [
    `${plural(report.files, 'file')}, ${plural(report.documents, 'document')}: ${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ${counts.info} info`,
    nothingChecked(c) ? 'nothing checked (exit code 1): no CRD known for the kinds of its objects' : checked.length ? `checked ${checked.join(', ')}` : 'nothing checked',
  ];
  if (notChecked.length) parts.push(`not checked: ${notChecked.join(', ')}`);
  return `crd-yaml: ${parts.join('; ')}\n`;
}

/** Counts by severity. */
export function summarize(findings: FileFinding[]): Record<Severity, number> {
  const c: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const f of findings) c[cliSeverity(f.severity)]++;
  return c;
}

/** A location of another file as the user names it (relative to the working directory when inside it). */
function displayPath(uri: string, report: CheckReport, cwd: string): string {
  const known = report.paths.get(uri);
  if (known) return known;
  if (uri.startsWith('file:')) {
    const p = new URL(uri).pathname;
    const rel = path.relative(cwd, decodeURIComponent(p));
    return rel.startsWith('..') ? decodeURIComponent(p) : rel;
  }
  return uri;
}

/** Characters of the JSON report written at a time (formatJsonPieces). */
const JSON_PIECE_CHARS = 1 << 20;

/**
 * The JSON report (each finding with both messages, 1-based positions, related locations and fixes), in
 * pieces of about a megabyte, each finding made and written in turn: the whole
 * catalog's report, 8.8 MB of text, was one string of 17 MB (two bytes a character once one is not
 * Latin-1) beside a copy of every finding, at the end of the check, its memory's peak. The text is
 * JSON.stringify's of the whole report, indented by 2 (nested values stringified alone and indented:
 * a line break inside a JSON string is always escaped).
 */
export function* formatJsonPieces(report: CheckReport, inputErrors: string[], cwd: string = process.cwd()): Generator<string> {
  const indented = (v: unknown, by: string) => JSON.stringify(v, jsonSafe, 2).replace(/\n/g, `\n${by}`);
  let piece = '{\n  "findings": [';
  for (const [i, f] of report.findings.entries()) {
    piece += `${i ? ',' : ''}\n    ${indented(jsonFinding(f, report, cwd), '    ')}`;
    if (piece.length < JSON_PIECE_CHARS) continue;
    yield piece;
    piece = '';
  }
  const c = report.coverage;
  // `unchecked` (objects of kinds no known CRD defines) is kept for scripts written against earlier versions.
  const summary = { files: report.files, documents: report.documents, ...summarize(report.findings), unchecked: c.notChecked.noCrd, checked: c.checked, notChecked: c.notChecked };
  yield `${piece}${report.findings.length ? '\n  ' : ''}],\n  "summary": ${indented(summary, '  ')},\n  "inputErrors": ${indented(inputErrors, '  ')}\n}\n`;
}

/** A finding as the JSON report has it. */
function jsonFinding(f: FileFinding, report: CheckReport, cwd: string) {
  return {
    file: f.file,
    ...region(f.range),
    severity: cliSeverity(f.severity),
    code: f.code,
    /** Kept for scripts written against earlier versions: the same as `code`. */
    rule: f.code,
    message: f.message,
    ...(f.apiMessage !== undefined ? { apiMessage: f.apiMessage } : {}),
    ...(f.field !== undefined ? { field: f.field } : {}),
    ...(f.path !== undefined && f.path !== f.field ? { path: f.path } : {}),
    ...(f.provenance ? { provenance: f.provenance } : {}),
    // The catalog CRD the finding comes from (URL and tag), as in SARIF.
    ...(f.provenance?.crdSource ? { crdSource: f.provenance.crdSource } : {}),
    ...(f.notes?.length ? { notes: f.notes } : {}),
    ...(f.params ? { params: f.params } : {}),
    ...(f.related?.length ? { related: f.related.map((r) => ({ file: displayPath(r.location.uri, report, cwd), ...region(r.location.range), message: r.message })) } : {}),
    ...(f.fixes.length ? { fixes: f.fixes.map((x) => ({ title: x.title, edits: x.edits.map((e) => ({ ...region(e.range), newText: e.newText })) })) } : {}),
  };
}

/** Bigints (exact large integers in params) as numbers' text. */
function jsonSafe(_k: string, v: unknown): unknown {
  return typeof v === 'bigint' ? v.toString() : v;
}

const ERROR_TYPES: ErrorType[] = [
  'FieldValueRequired',
  'FieldValueInvalid',
  'FieldValueForbidden',
  'FieldValueNotSupported',
  'FieldValueDuplicate',
  'FieldValueTooLong',
  'FieldValueTooMany',
  'FieldValueTypeInvalid',
  'FieldValueNotFound',
  'InternalError',
  'NotChecked',
];

const SARIF_LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

/** Every rule the CLI can report, with a stable index (Kubernetes error types first). */
function sarifRules(): { id: string; text: string }[] {
  const own = Object.entries(FINDING_CODES).filter(([id]) => !(ERROR_TYPES as string[]).includes(id));
  return [...ERROR_TYPES.map((t) => ({ id: t, text: `Kubernetes ${t}: ${errorTypeString(t)}` })), ...own.map(([id, text]) => ({ id, text }))];
}

function sarifRegion(r: FileFinding['range']): Region {
  const x = region(r);
  return { startLine: x.line, startColumn: x.column, endLine: x.endLine, endColumn: x.endColumn };
}

/**
 * SARIF 2.1.0: one run, tool.driver with the rules, one result per finding with its level, the short
 * message (the API server's in `properties.apiMessage`), its location, related locations and fixes
 * (relative paths against %SRCROOT% = the working directory).
 */
export function formatSarif(report: CheckReport, opts: { version: string; cwd: string; inputErrors: string[] }): string {
  const rules = sarifRules();
  const ruleIndex = new Map(rules.map((r, i) => [r.id, i]));
  const uriOfFile = (file: string) => {
    if (file === STDIN) return { uri: 'stdin' };
    const abs = path.resolve(opts.cwd, file);
    const rel = path.relative(opts.cwd, abs);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return { uri: pathToFileURL(abs).href };
    return { uri: rel.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
  };
  const uriOf = (uri: string) => (report.paths.has(uri) ? uriOfFile(report.paths.get(uri)!) : { uri });
  const results = report.findings.map((f): Result => {
    const idx = ruleIndex.get(f.code);
    const related: SarifLocation[] = (f.related ?? []).map((r, i) => ({
      id: i,
      physicalLocation: { artifactLocation: uriOf(r.location.uri), region: sarifRegion(r.location.range) },
      message: { text: r.message },
    }));
    const fixes: SarifFix[] = f.fixes.map((x) => ({
      description: { text: x.title },
      artifactChanges: [{ artifactLocation: uriOfFile(f.file), replacements: x.edits.map((e) => ({ deletedRegion: sarifRegion(e.range), insertedContent: { text: e.newText } })) }],
    }));
    const properties: Record<string, unknown> = {};
    if (f.apiMessage !== undefined) properties.apiMessage = f.apiMessage;
    if (f.field !== undefined) properties.field = f.field;
    if (f.path !== undefined) properties.path = f.path;
    if (f.provenance) properties.provenance = f.provenance;
    if (f.provenance?.crdSource) properties.crdSource = f.provenance.crdSource;
    if (f.notes?.length) properties.notes = f.notes;
    return {
      ruleId: f.code,
      ...(idx !== undefined ? { ruleIndex: idx } : {}),
      level: SARIF_LEVEL[cliSeverity(f.severity)],
      message: { text: f.message },
      locations: [{ physicalLocation: { artifactLocation: uriOfFile(f.file), region: sarifRegion(f.range) } }],
      ...(related.length ? { relatedLocations: related } : {}),
      ...(fixes.length ? { fixes } : {}),
      ...(Object.keys(properties).length ? { properties } : {}),
    };
  });
  const root = pathToFileURL(opts.cwd.endsWith(path.sep) ? opts.cwd : opts.cwd + path.sep).href;
  // Typed against @types/sarif, so that property names and shapes follow the 2.1.0 schema.
  const sarif: Log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'crd-yaml',
            version: opts.version,
            rules: rules.map((r) => ({ id: r.id, shortDescription: { text: r.text } })),
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: root } },
        columnKind: 'utf16CodeUnits',
        // What was checked, and what was not by reason (service/coverage.ts), as the text summary says.
        properties: { checked: report.coverage.checked, notChecked: report.coverage.notChecked },
        invocations: [
          {
            executionSuccessful: opts.inputErrors.length === 0,
            toolExecutionNotifications: opts.inputErrors.map((text) => ({ level: 'error' as const, message: { text } })),
          },
        ],
        results,
      },
    ],
  };
  return JSON.stringify(sarif, jsonSafe, 2) + '\n';
}
