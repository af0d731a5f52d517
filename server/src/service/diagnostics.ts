/**
 * Diagnostics: YAML syntax, the API server's findings on CRD documents, and on CR documents checked
 * against their CRD (from the index), each at the exact YAML range of the field it is about.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity, type Diagnostic, type DiagnosticRelatedInformation, type Range } from 'vscode-languageserver-types';
import { errorMessage, type FieldError, type PathSegment } from '../engine/field';
import { isObject } from '../engine/schema/types';
import type { IndexedCrd } from '../workspace/crdIndex';
import { crdLocation, type ServiceContext } from './context';
import { unknownKindHint } from './unknownKind';
import { cheapCrd, checkCr, checkCrd } from './engineCalls';
import { v1PathsOfInternalCrdPath } from '../yaml';
import { crdVersions, resolveCr, roleOf, schemaAtPath, schemaStepsToCrdPath, type CrdVersion } from './kube';
import {
  findPath,
  isScalar,
  parseFieldPath,
  scalarValueOffset,
  type Node,
  type YamlDoc,
  type YamlFile,
} from './yamlDocument';

export const SOURCE = 'crd-yaml';

/** The message of the pruning warning (the API server drops such fields silently). */
export const PRUNED_MESSAGE = 'field is not in the schema and will be pruned';

/** What a quick fix needs to know, carried in `Diagnostic.data`. */
export type FixData =
  | { fix: 'addType'; path: string }
  | { fix: 'uniqueItemsToSet'; path: string }
  | { fix: 'removeField'; path: string }
  | { fix: 'addRequired'; path: string }
  | { fix: 'closestEnum'; path: string; values: unknown[] }
  | { fix: 'moveOutOfJunctor'; path: string }
  | { fix: 'removeMetadataSchema'; path: string }
  | { fix: 'declareOutside'; path: string; definedIn: string }
  | { fix: 'removeKeyword'; path: string; why: string }
  | { fix: 'setType'; path: string; type: string };

/**
 * How much work a diagnostics pass may do. `quick`: the API server checks of a large CRD whose text
 * changed are not re-run; its previous findings are re-mapped by field path onto the new text instead (so
 * positions are right), and the result says a full pass is still due.
 */
export interface DiagnosticsOptions {
  quick?: boolean;
}

/** CRD documents at least this long are checked in a later, cancellable pass while the user types. */
export const LARGE_CRD_CHARS = 100_000;

/** The last full findings of each large CRD document, by `uri#index`, for quick passes. */
const lastCrdFindings = new Map<string, FieldError[]>();

/** Every diagnostic of a file; `pending` when a quick pass left a full check to do. */
export function fileDiagnostics(ctx: ServiceContext, td: TextDocument, file: YamlFile, opts: DiagnosticsOptions = {}): { diagnostics: Diagnostic[]; pending: boolean } {
  const out: Diagnostic[] = [];
  let pending = false;
  for (const doc of file.docs) {
    try {
      if (opts.quick && doc.text.length >= LARGE_CRD_CHARS) {
        const quick = quickCrdDiagnostics(td, file, doc);
        if (quick) {
          out.push(...quick);
          pending = true;
          continue;
        }
      }
      const key = dependencyKey(ctx, doc);
      const startLine = td.positionAt(doc.start).line;
      const hit = docDiagnostics.get(doc.ast);
      if (hit && hit.key === key && hit.text === doc.text && (hit.startLine === startLine || !hit.sameFileRelated)) {
        // Same text, same CRD: the findings are the same, only moved by the lines inserted above.
        out.push(...(hit.startLine === startLine ? hit.diagnostics : hit.diagnostics.map((d) => shiftDiagnostic(d, startLine - hit.startLine))));
        continue;
      }
      const diagnostics = documentDiagnostics(ctx, td, file, doc);
      // Related locations in this same file (a CRD beside its CRs) may move independently: not shifted.
      const sameFileRelated = diagnostics.some((d) => d.relatedInformation?.some((r) => r.location.uri === td.uri));
      docDiagnostics.set(doc.ast, { key, text: doc.text, startLine, diagnostics, sameFileRelated });
      out.push(...diagnostics);
    } catch (e) {
      // A bug of ours on one document must not hide the others' findings.
      out.push(diag(headRange(td, doc), `crd-yaml internal error: ${(e as Error).message}`, DiagnosticSeverity.Warning, 'InternalError'));
    }
  }
  return { diagnostics: out, pending };
}

