/**
 * The service's view of a YAML file: a multi-document split, each document parsed on its own (and cached
 * by its text, so an edit re-parses only the document it touched), plus path <-> offset mapping.
 *
 * This is a small adapter over the `yaml` package; when server/src/yaml lands it can replace the parsing
 * here without the rest of the service changing (the service only uses the functions exported below).
 */
import { isMap, isPair, isScalar, isSeq, parseDocument, type Document, type Node, type Pair } from 'yaml';
import type { PathSegment } from '../engine/field';

/** A syntax problem, as offsets in the whole file. */
export interface SyntaxProblem {
  start: number;
  end: number;
  message: string;
  severity: 'error' | 'warning';
}

/** One YAML document of a file. All offsets are file offsets. */
export interface YamlDoc {
  /** Position in the file (0-based). */
  index: number;
  /** Offset of the document's first character in the file (its `---` line when present). */
  start: number;
  end: number;
  /** The document's own text (what the parse is cached by). */
  text: string;
  /** The parsed document; its node ranges are relative to `start`. */
  ast: Document.Parsed;
  /** The JSON value (undefined when the document is empty). */
  value: unknown;
  syntax: SyntaxProblem[];
}

export interface YamlFile {
  text: string;
  docs: YamlDoc[];
}

interface ParsedChunk {
  ast: Document.Parsed;
  value: unknown;
  syntax: SyntaxProblem[];
}

/** Parsed chunks by text, most recently used last (bounded: a few big CRDs plus many small CRs). */
const chunkCache = new Map<string, ParsedChunk>();
const CHUNK_CACHE_MAX = 4000;

function parseChunk(text: string): ParsedChunk {
  const hit = chunkCache.get(text);
  if (hit) {
    chunkCache.delete(text);
    chunkCache.set(text, hit);
    return hit;
  }
  const ast = parseDocument(text, { keepSourceTokens: false, prettyErrors: false, uniqueKeys: true, strict: false });
  const syntax: SyntaxProblem[] = [];
  for (const e of ast.errors) syntax.push({ start: e.pos[0], end: Math.max(e.pos[1], e.pos[0] + 1), message: cleanMessage(e.message), severity: 'error' });
  for (const w of ast.warnings) syntax.push({ start: w.pos[0], end: Math.max(w.pos[1], w.pos[0] + 1), message: cleanMessage(w.message), severity: 'warning' });
  let value: unknown;
  if (ast.errors.length === 0) {
    try {
      value = ast.toJS({ maxAliasCount: 100 });
    } catch (e) {
      syntax.push({ start: 0, end: 1, message: String((e as Error).message), severity: 'error' });
    }
  } else {
    // A half-typed document still has a usable value for hover/completion; findings on it would be noise.
    try {
      value = ast.toJS({ maxAliasCount: 100 });
    } catch {
      value = undefined;
    }
  }
  const parsed = { ast, value, syntax };
  chunkCache.set(text, parsed);
  if (chunkCache.size > CHUNK_CACHE_MAX) chunkCache.delete(chunkCache.keys().next().value as string);
  return parsed;
}

function cleanMessage(m: string): string {
  // The yaml package appends "at line X, column Y" and a code frame; the editor shows the position already.
  return m.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
}

/** Offsets where documents start: 0 and every `---` line at column 0 (a document marker in YAML 1.2). */
export function documentStarts(text: string): number[] {
  const starts = [0];
  const re = /^---(?=[ \t\r\n]|$)/gm;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) if (m.index !== 0) starts.push(m.index);
  return starts;
}

/** Splits and parses a file; unchanged documents come from the cache. */
export function parseYamlFile(text: string): YamlFile {
  const starts = documentStarts(text);
  const docs: YamlDoc[] = [];
  for (let i = 0; i < starts.length; i++) {
    const start = starts[i];
    const end = i + 1 < starts.length ? starts[i + 1] : text.length;
    const chunk = text.slice(start, end);
    const p = parseChunk(chunk);
    docs.push({
      index: i,
      start,
      end,
      text: chunk,
      ast: p.ast,
      value: p.value,
      syntax: p.syntax.map((s) => ({ ...s, start: s.start + start, end: s.end + start })),
    });
  }
  return { text, docs };
}

/** The document containing an offset. */
export function docAt(file: YamlFile, offset: number): YamlDoc | undefined {
  let found: YamlDoc | undefined;
  for (const d of file.docs) if (d.start <= offset) found = d;
  return found;
}

/** Parses a Kubernetes field path (`spec.a[0].b[key]`) into segments; numeric brackets are indices. */
export function parseFieldPath(field: string): PathSegment[] {
  const out: PathSegment[] = [];
  const re = /([^.[\]]+)|\[([^\]]*)\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(field))) {
    if (m[1] !== undefined) out.push({ kind: 'field', name: m[1] });
    else if (/^\d+$/.test(m[2])) out.push({ kind: 'index', index: Number(m[2]) });
    else out.push({ kind: 'key', key: m[2] });
  }
  return out;
}

/** What a path leads to in a document: the value node and, for map entries, the pair (for its key). */
export interface NodeMatch {
  node: Node | null;
  pair?: Pair<unknown, unknown>;
  /** How many segments matched (less than the path length when the path goes beyond the text). */
  matched: number;
  /** The deepest match (node/pair) reached, for findings on missing fields. */
  parentNode?: Node | null;
  parentPair?: Pair<unknown, unknown>;
}

function segName(s: PathSegment): string {
  return s.kind === 'field' ? s.name : s.kind === 'key' ? s.key : String(s.index);
}

