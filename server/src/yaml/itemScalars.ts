/**
 * The scalars of some keys in the items of a named block sequence (the `rule:` and `messageExpression:` of
 * `x-kubernetes-validations:` items), found by reading the text line by line as block YAML is indented:
 * `- ` items, `key:` lines, and the scalars that run over several lines (block scalars, quoted scalars,
 * plain continuation lines) stepped over whole, so that their text is never read as structure. No parse:
 * one pass, linear in the text and only as far as asked, for documents too large to parse for a cosmetic
 * answer (the editor's highlighting of a 3 MB CRD as it opens). Flow collections, anchors, tags and
 * complex keys are not followed: scalars inside them are not found.
 */
import type { Scalar } from 'yaml';
import { quotedScalarEnd } from './quoted';

export interface ItemScalar {
  /** The key whose value it is. */
  key: string;
  type: Scalar.Type;
  /** Its source: from its first character (a block scalar's header) to its value's end. */
  start: number;
  end: number;
  /** The 0-based line of `start`, and the offset where that line starts. */
  line: number;
  lineStart: number;
  /** The 0-based line of `end`. */
  endLine: number;
}

/** Lines read by ItemScalarScan, over all scans (the tests bound the work with it). */
export const itemScalarWork = { lines: 0 };

/** Characters that cannot start a plain key (or start what we do not follow: flow, anchors, tags, templates). */
const NOT_KEY_START = new Set('[]{}&*!|>%@`#?,'.split('').map((c) => c.charCodeAt(0)));

/** The current line of a text: where it starts, its content's end (before `\r\n`), its first non-space. */
class Lines {
  line = -1;
  start = 0;
  end = 0;
  first = 0;
  /** Where the next line starts (past the text's length after the last line). */
  next = 0;

  /** `reach`: how far the text was read, by this reader and the probes that share it. */
  constructor(
    private readonly text: string,
    readonly reach: { at: number },
  ) {}

  /** Moves to the next line; false past the last. */
  advance(): boolean {
    if (this.next > this.text.length) return false;
    this.seek(this.next, this.line + 1);
    return true;
  }

  /** Moves to the line that starts at `start`. */
  seek(start: number, line: number): void {
    const t = this.text;
    itemScalarWork.lines++;
    let nl = t.indexOf('\n', start);
    if (nl < 0) nl = t.length;
    this.line = line;
    this.start = start;
    this.next = nl + 1;
    if (this.next > this.reach.at) this.reach.at = this.next;
    this.end = nl > start && t.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    let f = start;
    while (f < this.end && t.charCodeAt(f) === 32) f++;
    this.first = f;
  }

  /** Moves to where `other` is (a probe that read ahead). */
  take(other: Lines): void {
    this.line = other.line;
    this.start = other.start;
    this.end = other.end;
    this.first = other.first;
    this.next = other.next;
  }

  get indent(): number {
    return this.first - this.start;
  }

  get blank(): boolean {
    return this.first === this.end;
  }
}

/** What is open at a column (ItemScalarScan's stack): a sequence item, a key's value, a `listKey`'s value. */
const ITEM = 0;
const KEY = 1;
const LIST = 2;

/** Where a scan stood after a line: enough to go on from there in an edited text whose first `reach` characters are unchanged. */
interface Checkpoint {
  /** The line last read, and where the next one starts. */
  line: number;
  next: number;
  /** How far the text had been read (looking ahead included). */
  reach: number;
  cols: number[];
  kinds: number[];
  /** How many scalars had been found. */
  found: number;
}

/**
 * The scalar values of `keys` in the items of every block sequence that is the value of a `listKey:`, in
 * text order, found as far as they are asked for: `upTo(line)` reads the text to that line only (the
 * editor asks for the lines it shows, from the top as a document opens) and goes on from there next time.
 * An edited text is read again from the last checkpoint before the edit (`after`).
 */
export class ItemScalarScan {
  /** The scalars found so far (all those starting on the lines read). */
  readonly found: ItemScalar[] = [];
  private readonly reach = { at: 0 };
  private readonly r: Lines;
  // What is open, by column (two stacks, no object per line: a 3 MB CRD has 40,000 keys).
  private readonly cols: number[] = [];
  private readonly kinds: number[] = [];
  private readonly checkpoints: Checkpoint[] = [];
  private done: boolean;

  /** `checkpointLines`: a checkpoint every so many lines (what an edit reads again at most, before the lines asked). */
  constructor(
    private readonly text: string,
    private readonly listKey: string,
    private readonly keys: ReadonlySet<string>,
    private readonly checkpointLines = 1000,
  ) {
    this.r = new Lines(text, this.reach);
    // A lone CR ends a line for YAML and editors but not here: such a text (old Mac line ends) is not read.
    this.done = !text.includes(listKey) || /\r(?!\n)/.test(text);
  }