/** Syntax findings plus the previous API server findings re-mapped; undefined when a full check is cheap. */
function quickCrdDiagnostics(td: TextDocument, file: YamlFile, doc: YamlDoc): Diagnostic[] | undefined {
  const role = roleOf(doc.value);
  // Cached or derivable findings (an edit of descriptions only) are exact and cheap: no quick pass.
  if (role.role !== 'crd' || doc.syntax.some((s) => s.severity === 'error') || cheapCrd(doc.text, role.crd)) return undefined;
  const out: Diagnostic[] = doc.syntax.map((s) =>
    diag({ start: td.positionAt(s.start), end: td.positionAt(Math.min(s.end, doc.end)) }, s.message, DiagnosticSeverity.Warning, 'YAMLSyntax'),
  );
  for (const e of lastCrdFindings.get(`${td.uri}#${doc.index}`) ?? []) out.push(fieldDiagnostic(td, file, doc, e, {}));
  return out;
}

/** Per parsed document (reused by the YAML layer while its text is unchanged): its last findings. */
const docDiagnostics = new WeakMap<object, { key: string; text: string; startLine: number; diagnostics: Diagnostic[]; sameFileRelated: boolean }>();

/** What a document's findings depend on besides its text: the CRD it resolves to and the settings. */
function dependencyKey(ctx: ServiceContext, doc: YamlDoc): string {
  const role = roleOf(doc.value);
  if (role.role !== 'cr') return role.role;
  const crd = ctx.index.lookup(role.group, role.kind);
  if (crd) return `cr:${crd.id}`;
  // Unknown kind: the message depends on the group's other CRDs and on the unknownKinds setting.
  return `cr-unknown:${ctx.settings.unknownKinds}:${ctx.index.all().filter((c) => c.group === role.group).map((c) => c.id).join(',')}`;
}

function shiftDiagnostic(d: Diagnostic, lines: number): Diagnostic {
  const r = d.range;
  return { ...d, range: { start: { line: r.start.line + lines, character: r.start.character }, end: { line: r.end.line + lines, character: r.end.character } } };
}

/** The diagnostics of one document of a file. */
export function documentDiagnostics(ctx: ServiceContext, td: TextDocument, file: YamlFile, doc: YamlDoc): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const s of doc.syntax) {
    out.push(
      diag(
        { start: td.positionAt(s.start), end: td.positionAt(Math.min(s.end, doc.end)) },
        s.message,
        s.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
        'YAMLSyntax',
      ),
    );
  }
  // Findings on half-parsed documents would be noise on top of the syntax error.
  if (doc.syntax.some((s) => s.severity === 'error')) return out;
  const role = roleOf(doc.value);
  if (role.role === 'crd') {
    const r = checkCrd(doc.text, role.crd);
    if (doc.text.length >= LARGE_CRD_CHARS) lastCrdFindings.set(`${td.uri}#${doc.index}`, r.errors);
    for (const e of r.errors) out.push(fieldDiagnostic(td, file, doc, e, {}));
    for (const f of r.failures) out.push(engineUnavailable(td, doc, f));
  } else if (role.role === 'cr') {
    out.push(...crDiagnostics(ctx, td, file, doc, role));
  }
  return out;
}

