/**
 * Document symbols (documents, kinds, names, the field tree), go to definition (a CR field to its schema
 * node in the CRD, apiVersion/kind to the CRD; a built-in object's to its kind's schemas written as a CRD
 * file, builtins.ts), and folding ranges.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { FoldingRangeKind, SymbolKind, type DocumentSymbol, type FoldingRange, type Location, type Position, type Range } from 'vscode-languageserver-types';
import { crdLocation, type ServiceContext } from './context';
import { resolveCr, roleOf, schemaAtPath, schemaStepsToCrdPath } from './kube';
import { builtinCrdFile } from './builtins';
import { findPath, isMap, isScalar, isSeq, nodeRange, pathAtOffset, type Node, type Pair, type YamlDocument, type YamlFile } from '../yaml/file';
import { isJSONObject } from '../engine';

const MAX_SYMBOLS = 5000;
const MAX_FOLDS = 5000;

/** One symbol per document (`Kind name`), with its field tree below. */
export function documentSymbols(td: TextDocument, file: YamlFile): DocumentSymbol[] {
  const budget = { left: MAX_SYMBOLS };
  const out: DocumentSymbol[] = [];
  for (const doc of file.documents) {
    const contents = doc.ast.contents as Node | null;
    const c = nodeRange(doc, contents);
    if (!contents || !c) continue;
    const v = doc.value;
    const kind = isJSONObject(v) && typeof v.kind === 'string' ? v.kind : undefined;
    // The name as written: a template's `{{ include "x" . }}-tls` rather than its mask (or nothing).
    const nameNode = findPath(doc, [
      { kind: 'field', name: 'metadata' },
      { kind: 'field', name: 'name' },
    ]).node;
    const name = isScalar(nameNode) ? asWritten(td, file, doc, nameNode) : undefined;
    const range = { start: td.positionAt(doc.start), end: td.positionAt(Math.max(doc.start, trimEnd(file.text, doc.end))) };
    const sel = span(td, [c[0], c[0]]);
    out.push({
      name: kind ? `${kind}${name ? ` ${name}` : ''}` : `document ${doc.index + 1}`,
      detail: isJSONObject(v) && typeof v.apiVersion === 'string' ? v.apiVersion : undefined,
      kind: kind === 'CustomResourceDefinition' ? SymbolKind.Class : SymbolKind.Module,
      range,
      selectionRange: sel,
      children: kind === 'CustomResourceDefinition' && isMap(contents) ? crdChildren(td, file, doc, contents, budget) : children(td, file, doc, contents, budget),
    });
  }
  return out;
}

/**
 * A CRD's outline: its top-level fields, then one symbol per version whose children are the schema's
 * fields (property names with their types), not the raw `properties:` nesting.
 */
function crdChildren(td: TextDocument, file: YamlFile, doc: YamlDocument, root: Node, budget: { left: number }): DocumentSymbol[] {
  // Top-level fields only (no budget spent on their subtrees).
  const out: DocumentSymbol[] = isMap(root) ? root.items.map((p) => pairSymbol(td, file, doc, p as Pair<unknown, unknown>)).filter((x): x is DocumentSymbol => !!x) : [];
  if (!isMap(root)) return out;
  const spec = root.items.find((p) => isScalar(p.key) && p.key.value === 'spec')?.value as Node | undefined;
  const versions = isMap(spec) ? (spec.items.find((p) => isScalar(p.key) && p.key.value === 'versions')?.value as Node | undefined) : undefined;
  if (!isSeq(versions)) return out;
  const specSym = out.find((s) => s.name === 'spec');
  const versionSyms: DocumentSymbol[] = [];
  for (const v of versions.items as Node[]) {
    const vr = nodeRange(doc, v);
    if (!isMap(v) || !vr) continue;
    const nameNode = v.items.find((p) => isScalar(p.key) && p.key.value === 'name')?.value as Node | undefined;
    const schemaNode = v.items.find((p) => isScalar(p.key) && p.key.value === 'schema')?.value as Node | undefined;
    const openAPI = isMap(schemaNode) ? (schemaNode.items.find((p) => isScalar(p.key) && p.key.value === 'openAPIV3Schema')?.value as Node | undefined) : undefined;
    const r = span(td, vr);
    const nr = nodeRange(doc, nameNode);
    versionSyms.push({
      name: isScalar(nameNode) ? asWritten(td, file, doc, nameNode) : 'version',
      kind: SymbolKind.Namespace,
      range: r,
      selectionRange: nr ? span(td, nr) : r,
      children: isMap(openAPI) ? schemaFields(td, doc, openAPI, budget) : [],
    });
  }
  if (specSym) specSym.children = versionSyms;
  return out;
}

