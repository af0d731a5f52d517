/**
 * Kubernetes field paths <-> YAML nodes.
 *
 * The engine reports findings with a field path (`spec.foo[0].bar`, map keys as `[key]`), as
 * PathSegment[] and/or printed. This module finds the YAML node a path names, the deepest existing
 * node when it does not exist, and the reverse: the path of the node under a cursor.
 * All offsets here are relative to the parsed text given to the `yaml` package (a chunk); the
 * document layer adds the chunk's absolute offset.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type Node, type Pair, type YAMLMap } from 'yaml';
import type { PathSegment } from '../engine';

/**
 * Parse a field path as Kubernetes prints it into segments: `a.b[0].c[key]`, `metadata.labels[app.kubernetes.io/name]`.
 * A bracket holding only digits becomes an index, any other bracket a key; resolution against YAML
 * treats both alike (an index on a mapping looks up the key `"0"`, a numeric key on a sequence an index).
 * The root (`""` or `<nil>`) is the empty list. A leading `.` (as in some API server messages) is ignored.
 */
export function parseFieldPath(path: string): PathSegment[] {
  const out: PathSegment[] = [];
  if (path === '' || path === '<nil>') return out;
  let i = path.startsWith('.') ? 1 : 0;
  let name = '';
  const flush = () => {
    if (name !== '') out.push({ kind: 'field', name });
    name = '';
  };
  while (i < path.length) {
    const c = path[i];
    if (c === '.') {
      flush();
      i++;
    } else if (c === '[') {
      flush();
      // The key ends at the first `]` followed by `.`, `[` or the end: keys may contain `.` and `/`.
      let j = i + 1;
      for (;;) {
        const k = path.indexOf(']', j);
        if (k < 0) {
          j = path.length;
          break;
        }
        const next = path[k + 1];
        if (next === undefined || next === '.' || next === '[') {
          j = k;
          break;
        }
        j = k + 1;
      }
      const inner = path.slice(i + 1, j);
      if (/^\d+$/.test(inner) && inner.length < 16) out.push({ kind: 'index', index: Number(inner) });
      else out.push({ kind: 'key', key: inner });
      i = j + 1;
    } else {
      name += c;
      i++;
    }
  }
  flush();
  return out;
}

/** Print segments as Kubernetes' field.Path does (`spec.foo[0].bar`, `spec.m[key]`). */
export function formatFieldPath(segments: readonly PathSegment[]): string {
  let s = '';
  for (const seg of segments) {
    if (seg.kind === 'field') s = s === '' ? seg.name : `${s}.${seg.name}`;
    else if (seg.kind === 'index') s += `[${seg.index}]`;
    else s += `[${seg.key}]`;
  }
  return s;
}

/** One step of a resolved path: the node reached and, when it is a mapping value, its pair. */
export interface PathStep {
  segment: PathSegment;
  /** The value node (undefined for `key:` with nothing parsed after it in broken text). */
  node: Node | null;
  /** The mapping pair holding the value (absent for sequence items). */
  pair?: Pair<unknown, unknown>;
}

/** The result of walking a path as far as it exists. */
export interface PathResolution {
  /** Steps that exist, from the root; `steps.length === segments.length` when the whole path exists. */
  steps: PathStep[];
  /** True when every segment was found. */
  complete: boolean;
}

/** The scalar key text as Kubernetes sees it (YAML `1:` is the key "1"). */
export function keyText(key: unknown): string | undefined {
  if (isScalar(key)) {
    const v = key.value;
    if (v === null || v === undefined) return '';
    if (typeof v === 'symbol') return key.source ?? '<<';
    return String(v);
  }
  if (typeof key === 'string') return key;
  return undefined;
}

/** Follow aliases to the node they name (ranges then point at the anchored node). */
export function resolveAlias(node: unknown, doc: Document): Node | null {
  let n = node as Node | null;
  for (let depth = 0; n && isAlias(n) && depth < 50; depth++) n = aliasTargets(doc).get(n) ?? null;
  return n ?? null;
}

