/**
 * Re-parsing only the edited part of a large YAML document. A one-line edit strictly inside a block
 * collection is re-parsed as that collection alone (its text, at its column); when that parse is clean
 * and consumes exactly the collection's text, the collection cannot parse differently in context (its
 * extent is fixed by the unchanged lines around it), so the new node is spliced into the previous AST,
 * the nodes after it are shifted, and the JSON value is rebuilt copy-on-write along the path only.
 * Anything unusual (syntax errors or warnings, anchors, aliases, merge keys, tags, flow collections on
 * the path, multi-line edits other than whole lines deleted or added) gives up, and the caller parses the
 * whole document as before.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type Node } from 'yaml';
import type { TextEdit } from './diff';
import { decodeDocument, setKey } from './decode';
import { SPLICE_MAX_INSERT_CHARS } from './budget';

/** What a splice needs of the previous parse of the document (the document's chunk). */
export interface SpliceSource {
  chunkText: string;
  doc: Document.Parsed;
  /** The previous JSON value, when it was computed, and what decoding it found. */
  value?: { v: unknown; error?: string; problems?: readonly unknown[] };
  /** `1.2` when scalars are read as YAML 1.2 core instead of as kubectl reads them. */
  version?: string;
  /** Whether the AST is free of anchors, aliases and merge keys (set by the first splice attempt). */
  plain?: boolean;
}

export interface SpliceResult {
  chunkText: string;
  doc: Document.Parsed;
  value?: { v: unknown };
}

/** The isolated parse of a piece of text: its document and the deepest collection nesting in it. */
export type ComposeIsolated = (text: string) => { doc: Document.Parsed; depth: number } | undefined;

type Step = { parent: Node; index: number; key?: string };

/**
 * Splices `edit` (chunk-relative) into `src`; undefined when the edit cannot be handled locally.
 * On success the previous AST has been updated in place and belongs to the result: `src` is consumed.
 * The caller makes sure the document has no `%` directives (they would change how tags resolve).
 */
export function spliceDocument(src: SpliceSource, newText: string, edit: TextEdit, compose: ComposeIsolated, maxDepth: number): SpliceResult | undefined {
  const doc = src.doc;
  // A document with findings is re-parsed whole (its findings outside the edit must stay right).
  if (doc.errors.length || doc.warnings.length || src.value?.error || src.value?.problems?.length || !doc.contents) return undefined;
  let removed = src.chunkText.slice(edit.start, edit.oldEnd);
  let inserted = newText.slice(edit.start, edit.newEnd);
  // Where a node starts, as far as holding the edit goes (see startOf).
  let from = (n: Node): number => n.range![0];
  if (/[\r\n]/.test(removed) || /[\r\n]/.test(inserted)) {
    // Whole lines deleted or added (a `type:` line, a property): spliced like a one-line edit.
    const lines = wholeLines(src.chunkText, newText, edit);
    if (!lines) return undefined;
    edit = lines;
    from = startOf(src.chunkText, newText, lines);
    removed = src.chunkText.slice(edit.start, edit.oldEnd);
    inserted = newText.slice(edit.start, edit.newEnd);
  }
  // A long insertion (a pasted one-line list) goes through the full parse and its memory estimate.
  if (inserted.length > SPLICE_MAX_INSERT_CHARS) return undefined;
  // Walked once per parse of the document: a document with anchors is never spliced.
  if (src.plain === false) return undefined;
  if (src.plain === undefined) {
    src.plain = isPlain(doc.contents as Node);
    if (!src.plain) return undefined;
  }
  // The path from the root to the deepest block collection holding the edit strictly inside.
  const spine: Step[] = [];
  let target: Node | undefined;
  let node = doc.contents as Node;
  for (;;) {
    const r = node.range;
    if (!r || !(from(node) < edit.start && edit.oldEnd < r[1])) break;
    if ((isMap(node) || isSeq(node)) && !node.flow && !node.tag && !node.anchor) target = node;
    // A flow or tagged collection is re-parsed as part of the block collection around it.
    else if (isMap(node) || isSeq(node)) break;
    const next = childHolding(node, edit, from);
    if (!next) break;
    spine.push(next.step);
    node = next.node;
  }
  if (isMap(node)) {
    const renamed = spliceKey(src, node, spine, newText, edit);
    if (renamed) return renamed;
  }
  if (!target) return undefined;
  const depthAt = spine.findIndex((s) => s.parent === target);
  const targetSpine = depthAt < 0 ? spine : spine.slice(0, depthAt);
  const [start, end] = target.range!;
  const delta = edit.newEnd - edit.oldEnd;
  const col = start - lineStart(src.chunkText, start);
  const piece = ' '.repeat(col) + newText.slice(start, end + delta);
  const iso = compose(piece);
  if (!iso || iso.depth + targetSpine.length > maxDepth) return undefined;
  const fresh = iso.doc.contents as Node | null;
  const sameKind = fresh && ((isMap(target) && isMap(fresh)) || (isSeq(target) && isSeq(fresh)));
  if (!sameKind || iso.doc.errors.length || iso.doc.warnings.length || (fresh as { flow?: boolean }).flow || fresh.tag || fresh.anchor) return undefined;
  if (!fresh.range || fresh.range[0] !== col || fresh.range[1] !== piece.length || !isPlain(fresh)) return undefined;
  let value: { v: unknown } | undefined;
  if (src.value) {
    const v = spliceValue(src.value.v, targetSpine, iso.doc, piece, src.version === '1.2');
    if (v === NO_VALUE) return undefined;
    value = { v };
  }
  // From here on the previous AST is changed in place.
  shiftNode(fresh, start - col, -1);
  const holder = targetSpine.length ? targetSpine[targetSpine.length - 1] : undefined;
  if (holder) setChild(holder, fresh);
  else (doc as { contents: unknown }).contents = fresh;
  if (delta !== 0) {
    shiftNode(doc.contents as Node, delta, end, fresh);
    if (doc.range) for (let i = 0; i < 3; i++) if (doc.range[i] >= end) doc.range[i] += delta;
  }
  // A new Document object (the service tells documents apart by it) sharing the updated contents.
  const copy = Object.create(Object.getPrototypeOf(doc), Object.getOwnPropertyDescriptors(doc)) as Document.Parsed;
  return { chunkText: newText, doc: copy, value };
}

