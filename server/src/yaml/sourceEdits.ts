/**
 * Minimal edits of YAML source, beside the structural rewrite of edit.ts: remove a `key: value` pair with
 * its lines, add lines at the start or end of a block mapping with its indentation, replace a pair by `{}`.
 * Comments and formatting around the edit stay as they are. Offsets are file offsets of `text`, the file
 * `doc` was parsed from; the service turns them into editor ranges.
 */
import { isMap, isScalar, keyRange, nodeRange, type Node, type Pair, type YamlDocument } from './file';

/** Replace the file's text in [start, end) by `newText`. */
export interface SourceEdit {
  start: number;
  end: number;
  newText: string;
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function lineEnd(text: string, offset: number): number {
  const i = text.indexOf('\n', offset);
  return i < 0 ? text.length : i;
}

/** A mapping key as YAML source (quoted when a plain scalar would not read back as the same string). */
export function yamlKeyText(k: string): string {
  return /^[A-Za-z_][\w.-]*$/.test(k) ? k : JSON.stringify(k);
}

/** Removes a `key: value` pair: whole lines in block style, up to the next key after a `- ` or in flow style. */
export function removePair(text: string, doc: YamlDocument, pair: Pair<unknown, unknown>): SourceEdit | undefined {
  const k = keyRange(doc, pair);
  if (!k) return undefined;
  const valueNode = pair.value as Node | null;
  const v = valueNode ? nodeRange(doc, valueNode) : undefined;
  let end = v ? Math.max(v[1], k[1]) : k[1];
  const ls = lineStart(text, k[0]);
  const onOwnLine = text.slice(ls, k[0]).trim() === '';
  let start = k[0];
  if (onOwnLine) {
    // Whole lines: from the key's line start through the end of the value's last line.
    start = ls;
    if (!(end > 0 && text[end - 1] === '\n')) end = lineEnd(text, end) + 1;
    end = Math.min(end, text.length);
  } else {
    // After a `- ` marker or in a flow mapping: up to the next key (or the separator).
    const after = text.slice(end);
    const m = /^[ \t]*(?:#.*)?\n[ \t]*/.exec(after) ?? /^\s*,\s*/.exec(after);
    if (m) end += m[0].length;
  }
  return { start, end, newText: '' };
}

/** Replaces the only pair of a block mapping by `{}` (an empty schema), keeping a list item valid. */
export function replaceWithEmpty(text: string, doc: YamlDocument, pair: Pair<unknown, unknown>): SourceEdit | undefined {
  const k = keyRange(doc, pair);
  if (!k) return undefined;
  const v = pair.value ? nodeRange(doc, pair.value as Node) : undefined;
  let end = v ? Math.max(v[1], k[1]) : k[1];
  if (text[end - 1] === '\n') end--;
  return { start: k[0], end, newText: '{}' };
}

/** The column of a block mapping's keys. */
function mappingIndent(text: string, doc: YamlDocument, map: Node): number | undefined {
  if (!isMap(map) || map.flow || map.items.length === 0) return undefined;
  const first = keyRange(doc, map.items[0] as Pair<unknown, unknown>);
  if (!first) return undefined;
  return first[0] - lineStart(text, first[0]);
}

/**
 * Appends lines to a block mapping, after its last entry (`lines` already indented relative to the
 * mapping: each is prefixed with the mapping's indentation).
 */
export function appendToMapping(text: string, doc: YamlDocument, map: Node, lines: string[]): SourceEdit | undefined {
  const indent = mappingIndent(text, doc, map);
  if (indent === undefined || !isMap(map)) return undefined;
  const last = map.items[map.items.length - 1] as Pair<unknown, unknown>;
  const lastEnd: number = (last.value ? nodeRange(doc, last.value as Node)?.[1] : undefined) ?? keyRange(doc, last)![1];
  const eol = lineEnd(text, lastEnd > 0 && text[lastEnd - 1] === '\n' ? lastEnd - 1 : lastEnd);
  const pad = ' '.repeat(indent);
  return { start: eol, end: eol, newText: lines.map((l) => `\n${pad}${l}`).join('') };
}

/** Inserts lines before the first key of a block mapping (keeping its indentation, after a `- ` too). */
export function prependToMapping(text: string, doc: YamlDocument, map: Node, lines: string[]): SourceEdit | undefined {
  const indent = mappingIndent(text, doc, map);
  if (indent === undefined || !isMap(map)) return undefined;
  const first = keyRange(doc, map.items[0] as Pair<unknown, unknown>)!;
  const pad = ' '.repeat(indent);
  return { start: first[0], end: first[0], newText: lines.map((l) => `${l}\n${pad}`).join('') };
}

/** Whether a block mapping has a key. */
export function hasKey(map: Node | null | undefined, key: string): boolean {
  return isMap(map) && map.items.some((p) => isScalar(p.key) && String(p.key.value) === key);
}