/**
 * Each alias of a document and the node it names: the last node with that anchor before it in document
 * order (as the `yaml` package's Alias.resolve, which walks the whole document on every call: path
 * lookups through many aliases were quadratic). One walk per document; documents with anchors are
 * never updated in place (splice.ts), so the map stays right.
 */
const ALIAS_TARGETS = new WeakMap<Document, Map<Node, Node | null>>();

function aliasTargets(doc: Document): Map<Node, Node | null> {
  let targets = ALIAS_TARGETS.get(doc);
  if (targets) return targets;
  targets = new Map();
  const anchors = new Map<string, Node>();
  const stack: unknown[] = [doc.contents];
  while (stack.length) {
    const n = stack.pop();
    if (!n || typeof n !== 'object') continue;
    pathWork.aliasWalkNodes++;
    if (isPair(n)) {
      stack.push(n.value, n.key);
      continue;
    }
    if (isAlias(n)) {
      targets.set(n, anchors.get(n.source) ?? null);
      continue;
    }
    const a = (n as Node).anchor;
    if (a) anchors.set(a, n as Node);
    if (isMap(n) || isSeq(n)) for (let i = n.items.length - 1; i >= 0; i--) stack.push(n.items[i]);
  }
  ALIAS_TARGETS.set(doc, targets);
  return targets;
}

function isMergeKey(pair: Pair<unknown, unknown>): boolean {
  return isScalar(pair.key) && typeof pair.key.value === 'symbol';
}

/**
 * A mapping's pairs by key text (the last duplicate wins, as in the JSON value; merge keys left out),
 * built once per mapping so that looking up many fields of a wide mapping stays linear. Rebuilt when
 * the mapping's item count changed (nodes updated in place by a splice keep their keys).
 */
/** Work counters of path lookups (tests bound them): pairs put in key indexes, lookups, nodes walked for aliases. */
export const pathWork = { pairsIndexed: 0, lookups: 0, aliasWalkNodes: 0 };

const PAIRS_BY_KEY = new WeakMap<object, { size: number; byKey: Map<string, Pair<unknown, unknown>>; merges: Pair<unknown, unknown>[] }>();

function pairsByKey(map: YAMLMap): { byKey: Map<string, Pair<unknown, unknown>>; merges: Pair<unknown, unknown>[] } {
  const known = PAIRS_BY_KEY.get(map);
  if (known && known.size === map.items.length) return known;
  const byKey = new Map<string, Pair<unknown, unknown>>();
  const merges: Pair<unknown, unknown>[] = [];
  pathWork.pairsIndexed += map.items.length;
  for (const p of map.items as Pair<unknown, unknown>[]) {
    if (isMergeKey(p)) merges.push(p);
    else {
      const k = keyText(p.key);
      if (k !== undefined) byKey.set(k, p);
    }
  }
  const entry = { size: map.items.length, byKey, merges };
  PAIRS_BY_KEY.set(map, entry);
  return entry;
}

/** The pair for `name` in a mapping node, looking through `<<` merge keys (own keys win). */
export function findPair(map: Node, name: string, doc: Document, depth = 0): Pair<unknown, unknown> | undefined {
  if (!isMap(map) || depth > 20) return undefined;
  const { byKey, merges } = pairsByKey(map);
  pathWork.lookups++;
  const found = byKey.get(name);
  if (found) return found;
  for (const p of merges) {
    const v = resolveAlias(p.value, doc);
    const sources = isSeq(v) ? v.items.map((x) => resolveAlias(x, doc)) : [v];
    for (const s of sources) {
      const q = s ? findPair(s, name, doc, depth + 1) : undefined;
      if (q) return q;
    }
  }
  return undefined;
}