function crDiagnostics(
  ctx: ServiceContext,
  td: TextDocument,
  file: YamlFile,
  doc: YamlDoc,
  role: Extract<ReturnType<typeof roleOf>, { role: 'cr' }>,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const res = resolveCr(ctx.index, role);
  if (!res) {
    const sameGroup = ctx.index.all().filter((c) => c.group === role.group);
    if (role.group !== '' && sameGroup.length > 0) {
      // The group is a known CRD's: a wrong kind is a real mistake, not an unrelated resource.
      const d = diag(rangeOfPath(td, doc, [{ kind: 'field', name: 'kind' }], 'value'), noMatches(role.kind, role.apiVersion), DiagnosticSeverity.Error, 'NotFound');
      d.relatedInformation = sameGroup.map((c) => ({ location: crdLocation(c, [{ kind: 'field', name: 'spec' }, { kind: 'field', name: 'names' }, { kind: 'field', name: 'kind' }]), message: `${c.group} defines kind ${c.kind} (${c.name})` }));
      out.push(d);
    } else if (ctx.settings.unknownKinds === 'hint') {
      const hint = unknownKindHint(role.group, role.version, role.kind, role.apiVersion);
      if (hint) out.push(diag(rangeOfPath(td, doc, [{ kind: 'field', name: 'kind' }], 'value'), hint, DiagnosticSeverity.Information, 'UnknownKind'));
    }
    return out;
  }
  const { crd, version } = res;
  const served = crdVersions(crd.crd).filter((v) => v.served);
  if (!version || !version.served) {
    const d = diag(rangeOfPath(td, doc, [{ kind: 'field', name: 'apiVersion' }], 'value'), noMatches(role.kind, role.apiVersion), DiagnosticSeverity.Error, 'NotFound');
    d.relatedInformation = [
      {
        location: crdLocation(crd, version ? [{ kind: 'field', name: 'spec' }, { kind: 'field', name: 'versions' }, { kind: 'index', index: version.index }, { kind: 'field', name: 'served' }] : [{ kind: 'field', name: 'spec' }, { kind: 'field', name: 'versions' }]),
        message: `${crd.name} serves ${served.map((v) => `${crd.group}/${v.name}`).join(', ') || 'no version'}`,
      },
    ];
    out.push(d);
    return out;
  }
  const r = checkCr(crd, version.name, doc.text, doc.value);
  const deprecation = (msg: string) => {
    const d = diag(rangeOfPath(td, doc, [{ kind: 'field', name: 'apiVersion' }], 'value'), msg, DiagnosticSeverity.Warning, 'Deprecated');
    d.relatedInformation = [provenanceInfo(crd, version, [{ kind: 'field', name: 'spec' }, { kind: 'field', name: 'versions' }, { kind: 'index', index: version.index }, { kind: 'field', name: 'deprecated' }])];
    return d;
  };
  if (!r.ok) {
    if (version.deprecated) out.push(deprecation(version.deprecationWarning ?? `${crd.group}/${version.name} ${crd.kind} is deprecated`));
    out.push(engineUnavailable(td, doc, r.error));
    return out;
  }
  const result = r.value;
  for (const e of result.errors) out.push(fieldDiagnostic(td, file, doc, e, { crd, version }));
  for (const e of result.warnings) {
    // The API server sends warnings as plain text (`Warning: example.com/v1beta1 Widget is deprecated; ...`).
    if (e.field === 'apiVersion' && e.detail.includes('deprecated')) out.push(deprecation(e.detail));
    else out.push(fieldDiagnostic(td, file, doc, { ...e, severity: 'warning' }, { crd, version }));
  }
  for (const p of result.pruned) {
    const segs = p.segments?.length ? p.segments : parseFieldPath(p.path);
    const d = diag(rangeOfPath(td, doc, segs, 'key'), `${p.path}: ${PRUNED_MESSAGE}`, DiagnosticSeverity.Warning, 'FieldValuePruned');
    d.data = { fix: 'removeField', path: p.path } satisfies FixData;
    d.relatedInformation = [provenanceInfo(crd, version, parentSchemaSegments(version, segs))];
    out.push(d);
  }
  return out;
}

