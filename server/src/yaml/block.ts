/**
 * A fast reader for the YAML that CRD generators write: one document of block mappings and sequences,
 * plain, quoted and literal (`|`, `|-`, `|+`) scalars, `[]`/`{}` and one-line flow sequences of scalars,
 * comments. It returns the value kubectl reads (the same scalar resolution and key conversion as
 * decode.ts: resolve.ts), 20 to 100 times faster than the full parse, which it is only a shortcut to: for
 * anything else (tabs, CR line ends, anchors, aliases, tags, flow mappings, folded scalars, explicit
 * keys, several documents, duplicate keys, a syntax error, deep nesting) it returns undefined and the
 * caller parses the document fully. test/unit/yaml-block.test.ts holds it to the full parse on every
 * real CRD and on random edits of them.
 *
 * Used where only the value is needed and documents are large: CRDs read from disk (their schemas are
 * parsed on first use, workspace/lightIndex.ts).
 */
import { MAX_YAML_DEPTH, type TokenCounts } from './budget';
import { decodeDoubleQuoted } from './quoted';
import { plainJsonValue, plainMapKey } from './resolve';
import { setKey } from './decode';

/** The reader gives up (the caller parses fully). */
class NotBlockYaml extends Error {}

function giveUp(): never {
  throw new NotBlockYaml();
}

/** mapKey's text of the value in a key error: none here (one function for every key, not one per key). */
const noValue = (): string => '';

/** Characters that may not start a plain scalar here (or that we leave to the full parser), by code. */
const NOT_PLAIN_START = new Uint8Array(128);
for (const c of '&*!%@`?|>[]{},#\'"') NOT_PLAIN_START[c.charCodeAt(0)] = 1;

/** Whether the character at `at` of t (there is one) may not start a plain scalar. */
function notPlainStart(t: string, at: number): boolean {
  const c = t.charCodeAt(at);
  return c < 128 && NOT_PLAIN_START[c] === 1;
}

/**
 * The value of a one-document YAML text as kubectl reads it (YAML 1.1 scalars, as go-yaml v2), or
 * undefined when the text is not plain block YAML (then parse it fully).
 */
export function readBlockYaml(text: string): unknown {
  return readBlockYamlCounted(text)?.value;
}

/**
 * readBlockYaml's value, with upper bounds of the `yaml` lexer's token counts of the text (budget.ts
 * TokenCounts): what the full parse would cost, without lexing the text again. Undefined as readBlockYaml.
 * `keys`: the keys of the documents read before it in the same file (newKeyTable), to use again.
 */
export function readBlockYamlCounted(text: string, keys?: KeyTable): { value: unknown; counts: TokenCounts } | undefined {
  if (text.includes('\t') || text.includes('\r') || text.charCodeAt(0) === 0xfeff) return undefined;
  try {
    const r = new Reader(text, keys);
    const value = r.document();
    return { value, counts: r.counts };
  } catch (e) {
    if (e instanceof NotBlockYaml || e instanceof RangeError) return undefined;
    // resolve.ts refusing a scalar (a bad !!binary, an infinity): the full parse reports it.
    if (e instanceof Error) return undefined;
    throw e;
  }
}

/** The lines of a text: where each starts and ends, its indentation, whether it is empty or has a `#`. */
interface LineArrays {
  /** Offset of each line's first character. */
  starts: Int32Array;
  /** Offset of each line's end (its `\n`, or the end of the text). */
  ends: Int32Array;
  /** Column of each line's first non-space character (the line's length when blank). */
  indents: Int32Array;
  /** 1 where a line is blank or only a comment. */
  empties: Uint8Array;
  /** 1 where a line has a `#` (a comment token, or text that may be one: counted as one). */
  hashes: Uint8Array;
}

function lineArrays(size: number): LineArrays {
  return { starts: new Int32Array(size), ends: new Int32Array(size), indents: new Int32Array(size), empties: new Uint8Array(size), hashes: new Uint8Array(size) };
}

