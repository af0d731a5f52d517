/**
 * A YAML file as the service and the CLI use it, over the layer's parse (document.ts): the documents of a file,
 * each parsed on its own and reused across edits when its text did not change, plus the node-level
 * helpers the service features need (path <-> offset, key and value ranges), all walked by the YAML layer.
 */
import { isMap, isPair, isScalar, isSeq, type Document, type Node, type Pair } from 'yaml';
import type { PathSegment } from '../engine';
import { MAX_YAML_DOCUMENTS, RETAINED_SHARE, UNPARSED_DOCUMENT_BYTES, estimateParseBytes, parseBytesBound, parseBytesOfTokens } from './budget';
import { parseYamlDocuments, type PathRange, type YamlDocument, type YamlFile as LayerFile } from './document';
import { formatFieldPath, parseFieldPath, resolveAlias, resolvePath } from './path';
import { splitYamlChunks } from './split';
import { BlockLocator, readBlockYamlCounted } from './block';
import { streamProblems } from './stream';
import type { MaskedTemplate, TemplateRegions } from './template';

/** A syntax problem, as offsets in the whole file. */
export interface SyntaxProblem {
  start: number;
  end: number;
  message: string;
  severity: 'error' | 'warning';
  /** The `yaml` package's error code (`BAD_INDENT`, ...) or the YAML layer's (`NOT_JSON`, `DUPLICATE_KEY`, ...). */
  code: string;
  /** What kubectl prints when it refuses the document for this reason. */
  kubectl?: string;
}

/** One YAML document of a file. All offsets are file offsets except the AST's. */
export interface YamlDoc {
  /** Position in the file (0-based). */
  index: number;
  /** Offset of the document's first character in the file (its `---` line when present). */
  start: number;
  end: number;
  /** Offset the AST's node ranges are relative to. */
  base: number;
  /** The document's own text (what results are cached by). */
  text: string;
  ast: Document.Parsed;
  /** The JSON value as Kubernetes decodes it (null/undefined when nothing parsed). */
  value: unknown;
  syntax: SyntaxProblem[];
  /** The YAML layer's document (range mapping of engine findings). */
  layer: YamlDocument;
  /** A Go template document (templates.ts): what the template decides in it. */
  template?: TemplateRegions;
}

export interface YamlFile {
  /** The text parsed: the document's text, or for a Go template its masked text (same length, same lines). */
  text: string;
  docs: YamlDoc[];
  layer: LayerFile;
  /** For a Go template: the document's own text (`text` is masked) and the masking. */
  source?: string;
  template?: MaskedTemplate;
}

/**
 * Parses a file; with `previous` (the same file before an edit), unchanged documents are reused and a
 * one-line edit in a large document re-parses only its block. `previous` is consumed: do not use it after.
 */
export function parseYamlFile(text: string, previous?: YamlFile, opts: { yamlVersion?: '1.1' | '1.2'; lazy?: boolean } = {}): YamlFile {
  if (opts.lazy && !previous && opts.yamlVersion !== '1.2') {
    const lazy = parseLazily(text);
    if (lazy) return lazy;
  }
  const layer = parseYamlDocuments(text, { previous: previous?.layer, consumePrevious: true, yamlVersion: opts.yamlVersion });
  const prevDocs = new Map<YamlDocument['ast'], YamlDoc>();
  if (previous) for (const d of previous.docs) prevDocs.set(d.ast, d);
  const docs = layer.documents.map((d, index): YamlDoc => {
    const old = prevDocs.get(d.ast);
    if (old && old.index === index && old.start === d.start && old.end === d.end) return old;
    return {
      index,
      start: d.start,
      end: d.end,
      base: d.chunkOffset,
      text: old?.text ?? text.slice(d.start, d.end),
      ast: d.ast,
      value: d.value,
      syntax: d.errors.map((e) => ({ start: e.start, end: e.end, message: e.message, severity: e.severity, code: e.code, kubectl: e.kubectl })),
      layer: d,
    };
  });
  return { text, docs, layer };
}

/**
 * A file of generated block YAML read by the fast reader (yaml/block.ts): the documents' values now,
 * their syntax trees (positions) parsed on first use, all at once. The same file as the full parse gives,
 * for a one-shot check of many large files (the CLI): most documents never need a position. Undefined
 * when a document is not plain block YAML, or the full parse would find a problem or refuse it (bounds).
 */
function parseLazily(text: string): YamlFile | undefined {
  const chunks = splitYamlChunks(text, MAX_YAML_DOCUMENTS);
  let left = parseBytesBound(text.length);
  const values: unknown[] = [];
  for (const c of chunks) {
    if (c.tail || streamProblems(c.text, [0]).length > 0) return undefined;
    const read = readBlockYamlCounted(c.text);
    if (read === undefined) return undefined;
    const value = read.value;
    // The memory bound the full parse applies (yaml/document.ts fileOf): a document it would not parse.
    // The reader's token counts bound its estimate from above (without lexing again); the exact one near the bound.
    let cost = parseBytesOfTokens(read.counts);
    if (cost > left - UNPARSED_DOCUMENT_BYTES) cost = estimateParseBytes(c.text, left).bytes;
    if (cost > left - UNPARSED_DOCUMENT_BYTES) return undefined;
    left -= Math.ceil(cost * RETAINED_SHARE);
    values.push(value);
  }
  let full: LayerFile | undefined;
  const parsed = () => (full ??= parseYamlDocuments(text));
  const docs = chunks.map((c, index): YamlDoc => {
    const doc = { index, start: c.start, end: c.end, base: c.start, text: c.text, value: values[index], syntax: [] } as unknown as YamlDoc;
    const layer = placedByIndentation(c.text, c.start, () => parsed().documents[index]);
    Object.defineProperty(doc, 'layer', { enumerable: true, configurable: true, get: () => layer });
    Object.defineProperty(doc, 'ast', { enumerable: true, configurable: true, get: () => parsed().documents[index].ast });
    return doc;
  });
  const file = { text, docs } as unknown as YamlFile;
  Object.defineProperty(file, 'layer', { enumerable: true, configurable: true, get: parsed });
  return file;
}

