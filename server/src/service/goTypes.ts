/**
 * CRDs written as kubebuilder Go types: the generator's CRDs (workspace/crdgenProtocol.ts) are checked as
 * a CRD file is checked (the same findings of the same service, on the generated YAML), and each finding
 * is moved to the Go line that made the offending keyword: the marker (a CEL error at its column inside
 * the `rule="..."` string, Go escapes accounted for), else the struct field, else the root type. Markers
 * controller-gen ignores are warnings with their "did you mean". CEL editing inside `XValidation` markers
 * is typed against the schema node the marker is on (celEditor.ts). A checked-in CRD that differs from
 * what the Go types generate gets an information (drift) with a fix that writes the regenerated file.
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import { MarkupKind, type CompletionItem, type Hover, type Position, type Range, type SignatureHelp } from 'vscode-languageserver-types';
import { parse } from 'yaml';
import type { PathSegment } from '../engine/field';
import { deepEqualJSON, isJSONObject } from '../engine/json/values';
import type { GoCrd, GoGeneration, GoMarker, GoPos, GoSpan } from '../workspace/crdgenProtocol';
import { scalarSourceOffsets, v1PathsOfInternalCrdPath } from '../yaml';
import { celCompletion, celHover, celSignatureHelp, ruleSiteOf, type CelAt } from './celEditor';
import type { ServiceContext } from './context';
import type { Finding, Fix } from './finding';
import { goStringAt, markerArguments, markerOfLine, utf16Column, type MarkerArgument } from './goMarkers';
import { findPath, isScalar, nodeRange, type YamlFile } from './yamlDocument';

/** The URI a generated CRD is checked under (never a file: nothing is written). */
export function generatedCrdUri(name: string): string {
  return `crd-yaml-generated:/${encodeURIComponent(name)}.yaml`;
}

/** Findings of a generated CRD file that are about the generated file, not the CRD: not moved to Go. */
const NOT_FOR_GO = new Set<string>(['DuplicateCRD', 'YAMLSyntax', 'YAMLWarning', 'NotYaml', 'BaselineUnavailable', 'Incompatible', 'BreaksObjects']);

/** One module's last generation, with the Go texts it was made from (open buffers and files on disk). */
export interface GoState {
  generation: GoGeneration;
  /** The Go text of a file of the generation (absolute path). */
  text: (file: string) => string | undefined;
  /** The CRD values, by name (for CEL sites and drift). */
  values: Map<string, unknown>;
  findings?: Map<string, Finding[]>;
}

export function goState(generation: GoGeneration, text: (file: string) => string | undefined): GoState {
  const values = new Map<string, unknown>();
  for (const c of generation.crds) {
    if (c.crd !== undefined) values.set(c.name, c.crd);
    else
      try {
        values.set(c.name, parse(c.yaml, { version: '1.1' }));
      } catch {
        // A CRD the generator wrote and YAML cannot read: its findings say so.
      }
  }
  return { generation, text, values };
}

/** Why the generation is not the module's whole story (it does not load or build), for people; undefined when it is. */
export function generationProblem(g: GoGeneration): string | undefined {
  const e = g.errors.find((x) => x.kind === 'list' || x.kind === 'syntax' || x.kind === 'type');
  if (!e) return undefined;
  const where = e.pos ? ` (${e.pos.file}:${e.pos.line}:${e.pos.col})` : '';
  return `the Go packages do not build, so their CRDs are ${g.crds.length ? 'partly ' : 'not '}generated: ${e.message}${where}`;
}

function nameOf(s: PathSegment): string {
  return s.kind === 'field' ? s.name : s.kind === 'key' ? s.key : String(s.index);
}