/** The REST mapper's message for an apiVersion/kind no served CRD version matches. */
function noMatches(kind: string, apiVersion: string): string {
  return `no matches for kind "${kind}" in version "${apiVersion}"`;
}

function parentSchemaSegments(version: CrdVersion, segs: PathSegment[]): PathSegment[] | undefined {
  if (!version.schema) return undefined;
  for (let n = segs.length - 1; n >= 0; n--) {
    const at = schemaAtPath(version.schema, segs.slice(0, n));
    if (at && !at.builtin) return schemaStepsToCrdPath(version, at.steps);
  }
  return undefined;
}

function provenanceInfo(crd: IndexedCrd, version: CrdVersion, segs: PathSegment[] | undefined, rule?: string): DiagnosticRelatedInformation {
  const where = segs ?? [{ kind: 'field', name: 'spec' }, { kind: 'field', name: 'versions' }, { kind: 'index', index: version.index }];
  return {
    location: crdLocation(crd, where),
    message: `CRD ${crd.name}, version ${version.name}${rule ? `, rule: ${rule}` : ''}`,
  };
}

/** Turns one engine finding into a diagnostic at its YAML range. */
export function fieldDiagnostic(
  td: TextDocument,
  file: YamlFile,
  doc: YamlDoc,
  e: FieldError,
  from: { crd?: IndexedCrd; version?: CrdVersion },
): Diagnostic {
  const segs = e.segments?.length ? e.segments : parseFieldPath(e.field);
  const severity = e.severity === 'warning' ? DiagnosticSeverity.Warning : e.severity === 'information' ? DiagnosticSeverity.Information : DiagnosticSeverity.Error;
  let range: Range | undefined;
  if (e.ruleRange) range = ruleRangeOf(td, file, doc, segs, e.ruleRange);
  if (!range) {
    // The YAML layer also maps the internal CRD paths the API server prints to the v1 fields written.
    const r = doc.layer.rangeOfFieldError(e);
    range = { start: td.positionAt(r.start), end: td.positionAt(r.end) };
  }
  const d = diag(range, errorMessage(e), severity, e.type);
  const related: DiagnosticRelatedInformation[] = [];
  if (from.crd && from.version) {
    const p = e.provenance;
    let where: PathSegment[] | undefined;
    if (p?.rulePath) where = [{ kind: 'field', name: 'spec' }, { kind: 'field', name: 'versions' }, { kind: 'index', index: from.version.index }, { kind: 'field', name: 'schema' }, ...parseFieldPath(p.rulePath)];
    else where = parentSchemaSegments(from.version, [...segs, { kind: 'field', name: '' }]);
    related.push(provenanceInfo(from.crd, from.version, where, p?.rule));
  } else if (e.provenance?.rule) {
    related.push({ location: { uri: td.uri, range }, message: `rule: ${e.provenance.rule}` });
  }
  if (related.length) d.relatedInformation = related;
  const fix = fixFor(e, !!from.crd);
  if (fix) d.data = fix;
  return d;
}

function fixFor(e: FieldError, isCr: boolean): FixData | undefined {
  if (e.type === 'FieldValueRequired' && e.field.endsWith('.type') && e.detail.startsWith('must not be empty')) {
    return { fix: 'addType', path: e.field.slice(0, -'.type'.length) };
  }
  if (e.field.endsWith('.type') && e.detail === 'must be object if x-kubernetes-embedded-resource is true') return { fix: 'setType', path: e.field, type: 'object' };
  if (e.type === 'FieldValueInvalid' && e.detail === 'must be false if x-kubernetes-int-or-string is true') return { fix: 'removeKeyword', path: e.field, why: 'x-kubernetes-int-or-string is set' };
  if (e.type === 'FieldValueForbidden' && e.field.endsWith('.uniqueItems')) return { fix: 'uniqueItemsToSet', path: e.field };
  if (e.type === 'FieldValueForbidden' && / to be structural$/.test(e.detail) && /\.(allOf|anyOf|oneOf)\[\d+\]|\.not\./.test(e.field)) return { fix: 'moveOutOfJunctor', path: e.field };
  if (e.type === 'FieldValueForbidden' && e.field.endsWith('.properties[metadata]')) return { fix: 'removeMetadataSchema', path: e.field };
  const definedIn = /^because it is defined in (\S+)$/.exec(e.detail);
  if (e.type === 'FieldValueRequired' && definedIn && /\.properties\[[^\]]+\]$/.test(e.field)) return { fix: 'declareOutside', path: e.field, definedIn: definedIn[1] };
  if (isCr && e.type === 'FieldValueRequired') return { fix: 'addRequired', path: e.field };
  if (isCr && e.type === 'FieldValueNotSupported') {
    const values = parseSupportedValues(e.detail);
    if (values.length) return { fix: 'closestEnum', path: e.field, values };
  }
  return undefined;
}