/** Lines of the longest text whose line arrays are kept between reads (a 3 MB CRD has 60,000). */
const MAX_SCRATCH_LINES = 1 << 16;
/**
 * A typed array of more than 64 bytes has its own buffer outside the heap, slow to make and to free (a
 * file of 100 small documents made hundreds): one set serves every read (reads never nest), grown to
 * the most lines read, up to MAX_SCRATCH_LINES.
 */
let scratch = lineArrays(1024);

/** Arrays twice as long, with the lines of `a`. */
function grown(a: LineArrays): LineArrays {
  const b = lineArrays(2 * a.starts.length);
  b.starts.set(a.starts);
  b.ends.set(a.ends);
  b.indents.set(a.indents);
  b.empties.set(a.empties);
  b.hashes.set(a.hashes);
  if (b.starts.length <= MAX_SCRATCH_LINES) scratch = b;
  return b;
}

/**
 * Plain keys read lately, each in a slot chosen by its length and first and last characters (the last
 * one read of that slot): a key repeats in every object of a kind, and one found again, its text
 * compared in full, is used again, without a copy of its text and with its property name already made.
 * One table per file (the strings may hold on to the file's text).
 */
export type KeyTable = ({ raw: string; key: string } | undefined)[];

const KEY_SLOTS = 1024;
/** Longer keys are not kept (a hash of more characters would cost more than it saves). */
const MAX_KEPT_KEY = 64;

export function newKeyTable(): KeyTable {
  return new Array(KEY_SLOTS).fill(undefined);
}

class Reader {
  // The lines, as offsets into the text and flags (no string or object per line: a 3 MB CRD has 60,000 lines).
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly indents: Int32Array;
  private readonly empties: Uint8Array;
  private readonly hashes: Uint8Array;
  private readonly n: number;
  private i = 0;
  private depth = 0;
  /** Where the value after the last key read (key()) starts: no object per key. */
  private keyEnd = 0;
  /**
   * Upper bounds of the lexer's tokens: each line's indentation, newline and comment (with the space
   * before it) counted where the line is read, plus its dashes, keys, colons, scalars and flow punctuation;
   * the lines inside a multi-line scalar are in its one token.
   */
  readonly counts: TokenCounts = { tokens: 1, flowStarts: 0, entries: 0, commas: 0 };

  constructor(
    private readonly text: string,
    private readonly keys: KeyTable | undefined,
  ) {
    let a = scratch;
    const length = text.length;
    // The lines with a `#`, found by a native search of the text (generated YAML has few).
    let hash = text.indexOf('#');
    let j = 0;
    for (let start = 0; ; j++) {
      if (j === a.starts.length) a = grown(a);
      let end = text.indexOf('\n', start);
      if (end < 0) end = length;
      let k = start;
      while (k < end && text.charCodeAt(k) === 32) k++;
      a.starts[j] = start;
      a.ends[j] = end;
      a.indents[j] = k - start;
      a.empties[j] = k === end || text.charCodeAt(k) === 35 /* # */ ? 1 : 0;
      if (hash >= 0 && hash < end) {
        a.hashes[j] = 1;
        hash = text.indexOf('#', end);
      } else {
        a.hashes[j] = 0;
      }
      if (end === length) break;
      start = end + 1;
    }
    this.n = j + 1;
    this.starts = a.starts;
    this.ends = a.ends;
    this.indents = a.indents;
    this.empties = a.empties;
    this.hashes = a.hashes;
  }

  /** Line j's text (for what is rare: quoted and literal scalars, the `---` line). */
  private line(j: number): string {
    return this.text.slice(this.starts[j], this.ends[j]);
  }

  private lineLength(j: number): number {
    return this.ends[j] - this.starts[j];
  }

  /** Whether line j has a sequence entry's dash at col (`-` alone or followed by a space). */
  private dashAt(j: number, col: number): boolean {
    const at = this.starts[j] + col;
    const end = this.ends[j];
    return at < end && this.text.charCodeAt(at) === 45 /* - */ && (end === at + 1 || this.text.charCodeAt(at + 1) === 32);
  }