/**
 * A deletion or an insertion of whole lines, as the same edit at the start of a line: a text diff finds
 * it wherever its common prefix ends (deleting `  type: string` before `  x-kubernetes-...` shares the
 * indentation, and the edit starts after it). Undefined for any other edit with a line break, or with a
 * carriage return (line ends are then not only `\n`).
 */
function wholeLines(before: string, after: string, edit: TextEdit): TextEdit | undefined {
  const deleting = edit.newEnd === edit.start;
  if (deleting === (edit.oldEnd === edit.start)) return undefined;
  const text = deleting ? before : after;
  let start = edit.start;
  let end = deleting ? edit.oldEnd : edit.newEnd;
  if (text.slice(start, end).includes('\r')) return undefined;
  // The same characters go whether the edit is at [start, end) or one to the left, when the one before
  // it is its last (in the text that holds them).
  while (start > 0 && text.charCodeAt(start - 1) !== 10 && text.charCodeAt(start - 1) === text.charCodeAt(end - 1)) {
    start--;
    end--;
  }
  if (start > 0 && text.charCodeAt(start - 1) !== 10) return undefined;
  if (text.charCodeAt(end - 1) !== 10) return undefined;
  return deleting ? { start, oldEnd: end, newEnd: start } : { start, oldEnd: start, newEnd: end };
}

/**
 * Where a node starts for a whole-line edit: a block collection whose first line is the edited one (only
 * its indentation before it, in both texts: a property added above the first one, or the first one
 * deleted) holds the edit as if it started on the line before. Its re-parse then checks that it still
 * starts at its column, after the same indentation, so the lines around it read as before.
 */
function startOf(before: string, after: string, edit: TextEdit): (n: Node) => number {
  return (n) => {
    const at = n.range![0];
    if (!(isMap(n) || isSeq(n)) || n.flow || at < edit.start) return at;
    const spaces = (t: string) => /^ *$/.test(t.slice(edit.start, at));
    return at - edit.start <= 1024 && spaces(before) && spaces(after) ? edit.start - 1 : at;
  };
}

/** A plain key that reads the same in YAML 1.1 and 1.2 and in kubectl's conversion: a string. */
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_./-]*$/;
const SPECIAL_WORDS = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL)$/;

/**
 * An edit inside one plain key of a block mapping (typing in a property name): the key is replaced in
 * place and the mapping's value gets the new name at the same position, so its other entries keep their
 * nodes and values (the CRD checks' memo keeps them). Undefined unless both names are plain words that
 * read as themselves and the new one is not already in the mapping.
 */