  /**
   * A scan of `text`, an edit of the text `prev` scanned: what `prev` found before its last checkpoint that
   * read nothing at or after the first changed character is kept, and the scan goes on from there.
   */
  static after(prev: ItemScalarScan, text: string): ItemScalarScan {
    const scan = new ItemScalarScan(text, prev.listKey, prev.keys, prev.checkpointLines);
    if (scan.done) return scan;
    const changed = commonPrefixLength(prev.text, text);
    let n = 0;
    while (n < prev.checkpoints.length && prev.checkpoints[n].reach <= changed) n++;
    if (n === 0) return scan;
    const cp = prev.checkpoints[n - 1];
    scan.checkpoints.push(...prev.checkpoints.slice(0, n));
    scan.found.push(...prev.found.slice(0, cp.found));
    scan.cols.push(...cp.cols);
    scan.kinds.push(...cp.kinds);
    scan.reach.at = cp.reach;
    scan.r.line = cp.line;
    scan.r.next = cp.next;
    return scan;
  }

  /** Reads the text through line `last` (0-based; its scalars included whole) and returns `found`. */
  upTo(last: number): readonly ItemScalar[] {
    const r = this.r;
    while (!this.done && r.line < last) {
      if (!r.advance()) {
        this.done = true;
        break;
      }
      this.readLine();
      const lastCheckpoint = this.checkpoints.length ? this.checkpoints[this.checkpoints.length - 1].line : 0;
      if (r.line - lastCheckpoint >= this.checkpointLines) {
        this.checkpoints.push({ line: r.line, next: r.next, reach: this.reach.at, cols: [...this.cols], kinds: [...this.kinds], found: this.found.length });
      }
    }
    return this.found;
  }

  /** Everything: upTo the last line. */
  all(): readonly ItemScalar[] {
    return this.upTo(Number.MAX_SAFE_INTEGER);
  }

  private readLine(): void {
    const { r, text } = this;
    if (r.blank || text.charCodeAt(r.first) === 35 /* # */) return;
    if (r.indent === 0 && /^(?:---|\.\.\.)(?:[ \t]|$)/.test(text.slice(r.start, r.start + 4))) {
      this.cols.length = 0;
      this.kinds.length = 0;
      return;
    }
    let at = r.first;
    let dashed = false;
    while (at < r.end && text.charCodeAt(at) === 45 /* - */ && (at + 1 === r.end || text.charCodeAt(at + 1) === 32)) {
      this.closeFrom(at - r.start, true);
      this.open(at - r.start, ITEM);
      dashed = true;
      at++;
      while (at < r.end && text.charCodeAt(at) === 32) at++;
    }
    if (at >= r.end || text.charCodeAt(at) === 35) return;
    const key = keyAt(text, at, r.end);
    if (!key) {
      // An item's scalar (`- |`): stepped over. Any other line (a template's, a flow collection's) is not followed.
      if (dashed) stepOver(text, r, at, this.cols[this.cols.length - 1]);
      return;
    }
    const col = at - r.start;
    this.closeFrom(col, false);
    const n = this.kinds.length;
    const name = key.end - key.start;
    const isList = name === this.listKey.length && text.startsWith(this.listKey, key.start);
    const wanted = !isList && n >= 2 && this.kinds[n - 1] === ITEM && this.kinds[n - 2] === LIST && this.keys.has(text.slice(key.start, key.end));
    this.open(col, isList ? LIST : KEY);
    let v = key.valueStart;
    while (v < r.end && (text.charCodeAt(v) === 32 || text.charCodeAt(v) === 9)) v++;
    // Nothing after the colon: a collection comes below, or the value's scalar starts on the next line.
    if (v >= r.end || text.charCodeAt(v) === 35) {
      v = this.scalarBelow(col);
      if (v < 0) return;
    }
    const { line, start: lineStart } = r;
    const s = stepOver(text, r, v, col);
    if (wanted && s) this.found.push({ key: text.slice(key.start, key.end), type: s.type, start: v, end: s.end, line, lineStart, endLine: r.line });
  }

  /**
   * A key's scalar value written on the next line (`rule:` then, deeper, `"self.a..."`): `r` moved to that
   * line and the scalar's start; -1 (`r` unmoved) when the next line is a collection's or not deeper.
   */
  private scalarBelow(col: number): number {
    const { r, text } = this;
    const probe = new Lines(text, r.reach);
    probe.take(r);
    while (probe.advance()) {
      if (probe.blank || text.charCodeAt(probe.first) === 35) continue;
      const at = probe.first;
      const c = text.charCodeAt(at);
      if (probe.indent <= col || (c === 45 && (at + 1 === probe.end || text.charCodeAt(at + 1) === 32)) || (NOT_KEY_START.has(c) && c !== 124 && c !== 62) || keyAt(text, at, probe.end)) return -1;
      r.take(probe);
      return at;
    }
    return -1;
  }

  private open(col: number, kind: number): void {
    this.cols.push(col);
    this.kinds.push(kind);
  }