/** The fields of a schema node: `properties` entries, descending through items and additionalProperties. */
function schemaFields(td: TextDocument, doc: YamlDocument, schema: Node, budget: { left: number }): DocumentSymbol[] {
  if (!isMap(schema)) return [];
  const get = (n: Node, k: string) => (isMap(n) ? (n.items.find((p) => isScalar(p.key) && p.key.value === k)?.value as Node | undefined) : undefined);
  let node: Node | undefined = schema;
  // Lists and maps: their fields are those of the items / values.
  for (let i = 0; i < 8 && node && !get(node, 'properties'); i++) node = get(node, 'items') ?? get(node, 'additionalProperties');
  const props = node ? get(node, 'properties') : undefined;
  if (!isMap(props)) return [];
  const out: DocumentSymbol[] = [];
  for (const p of props.items) {
    if (budget.left <= 0) break;
    const k = p.key as Node | null;
    const v = p.value as Node | null;
    const kr = nodeRange(doc, k);
    if (!isScalar(k) || !kr) continue;
    budget.left--;
    const type = v ? get(v, 'type') : undefined;
    const end = Math.max(nodeRange(doc, v)?.[1] ?? kr[1], kr[1]);
    out.push({
      name: String(k.value),
      detail: isScalar(type) ? String(type.value) : undefined,
      kind: isScalar(type) && type.value === 'object' ? SymbolKind.Object : isScalar(type) && type.value === 'array' ? SymbolKind.Array : SymbolKind.Field,
      range: span(td, [kr[0], end]),
      selectionRange: span(td, kr),
      children: v ? schemaFields(td, doc, v, budget) : [],
    });
  }
  return out;
}

function trimEnd(text: string, end: number): number {
  while (end > 0 && /\s/.test(text[end - 1])) end--;
  return end;
}

/**
 * A scalar as the user wrote it where a template action masks part of it (`{{ .Values.team }}`, never the
 * mask `xxxx` the parse saw), else its value.
 */
function asWritten(td: TextDocument, file: YamlFile, doc: YamlDocument, n: Node): string {
  const r = file.template ? nodeRange(doc, n) : undefined;
  if (r) {
    const written = td.getText().slice(r[0], r[1]);
    if (written !== file.text.slice(r[0], r[1])) return written.replace(/\s+/g, ' ').trim();
  }
  return String((n as { value?: unknown }).value);
}

/** The symbol of one `key: value` entry, without children. */
function pairSymbol(td: TextDocument, file: YamlFile, doc: YamlDocument, p: Pair<unknown, unknown>): DocumentSymbol | undefined {
  const k = p.key as Node | null;
  const kr = nodeRange(doc, k);
  if (!isScalar(k) || !kr) return undefined;
  const v = p.value as Node | null;
  const end = Math.max(nodeRange(doc, v)?.[1] ?? kr[1], kr[1]);
  return {
    name: asWritten(td, file, doc, k) || '""',
    kind: isMap(v) ? SymbolKind.Object : isSeq(v) ? SymbolKind.Array : SymbolKind.Field,
    detail: isScalar(v) ? truncate(asWritten(td, file, doc, v)) : undefined,
    range: span(td, [kr[0], end]),
    selectionRange: span(td, kr),
  };
}

function children(td: TextDocument, file: YamlFile, doc: YamlDocument, node: Node, budget: { left: number }): DocumentSymbol[] {
  const out: DocumentSymbol[] = [];
  if (isMap(node)) {
    for (const p of node.items) {
      if (budget.left <= 0) break;
      const sym = pairSymbol(td, file, doc, p as Pair<unknown, unknown>);
      if (!sym) continue;
      budget.left--;
      const v = p.value as Node | null;
      if (v && (isMap(v) || isSeq(v))) sym.children = children(td, file, doc, v, budget);
      out.push(sym);
    }
  } else if (isSeq(node)) {
    node.items.forEach((it, i) => {
      const n = it as Node | null;
      const nr = nodeRange(doc, n);
      if (budget.left <= 0 || !n || !nr || !(isMap(n) || isSeq(n))) return;
      budget.left--;
      const nameNode = isMap(n) ? n.items.find((p) => isScalar(p.key) && p.key.value === 'name') : undefined;
      const label = nameNode && isScalar(nameNode.value) ? `${i}: ${asWritten(td, file, doc, nameNode.value)}` : String(i);
      out.push({
        name: label,
        kind: SymbolKind.Object,
        range: span(td, nr),
        selectionRange: span(td, [nr[0], nr[0]]),
        children: children(td, file, doc, n, budget),
      });
    });
  }
  return out;
}

