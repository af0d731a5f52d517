/**
 * Go templates in YAML (Helm chart templates): the text with every template action masked, and which
 * parts of the parsed documents came from the template, so that the literal YAML around the actions can
 * still be checked and nothing the template decides is reported.
 *
 * Masking keeps every offset: an action alone on its line(s) becomes spaces (the line is blank to YAML;
 * Helm renders it as whatever the action prints, usually nothing or a block at `indent`/`nindent N`);
 * an action inside a line becomes a placeholder of the same length (`xxx`), so `image: {{ .Values.image }}`
 * is a string value and `{{ .key }}: v` a key, both marked as coming from the template. The bodies of
 * `define` blocks are not output where they stand and are blanked.
 *
 * The lexer follows Go's text/template (text/template/parse/lex.go): `{{` and `}}` delimiters, `{{- ` and
 * ` -}}` trim markers (an ASCII space next to the dash), comments `{{/* ... *\/}}`, and inside an action
 * double-quoted strings, raw strings and character constants (which may hold `}}`) and newlines.
 */
import { isMap, isPair, isScalar, isSeq, type Node, type Pair } from 'yaml';
import type { PathSegment } from '../engine';

/** What an action does to the output. */
export type TemplateActionKind =
  /** prints something (a pipeline, `template`, `include`, `toYaml`...) */
  | 'output'
  /** `if`, `else`, `range`, `with`, `block`, `define`, `end`, `break`, `continue` */
  | 'control'
  /** prints nothing: a comment or a variable declaration/assignment */
  | 'silent';

/** One `{{ ... }}` action. */
export interface TemplateAction {
  /** Offsets of `{{` and just after `}}`. */
  start: number;
  end: number;
  kind: TemplateActionKind;
  /** The keyword of a control action (`if`, `end`, ...). */
  keyword?: string;
  /** Alone on its line(s) (only blanks and a YAML comment beside it): masked with spaces. */
  ownLine: boolean;
  /**
   * For an action alone on its line: the column its output belongs to. An output action piped into
   * `indent N` / `nindent N` prints at column N; a control action guards the lines after it, at their
   * column; otherwise the action's own column.
   */
  column: number;
}

/** A text with its template actions masked. */
export interface MaskedTemplate {
  /** Same length and line breaks as the original text. */
  text: string;
  actions: TemplateAction[];
  /** Ranges masked with placeholders (actions inside a line), sorted: values and keys there came from the template. */
  spans: { start: number; end: number }[];
  /** The bodies of `define` blocks, blanked (they are output where they are included). */
  defines?: { start: number; end: number }[];
  /** The `${VAR}` references a substitution tool replaces (yaml/substitution.ts), also in `spans`. */
  substitutions?: { start: number; end: number }[];
}

const KEYWORDS = new Set(['if', 'else', 'end', 'range', 'with', 'define', 'block', 'template', 'break', 'continue']);
const OPENERS = new Set(['if', 'range', 'with', 'define', 'block']);
/** An action longer than this is not believed to be one (a stray `{{` in prose). */
const MAX_ACTION_CHARS = 64 * 1024;

interface Lexed {
  start: number;
  end: number;
  /** The action's text between the delimiters and trim markers. */
  body: string;
}

/** The `{{ ... }}` actions of a text, as Go's lexer delimits them. An unclosed `{{` is not an action. */
export function lexTemplateActions(text: string): Lexed[] {
  const out: Lexed[] = [];
  let i = text.indexOf('{{');
  while (i >= 0) {
    const end = actionEnd(text, i);
    if (end < 0) {
      i = text.indexOf('{{', i + 2);
      continue;
    }
    let bodyStart = i + 2;
    if (text[bodyStart] === '-' && isAsciiSpace(text[bodyStart + 1])) bodyStart += 2;
    let bodyEnd = end - 2;
    if (text[bodyEnd - 1] === '-' && isAsciiSpace(text[bodyEnd - 2])) bodyEnd -= 2;
    out.push({ start: i, end, body: text.slice(bodyStart, Math.max(bodyStart, bodyEnd)).trim() });
    i = text.indexOf('{{', end);
  }
  return out;
}

function isAsciiSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\r' || c === '\n';
}

/** The offset just after the `}}` closing the action opened at `start`, or -1. */
function actionEnd(text: string, start: number): number {
  const limit = Math.min(text.length, start + MAX_ACTION_CHARS);
  let i = start + 2;
  if (text[i] === '-' && isAsciiSpace(text[i + 1])) i += 2;
  while (i < limit && isAsciiSpace(text[i])) i++;
  if (text.startsWith('/*', i)) {
    // A comment: up to `*/`, then the closing delimiter (optionally trimmed).
    const close = text.indexOf('*/', i + 2);
    if (close < 0 || close > limit) return -1;
    let j = close + 2;
    while (j < limit && isAsciiSpace(text[j])) j++;
    if (text[j] === '-' && text.startsWith('}}', j + 1)) return j + 3;
    return text.startsWith('}}', j) ? j + 2 : -1;
  }
  while (i < limit) {
    const c = text[i];
    if (c === '}' && text[i + 1] === '}') return i + 2;
    if (c === '"' || c === "'") {
      // Interpreted string or character constant: backslash escapes; a newline ends it (Go: unterminated).
      let j = i + 1;
      while (j < limit && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      if (text[j] !== c) return -1;
      i = j + 1;
    } else if (c === '`') {
      const j = text.indexOf('`', i + 1);
      if (j < 0 || j > limit) return -1;
      i = j + 1;
    } else if (c === '{' && text[i + 1] === '{') {
      return -1; // `{{` cannot appear inside an action
    } else i++;
  }
  return -1;
}

/** How an action's body starts decides what it is. */
function classify(body: string): { kind: TemplateActionKind; keyword?: string } {
  if (body.startsWith('/*')) return { kind: 'silent' };
  if (/^\$[\w]*\s*:?=(?!=)/.test(body)) return { kind: 'silent' };
  const m = /^[A-Za-z_]\w*/.exec(body);
  // `fail "..."` stops the rendering: where it renders nothing is output.
  if (m && m[0] === 'fail') return { kind: 'silent' };
  if (m && KEYWORDS.has(m[0]) && m[0] !== 'template') return { kind: 'control', keyword: m[0] };
  return { kind: 'output', keyword: m && m[0] === 'template' ? 'template' : undefined };
}

/**
 * Whether text holds Go template actions (outside a chart's `templates/` folder, where every `{{` is
 * one). Other tools put `{{ }}` in YAML strings too (Argo Workflows' `{{inputs.parameters.x}}`,
 * `{{=expr}}`): only actions that Go would parse as a pipeline count, i.e. starting with `.`, `$`, a
 * comment, a parenthesis or literal, or a word followed by a space or the end (`include "x" .`, `end`).
 */
export function hasGoTemplateActions(text: string): boolean {
  if (!text.includes('{{')) return false;
  const actions = lexTemplateActions(text).filter((a) => isGoAction(a.body));
  if (actions.length === 0) return false;
  // Actions only in the prose of block scalars (a CRD's description quoting `{{ .cluster.name }}`) are
  // text to the API server, as they are to YAML: such a file is not a template. An action alone on its
  // line that trims blanks or indents what it prints is not prose: it lays out the block's content
  // (`data: |-` then `{{- .Files.Get "x" | nindent 4 }}`), as only a template that writes YAML does.
  const prose = blockScalarContents(text);
  return actions.some((a) => {
    if (laysOutYaml(text, a)) return true;
    // The last range starting at or before the action (the ranges are sorted and disjoint).
    let lo = 0;
    let hi = prose.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (prose[mid].start <= a.start) lo = mid;
      else hi = mid - 1;
    }
    const r = prose[lo];
    return !(r && r.start <= a.start && a.end <= r.end);
  });
}