function spliceKey(src: SpliceSource, map: Node, spine: Step[], newText: string, edit: TextEdit): SpliceResult | undefined {
  if (!isMap(map) || map.flow) return undefined;
  const i = map.items.findIndex((p) => {
    const r = (p.key as Node | null)?.range;
    return !!r && r[0] <= edit.start && edit.oldEnd <= r[1];
  });
  if (i < 0) return undefined;
  const pair = map.items[i];
  const key = pair.key;
  if (!isScalar(key) || key.type !== 'PLAIN' || key.tag || key.anchor || typeof key.value !== 'string' || !key.range) return undefined;
  const delta = edit.newEnd - edit.oldEnd;
  const name = newText.slice(key.range[0], key.range[1] + delta);
  const old = key.value;
  if (src.chunkText.slice(key.range[0], key.range[1]) !== old) return undefined;
  if (!PLAIN_KEY.test(name) || SPECIAL_WORDS.test(name) || !PLAIN_KEY.test(old) || SPECIAL_WORDS.test(old)) return undefined;
  if (map.items.some((p) => isScalar(p.key) && p.key.value === name)) return undefined;
  let value: { v: unknown } | undefined;
  if (src.value) {
    const v = renameInValue(src.value.v, spine, old, name);
    if (v === NO_VALUE) return undefined;
    value = { v };
  }
  // From here on the previous AST is changed in place; the mapping is a new node (path indexes are per node).
  const doc = src.doc;
  const fresh = Object.create(Object.getPrototypeOf(map), Object.getOwnPropertyDescriptors(map)) as typeof map;
  fresh.items = map.items.slice();
  const k = key.clone() as typeof key;
  k.value = name;
  if ('source' in k) (k as { source?: string }).source = name;
  k.range = [key.range[0], key.range[1] + delta, key.range[2] + delta];
  const p = Object.create(Object.getPrototypeOf(pair), Object.getOwnPropertyDescriptors(pair)) as typeof pair;
  p.key = k;
  fresh.items[i] = p;
  const holder = spine.length ? spine[spine.length - 1] : undefined;
  if (holder) setChild(holder, fresh);
  else (doc as { contents: unknown }).contents = fresh;
  if (delta !== 0) {
    shiftNode(doc.contents as Node, delta, key.range[1], k);
    if (doc.range) for (let j = 0; j < 3; j++) if (doc.range[j] >= key.range[1]) doc.range[j] += delta;
  }
  const copy = Object.create(Object.getPrototypeOf(doc), Object.getOwnPropertyDescriptors(doc)) as Document.Parsed;
  return { chunkText: newText, doc: copy, value };
}

/** The previous value with the mapping at `spine` holding `name` instead of `old`, in its place (copy-on-write). */
function renameInValue(root: unknown, spine: Step[], old: string, name: string): unknown {
  const copyRoot = copyOf(root);
  if (copyRoot === undefined) return NO_VALUE;
  let cur = copyRoot;
  for (const s of spine) {
    const next = s.key !== undefined ? (!Array.isArray(cur) && Object.hasOwn(cur as object, s.key) ? (cur as Record<string, unknown>)[s.key] : undefined) : Array.isArray(cur) ? cur[s.index] : undefined;
    const c = copyOf(next);
    if (c === undefined) return NO_VALUE;
    if (s.key !== undefined) setKey(cur as Record<string, unknown>, s.key, c);
    else (cur as unknown[])[s.index] = c;
    cur = c;
  }
  if (Array.isArray(cur) || !cur || typeof cur !== 'object' || !Object.hasOwn(cur, old) || Object.hasOwn(cur, name)) return NO_VALUE;
  const m = cur as Record<string, unknown>;
  const entries = Object.keys(m).map((k) => [k, m[k]] as const);
  for (const k of Object.keys(m)) delete m[k];
  for (const [k, v] of entries) setKey(m, k === old ? name : k, v);
  return copyRoot;
}