/** The editor range of file offsets [start, end). */
function span(td: TextDocument, [start, end]: [number, number]): Range {
  return { start: td.positionAt(start), end: td.positionAt(end) };
}

function truncate(s: string): string {
  return s.length > 60 ? s.slice(0, 57) + '...' : s;
}

/** From a CR field to its schema node in the CRD; from apiVersion/kind to the CRD itself. */
export function definition(ctx: ServiceContext, td: TextDocument, file: YamlFile, pos: Position): Location[] {
  const offset = td.offsetAt(pos);
  const doc = file.documentAt(offset);
  if (!doc) return [];
  const role = roleOf(doc.value);
  if (role.role !== 'cr') return [];
  const resolved = resolveCr(ctx.index, role);
  // A built-in kind's schema is in no file of the workspace: it is written once into the cache folder.
  const crd = resolved?.crd.builtin ? (ctx.builtinSchemaDir ? builtinCrdFile(resolved.crd, ctx.builtinSchemaDir) : undefined) : resolved?.crd;
  if (!resolved || !crd) return [];
  const res = { crd, version: resolved.version };
  const at = pathAtOffset(doc, offset);
  if (!at || at.segments.length === 0) return [];
  const first = at.segments[0];
  if (at.segments.length === 1 && first.kind === 'field' && (first.name === 'apiVersion' || first.name === 'kind')) {
    if (first.name === 'kind')
      return [
        crdLocation(ctx, res.crd, [
          { kind: 'field', name: 'spec' },
          { kind: 'field', name: 'names' },
          { kind: 'field', name: 'kind' },
        ]),
      ];
    if (res.version)
      return [
        crdLocation(ctx, res.crd, [
          { kind: 'field', name: 'spec' },
          { kind: 'field', name: 'versions' },
          { kind: 'index', index: res.version.index },
          { kind: 'field', name: 'name' },
        ]),
      ];
    return [
      crdLocation(ctx, res.crd, [
        { kind: 'field', name: 'metadata' },
        { kind: 'field', name: 'name' },
      ]),
    ];
  }
  if (!res.version?.schema) return [];
  const s = schemaAtPath(res.version.schema, at.segments);
  if (!s || s.builtin) return [];
  return [crdLocation(ctx, res.crd, schemaStepsToCrdPath(res.version, s.steps))];
}

/** Folding ranges: each multi-line mapping entry and list item, and each document. */
export function foldingRanges(td: TextDocument, file: YamlFile): FoldingRange[] {
  const out: FoldingRange[] = [];
  for (const doc of file.documents) {
    const startLine = td.positionAt(doc.start).line;
    const endLine = td.positionAt(trimEnd(file.text, doc.end)).line;
    if (file.documents.length > 1 && endLine > startLine) out.push({ startLine, endLine, kind: FoldingRangeKind.Region });
    const contents = doc.ast.contents as Node | null;
    if (contents) fold(td, doc, contents, out);
  }
  return out;
}

function fold(td: TextDocument, doc: YamlDocument, node: Node, out: FoldingRange[]): void {
  if (out.length >= MAX_FOLDS) return;
  if (isMap(node)) {
    for (const p of node.items) {
      const k = p.key as Node | null;
      const v = p.value as Node | null;
      const kr = nodeRange(doc, k);
      const vr = nodeRange(doc, v);
      if (!kr || !v || !vr || !(isMap(v) || isSeq(v) || (isScalar(v) && String(v.value).includes('\n')))) continue;
      const s = td.positionAt(kr[0]).line;
      let endOff = vr[1];
      while (endOff > 0 && /\s/.test(td.getText()[endOff - 1] ?? '')) endOff--;
      const e = td.positionAt(endOff).line;
      if (e > s) out.push({ startLine: s, endLine: e });
      if (isMap(v) || isSeq(v)) fold(td, doc, v, out);
    }
  } else if (isSeq(node)) {
    for (const it of node.items) {
      const n = it as Node | null;
      const nr = nodeRange(doc, n);
      if (!n || !nr || !(isMap(n) || isSeq(n))) continue;
      const s = td.positionAt(nr[0]).line;
      const e = td.positionAt(nr[1]).line;
      if (e > s + 1) out.push({ startLine: s, endLine: e - 1 });
      fold(td, doc, n, out);
    }
  }
}