/**
 * A lazily parsed document's layer: the ranges findings are placed at (rangeOfPath, and rangeOfFieldError
 * without a spot inside a rule) come from indentation when block.ts can tell them exactly, as the parse
 * would; everything else, and any range it cannot tell, from the full parse (`layer`, on first use).
 */
function placedByIndentation(text: string, offset: number, layer: () => YamlDocument): YamlDocument {
  let locator: BlockLocator | undefined;
  const place = (segs: readonly PathSegment[], target: 'key' | 'value'): PathRange | undefined => {
    const r = (locator ??= new BlockLocator(text)).pathRange(segs, target);
    return r && { start: offset + r.start, end: offset + r.end, on: r.on, exact: true, found: [...segs] };
  };
  const quick: Pick<YamlDocument, 'rangeOfPath' | 'rangeOfFieldError'> = {
    rangeOfPath(path, target = 'value') {
      return place(typeof path === 'string' ? parseFieldPath(path) : path, target === 'key' ? 'key' : 'value') ?? layer().rangeOfPath(path, target);
    },
    rangeOfFieldError(err) {
      const segs = err.segments && formatFieldPath(err.segments) === err.field ? err.segments : parseFieldPath(err.field);
      const target = err.type === 'FieldValueRequired' || err.type === 'FieldValueForbidden' ? 'key' : 'value';
      return (err.ruleRange ? undefined : place(segs, target)) ?? layer().rangeOfFieldError(err);
    },
  };
  return new Proxy(quick as YamlDocument, {
    get(target, prop) {
      if (prop === 'rangeOfPath' || prop === 'rangeOfFieldError') return target[prop];
      const l = layer();
      const v = Reflect.get(l, prop, l);
      return typeof v === 'function' ? v.bind(l) : v;
    },
  });
}

/**
 * Where a path is in one document (document.ts rangeOfPath: its key or value, else the deepest part of it
 * that exists): the one way the service places a path it did not get from a finding.
 */
export type PathLocator = Pick<YamlDocument, 'rangeOfPath'>;

/**
 * The locator of one document of plain block YAML (what readBlockYaml reads): by indentation where that
 * tells the range exactly (block.ts), else (a missing path, a list item) from a parse on first need.
 */
export function blockLocator(text: string): PathLocator {
  let doc: YamlDocument | undefined;
  return placedByIndentation(text, 0, () => (doc ??= parseYamlDocuments(text).documents[0]));
}

/** The document containing an offset. */
export function docAt(file: YamlFile, offset: number): YamlDoc | undefined {
  let found: YamlDoc | undefined;
  for (const d of file.docs) if (d.start <= offset) found = d;
  return found;
}

export { parseFieldPath };

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

/**
 * Walks a document along path segments: the YAML layer's resolvePath (yaml/path.ts), so aliases are
 * followed and `<<` merge keys looked through, as the value the API server decodes has them.
 */
export function findPath(doc: YamlDoc, segs: readonly PathSegment[]): NodeMatch {
  const ast = doc.ast;
  const root = resolveAlias(ast.contents, ast);
  const { steps, complete } = resolvePath(root, segs, ast);
  const last = steps.at(-1);
  const node = last ? last.node : root;
  if (complete) return { node, pair: last?.pair, matched: segs.length };
  return { node: null, matched: steps.length, parentNode: node, parentPair: last?.pair };
}

/**
 * Like findPath, but an internal CRD path the API server prints (`spec.validation.openAPIV3Schema...`)
 * is also tried as the v1 fields it came from (`spec.versions[i].schema.openAPIV3Schema...`).
 */
export function findWrittenPath(doc: YamlDoc, segs: readonly PathSegment[]): NodeMatch {
  return findPath(doc, doc.layer.writtenPath(segs));
}

/** File offsets [start, end) of a node (its value, without trailing comments). */
export function nodeRange(doc: YamlDoc, node: Node | null | undefined): [number, number] | undefined {
  if (!node?.range) return undefined;
  return [doc.base + node.range[0], doc.base + node.range[1]];
}

/** File offset of a document's first content node (past its `---` line and leading comments); its start when empty. */
export function contentStart(doc: YamlDoc): number {
  return nodeRange(doc, doc.ast.contents as Node | null)?.[0] ?? doc.start;
}

/** File offsets of a pair's key. */
export function keyRange(doc: YamlDoc, pair: Pair<unknown, unknown> | undefined): [number, number] | undefined {
  if (!pair || !isScalar(pair.key) || !pair.key.range) return undefined;
  return [doc.base + pair.key.range[0], doc.base + pair.key.range[1]];
}

/** Where the cursor is inside a document's node tree. */
export interface PathAt {
  segments: PathSegment[];
  /** On a mapping key (as opposed to a value). */
  onKey: boolean;
  node: Node | null;
  pair?: Pair<unknown, unknown>;
}

/**
 * The path of the innermost node containing a file offset (keys included): the YAML layer's pathAt
 * (yaml/path.ts; an offset after a key's colon is on its value). Undefined outside the document.
 */
export function pathAtOffset(doc: YamlDoc, offset: number): PathAt | undefined {
  if (offset < doc.start || offset > doc.end) return undefined;
  const at = doc.layer.pathAt(offset);
  return { segments: at.segments, onKey: at.target === 'key', node: at.node, pair: at.pair };
}

export { isMap, isSeq, isScalar, isPair };
export type { Node, Pair };
