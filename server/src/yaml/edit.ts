/**
 * Structural edits (engine/crd/edits.ts) applied to the text of one YAML document through the `yaml`
 * package's Document API: moved values are the same nodes, so comments before and beside them travel
 * with them; new keys are inserted where the edit says. The document is printed again in the style it
 * was written in (indentation, `- ` items under or beside their key, compact flow collections).
 * Documents with anchors, aliases or merge keys are not rewritten: moving one side of an alias would
 * change what the other side means.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, parseDocument, visit, Pair, Scalar, YAMLMap, YAMLSeq, type Document, type Node } from 'yaml';
import type { DocumentEdit, JSONPathKeys, KeyPosition } from '../engine';
import { composeOptions, type YamlVersion } from './document';

/** Why a document was not rewritten. */
export type RewriteRefusal = 'syntax errors' | 'anchors or aliases' | 'not one document' | 'a path the edits expect is missing';

/** The rewritten text, or why there is none. */
export type RewriteResult = { text: string } | { refused: RewriteRefusal };

/** Applies `edits` to the YAML document in `text` (one document, possibly with its `---` line). */
export function rewriteYamlDocument(text: string, edits: readonly DocumentEdit[], opts: { yamlVersion?: YamlVersion } = {}): RewriteResult {
  const doc = parseDocument(text, { ...composeOptions(opts.yamlVersion ?? '1.1'), keepSourceTokens: false });
  if (doc.errors.length > 0) return { refused: doc.errors.some((e) => e.code === 'MULTIPLE_DOCS') ? 'not one document' : 'syntax errors' };
  if (hasAnchors(doc)) return { refused: 'anchors or aliases' };
  if (edits.length === 0) return { text };
  const style = writtenStyle(doc, text);
  try {
    for (const e of edits) applyEdit(doc, e);
  } catch (e) {
    if (e instanceof MissingPath) return { refused: 'a path the edits expect is missing' };
    throw e;
  }
  return { text: doc.toString({ lineWidth: 0, minContentWidth: 0, indent: style.indent, indentSeq: style.indentSeq, flowCollectionPadding: false }) };
}

class MissingPath extends Error {}

