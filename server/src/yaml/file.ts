/**
 * A YAML file as the service and the CLI parse it (the documents of document.ts, reused across edits,
 * or read by the fast reader when allowed), and the node-level helpers the service features need
 * (path <-> offset, key and value ranges), all walked by the YAML layer.
 */
import { isMap, isPair, isScalar, isSeq, type Node, type Pair } from 'yaml';
import type { PathSegment } from '../engine';
import { parseBlockYamlDocuments, parseYamlDocuments, type YamlDocument, type YamlFile } from './document';
import { parseFieldPath, resolveAlias, resolvePath } from './path';
import { BlockLocator } from './block';

/**
 * Parses a file; with `previous` (the same file before an edit), unchanged documents are reused and a
 * one-line edit in a large document re-parses only its block. `previous` is consumed: do not use it after.
 * `lazy` (a one-shot check): plain block YAML is read by the fast reader, its parse deferred to first use
 * (document.ts parseBlockYamlDocuments).
 */
export function parseYamlFile(text: string, previous?: YamlFile, opts: { yamlVersion?: '1.1' | '1.2'; lazy?: boolean } = {}): YamlFile {
  if (opts.lazy && !previous && opts.yamlVersion !== '1.2') {
    const lazy = parseBlockYamlDocuments(text);
    if (lazy) return lazy;
  }
  return parseYamlDocuments(text, { previous, consumePrevious: true, yamlVersion: opts.yamlVersion });
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
  let locator: BlockLocator | undefined;
  let doc: YamlDocument | undefined;
  return {
    rangeOfPath(path, target = 'value') {
      const segs = typeof path === 'string' ? parseFieldPath(path) : path;
      const r = (locator ??= new BlockLocator(text)).pathRange(segs, target === 'key' ? 'key' : 'value');
      if (r) return { start: r.start, end: r.end, on: r.on, exact: true, found: [...segs] };
      return (doc ??= parseYamlDocuments(text).documents[0]).rangeOfPath(segs, target);
    },
  };
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
export function findPath(doc: YamlDocument, segs: readonly PathSegment[]): NodeMatch {
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
export function findWrittenPath(doc: YamlDocument, segs: readonly PathSegment[]): NodeMatch {
  return findPath(doc, doc.writtenPath(segs));
}

/** File offsets [start, end) of a node (its value, without trailing comments). */
export function nodeRange(doc: YamlDocument, node: Node | null | undefined): [number, number] | undefined {
  if (!node?.range) return undefined;
  return [doc.chunkOffset + node.range[0], doc.chunkOffset + node.range[1]];
}

/** File offset of a document's first content node (past its `---` line and leading comments); its start when empty. */
export function contentStart(doc: YamlDocument): number {
  return nodeRange(doc, doc.ast.contents as Node | null)?.[0] ?? doc.start;
}

/** File offsets of a pair's key. */
export function keyRange(doc: YamlDocument, pair: Pair<unknown, unknown> | undefined): [number, number] | undefined {
  if (!pair || !isScalar(pair.key) || !pair.key.range) return undefined;
  return [doc.chunkOffset + pair.key.range[0], doc.chunkOffset + pair.key.range[1]];
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
export function pathAtOffset(doc: YamlDocument, offset: number): PathAt | undefined {
  if (offset < doc.start || offset > doc.end) return undefined;
  const at = doc.pathAt(offset);
  return { segments: at.segments, onKey: at.target === 'key', node: at.node, pair: at.pair };
}

export { isMap, isSeq, isScalar, isPair };
export type { Node, Pair, YamlDocument, YamlFile };