/** The child (pair value or sequence item) whose range holds the edit; keys end the walk. */
function childHolding(node: Node, edit: TextEdit, from: (n: Node) => number): { node: Node; step: Step } | undefined {
  if (isMap(node)) {
    for (let i = 0; i < node.items.length; i++) {
      const p = node.items[i];
      const k = p.key as Node | null;
      if (k?.range && k.range[0] <= edit.oldEnd && edit.start <= k.range[2]) return undefined;
      const v = p.value as Node | null;
      if (v?.range && from(v) <= edit.start && edit.oldEnd <= v.range[2]) {
        if (!isScalar(k) || k.value === '<<') return undefined;
        return { node: v, step: { parent: node, index: i, key: k.value === null || k.value === undefined ? '' : String(k.value) } };
      }
    }
    return undefined;
  }
  if (isSeq(node)) {
    for (let i = 0; i < node.items.length; i++) {
      const it = node.items[i] as Node | null;
      if (isPair(it)) return undefined;
      if (it?.range && from(it) <= edit.start && edit.oldEnd <= it.range[2]) return { node: it, step: { parent: node, index: i } };
    }
  }
  return undefined;
}

function setChild(step: Step, child: Node): void {
  if (isMap(step.parent)) step.parent.items[step.index].value = child;
  else if (isSeq(step.parent)) step.parent.items[step.index] = child;
}

/** No anchors, aliases or merge keys anywhere below (iterative: documents may be deep). */
function isPlain(root: Node): boolean {
  const stack: unknown[] = [root];
  while (stack.length) {
    const n = stack.pop();
    if (!n || typeof n !== 'object') continue;
    if (isAlias(n)) return false;
    if ((n as Node).anchor) return false;
    if (isPair(n)) {
      if (isScalar(n.key) && n.key.value === '<<') return false;
      stack.push(n.key, n.value);
    } else if (isMap(n) || isSeq(n)) for (const it of n.items) stack.push(it);
  }
  return true;
}

/**
 * Adds `delta` to every range offset at or after `from` (all of them when `from` < 0), skipping the
 * subtree `skip` (already placed).
 */
function shiftNode(root: Node, delta: number, from: number, skip?: Node): void {
  const stack: unknown[] = [root];
  while (stack.length) {
    const n = stack.pop() as Node | { key: unknown; value: unknown } | null;
    if (!n || typeof n !== 'object' || n === skip) continue;
    if (isPair(n)) {
      stack.push(n.key, n.value);
      continue;
    }
    const r = (n as Node).range;
    if (r) {
      // A subtree ending before the edit is untouched.
      if (r[2] < from) continue;
      if (r[0] >= from) r[0] += delta;
      if (r[1] >= from) r[1] += delta;
      if (r[2] >= from) r[2] += delta;
    }
    if (isMap(n) || isSeq(n)) for (const it of n.items) stack.push(it);
  }
}

function lineStart(text: string, at: number): number {
  let i = at;
  while (i > 0) {
    const c = text.charCodeAt(i - 1);
    if (c === 10 || c === 13) break;
    i--;
  }
  return i;
}

const NO_VALUE = Symbol('no value');

/** The previous value with the subtree at `spine` replaced by the isolated document's value (copy-on-write). */
function spliceValue(root: unknown, spine: Step[], iso: Document.Parsed, piece: string, yaml12: boolean): unknown {
  const decoded = decodeDocument(iso, piece, { yaml12 });
  // Duplicate keys, values kubectl refuses, ...: the whole document is decoded again instead.
  if (decoded.problems.length) return NO_VALUE;
  const fresh = decoded.value;
  if (!spine.length) return fresh;
  const copyRoot = copyOf(root);
  if (copyRoot === undefined) return NO_VALUE;
  let cur = copyRoot as Record<string, unknown> | unknown[];
  for (let i = 0; i < spine.length; i++) {
    const s = spine[i];
    const last = i === spine.length - 1;
    if (s.key !== undefined) {
      if (Array.isArray(cur) || !Object.hasOwn(cur, s.key)) return NO_VALUE;
      if (last) setKey(cur, s.key, fresh);
      else {
        const c = copyOf(cur[s.key]);
        if (c === undefined) return NO_VALUE;
        setKey(cur, s.key, c);
        cur = c as Record<string, unknown> | unknown[];
      }
    } else {
      if (!Array.isArray(cur) || s.index >= cur.length) return NO_VALUE;
      if (last) cur[s.index] = fresh;
      else {
        const c = copyOf(cur[s.index]);
        if (c === undefined) return NO_VALUE;
        cur[s.index] = c;
        cur = c as Record<string, unknown> | unknown[];
      }
    }
  }
  return copyRoot;
}

function copyOf(v: unknown): unknown {
  if (Array.isArray(v)) return v.slice();
  if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    const o: Record<string, unknown> = {};
    for (const k of Object.keys(v)) setKey(o, k, (v as Record<string, unknown>)[k]);
    return o;
  }
  return undefined;
}