/** A JSON pointer's names (`/a/b~1c` -> a, b/c). */
export function pointerNames(p: string): string[] {
  if (!p || p === '/') return [];
  return p
    .replace(/^\//, '')
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function startsWith(names: string[], prefix: string[]): boolean {
  return prefix.length <= names.length && prefix.every((n, i) => names[i] === n);
}

/** The finding's path as v1 names (an internal `spec.validation...` path tried as each version's). */
function findingPaths(f: Finding, versions: number): string[][] {
  const segs = f.segments;
  if (!segs?.length) return [];
  const v1 = v1PathsOfInternalCrdPath(segs, versions);
  return (v1.length ? v1 : [segs]).map((p) => p.map(nameOf));
}

/** The Go place a finding of a generated CRD belongs to. */
interface GoPlace {
  pos: GoPos;
  marker?: GoMarker;
  /** The finding's path (names) the place was matched with. */
  names: string[];
}

/** The root schema's node: the root type (CRD-level findings without a marker of their own land there). */
function rootPlace(crd: GoCrd): GoPlace | undefined {
  for (const [p, n] of Object.entries(crd.nodes ?? {})) {
    if (/^\/spec\/versions\/\d+\/schema\/openAPIV3Schema$/.test(p) && (n.type ?? n.field)) return { pos: (n.type ?? n.field)!, names: [] };
  }
  return undefined;
}

/**
 * Where a finding belongs: the marker whose produced value (the longest effect pointer) the finding's path
 * starts with; a list-map key neither required nor defaulted at the +listMapKey naming it; else the field
 * (or type) of the longest schema node; else the root type.
 */
function placeOf(crd: GoCrd, f: Finding, versions: number): GoPlace | undefined {
  const paths = findingPaths(f, versions);
  const markers = crd.markers ?? [];
  let best: GoPlace | undefined;
  let bestLen = -1;
  for (const names of paths) {
    const items = names.lastIndexOf('items');
    if (items > 0 && names[items + 1] === 'properties' && /x-kubernetes-list-map-keys/.test(f.apiMessage ?? f.message)) {
      const m = listMapKeyMarker(crd, names.slice(0, items), names[items + 2]);
      if (m) return { pos: m.span, marker: m, names };
    }
    for (const m of markers)
      for (const e of m.effects) {
        const en = pointerNames(e.pointer);
        if (en.length > bestLen && startsWith(names, en)) {
          best = { pos: m.span, marker: m, names };
          bestLen = en.length;
        }
      }
  }
  if (best) return best;
  for (const names of paths)
    for (const [p, n] of Object.entries(crd.nodes ?? {})) {
      const nn = pointerNames(p);
      const pos = n.field ?? n.type;
      if (pos && nn.length > bestLen && startsWith(names, nn)) {
        best = { pos, names };
        bestLen = nn.length;
      }
    }
  return best ?? rootPlace(crd);
}

/**
 * The `+listMapKey=<key>` marker of a list node: the one whose effect is that node's list-map keys, else
 * the nearest one above the list's field in its comment (a generator that does not map the marker's effect).
 */
function listMapKeyMarker(crd: GoCrd, list: string[], key: string): GoMarker | undefined {
  const names = (m: GoMarker) => m.name === 'listMapKey' && new RegExp(`=\\s*"?${escapeRe(key)}"?\\s*$`).test(m.text);
  const markers = (crd.markers ?? []).filter(names);
  const pointer = `/${list.join('/')}`;
  const byEffect = markers.find((m) => m.effects.some((e) => e.pointer.startsWith(`${pointer}/x-kubernetes-list-map-keys`)));
  if (byEffect) return byEffect;
  const field = crd.nodes?.[pointer]?.field;
  if (!field) return undefined;
  const above = markers.filter((m) => m.span.file === field.file && m.span.line < field.line && field.line - m.span.line <= 30);
  return above.sort((a, b) => b.span.line - a.span.line)[0];
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function lineOf(text: string | undefined, line: number): string {
  if (text === undefined) return '';
  return text.split('\n')[line - 1] ?? '';
}

/** The range of a span (UTF-16 columns from the byte columns). */
function spanRange(text: string | undefined, span: GoSpan): Range {
  const line = lineOf(text, span.line);
  const start = utf16Column(line, span.col);
  const end = span.endLine === span.line ? utf16Column(line, span.endCol) : line.length;
  return { start: { line: span.line - 1, character: start }, end: { line: span.line - 1, character: Math.max(start, end) } };
}

/** The range of a Go position: a marker's text, else the identifier there. */
function goRange(text: string | undefined, place: GoPlace): Range {
  if (place.marker) return spanRange(text, place.marker.span);
  const pos = place.pos;
  const line = lineOf(text, pos.line);
  const start = utf16Column(line, pos.col);
  const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(line.slice(start));
  return { start: { line: pos.line - 1, character: start }, end: { line: pos.line - 1, character: start + (m ? m[0].length : 0) } };
}

/**
 * The range inside a marker's `rule="..."` (or messageExpression) of a finding whose range is inside that
 * string of the generated YAML: value offsets from the YAML scalar, then the Go literal's source.
 */
function celRange(file: YamlFile, td: TextDocument, f: Finding, place: GoPlace, goText: string | undefined): Range | undefined {
  const field = place.names.at(-1);
  const marker = place.marker;
  if ((field !== 'rule' && field !== 'messageExpression') || !marker) return undefined;
  const doc = file.docs.find((d) => isJSONObject(d.value));
  if (!doc) return undefined;
  const segs: PathSegment[] = place.names.map((n) => (/^\d+$/.test(n) ? { kind: 'index', index: Number(n) } : { kind: 'field', name: n }));
  const node = findPath(doc, segs).node;
  const r = nodeRange(doc, node);
  if (!r || !isScalar(node) || typeof node.value !== 'string') return undefined;
  const map = scalarSourceOffsets(td.getText().slice(r[0], r[1]), node.type, node.value);
  if (!map) return undefined;
  const valueOffset = (fileOffset: number) => {
    const rel = fileOffset - r[0];
    let i = 0;
    while (i + 1 < map.length && map[i + 1] <= rel) i++;
    return i;
  };
  const s = valueOffset(td.offsetAt(f.range.start));
  const e = valueOffset(td.offsetAt(f.range.end));
  const arg = marker.args?.find((a) => a.name === field);
  if (!arg) return undefined;
  const line = lineOf(goText, arg.span.line);
  const lit = goStringAt(line, utf16Column(line, arg.span.col));
  // The text the generation saw is the text at hand (else the columns would not be this rule's).
  if (lit.value !== node.value) return undefined;
  const at = (i: number) => lit.offsets[Math.min(i, lit.offsets.length - 1)];
  return { start: { line: arg.span.line - 1, character: at(s) }, end: { line: arg.span.line - 1, character: Math.max(at(s), at(e)) } };
}

/**
 * The findings of a generation by Go file (absolute path): `check` is the service's own check of a CRD
 * file (findings.ts), run on each generated CRD's text.
 */
export function goFindingsByFile(state: GoState, check: (td: TextDocument) => { findings: Finding[]; file: YamlFile }): Map<string, Finding[]> {
  if (state.findings) return state.findings;
  const out = new Map<string, Finding[]>();
  const add = (file: string, f: Finding) => {
    let l = out.get(file);
    if (!l) out.set(file, (l = []));
    l.push(f);
  };
  for (const crd of state.generation.crds) {
    const td = TextDocument.create(generatedCrdUri(crd.name), 'yaml', 1, crd.yaml);
    const { findings, file } = check(td);
    const value = state.values.get(crd.name) as { spec?: { versions?: unknown[] } } | undefined;
    const versions = Array.isArray(value?.spec?.versions) ? value.spec.versions.length : 1;
    for (const f of findings) {
      if (NOT_FOR_GO.has(f.code)) continue;
      const place = placeOf(crd, f, versions);
      if (!place) continue;
      const text = state.text(place.pos.file);
      const range = celRange(file, td, f, place, text) ?? goRange(text, place);
      add(place.pos.file, {
        ...f,
        range,
        path: undefined,
        segments: undefined,
        related: undefined,
        provenance: { ...f.provenance, crd: crd.name },
        ...(place.marker ? {} : { notes: [...(f.notes ?? []), `in the CRD ${crd.name} these types generate`] }),
      });
    }
  }
  for (const m of state.generation.markerProblems) {
    const text = state.text(m.span.file);
    const range = spanRange(text, m.fix?.span ?? m.span);
    add(m.span.file, {
      range,
      severity: m.severity === 'error' ? 'error' : 'warning',
      code: 'UnknownMarker',
      message: m.message,
      document: 'other',
      params: { origin: m.reason, ...(m.fix ? { suggestions: [m.fix.newText] } : m.suggestion ? { suggestions: [m.suggestion] } : {}) },
    });
  }
  for (const e of state.generation.errors) {
    if (e.kind !== 'generate' || !e.pos) continue;
    const text = state.text(e.pos.file);
    const line = lineOf(text, e.pos.line);
    const col = utf16Column(line, e.pos.col);
    add(e.pos.file, {
      range: { start: { line: e.pos.line - 1, character: col }, end: { line: e.pos.line - 1, character: Math.max(col, line.trimEnd().length) } },
      severity: 'error',
      code: 'GoGenerate',
      message: `controller-gen cannot generate the CRD: ${e.message}`,
      apiMessage: e.message,
      document: 'other',
    });
  }
  for (const l of out.values()) l.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  state.findings = out;
  return out;
}

/** The quick fixes of Go findings meeting `range`: the marker renamed as controller-tools suggests, a CEL field's "did you mean". */
export function goFixes(td: TextDocument, findings: Finding[], range: Range): Fix[] {
  const out: Fix[] = [];
  const before = (p: Position, q: Position) => p.line < q.line || (p.line === q.line && p.character < q.character);
  for (const f of findings) {
    if (before(f.range.end, range.start) || before(range.end, f.range.start)) continue;
    const written = td.getText(f.range);
    const names = f.params?.suggestions ?? [];
    // Only where the range is the name as written (an identifier in a rule has no escapes).
    const renames = f.code === 'UnknownMarker' || (f.params?.origin === 'celCompile' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(written));
    if (!renames) continue;
    names.forEach((name, i) => out.push({ title: `Change to ${name}`, edits: [{ range: f.range, newText: name }], findings: [f], preferred: i === 0 }));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// CEL inside XValidation markers.

/** The XValidation marker of the generation on a line of a file: that line's, else the nearest one (the generation may be of a slightly older text). */
function xvalidationMarker(state: GoState, file: string, line: number): { crd: GoCrd; marker: GoMarker; pointer: string } | undefined {
  let best: { crd: GoCrd; marker: GoMarker; pointer: string; d: number } | undefined;
  for (const crd of state.generation.crds)
    for (const m of crd.markers ?? []) {
      if (m.span.file !== file || m.name !== 'kubebuilder:validation:XValidation') continue;
      const e = m.effects.find((x) => /\/x-kubernetes-validations\/\d+$/.test(x.pointer));
      if (!e) continue;
      const d = Math.abs(m.span.line - line);
      if (!best || d < best.d) best = { crd, marker: m, pointer: e.pointer, d };
    }
  return best && best.d <= 20 ? best : undefined;
}

/** The CEL expression under the cursor in a Go file's XValidation marker. */
export function goCelAt(ctx: ServiceContext, state: GoState, file: string, text: string, pos: Position): CelAt | undefined {
  const line = text.split('\n')[pos.line] ?? '';
  const mk = markerOfLine(line);
  if (mk?.xvalidationArgs === undefined) return undefined;
  const arg: MarkerArgument | undefined = markerArguments(line, mk.xvalidationArgs).find(
    (a) => (a.name === 'rule' || a.name === 'messageExpression') && pos.character > a.literal.start && pos.character <= (a.literal.open ? a.literal.end : a.literal.end - 1),
  );
  if (!arg) return undefined;
  const found = xvalidationMarker(state, file, pos.line + 1);
  if (!found) return undefined;
  const crd = state.values.get(found.crd.name);
  const names = [...pointerNames(found.pointer), arg.name];
  const path: PathSegment[] = names.map((n) => (/^\d+$/.test(n) ? { kind: 'index', index: Number(n) } : { kind: 'field', name: n }));
  const at = ruleSiteOf(ctx, crd, path);
  if (!at) return undefined;
  const lit = arg.literal;
  let offset = 0;
  while (offset < lit.value.length && lit.offsets[offset + 1] <= pos.character) offset++;
  return { ...at, src: lit.value, offset, path };
}

export function goCelCompletion(at: CelAt | undefined, pos: Position): CompletionItem[] {
  return at ? celCompletion(at.site, at.src, at.offset, pos) : [];
}

export function goCelHover(at: CelAt | undefined): Hover | null {
  const v = at && celHover(at);
  return v ? { contents: { kind: MarkupKind.Markdown, value: v } } : null;
}

export function goCelSignatureHelp(at: CelAt | undefined): SignatureHelp | null {
  return at ? celSignatureHelp(at) : null;
}

// ---------------------------------------------------------------------------------------------
// Drift.

/** A checked-in CRD file's drift: the generated CRD of the same name differs from it as a YAML value. */
export function driftFindings(state: GoState, td: TextDocument, file: YamlFile): Finding[] {
  const out: Finding[] = [];
  for (const doc of file.docs) {
    const v = doc.value as { kind?: unknown; metadata?: { name?: unknown } } | null;
    if (!isJSONObject(v) || v.kind !== 'CustomResourceDefinition' || !isJSONObject(v.metadata) || typeof v.metadata.name !== 'string') continue;
    const crd = state.generation.crds.find((c) => c.name === (v.metadata as { name: string }).name);
    const generated = crd && state.values.get(crd.name);
    if (!crd || generated === undefined || deepEqualJSON(stripVersionAnnotation(generated), stripVersionAnnotation(v))) continue;
    const start = td.positionAt(doc.start);
    const versionNote = state.generation.controllerTools ? ` (controller-tools ${state.generation.controllerTools})` : '';
    const f: Finding = {
      range: { start, end: { line: start.line, character: lineOf(td.getText(), start.line + 1).length } },
      severity: 'information',
      code: 'GeneratedDrift',
      message: `this CRD differs from what its Go types generate${versionNote}: run make manifests, or apply the fix`,
      document: 'crd',
      provenance: { crd: crd.name },
    };
    out.push(f);
  }
  return out;
}

/** The fix of a drift finding: the file written as the generator writes it (a file of one CRD), else the document replaced. */
export function driftFixes(state: GoState, td: TextDocument, file: YamlFile, f: Finding): Fix[] {
  const crd = state.generation.crds.find((c) => c.name === f.provenance?.crd);
  if (!crd || f.code !== 'GeneratedDrift') return [];
  const whole = file.docs.length === 1;
  const doc = file.docs.find((d) => td.positionAt(d.start).line === f.range.start.line);
  if (!whole && !doc) return [];
  const range = whole ? { start: { line: 0, character: 0 }, end: td.positionAt(td.getText().length) } : { start: td.positionAt(doc!.start), end: td.positionAt(doc!.end) };
  const newText = whole ? crd.yaml : crd.yaml.replace(/^---\n/, '');
  return [{ title: 'Write the CRD the Go types generate', edits: [{ range, newText }], findings: [f], preferred: true }];
}

/** The generator's version annotation does not count as drift (a newer controller-gen writes its own). */
function stripVersionAnnotation(v: unknown): unknown {
  if (!isJSONObject(v) || !isJSONObject(v.metadata) || !isJSONObject(v.metadata.annotations)) return v;
  const annotations = { ...v.metadata.annotations };
  delete annotations['controller-gen.kubebuilder.io/version'];
  const metadata = { ...v.metadata, annotations };
  if (Object.keys(annotations).length === 0) delete (metadata as Record<string, unknown>).annotations;
  return { ...v, metadata };
}