/** Walks a document along path segments. */
export function findPath(doc: YamlDoc, segs: PathSegment[]): NodeMatch {
  let node = doc.ast.contents as Node | null;
  let pair: Pair<unknown, unknown> | undefined;
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i];
    if (isMap(node)) {
      const name = segName(s);
      const p = node.items.find((it) => isScalar(it.key) && String(it.key.value) === name);
      if (!p) return { node: null, matched: i, parentNode: node, parentPair: pair };
      pair = p as Pair<unknown, unknown>;
      node = (p.value as Node) ?? null;
    } else if (isSeq(node)) {
      const idx = s.kind === 'index' ? s.index : Number(segName(s));
      const item = Number.isInteger(idx) ? node.items[idx] : undefined;
      if (item === undefined) return { node: null, matched: i, parentNode: node, parentPair: pair };
      pair = undefined;
      node = item as Node;
    } else {
      return { node: null, matched: i, parentNode: node, parentPair: pair };
    }
  }
  return { node, pair, matched: segs.length };
}

/** File offsets [start, end) of a node (its value, without trailing comments). */
export function nodeRange(doc: YamlDoc, node: Node | null | undefined): [number, number] | undefined {
  if (!node || !node.range) return undefined;
  return [doc.start + node.range[0], doc.start + node.range[1]];
}

/** File offsets of a pair's key. */
export function keyRange(doc: YamlDoc, pair: Pair<unknown, unknown> | undefined): [number, number] | undefined {
  if (!pair || !isScalar(pair.key) || !pair.key.range) return undefined;
  return [doc.start + pair.key.range[0], doc.start + pair.key.range[1]];
}

/** File offsets of a whole `key: value` pair. */
export function pairRange(doc: YamlDoc, pair: Pair<unknown, unknown>): [number, number] | undefined {
  const k = keyRange(doc, pair);
  if (!k) return undefined;
  const v = isPair(pair) && pair.value && (pair.value as Node).range ? nodeRange(doc, pair.value as Node) : undefined;
  return [k[0], v ? Math.max(v[1], k[1]) : k[1]];
}

/** Where the cursor is inside a document's node tree. */
export interface PathAt {
  segments: PathSegment[];
  /** On a mapping key (as opposed to a value). */
  onKey: boolean;
  node: Node | null;
  pair?: Pair<unknown, unknown>;
}

/** The path of the deepest node containing a file offset (keys included). */
export function pathAtOffset(doc: YamlDoc, offset: number): PathAt | undefined {
  const rel = offset - doc.start;
  const segs: PathSegment[] = [];
  let node = doc.ast.contents as Node | null;
  let pair: Pair<unknown, unknown> | undefined;
  if (!node || !node.range || rel < node.range[0] || rel > node.range[2]) return undefined;
  for (;;) {
    if (isMap(node)) {
      let next: Node | null = null;
      for (const it of node.items) {
        const k = it.key as Node | null;
        if (isScalar(k) && k.range && rel >= k.range[0] && rel <= k.range[1]) {
          segs.push({ kind: 'field', name: String(k.value) });
          return { segments: segs, onKey: true, node: (it.value as Node) ?? null, pair: it as Pair<unknown, unknown> };
        }
        const v = it.value as Node | null;
        if (v && v.range && rel >= v.range[0] && rel <= v.range[1] && isScalar(k)) {
          segs.push({ kind: 'field', name: String(k.value) });
          pair = it as Pair<unknown, unknown>;
          next = v;
          break;
        }
      }
      if (!next) return { segments: segs, onKey: false, node, pair };
      node = next;
    } else if (isSeq(node)) {
      let next: Node | null = null;
      node.items.forEach((it, i) => {
        const n = it as Node;
        if (!next && n && n.range && rel >= n.range[0] && rel <= n.range[1]) {
          segs.push({ kind: 'index', index: i });
          next = n;
        }
      });
      if (!next) return { segments: segs, onKey: false, node, pair };
      pair = undefined;
      node = next;
    } else {
      return { segments: segs, onKey: false, node, pair };
    }
  }
}

/**
 * Maps an offset inside a scalar's value (e.g. a position in a CEL rule) to a file offset, by walking the
 * value and its source text together: source characters that are not in the value (quotes, escapes,
 * block indentation, folded line breaks) are skipped.
 */
export function scalarValueOffset(fileText: string, doc: YamlDoc, node: Node, valueOffset: number): number {
  if (!isScalar(node) || !node.range) return doc.start + (node.range?.[0] ?? 0);
  const value = String(node.value);
  const src = fileText.slice(doc.start + node.range[0], doc.start + node.range[1]);
  let si = 0;
  // Skip a block scalar header (`|`, `>-`, ...) or an opening quote.
  if (src[0] === '|' || src[0] === '>') {
    const nl = src.indexOf('\n');
    si = nl < 0 ? src.length : nl + 1;
  } else if (src[0] === '"' || src[0] === "'") si = 1;
  for (let vi = 0; vi < valueOffset && vi < value.length && si < src.length; vi++) {
    const c = value[vi];
    if (c === '\n' || c === ' ') {
      // Any run of whitespace in the source can stand for a space/newline of the value.
      if (/\s/.test(src[si])) {
        si++;
        while (si < src.length && /[ \t]/.test(src[si]) && src[si - 1] === '\n') si++;
        continue;
      }
    }
    while (si < src.length && src[si] !== c) si++;
    si++;
  }
  // Skip indentation so the position lands on the character itself.
  while (si < src.length && (src[si] === ' ' || src[si] === '\n') && value[valueOffset] !== ' ' && value[valueOffset] !== '\n') si++;
  return doc.start + node.range[0] + Math.min(si, src.length);
}

export { isMap, isSeq, isScalar, isPair };
export type { Node, Pair };