  /** Closes what a line at `col` ends: deeper entries, and at its own column a key (or, for a dash, an item). */
  private closeFrom(col: number, dash: boolean): void {
    const { cols, kinds } = this;
    while (cols.length) {
      const top = cols[cols.length - 1];
      // A sequence may sit at its key's column (`key:` then `- item`): a dash there keeps the key open.
      if (top > col || (top === col && (!dash || kinds[kinds.length - 1] === ITEM))) {
        cols.pop();
        kinds.pop();
      } else break;
    }
  }
}

/** The key of a `key: value` line's content at `at` (plain or quoted on one line: its name's span), and where its value starts. */
function keyAt(text: string, at: number, end: number): { start: number; end: number; valueStart: number } | undefined {
  const c = text.charCodeAt(at);
  if (c === 34 /* " */ || c === 39 /* ' */) {
    // A quoted key closes on its line (searched there only: a quoted scalar may run on for many lines).
    let q = at + 1;
    for (; q < end; q++) {
      const ch = text.charCodeAt(q);
      if (c === 34 && ch === 92 /* \ */) q++;
      else if (ch === c && c === 39 && text.charCodeAt(q + 1) === 39) q++;
      else if (ch === c) break;
    }
    if (q >= end) return undefined;
    let i = q + 1;
    while (i < end && text.charCodeAt(i) === 32) i++;
    return colonAt(text, i, end) ? { start: at + 1, end: q, valueStart: i + 1 } : undefined;
  }
  if (NOT_KEY_START.has(c)) return undefined;
  for (let i = at; i < end; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 58 /* : */ && colonAt(text, i, end)) {
      let e = i;
      while (e > at && text.charCodeAt(e - 1) === 32) e--;
      return { start: at, end: e, valueStart: i + 1 };
    }
    if (ch === 35 /* # */ && text.charCodeAt(i - 1) === 32) return undefined;
  }
  return undefined;
}

/** A mapping's `:` at i (followed by a blank or the line's end). */
function colonAt(text: string, i: number, end: number): boolean {
  if (text.charCodeAt(i) !== 58) return false;
  const n = text.charCodeAt(i + 1);
  return i + 1 === end || n === 32 || n === 9;
}

/**
 * Steps `r` over the scalar that starts at `v` (in a collection whose entries sit at `parentCol`) to its
 * last line; its type and the end of its value. Undefined (nothing stepped over) for what is not a
 * scalar we follow (a flow collection, an alias, a tag or an anchor).
 */
function stepOver(text: string, r: Lines, v: number, parentCol: number): { type: Scalar.Type; end: number } | undefined {
  const c = text.charCodeAt(v);
  if (c === 34 || c === 39) {
    let end = quotedScalarEnd(text, v);
    // (It read to the closing quote, or to the end of the text when there is none.)
    r.reach.at = Math.max(r.reach.at, end < 0 ? text.length + 1 : end);
    if (end < 0) end = r.end; // unterminated: the YAML is broken; the rest of the line
    while (r.next <= end - 1) r.seek(r.next, r.line + 1);
    return { type: c === 34 ? 'QUOTE_DOUBLE' : 'QUOTE_SINGLE', end };
  }
  if (c === 124 /* | */ || c === 62 /* > */) return { type: c === 124 ? 'BLOCK_LITERAL' : 'BLOCK_FOLDED', end: stepLines(text, r, parentCol, r.end, false) };
  if (NOT_KEY_START.has(c) && c !== 35) return undefined;
  return { type: 'PLAIN', end: stepLines(text, r, parentCol, plainEnd(text, v, r.end), true) };
}

/**
 * Steps `r` over the lines indented deeper than `parentCol` that follow (a block scalar's content, a plain
 * scalar's continuation lines, which a comment ends); the end of the last one's content (`end` if none).
 */
function stepLines(text: string, r: Lines, parentCol: number, end: number, plain: boolean): number {
  let e = end;
  const probe = new Lines(text, r.reach);
  probe.take(r);
  while (probe.advance()) {
    if (probe.blank) continue;
    if (probe.indent <= parentCol || (plain && text.charCodeAt(probe.first) === 35)) break;
    e = plain ? plainEnd(text, probe.first, probe.end) : probe.end;
    r.take(probe);
  }
  return e;
}

/** The end of a plain scalar's text on one line: before a ` #` comment and trailing blanks. */
function plainEnd(text: string, from: number, end: number): number {
  let e = end;
  for (let i = from + 1; i < end; i++) {
    if (text.charCodeAt(i) === 35 && (text.charCodeAt(i - 1) === 32 || text.charCodeAt(i - 1) === 9)) {
      e = i;
      break;
    }
  }
  while (e > from && (text.charCodeAt(e - 1) === 32 || text.charCodeAt(e - 1) === 9)) e--;
  return e;
}

/** How many first characters two texts share (compared in chunks: a 3 MB text in well under a millisecond). */
function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  for (const step of [65536, 4096, 256, 16]) {
    while (i + step <= n && a.slice(i, i + step) === b.slice(i, i + step)) i += step;
  }
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