/** The values listed in a NotSupported detail (`supported values: "a", "b"`). */
export function parseSupportedValues(detail: string): unknown[] {
  const i = detail.indexOf('supported values: ');
  if (i < 0) return [];
  const list = detail.slice(i + 'supported values: '.length);
  const out: unknown[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|(-?\d+(?:\.\d+)?|true|false|null)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(list))) {
    if (m[1] !== undefined) {
      try {
        out.push(JSON.parse(`"${m[1]}"`));
      } catch {
        out.push(m[1]);
      }
    } else out.push(JSON.parse(m[2]));
  }
  return out;
}

/** The range of a field path in a document: its value, or its key; for a missing field, its parent's key. */
export function rangeOfPath(td: TextDocument, doc: YamlDoc, segs: PathSegment[], prefer: 'key' | 'value'): Range {
  const r = doc.layer.rangeOfPath(segs, prefer);
  return { start: td.positionAt(r.start), end: td.positionAt(r.end) };
}

/** The first content line of a document (for findings about the whole document). */
export function headRange(td: TextDocument, doc: YamlDoc): Range {
  const contents = doc.ast.contents as Node | null;
  const start = contents?.range ? doc.base + contents.range[0] : doc.start;
  const text = td.getText();
  let end = text.indexOf('\n', start);
  if (end < 0 || end > doc.end) end = doc.end;
  return { start: td.positionAt(start), end: td.positionAt(Math.max(end, start)) };
}

/** The range inside a CEL rule string that a compile error points at. */
function ruleRangeOf(td: TextDocument, file: YamlFile, doc: YamlDoc, segs: PathSegment[], rr: { start: number; end: number }): Range | undefined {
  const versions = isObject(doc.value) && isObject(doc.value.spec) && Array.isArray(doc.value.spec.versions) ? doc.value.spec.versions.length : 0;
  const m = [segs, ...v1PathsOfInternalCrdPath(segs, versions)].map((c) => findPath(doc, c)).find((x) => isScalar(x.node));
  if (!m || !m.node || !isScalar(m.node)) return undefined;
  const start = scalarValueOffset(file.text, doc, m.node, rr.start);
  const end = Math.max(start + 1, scalarValueOffset(file.text, doc, m.node, Math.max(rr.end, rr.start + 1) - 1) + 1);
  return { start: td.positionAt(start), end: td.positionAt(end) };
}

function engineUnavailable(td: TextDocument, doc: YamlDoc, error: string): Diagnostic {
  return diag(headRange(td, doc), `crd-yaml could not run a check: ${error}`, DiagnosticSeverity.Information, 'EngineUnavailable');
}

function diag(range: Range, message: string, severity: DiagnosticSeverity, code: string): Diagnostic {
  return { range, message, severity, code, source: SOURCE };
}

/** Whether a document value looks like a CR of a known CRD (used by code lenses and previews). */
export function isKnownCr(ctx: ServiceContext, value: unknown): boolean {
  const role = roleOf(value);
  return role.role === 'cr' && isObject(value) && !!resolveCr(ctx.index, role);
}