/** Walk `segments` from `root` as far as the YAML goes. */
export function resolvePath(root: Node | null, segments: readonly PathSegment[], doc: Document): PathResolution {
  const steps: PathStep[] = [];
  let cur = resolveAlias(root, doc);
  for (const seg of segments) {
    if (!cur) break;
    if (isMap(cur)) {
      const name = seg.kind === 'field' ? seg.name : seg.kind === 'key' ? seg.key : String(seg.index);
      const pair = findPair(cur, name, doc);
      if (!pair) break;
      const value = resolveAlias(pair.value, doc);
      steps.push({ segment: seg, node: value, pair });
      cur = value;
    } else if (isSeq(cur)) {
      const idx = seg.kind === 'index' ? seg.index : seg.kind === 'key' && /^\d+$/.test(seg.key) ? Number(seg.key) : -1;
      if (idx < 0 || idx >= cur.items.length) break;
      const item = cur.items[idx];
      if (isPair(item)) break; // a flow `[a: b]` item; not a Kubernetes shape
      const value = resolveAlias(item, doc);
      steps.push({ segment: seg, node: value });
      cur = value;
    } else break;
  }
  return { steps, complete: steps.length === segments.length };
}

/** What the cursor is on: a mapping key or a value. */
export type PathTarget = 'key' | 'value';

/** The field path at a (chunk-relative) offset. */
export interface PathAtOffset {
  segments: PathSegment[];
  /** `key` when the offset is on the key of the last segment, `value` otherwise. */
  target: PathTarget;
  /** The node at the path (the value node), if any. */
  node: Node | null;
  /** The mapping pair of the last segment, when it is a mapping entry (for its key's range). */
  pair?: Pair<unknown, unknown>;
}

function within(node: unknown, offset: number): boolean {
  const r = (node as Node | null)?.range;
  return !!r && r[0] <= offset && offset <= r[1];
}

/**
 * The Kubernetes path of the innermost node containing `offset` (chunk-relative). An offset between a
 * key and its value (after the colon) counts as on the value. Aliases are not followed (the cursor
 * is in the text, not in the anchored node).
 */
export function pathAtOffset(root: Node | null, offset: number, doc: Document): PathAtOffset {
  void doc;
  const segments: PathSegment[] = [];
  let cur: Node | null = root;
  let pair: Pair<unknown, unknown> | undefined;
  for (let depth = 0; cur && depth < 10000; depth++) {
    if (isMap(cur)) {
      let next: Node | null = null;
      for (const p of cur.items as Pair<unknown, unknown>[]) {
        const k = p.key as Node | null;
        const v = p.value as Node | null;
        const name = keyText(p.key) ?? '';
        if (k && within(k, offset)) {
          segments.push({ kind: 'field', name });
          return { segments, target: 'key', node: v, pair: p };
        }
        const keyEnd = k?.range ? k.range[1] : -1;
        const valueEnd = v?.range ? v.range[1] : keyEnd;
        if (k && offset > keyEnd && offset <= Math.max(valueEnd, keyEnd + 1)) {
          segments.push({ kind: 'field', name });
          pair = p;
          if (v && within(v, offset) && (isMap(v) || isSeq(v))) next = v;
          else return { segments, target: 'value', node: v, pair };
          break;
        }
      }
      if (!next) return { segments, target: 'value', node: cur, pair };
      cur = next;
    } else if (isSeq(cur)) {
      let next: Node | null = null;
      cur.items.forEach((item, i) => {
        if (!next && within(item, offset)) {
          segments.push({ kind: 'index', index: i });
          next = item as Node;
        }
      });
      if (!next) return { segments, target: 'value', node: cur, pair };
      pair = undefined;
      if (!isMap(next) && !isSeq(next)) return { segments, target: 'value', node: next };
      cur = next;
    } else {
      return { segments, target: 'value', node: cur, pair };
    }
  }
  return { segments, target: 'value', node: cur, pair };
}