  document(): unknown {
    this.skipEmpty();
    if (this.i < this.n && this.indents[this.i] === 0 && this.text.startsWith('---', this.starts[this.i])) {
      const rest = this.line(this.i).slice(3);
      if (rest !== '' && !/^ +(#.*)?$/.test(rest)) giveUp();
      this.countLine(this.i);
      this.counts.tokens++;
      this.i++;
      this.skipEmpty();
    }
    if (this.i >= this.n || this.indents[this.i] !== 0) giveUp();
    const v = this.block(0);
    this.skipEmpty();
    if (this.i < this.n) giveUp();
    return v;
  }

  private skipEmpty(): void {
    while (this.i < this.n && this.empties[this.i]) this.countLine(this.i++);
  }

  /** Line j's indentation, newline and comment tokens (as upper bounds). */
  private countLine(j: number): void {
    this.counts.tokens += this.hashes[j] === 1 ? 4 : 2;
  }

  /** The next non-empty line (its index, or the line count), without moving. */
  private peek(): number {
    let j = this.i;
    while (j < this.n && this.empties[j]) j++;
    return j;
  }

  /** A block collection starting at the current line, at its indentation. */
  private block(indent: number): unknown {
    if (++this.depth > MAX_YAML_DEPTH) giveUp();
    const v = this.dashAt(this.i, this.indents[this.i]) ? this.sequence(indent) : this.mapping(indent);
    this.depth--;
    return v;
  }

  private mapping(indent: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (;;) {
      this.skipEmpty();
      const j = this.i;
      if (j >= this.n || this.indents[j] < indent) break;
      if (this.indents[j] > indent) giveUp();
      if (this.dashAt(j, indent)) break; // a compact sequence's end
      const key = this.key(j, indent);
      const restCol = this.keyEnd;
      // The line, the key (a scalar token and its text), the colon and the space after it.
      this.countLine(j);
      this.counts.tokens += 4;
      // A key met before (each is set before the next is read; setKey makes `__proto__` an own key too).
      if (Object.hasOwn(out, key)) giveUp();
      setKey(out, key, this.value(this.text.slice(this.starts[j] + restCol, this.ends[j]), restCol, indent, true));
    }
    return out;
  }

  private sequence(indent: number): unknown[] {
    const out: unknown[] = [];
    for (;;) {
      this.skipEmpty();
      const j = this.i;
      if (j >= this.n || this.indents[j] < indent) break;
      if (this.indents[j] > indent) giveUp();
      if (!this.dashAt(j, indent)) break;
      const start = this.starts[j];
      const end = this.ends[j];
      let col = indent + 1;
      while (start + col < end && this.text.charCodeAt(start + col) === 32) col++;
      const rest = this.text.slice(start + col, end);
      // The line, the dash and the space after it.
      this.countLine(j);
      this.counts.tokens += 2;
      this.counts.entries++;
      if (rest === '' || rest.startsWith('#')) {
        this.i++;
        out.push(this.nested(indent, false));
      } else if (rest === '-' || rest.startsWith('- ') || isKeyLine(rest)) {
        // A compact collection: the item's lines continue at its column.
        this.indents[j] = col;
        out.push(this.block(col));
      } else {
        out.push(this.value(rest, col, indent, false));
      }
    }
    return out;
  }

  /** A key at `indent` of line j: its JSON key (keyEnd: the column of what follows the colon). */
  private key(j: number, indent: number): string {
    const text = this.text;
    const start = this.starts[j];
    const lineEnd = this.ends[j];
    const at = start + indent;
    /** The colon's column. */
    let end: number;
    let key: string;
    const q = text.charCodeAt(at);
    if (q === 34 /* " */ || q === 39 /* ' */) {
      const t = this.line(j);
      const close = q === 39 ? closingSingle(t, indent + 1) : closingDouble(t, indent + 1);
      if (close < 0 || t[close + 1] !== ':') giveUp();
      const raw = t.slice(indent, close + 1);
      key = q === 39 ? raw.slice(1, -1).replaceAll("''", "'") : doubleQuoted(raw);
      end = close + 1;
    } else {
      if (notPlainStart(text, at) || q === 45 /* - */ || q === 58 /* : */) giveUp();
      // The first colon followed by a space or the line's end.
      let colon = text.indexOf(':', at);
      while (colon >= 0 && colon + 1 < lineEnd && text.charCodeAt(colon + 1) !== 32) colon = text.indexOf(':', colon + 1);
      if (colon < 0 || colon >= lineEnd) giveUp();
      const last = text.charCodeAt(colon - 1);
      // A key read before with the same text (compared in full): the same key.
      const keys = this.keys;
      const slot = keys !== undefined && colon - at <= MAX_KEPT_KEY ? ((colon - at) * 31 + q * 7 + last) & (KEY_SLOTS - 1) : -1;
      const known = slot >= 0 ? keys![slot] : undefined;
      if (known !== undefined && known.raw.length === colon - at && text.startsWith(known.raw, at)) {
        key = known.key;
      } else {
        const raw = text.slice(at, colon);
        // (trimEnd only where the last character is not printable ASCII: the rest is never trimmed.)
        if (raw.includes(' #') || ((last <= 32 || last >= 127) && raw !== raw.trimEnd()) || raw === '<<') giveUp();
        key = plainMapKey(raw, noValue);
        if (slot >= 0) keys![slot] = { raw, key };
      }
      end = colon - start;
    }
    const length = lineEnd - start;
    let col = end + 1;
    while (col < length && text.charCodeAt(start + col) === 32) col++;
    if (col === end + 1 && col < length) giveUp();
    this.keyEnd = col;
    return key;
  }

  /**
   * The value after `key:` or `- ` on the current line (`rest`, at column `col`) of a collection at
   * `indent`; moves past it.
   */
  private value(rest: string, col: number, indent: number, inMapping: boolean): unknown {
    const c = rest[0];
    if (rest === '' || c === '#') {
      this.i++;
      return this.nested(indent, inMapping);
    }
    if (c === '"' || c === "'") return this.quoted(rest, col, indent);
    if (c === '|') return this.literal(rest, indent);
    if (c === '[' || c === '{') return this.flow(rest);
    if (notPlainStart(rest, 0) || ((c === '-' || c === ':') && (rest.length === 1 || rest[1] === ' '))) giveUp();
    return this.plain(rest, indent);
  }

  /** What follows a key or dash with nothing after it on its line: a nested collection, or null. */
  private nested(indent: number, inMapping: boolean): unknown {
    const next = this.peek();
    if (next < this.n && this.indents[next] > indent) {
      this.skipEmpty();
      return this.block(this.indents[next]);
    }
    // A mapping's value may be a sequence at the mapping's own indentation.
    if (inMapping && next < this.n && this.indents[next] === indent) {
      if (this.dashAt(next, indent)) {
        this.skipEmpty();
        return this.block(indent);
      }
    }
    return null;
  }

  private plain(first: string, indent: number): unknown {
    this.counts.tokens += 2;
    const hash = first.indexOf(' #');
    const cut = hash >= 0 ? first.slice(0, hash) : first;
    // (trimEnd only where the last character is not printable ASCII: the rest is never trimmed.)
    const last = cut.charCodeAt(cut.length - 1);
    let s = last > 32 && last < 127 ? cut : cut.trimEnd();
    if (s.includes(': ') || s.charCodeAt(s.length - 1) === 58 /* : */) giveUp();
    // A comment ends the scalar: a more indented line after it would be an error.
    const commented = hash >= 0;
    this.i++;
    // Continuation lines, more indented than the collection: folded into one line.
    let breaks = 0;
    for (let j = this.i; j < this.n; j++) {
      const lineIndent = this.indents[j];
      if (lineIndent === this.lineLength(j)) {
        breaks++;
        continue;
      }
      if (lineIndent <= indent) break;
      const t = this.text.slice(this.starts[j] + lineIndent, this.ends[j]);
      if (commented || t.startsWith('#') || t.includes(' #') || t.includes(': ') || t.endsWith(':')) giveUp();
      s += breaks ? '\n'.repeat(breaks) : ' ';
      s += t.trimEnd();
      breaks = 0;
      this.i = j + 1;
    }
    return plainJsonValue(s);
  }

  /** A single- or double-quoted scalar, possibly over several lines. */
  private quoted(rest: string, col: number, indent: number): unknown {
    this.counts.tokens += 2;
    const q = rest[0];
    const close = (t: string, from: number) => (q === "'" ? closingSingle(t, from) : closingDouble(t, from));
    let line = this.line(this.i);
    let end = close(line, col + 1);
    let raw = end >= 0 ? line.slice(col, end + 1) : line.slice(col) + '\n';
    while (end < 0) {
      this.i++;
      // Continuation lines are more indented than the collection (blank ones aside).
      if (this.i >= this.n || (this.indents[this.i] <= indent && this.indents[this.i] < this.lineLength(this.i))) giveUp();
      line = this.line(this.i);
      end = close(line, 0);
      raw += end >= 0 ? line.slice(0, end + 1) : line + '\n';
    }
    const after = line.slice(end + 1);
    if (after !== '' && !/^ +(#.*)?$/.test(after)) giveUp();
    this.i++;
    // A quoted or block scalar is a string (resolveScalar).
    return q === "'" ? singleQuoted(raw) : doubleQuoted(raw);
  }

  /** A literal block scalar (`|`, `|-`, `|+`): lines as they are, less their common indentation. */
  private literal(header: string, indent: number): unknown {
    const m = /^\|([-+]?)( +#.*| *)$/.exec(header);
    if (!m) giveUp();
    // The header (and its comment), the scalar token and its text.
    this.counts.tokens += 5;
    const chomp = m[1];
    this.i++;
    // The content's indentation: that of its first non-blank line.
    let j = this.i;
    while (j < this.n && this.indents[j] === this.lineLength(j)) j++;
    const n = j < this.n && this.indents[j] > indent ? this.indents[j] : undefined;
    const content: string[] = [];
    for (; this.i < this.n; this.i++) {
      const length = this.lineLength(this.i);
      const lineIndent = this.indents[this.i];
      if (lineIndent === length) {
        // Spaces beyond the content's indentation are content: left to the full parse.
        if (n === undefined ? length > indent : length > n) giveUp();
        content.push('');
        continue;
      }
      if (n === undefined || lineIndent < n) break;
      content.push(this.text.slice(this.starts[this.i] + n, this.ends[this.i]));
    }
    // Trailing blank lines are chomped.
    let last = content.length;
    while (last > 0 && content[last - 1] === '') last--;
    const trailing = content.length - last;
    // The blank lines after the scalar belong to what follows.
    this.i -= trailing;
    let s = content.slice(0, last).join('\n');
    if (chomp === '+') s += '\n'.repeat(last > 0 ? trailing + 1 : trailing);
    else if (chomp === '' && last > 0) s += '\n';
    return s;
  }

  /** `[]`, `{}`, or a one-line flow sequence of plain or quoted scalars. */
  private flow(rest: string): unknown {
    const t = cutComment(rest);
    this.i++;
    this.counts.flowStarts++;
    this.counts.tokens += 3;
    if (t === '{}') return {};
    if (t === '[]') return [];
    if (t[0] !== '[' || t[t.length - 1] !== ']') giveUp();
    const out: unknown[] = [];
    let k = 1;
    const end = t.length - 1;
    for (;;) {
      while (t[k] === ' ') k++;
      const c = t[k];
      let item: unknown;
      if (c === '"' || c === "'") {
        const close = c === "'" ? closingSingle(t, k + 1) : closingDouble(t, k + 1);
        if (close < 0 || close >= end) giveUp();
        const raw = t.slice(k, close + 1);
        item = c === "'" ? singleQuoted(raw) : doubleQuoted(raw);
        k = close + 1;
      } else {
        let e = k;
        while (e < end && !',[]{}#:"\''.includes(t[e])) e++;
        const raw = t.slice(k, e).trim();
        if (raw === '' || notPlainStart(raw, 0) || ((raw[0] === '-' || raw[0] === '?') && (raw.length === 1 || raw[1] === ' '))) giveUp();
        item = plainJsonValue(raw);
        k = e;
      }
      out.push(item);
      // The item (a scalar token and its text), the comma and the space after it.
      this.counts.tokens += 4;
      this.counts.commas++;
      while (t[k] === ' ') k++;
      if (k === end) return out;
      if (t[k] !== ',') giveUp();
      k++;
    }
  }
}

/** Whether a line's content (after a dash) starts a mapping: a plain or quoted key followed by `: ` or `:` at its end. */
function isKeyLine(c: string): boolean {
  const q = c[0];
  if (q === '"' || q === "'") {
    const close = q === "'" ? closingSingle(c, 1) : closingDouble(c, 1);
    return close >= 0 && c[close + 1] === ':' && (close + 2 === c.length || c[close + 2] === ' ');
  }
  // The key ends at the first `: `, or before a `:` at the end; no ` #` in it (the first ` #` is past it).
  const i = c.indexOf(': ');
  const end = i >= 0 ? i : c.endsWith(':') ? c.length - 1 : -1;
  if (end < 0) return false;
  const comment = c.indexOf(' #');
  return comment < 0 || comment + 2 > end;
}

/** A plain scalar's text without a trailing comment and spaces. */
function cutComment(s: string): string {
  const i = s.indexOf(' #');
  return (i >= 0 ? s.slice(0, i) : s).trimEnd();
}

/** The index of the quote closing a single-quoted scalar opened before `from` (`''` is a quote), or -1. */
function closingSingle(t: string, from: number): number {
  for (let i = from; i < t.length; i++) {
    if (t[i] !== "'") continue;
    if (t[i + 1] === "'") {
      i++;
      continue;
    }
    return i;
  }
  return -1;
}

/** The index of the quote closing a double-quoted scalar opened before `from`, or -1. */
function closingDouble(t: string, from: number): number {
  for (let q = t.indexOf('"', from); q >= 0; q = t.indexOf('"', q + 1)) {
    // A quote after an odd run of backslashes is escaped (each backslash escapes the next character).
    let run = 0;
    while (q - run - 1 >= from && t.charCodeAt(q - run - 1) === 92) run++;
    if (run % 2 === 0) return q;
  }
  return -1;
}

function doubleQuoted(raw: string): string {
  const r = decodeDoubleQuoted(raw);
  if (!r || !('value' in r)) giveUp();
  return r.value;
}

/** A single-quoted scalar's value: `''` is a quote; line breaks fold (one to a space, more to newlines). */
function singleQuoted(raw: string): string {
  const inner = raw.slice(1, -1);
  if (!inner.includes('\n')) return inner.replaceAll("''", "'");
  const lines = inner.split('\n');
  let s = lines[0].replace(/ +$/, '');
  let breaks = 0;
  for (let i = 1; i < lines.length; i++) {
    const t = i === lines.length - 1 ? lines[i].replace(/^ +/, '') : lines[i].trim();
    if (t === '' && i < lines.length - 1) {
      breaks++;
      continue;
    }
    s += breaks ? '\n'.repeat(breaks) : ' ';
    s += t;
    breaks = 0;
  }
  return s.replaceAll("''", "'");
}

/** A path step, as engine/field's PathSegment (field or map key by name, list item by index). */
type Step = { kind: 'field'; name: string } | { kind: 'key'; key: string } | { kind: 'index'; index: number };

/**
 * Key positions in a text readBlockYaml reads, found by indentation alone (no parse): what a related
 * location in a large CRD read from disk needs, without the full parse and its memory.
 */
export class BlockLocator {
  /** Offsets of line starts; the indentation of each line, -1 when blank or a comment. */
  private starts?: Int32Array;
  private indents?: Int32Array;

  constructor(private readonly text: string) {}

  private index(): void {
    if (this.starts) return;
    const t = this.text;
    const starts: number[] = [0];
    for (let i = t.indexOf('\n'); i >= 0; i = t.indexOf('\n', i + 1)) starts.push(i + 1);
    this.starts = Int32Array.from(starts);
    this.indents = new Int32Array(starts.length);
    for (let l = 0; l < starts.length; l++) {
      const s = starts[l];
      let n = s;
      while (t.charCodeAt(n) === 32) n++;
      const c = t[n];
      this.indents[l] = c === undefined || c === '\n' || c === '#' ? -1 : n - s;
    }
  }

  private lineEnd(l: number): number {
    const next = this.starts![l + 1];
    return next === undefined ? this.text.length : next - 1;
  }

  /** The next content line at or after `l` (undefined at the end). */
  private content(l: number): number | undefined {
    const n = this.starts!.length;
    while (l < n && this.indents![l] < 0) l++;
    return l < n ? l : undefined;
  }

  private isDash(l: number, col: number): boolean {
    const t = this.text;
    const at = this.starts![l] + col;
    return t[at] === '-' && (at + 1 >= t.length || t[at + 1] === ' ' || t[at + 1] === '\n');
  }

  /**
   * The range the full parse's rangeOfPath (document.ts) gives for a path that exists and ends at a key,
   * where indentation alone can tell it: `key`, the key; `value`, a one-line plain or quoted scalar after
   * its key, or the key when the value is empty or a block collection. Undefined for everything else (a
   * missing path, a list item, a multi-line, block or flow value): the caller parses.
   */
  pathRange(steps: readonly Step[], target: 'key' | 'value'): { start: number; end: number; on: 'key' | 'value' } | undefined {
    if (steps.length === 0 || steps[steps.length - 1].kind === 'index') return undefined;
    this.index();
    let first = this.content(0);
    if (first !== undefined && this.indents![first] === 0 && this.text.startsWith('---', this.starts![first])) first = this.content(first + 1);
    if (first === undefined) return undefined;
    let l: number = first;
    let col: number | undefined = this.indents![l];
    for (let i = 0; i < steps.length; i++) {
      const s = steps[i];
      if (col === undefined) return undefined;
      const seq = this.isDash(l, col);
      if (s.kind === 'index') {
        const item: { l: number; col: number | undefined } | undefined = seq ? this.item(l, col, s.index) : undefined;
        if (!item) return undefined;
        ({ l, col } = item);
        continue;
      }
      if (seq) return undefined;
      const found = this.entry(l, col, s.kind === 'field' ? s.name : s.key);
      if (!found) return undefined;
      if (i < steps.length - 1) {
        ({ l, col } = found.value);
        continue;
      }
      const key = {
        start: found.key[0],
        end: found.key[1],
        on: 'key' as const,
      };
      if (target === 'key') return key;
      // A nested block collection, or nothing: the key.
      if (found.value.col !== undefined || found.value.l !== found.line) return key;
      const rest = this.text.slice(found.valueAt, this.lineEnd(found.line));
      if (rest === '' || rest.startsWith('#')) return key;
      return this.scalarOnLine(found.line, col, found.valueAt, rest);
    }
    return undefined;
  }

  /**
   * The range of a scalar that starts at offset `at` of line l (its text `rest`, to the line's end) in a
   * mapping at column col, when it ends on that line; undefined for block, flow and multi-line scalars.
   */
  private scalarOnLine(l: number, col: number, at: number, rest: string): { start: number; end: number; on: 'value' } | undefined {
    const q = rest[0];
    if (q === '|' || q === '>' || q === '[' || q === '{' || q === '&' || q === '*' || q === '!') return undefined;
    // A more indented line after it continues the scalar (or is an error): left to the parse.
    const next = this.content(l + 1);
    if (next !== undefined && this.indents![next] > col) return undefined;
    if (q === '"' || q === "'") {
      const close = q === "'" ? closingSingle(rest, 1) : closingDouble(rest, 1);
      return close < 0 ? undefined : { start: at, end: at + close + 1, on: 'value' };
    }
    const c = rest.indexOf(' #');
    const len = (c >= 0 ? rest.slice(0, c) : rest).trimEnd().length;
    return len > 0 ? { start: at, end: at + len, on: 'value' } : undefined;
  }

  /** The key `name` of the mapping whose first key is on line l at column col: its range and its value. */
  private entry(
    l: number,
    col: number,
    name: string,
  ):
    | {
        key: [number, number];
        line: number;
        valueAt: number;
        value: { l: number; col: number | undefined };
      }
    | undefined {
    const n = this.starts!.length;
    for (let k: number | undefined = l; k !== undefined && k < n; k = this.content(k + 1)) {
      const ind = k === l ? col : this.indents![k];
      if (ind < col) break;
      if (ind > col || this.isDash(k, col)) continue;
      const key = keyAt(this.text, this.starts![k] + col, this.lineEnd(k));
      if (!key) return undefined;
      if (key.name !== name) continue;
      return {
        key: [key.start, key.end],
        line: k,
        valueAt: key.valueAt,
        value: this.valueAfter(k, col, key.valueAt),
      };
    }
    return undefined;
  }

  /** Item `index` of the sequence whose first dash is on line l at column col. */
  private item(l: number, col: number, index: number): { l: number; col: number | undefined } | undefined {
    let seen = -1;
    const n = this.starts!.length;
    for (let k: number | undefined = l; k !== undefined && k < n; k = this.content(k + 1)) {
      const ind = k === l ? col : this.indents![k];
      if (ind < col) break;
      if (ind > col) continue;
      if (!this.isDash(k, col)) break;
      if (++seen < index) continue;
      // After the dash: a compact collection on this line, a nested one below, or a scalar.
      let c = col + 1;
      const start = this.starts![k];
      while (this.text.charCodeAt(start + c) === 32) c++;
      const end = this.lineEnd(k);
      if (start + c >= end || this.text[start + c] === '#') return this.nestedBelow(k, col, false);
      if (this.isDash(k, c) || keyAt(this.text, start + c, end)) return { l: k, col: c };
      return { l: k, col: undefined };
    }
    return undefined;
  }

  /** The value of a key on line k of a mapping at column col, its text starting at offset valueAt. */
  private valueAfter(k: number, col: number, valueAt: number): { l: number; col: number | undefined } {
    const end = this.lineEnd(k);
    if (valueAt < end && this.text[valueAt] !== '#') return { l: k, col: undefined };
    return this.nestedBelow(k, col, true);
  }

  /** The collection on the lines after k (more indented, or a sequence at the mapping's column). */
  private nestedBelow(k: number, col: number, inMapping: boolean): { l: number; col: number | undefined } {
    const next = this.content(k + 1);
    if (next === undefined) return { l: k, col: undefined };
    const ind = this.indents![next];
    if (ind > col || (inMapping && ind === col && this.isDash(next, col))) return { l: next, col: ind };
    return { l: k, col: undefined };
  }
}

/** A mapping key at offset `at` (before `end`, the line's end): its name as findPath compares it, its span, where its value starts. */
function keyAt(t: string, at: number, end: number): { name: string; start: number; end: number; valueAt: number } | undefined {
  const q = t[at];
  let close: number;
  let name: string;
  if (q === '"' || q === "'") {
    const line = t.slice(at, end);
    const c = q === "'" ? closingSingle(line, 1) : closingDouble(line, 1);
    if (c < 0 || line[c + 1] !== ':') return undefined;
    const raw = line.slice(0, c + 1);
    name = q === "'" ? raw.slice(1, -1).replaceAll("''", "'") : doubleQuoted(raw);
    close = at + c + 1;
  } else {
    let i = t.indexOf(':', at);
    while (i >= 0 && i < end && i + 1 < end && t[i + 1] !== ' ') i = t.indexOf(':', i + 1);
    if (i < 0 || i >= end) return undefined;
    close = i;
    try {
      name = plainMapKey(t.slice(at, i), noValue);
    } catch {
      return undefined;
    }
  }
  let v = close + 1;
  while (v < end && t.charCodeAt(v) === 32) v++;
  return { name, start: at, end: close, valueAt: v };
}
