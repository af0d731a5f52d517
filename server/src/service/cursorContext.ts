/**
 * Where the cursor is in a half-typed YAML document, from indentation alone: the path of keys and list
 * items above it, and whether a key or a value is being typed. Completion needs this on text that does
 * not parse yet, so it does not rely on the parse tree.
 */

/** A segment of a cursor path: a key, or a list item with its index among its siblings. */
export type CursorSegment = { key: string } | { item: number };

export interface CursorContext {
  /** The path of the mapping the cursor is in (for a key) or of the key whose value is typed. */
  path: CursorSegment[];
  /** A key is being typed (`path` is the parent mapping); otherwise the value of `path`'s last key. */
  inKey: boolean;
  /** The word typed so far (key or value). */
  prefix: string;
  /** Column where keys of this mapping start (for snippets and siblings). */
  column: number;
  /** Keys already present in the same mapping. */
  siblings: string[];
  /** For values: the text of the value before the cursor (e.g. inside a CEL rule). */
  valueText?: string;
}

interface LineShape {
  /** Columns of the `- ` markers. */
  dashes: number[];
  /** Column of the content after the markers. */
  column: number;
  key?: string;
  /** Text after `key:` (trimmed). */
  rest?: string;
  blank: boolean;
}

// Spaces before the colon belong to the key's match (trimmed later): a separate `\s*` before `:` would
// backtrack over every space of a long line without a colon (quadratic).
const KEY_RE = /^((?:"[^"]*"\s*|'[^']*'\s*|[^\s#'"{}[\],][^:#]*?)):(?:\s+(.*)|$)/;

function shape(line: string): LineShape {
  const dashes: number[] = [];
  let i = 0;
  for (;;) {
    while (i < line.length && line[i] === ' ') i++;
    if (line[i] === '-' && (i + 1 === line.length || line[i + 1] === ' ')) {
      dashes.push(i);
      i++;
      continue;
    }
    break;
  }
  const content = line.slice(i);
  if (content.trim() === '' || content.trimStart().startsWith('#')) return { dashes, column: i, blank: dashes.length === 0 };
  const m = KEY_RE.exec(content);
  if (!m) return { dashes, column: i, blank: false };
  return { dashes, column: i, key: unquote(m[1].trim()), rest: (m[2] ?? '').trim(), blank: false };
}

/**
 * The word being typed at the end of a value: back to the last space, quote or flow indicator. A backward
 * scan, because a regular expression anchored only at the end retries from every start: quadratic on a
 * long one-line value (4 s for a 50,000-character string).
 */
function valuePrefix(valueText: string): string {
  let i = valueText.length;
  while (i > 0 && !/[\s"'[{,]/.test(valueText[i - 1])) i--;
  return valueText.slice(i);
}

function unquote(k: string): string {
  if ((k.startsWith('"') && k.endsWith('"')) || (k.startsWith("'") && k.endsWith("'"))) return k.slice(1, -1);
  return k;
}

/**
 * The cursor context at (line, character) of a document given as its lines (the document's own lines,
 * starting after any `---`).
 */
export function cursorContext(lines: string[], line: number, character: number): CursorContext {
  const before = lines[line].slice(0, character);
  const cur = shape(before);
  let col: number;
  const path: CursorSegment[] = [];
  let inKey: boolean;
  let prefix: string;
  let valueText: string | undefined;
  let keyPath: string | undefined;
  if ((cur.key !== undefined && /:\s/.test(before.slice(cur.column))) || (cur.key !== undefined && before.endsWith(':'))) {
    inKey = false;
    valueText = cur.rest ?? '';
    prefix = valuePrefix(valueText);
    keyPath = cur.key;
    col = cur.column;
  } else {
    inKey = true;
    prefix = before.slice(cur.column).trim();
    col = cur.column;
  }
  // Walk up: list markers and keys at smaller columns are the containers of the cursor's mapping.
  const stack: CursorSegment[] = [];
  let itemCol: number | null = null;
  for (const d of [...cur.dashes].reverse()) {
    stack.unshift({ item: 0 });
    itemCol = d;
    col = d;
  }
  for (let upper = line - 1; upper >= 0; upper--) {
    const s = shape(lines[upper]);
    if (s.blank || (s.key === undefined && s.dashes.length === 0)) continue;
    if (itemCol !== null && s.dashes.includes(itemCol)) {
      // An earlier sibling item of the list the cursor is in.
      const head = stack[0];
      if (head && 'item' in head) head.item++;
      continue;
    }
    // A key at a smaller column (or at the item's column: a list written flush with its key) is a parent.
    if (s.key !== undefined && s.column < (itemCol ?? col) + (itemCol !== null ? 1 : 0)) {
      stack.unshift({ key: s.key });
      itemCol = null;
      col = s.column;
      for (const d of [...s.dashes].reverse()) {
        stack.unshift({ item: 0 });
        itemCol = d;
        col = d;
      }
      if (col === 0 && itemCol === null) break;
      continue;
    }
    // Our mapping is inside a list item opened on this line (`- name: x` above `  image: y`).
    const opened = s.dashes.filter((d) => d < col);
    if (opened.length) {
      for (const d of [...opened].reverse()) {
        stack.unshift({ item: 0 });
        itemCol = d;
        col = d;
      }
    }
  }
  path.push(...stack);
  if (keyPath !== undefined) path.push({ key: keyPath });
  const siblings = inKey ? siblingKeys(lines, line, cur.column, cur.dashes.length > 0) : [];
  return { path, inKey, prefix, column: cur.column, siblings, valueText };
}

/** Keys at the same column in the same mapping, above and below the cursor line. */
function siblingKeys(lines: string[], line: number, column: number, startsItem: boolean): string[] {
  const out: string[] = [];
  for (let i = line - 1; i >= 0 && !startsItem; i--) {
    const s = shape(lines[i]);
    if (s.blank || (s.key === undefined && s.dashes.length === 0)) continue;
    if (s.column === column && s.key !== undefined) out.push(s.key);
    if (s.column < column || s.dashes.some((d) => d < column) || (s.dashes.length && s.column === column)) break;
  }
  for (let i = line + 1; i < lines.length; i++) {
    const s = shape(lines[i]);
    if (s.blank || (s.key === undefined && s.dashes.length === 0)) continue;
    if (s.dashes.length && s.dashes[0] <= column) break;
    if (s.column < column) break;
    if (s.column === column && s.key !== undefined) out.push(s.key);
  }
  return out;
}