function hasAnchors(doc: Document): boolean {
  let found = false;
  visit(doc, {
    Node(_, n) {
      if (isAlias(n) || (n as { anchor?: string }).anchor) {
        found = true;
        return visit.BREAK;
      }
      return undefined;
    },
    Pair(_, p) {
      if (isScalar(p.key) && p.key.value === '<<') {
        found = true;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

/** Indentation step and whether block sequences are indented under their key, as written. */
function writtenStyle(doc: Document, text: string): { indent: number; indentSeq: boolean } {
  let indent: number | undefined;
  let indentSeq: boolean | undefined;
  const column = (offset: number) => offset - (text.lastIndexOf('\n', offset - 1) + 1);
  visit(doc, {
    Pair(_, p) {
      const k = p.key as Node | null;
      const v = p.value as Node | null;
      if (!k?.range || !v?.range || !(isMap(v) || isSeq(v)) || v.flow) return undefined;
      // The value starts on a later line than its key (a block collection).
      if (!text.slice(k.range[1], v.range[0]).includes('\n')) return undefined;
      const d = column(v.range[0]) - column(k.range[0]);
      if (isMap(v) && indent === undefined && d > 0) indent = d;
      if (isSeq(v) && indentSeq === undefined) indentSeq = d > 0;
      return indent !== undefined && indentSeq !== undefined ? visit.BREAK : undefined;
    },
  });
  return { indent: indent ?? 2, indentSeq: indentSeq ?? true };
}

type Collection = YAMLMap<unknown, unknown> | YAMLSeq<unknown>;

function keyOf(p: Pair<unknown, unknown>): unknown {
  return isScalar(p.key) ? p.key.value : p.key;
}

function pairIndex(map: YAMLMap<unknown, unknown>, key: string): number {
  return map.items.findIndex((p) => String(keyOf(p)) === key);
}

/** The node at a path (undefined when absent). */
function nodeAt(doc: Document, path: JSONPathKeys): unknown {
  let n: unknown = doc.contents;
  for (const k of path) {
    if (typeof k === 'number') n = isSeq(n) ? n.items[k] : undefined;
    else if (isMap(n)) {
      const i = pairIndex(n, k);
      n = i >= 0 ? n.items[i].value : undefined;
    } else n = undefined;
    if (n === undefined) return undefined;
  }
  return n;
}

/** The collection at a path, creating missing maps on the way. */
function ensureCollection(doc: Document, path: JSONPathKeys, nextIsIndex: boolean): Collection {
  if (path.length === 0) {
    if (!isMap(doc.contents) && !isSeq(doc.contents)) throw new MissingPath();
    return doc.contents as Collection;
  }
  const existing = nodeAt(doc, path);
  if (isMap(existing) || isSeq(existing)) return existing as Collection;
  const created = nextIsIndex ? new YAMLSeq() : new YAMLMap();
  insert(doc, path, created, {});
  return created as Collection;
}

/** Sets `node` at `path` (replacing the value of an existing key in place), with the key's comments when given. */
function insert(doc: Document, path: JSONPathKeys, node: unknown, pos: KeyPosition, keyFrom?: Pair<unknown, unknown>): void {
  const key = path[path.length - 1];
  const parent = ensureCollection(doc, path.slice(0, -1), typeof key === 'number');
  if (typeof key === 'number') {
    if (!isSeq(parent) || key > parent.items.length) throw new MissingPath();
    parent.items[key] = node;
    return;
  }
  if (!isMap(parent)) throw new MissingPath();
  const i = pairIndex(parent, key);
  if (i >= 0) {
    parent.items[i].value = node;
    return;
  }
  const k = new Scalar(key);
  if (keyFrom && isScalar(keyFrom.key)) {
    k.commentBefore = keyFrom.key.commentBefore;
    k.spaceBefore = keyFrom.key.spaceBefore;
  }
  const pair = new Pair(k, node);
  let at = parent.items.length;
  if (pos.first) at = 0;
  else if (pos.before !== undefined) {
    const b = pairIndex(parent, pos.before);
    if (b >= 0) at = b;
  }
  // A comment above the first key belongs to the mapping's first line: keep it there.
  if (at === 0 && parent.items.length > 0) {
    const first = parent.items[0].key;
    if (isScalar(first) && first.commentBefore) {
      k.commentBefore = [first.commentBefore, k.commentBefore].filter(Boolean).join('\n');
      first.commentBefore = undefined;
    }
  }
  parent.items.splice(at, 0, pair);
}

/** Removes the pair or item at a path; returns the removed pair (maps) for its comments. */
function remove(doc: Document, path: JSONPathKeys): Pair<unknown, unknown> | undefined {
  const key = path[path.length - 1];
  const parent = nodeAt(doc, path.slice(0, -1));
  if (typeof key === 'number') {
    if (isSeq(parent) && key < parent.items.length) parent.items.splice(key, 1);
    return undefined;
  }
  if (!isMap(parent)) return undefined;
  const i = pairIndex(parent, key);
  if (i < 0) return undefined;
  const [pair] = parent.items.splice(i, 1);
  return isPair(pair) ? pair : undefined;
}

function applyEdit(doc: Document, e: DocumentEdit): void {
  switch (e.op) {
    case 'set':
      insert(doc, e.path, doc.createNode(e.value), e);
      return;
    case 'remove':
      remove(doc, e.path);
      return;
    case 'rename': {
      const parent = nodeAt(doc, e.path.slice(0, -1));
      const key = e.path[e.path.length - 1];
      if (!isMap(parent) || typeof key !== 'string') return;
      const i = pairIndex(parent, key);
      if (i < 0) return;
      const k = parent.items[i].key;
      if (isScalar(k)) k.value = e.to;
      else parent.items[i].key = new Scalar(e.to);
      return;
    }
    case 'move':
    case 'copy': {
      const node = nodeAt(doc, e.from);
      if (node === undefined) return;
      if (e.op === 'copy') {
        insert(doc, e.path, (node as Node).clone?.() ?? node, e);
        return;
      }
      const pair = remove(doc, e.from);
      insert(doc, e.path, node, e, pair);
      return;
    }
  }
}