/** An action alone on its line with a trim marker (`{{-`, `-}}`) or an `indent N` / `nindent N`. */
function laysOutYaml(text: string, a: Lexed): boolean {
  const blank = (c: string) => c === ' ' || c === '\t' || c === '\r';
  for (let i = a.start - 1; i >= 0 && text[i] !== '\n'; i--) if (!blank(text[i])) return false;
  for (let i = a.end; i < text.length && text[i] !== '\n'; i++) if (!blank(text[i])) return false;
  return text.startsWith('{{- ', a.start) || text.endsWith(' -}}', a.end) || /\bn?indent\s+\d/.test(a.body);
}

/** `key: |`, `- key: >-`, `- |` ... (no indentation indicator): the header line of a block scalar. */
const BLOCK_SCALAR_HEADER = /^( *)((?:- +)*)((?:[^\s#'"{[\]},&*!|>%@`?-][^#]*?|"[^"\\]*"|'[^']*'):[ \t]+)?[|>][-+]?[ \t]*(?:#.*)?$/;

/**
 * The content lines of the block scalars of block-style YAML, found line by line: after a header line,
 * the non-blank lines indented deeper than the key (or the `-`) and at least as deep as the first of
 * them, as YAML reads them. Conservative: a header it does not recognize (an indentation indicator, a
 * complex key) adds no range, so the actions there still count.
 */
export function blockScalarContents(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let parent = -1; // the column the content must be deeper than; -1: not in a block scalar
  let content = -1; // the content's indentation (its first non-blank line's)
  let start = 0;
  let last = 0; // end of the last content line
  for (let pos = 0; pos <= text.length; ) {
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = text.length;
    const line = text.slice(pos, nl);
    let ind = 0;
    while (line.charCodeAt(ind) === 32) ind++;
    const blank = line.trim() === '';
    if (parent >= 0) {
      if (blank) {
        pos = nl + 1;
        continue;
      }
      if (ind > parent && (content < 0 || ind >= content)) {
        if (content < 0) content = ind;
        last = nl;
        pos = nl + 1;
        continue;
      }
      if (last > start) out.push({ start, end: last });
      parent = -1;
    }
    const m = blank ? null : BLOCK_SCALAR_HEADER.exec(line.endsWith('\r') ? line.slice(0, -1) : line);
    if (m && (m[2] !== '' || m[3] !== undefined)) {
      // The key's column, or for `- |` the last dash's.
      parent = m[3] !== undefined ? m[1].length + m[2].length : m[1].length + m[2].trimEnd().length - 1;
      content = -1;
      start = nl + 1;
      last = start;
    }
    pos = nl + 1;
  }
  if (parent >= 0 && last > start) out.push({ start, end: last });
  return out;
}

function isGoAction(body: string): boolean {
  if (body === '') return false;
  if (/^[.$("`]|^\/\*|^-?\d/.test(body)) return true;
  const m = /^[A-Za-z_]\w*/.exec(body);
  if (!m) return false;
  const next = body[m[0].length];
  if (next === undefined) return KEYWORDS.has(m[0]);
  return next === ' ' || next === '\t' || next === '\n' || next === '\r' || next === '|';
}

/**
 * Masks the template actions of a text (see the module comment). Undefined when the text has none.
 * The result keeps every offset and every line break of the text.
 */
export function maskTemplate(text: string): MaskedTemplate | undefined {
  const lexed = lexTemplateActions(text);
  if (lexed.length === 0) return undefined;
  const chars = text.split('');
  // Which characters are inside an action.
  const inAction = new Uint8Array(text.length);
  for (const a of lexed) inAction.fill(1, a.start, a.end);
  const lineStart = (o: number) => {
    let s = o;
    while (s > 0 && text[s - 1] !== '\n' && text[s - 1] !== '\r') s--;
    return s;
  };
  const lineEnd = (o: number) => {
    let e = o;
    while (e < text.length && text[e] !== '\n' && text[e] !== '\r') e++;
    return e;
  };
  /** A line whose characters outside actions are blanks, optionally followed by a YAML comment. */
  const templateOnlyLine = (from: number): boolean => {
    const s = lineStart(from);
    const e = lineEnd(from);
    for (let i = s; i < e; i++) {
      if (inAction[i]) continue;
      const c = text[i];
      if (c === ' ' || c === '\t') continue;
      return c === '#' && (i === s || text[i - 1] === ' ' || text[i - 1] === '\t');
    }
    return true;
  };
  const actions: TemplateAction[] = [];
  const spans: { start: number; end: number }[] = [];
  const stack: { keyword: string; bodyStart: number }[] = [];
  const blank: { start: number; end: number }[] = [];
  for (const a of lexed) {
    const c = classify(a.body);
    // Every line the action touches must be template-only for it to stand alone.
    let ownLine = templateOnlyLine(a.start);
    for (let i = a.start; ownLine && i < a.end; i++) if (text[i] === '\n' || text[i] === '\r') ownLine = templateOnlyLine(i + 1 < text.length ? i + 1 : i);
    const actionColumn = a.start - lineStart(a.start);
    let column = actionColumn;
    if (c.kind === 'output') {
      // The last `indent N` / `nindent N` of the pipeline, also inside parentheses (`tpl (toYaml .x | indent 4) .`).
      const ind = /\bn?indent\s+(\d+)\b(?![\s\S]*\bn?indent\s+\d)/.exec(a.body);
      if (ind) column = Number(ind[1]);
    } else if (c.kind === 'control' && c.keyword && (OPENERS.has(c.keyword) || c.keyword === 'else')) {
      const next = nextContentColumn(text, inAction, lineEnd(a.end));
      if (next !== undefined) column = next;
    }
    // `key: {{ ... | nindent N }}` prints a line break first: the block it prints is the key's value,
    // on the lines below, as if the action stood alone (and literal lines after it at column N join it).
    if (!ownLine && c.kind === 'output' && /\|\s*nindent\s+\d+\s*$/.test(a.body) && restOfLineBlank(text, inAction, a.end)) ownLine = true;
    actions.push({ start: a.start, end: a.end, kind: c.kind, keyword: c.keyword, ownLine, column });
    if (c.keyword && OPENERS.has(c.keyword)) stack.push({ keyword: c.keyword, bodyStart: a.end });
    else if (c.keyword === 'end') {
      const open = stack.pop();
      // A `define` body is output where it is included, not here.
      if (open?.keyword === 'define') blank.push({ start: open.bodyStart, end: a.start });
    }
  }
  for (const a of actions) {
    if (a.ownLine) {
      for (let i = a.start; i < a.end; i++) if (chars[i] !== '\n' && chars[i] !== '\r') chars[i] = ' ';
    } else if (a.kind !== 'output' && restOfLineBlank(text, inAction, a.end)) {
      // Prints nothing and ends its line: blanks keep the value before it literal (`x: 1 {{- end }}`).
      for (let i = a.start; i < a.end; i++) chars[i] = ' ';
    } else {
      // Inside a line: a placeholder of the same length, line breaks included (one line to YAML).
      for (let i = a.start; i < a.end; i++) chars[i] = 'x';
      spans.push({ start: a.start, end: a.end });
    }
  }
  for (const b of blank) for (let i = b.start; i < b.end; i++) if (chars[i] !== '\n' && chars[i] !== '\r') chars[i] = ' ';
  collapseBlankedLines(chars, [...actions.filter((a) => a.ownLine), ...blank]);
  const inBlank = (s: { start: number }) => blank.some((b) => s.start >= b.start && s.start < b.end);
  return { text: chars.join(''), actions: actions.filter((a) => !inBlank(a)), spans: spans.filter((s) => !inBlank(s)), defines: blank };
}

/**
 * Lines that only held actions are blank now, but a line of spaces longer than the indentation of a block
 * scalar's first line is an error there (`config: |` followed by `{{- if .x }}` at column 0 is common).
 * Each run of such lines becomes trailing spaces of the line before it and one empty line: the line break
 * before the run moves to the run's end. Offsets of everything else stay; the number of lines does not
 * matter to the parse (positions are mapped with the original text).
 */
function collapseBlankedLines(chars: string[], ranges: { start: number; end: number }[]): void {
  const n = chars.length;
  const isBreak = (c: string | undefined) => c === '\n' || c === '\r';
  const lineStart = (o: number) => {
    let s = o;
    while (s > 0 && !isBreak(chars[s - 1])) s--;
    return s;
  };
  const lineEnd = (o: number) => {
    let e = o;
    while (e < n && !isBreak(chars[e])) e++;
    return e;
  };
  const nextLine = (e: number) => (chars[e] === '\r' && chars[e + 1] === '\n' ? e + 2 : e + 1);
  // The blanked lines, by start offset.
  const lines = new Map<number, number>();
  for (const r of ranges) {
    for (let s = lineStart(r.start); s < n && s <= r.end; ) {
      const e = lineEnd(s);
      let blankLine = true;
      for (let i = s; i < e && blankLine; i++) blankLine = chars[i] === ' ' || chars[i] === '\t';
      if (blankLine) lines.set(s, e);
      if (e >= n) break;
      s = nextLine(e);
    }
  }
  const starts = [...lines.keys()].sort((a, b) => a - b);
  for (let k = 0; k < starts.length; ) {
    const runStart = starts[k];
    let runEnd = lines.get(runStart)!;
    while (k + 1 < starts.length && starts[k + 1] === nextLine(runEnd)) runEnd = lines.get(starts[++k])!;
    k++;
    // The line break before the run (absent at the start of the text).
    let from = runStart - 1;
    if (from < 0 || runEnd <= runStart) continue;
    if (chars[from] === '\n' && chars[from - 1] === '\r') from--;
    for (let i = from; i < runEnd; i++) chars[i] = ' ';
    chars[runEnd - 1] = '\n';
  }
}

/** True when only blanks (or a comment) follow `from` on its line, outside actions. */
function restOfLineBlank(text: string, inAction: Uint8Array, from: number): boolean {
  for (let i = from; i < text.length && text[i] !== '\n' && text[i] !== '\r'; i++) {
    if (inAction[i] || text[i] === ' ' || text[i] === '\t') continue;
    return text[i] === '#';
  }
  return true;
}

/** The column of the first literal content on the lines from `from` on (blank, comment and action-only lines skipped). */
function nextContentColumn(text: string, inAction: Uint8Array, from: number): number | undefined {
  let i = from;
  while (i < text.length) {
    while (i < text.length && (text[i] === '\n' || text[i] === '\r')) i++;
    const s = i;
    let col: number | undefined;
    while (i < text.length && text[i] !== '\n' && text[i] !== '\r') {
      const c = text[i];
      if (col === undefined && !inAction[i] && c !== ' ' && c !== '\t') col = c === '#' ? -1 : i - s;
      i++;
    }
    if (col !== undefined && col >= 0) return col;
    if (i - s > 0 && text.startsWith('---', s)) return undefined;
  }
  return undefined;
}

/**
 * What the template decides in one parsed document, as field paths (keys: see `pathKey`):
 * - `templated`: values and keys that came from an action (placeholders, or a value an own-line action prints);
 * - `open`: objects and lists an own-line action may add fields or items to, or with a templated key;
 * - `conditional`: objects and lists holding `if`/`range`/`with` blocks (some fields present in only some renderings).
 */
export interface TemplateRegions {
  templated: Set<string>;
  open: Set<string>;
  conditional: Set<string>;
  /** The document's only template parts are `${VAR}` references: it is YAML as written (set by the caller). */
  substitutionOnly?: boolean;
}

/** A canonical key for a field path (properties and map keys alike: YAML cannot tell them apart). */
export function pathKey(segs: readonly PathSegment[]): string {
  let s = '';
  for (const g of segs) s += g.kind === 'index' ? `\u0001${g.index}` : `\u0000${g.kind === 'field' ? g.name : g.key}`;
  return s;
}

/** The segments of a `pathKey`: names, and numbers for list indexes. */
export function keySegments(key: string): (string | number)[] {
  const out: (string | number)[] = [];
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the path keys join their segments with NUL/SOH.
  for (const m of key.matchAll(/([\u0000\u0001])([^\u0000\u0001]*)/g)) out.push(m[1] === '\u0001' ? Number(m[2]) : m[2]);
  return out;
}

/** A parsed document as this module needs it (the YAML layer's YamlDocument satisfies it). */
export interface ParsedDocumentView {
  /** The root node; its ranges are relative to `chunkOffset`. */
  contents: Node | null;
  chunkOffset: number;
  start: number;
  end: number;
}

/**
 * The template regions of one document parsed from masked text. `text` is the masked text of the whole
 * file (for columns), `mask` its masking.
 */
export function templateRegions(doc: ParsedDocumentView, text: string, mask: MaskedTemplate): TemplateRegions {
  const regions: TemplateRegions = { templated: new Set(), open: new Set(), conditional: new Set() };
  const base = doc.chunkOffset;
  const spans = mask.spans.filter((s) => s.start < doc.end && s.end > doc.start);
  const overlaps = (n: { range?: [number, number, number] | null } | null | undefined): boolean => {
    const r = n?.range;
    if (!r) return false;
    const s = r[0] + base;
    const e = Math.max(r[1] + base, s + 1);
    return spans.some((sp) => sp.start < e && sp.end > s);
  };
  // Placeholders: templated keys make their object open, templated values and items are templated.
  const walk = (node: unknown, path: PathSegment[], depth: number): void => {
    if (depth > 200 || !node) return;
    if (isMap(node)) {
      for (const p of node.items as Pair[]) {
        const name = keyName(p);
        const child = [...path, { kind: 'field', name } as PathSegment];
        if (overlaps(p.key as Node)) {
          regions.templated.add(pathKey(child));
          regions.open.add(pathKey(path));
          continue;
        }
        if (isScalar(p.value) && overlaps(p.value as Node)) regions.templated.add(pathKey(child));
        else walk(p.value, child, depth + 1);
      }
    } else if (isSeq(node)) {
      node.items.forEach((it, i) => {
        const child = [...path, { kind: 'index', index: i } as PathSegment];
        if (isScalar(it) && overlaps(it as Node)) {
          regions.templated.add(pathKey(child));
          regions.conditional.add(pathKey(path));
        } else walk(it, child, depth + 1);
      });
    } else if (isScalar(node) && overlaps(node as Node)) {
      regions.templated.add(pathKey(path));
    }
  };
  walk(doc.contents, [], 0);
  // Actions alone on their lines: whose object or list they print into, or guard.
  for (const a of mask.actions) {
    if (!a.ownLine || a.start < doc.start || a.start >= doc.end || a.kind === 'silent') continue;
    if (a.kind === 'control' && !(a.keyword && (OPENERS.has(a.keyword) || a.keyword === 'else'))) continue;
    const owner = ownerOf(doc.contents, a.start - base, a.column, text, base);
    if (!owner) continue;
    const key = pathKey(owner.path);
    if (owner.empty || owner.inScalar) regions.templated.add(key);
    else if (a.kind === 'output') regions.open.add(key);
    else regions.conditional.add(key);
  }
  return regions;
}

function keyName(p: Pair): string {
  const k = p.key as unknown;
  if (isScalar(k)) return String(k.value);
  return String(k);
}

/**
 * The collection an action line at `offset` (chunk-relative) with output column `col` belongs to: the
 * deepest block mapping or sequence whose entries sit at or left of `col` and that holds the line. `empty`:
 * the action is the value of a key or item that has none of its own; `inScalar`: it is inside a scalar
 * (a block scalar's text).
 */
function ownerOf(root: Node | null, offset: number, col: number, text: string, base: number): { path: PathSegment[]; empty?: boolean; inScalar?: boolean } | undefined {
  if (!root) return undefined;
  const columnAt = (o: number) => o - lineStartOf(text, o);
  let node: unknown = root;
  const path: PathSegment[] = [];
  for (let depth = 0; depth < 200; depth++) {
    if (isMap(node) || isSeq(node)) {
      const items = node.items as unknown[];
      const seq = isSeq(node);
      const startOf = (it: unknown): number | undefined => {
        const n = isPair(it) ? (it.key as Node | null) : (it as Node | null);
        const s = n?.range?.[0];
        // A list item starts at its dash: `- {{ toYaml . | nindent 6 }}` is an item whose value the action prints
        // (its empty value is placed after the blanked action).
        return s === undefined || !seq ? s : dashOffset(text, s + base) - base;
      };
      const first = items.map(startOf).find((s) => s !== undefined);
      if (first === undefined) return { path };
      if ((node as { flow?: boolean }).flow) return { path, inScalar: true };
      // A sequence's entries are its dashes: the column left of the item's content.
      const entryCol = isSeq(node) ? dashColumn(text, first + base) : columnAt(first + base);
      // The last entry that starts before the line.
      let last = -1;
      for (let i = 0; i < items.length; i++) {
        const s = startOf(items[i]);
        if (s !== undefined && s < offset) last = i;
      }
      const it = last < 0 ? undefined : items[last];
      if (col === entryCol && isPair(it) && isSeq(it.value) && !(it.value as { flow?: boolean }).flow) {
        // `key:` followed by its sequence at the key's own column (`ports:` / `- name: a`).
        const seq = it.value as Node;
        const s0 = (seq as { items: unknown[] }).items.map(startOf).find((s) => s !== undefined);
        if (s0 !== undefined && dashColumn(text, s0 + base) === col && offset <= (seq.range?.[2] ?? 0)) return { path: [...path, { kind: 'field', name: keyName(it) }] };
      }
      if (col <= entryCol || !it) return { path };
      // Deeper than the entries: inside the last entry that starts before the line.
      const value = isPair(it) ? (it.value as Node | null) : (it as Node | null);
      const seg: PathSegment = isPair(it) ? { kind: 'field', name: keyName(it) } : { kind: 'index', index: last };
      if (!value || (isScalar(value) && (value.range?.[1] ?? 0) <= (value.range?.[0] ?? 0))) return { path: [...path, seg], empty: true };
      if (isScalar(value) || (value as { flow?: boolean }).flow) {
        const r = value.range;
        if (r && offset >= r[0] && offset < r[2]) return { path: [...path, seg], inScalar: true };
        return { path };
      }
      path.push(seg);
      node = value;
      continue;
    }
    return { path };
  }
  return { path };
}

/** The column of the `-` of a sequence entry whose content starts at `absOffset` (the dash is left of it). */
function dashColumn(text: string, absOffset: number): number {
  const at = dashOffset(text, absOffset);
  return at - lineStartOf(text, at);
}

/** The offset of the `-` of a sequence entry whose content starts at `absOffset`, or `absOffset`. */
function dashOffset(text: string, absOffset: number): number {
  let i = absOffset - 1;
  while (i >= 0 && (text[i] === ' ' || text[i] === '\t')) i--;
  return text[i] === '-' ? i : absOffset;
}

function lineStartOf(text: string, offset: number): number {
  let s = offset;
  while (s > 0 && text[s - 1] !== '\n' && text[s - 1] !== '\r') s--;
  return s;
}

/**
 * Whether a finding at a field path is about something the template decides, and should not be reported.
 * `completenessDependent`: the finding needs the whole object (a required field, a CEL rule, a junctor,
 * a list-map key...), i.e. it is not reported when the object is checked as a partial one.
 */
export function decidedByTemplate(regions: TemplateRegions, segs: readonly PathSegment[], type: string, completenessDependent: boolean): boolean {
  for (let n = 0; n <= segs.length; n++) if (regions.templated.has(pathKey(segs.slice(0, n)))) return true;
  if (!completenessDependent) return false;
  if (type === 'FieldValueRequired') {
    // A literal field inside an `if` is in the text; only what an action prints can supply a missing one.
    return regions.open.has(pathKey(segs.slice(0, -1)));
  }
  // Anything inside the object (itself included) that the template decides.
  const own = pathKey(segs);
  const inside = (k: string) => k === own || k.startsWith(own + '\u0000') || k.startsWith(own + '\u0001');
  for (const set of [regions.open, regions.conditional, regions.templated]) for (const k of set) if (inside(k)) return true;
  return false;
}
