/**
 * Quoted scalars as go-yaml v2 (libyaml's scanner) reads them. YAML 1.2, which the `yaml` package
 * follows, added the `\/` escape, which kubectl refuses, and dropped `\'`, which kubectl accepts;
 * libyaml also refuses escapes of surrogates or code points beyond U+10FFFF, and folds NEL like a line
 * feed. And libyaml checks no indentation inside a quoted scalar: its continuation lines may sit at its
 * key's column or left of it (generated CRDs have such descriptions), where the `yaml` package ends the
 * scalar and reports a missing quote. The value is decoded again here so that what kubectl sees decides.
 */
/** The decoded value, or go-yaml's scanner error and the offset (in `raw`) of the escape it refuses. */
export type DoubleQuoted = { value: string } | { error: string; at: number };

/** libyaml's one-character escapes of double-quoted scalars (YAML 1.2 adds `\\/` and drops `\\'`). */
export const DOUBLE_QUOTED_ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  "'": "'",
  '\\': '\\',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
};

function isBlank(c: string | undefined): boolean {
  return c === ' ' || c === '\t';
}

/** libyaml's is_break: CR, LF, NEL, LS, PS. */
function breakLength(raw: string, i: number): number {
  const c = raw[i];
  if (c === '\r') return raw[i + 1] === '\n' ? 2 : 1;
  if (c === '\n' || c === '\u0085' || c === '\u2028' || c === '\u2029') return 1;
  return 0;
}

/** libyaml's read_line: CR LF, CR, LF and NEL read as `\n`; LS and PS kept. */
function lineBreak(raw: string, i: number): string {
  const c = raw[i];
  return c === '\u2028' || c === '\u2029' ? c : '\n';
}

/**
 * Decodes a double-quoted scalar's source (`raw` starts and ends with `"`) as libyaml's
 * yaml_parser_scan_flow_scalar does. Returns undefined when `raw` is not a complete double-quoted
 * scalar (the `yaml` package reports that itself).
 */
export function decodeDoubleQuoted(raw: string): DoubleQuoted | undefined {
  return raw[0] === '"' ? decodeQuoted(raw) : undefined;
}

/**
 * Decodes a single-quoted scalar's source (`raw` starts and ends with `'`) as libyaml does: `''` is a
 * quote, line breaks fold. Undefined when `raw` is not a complete single-quoted scalar.
 */
export function decodeSingleQuoted(raw: string): string | undefined {
  if (raw[0] !== "'") return undefined;
  const r = decodeQuoted(raw);
  return r && 'value' in r ? r.value : undefined;
}

/** yaml_parser_scan_flow_scalar's decoding of a single- or double-quoted scalar's source. */
function decodeQuoted(raw: string): DoubleQuoted | undefined {
  const q = raw[0];
  if (raw.length < 2 || raw[raw.length - 1] !== q) return undefined;
  const single = q === "'";
  // The common case, one line without escapes, is the text between the quotes (no loop over characters).
  const inner = raw.slice(1, -1);
  if (!(single ? /['\r\n\u0085\u2028\u2029]/ : /["\\\r\n\u0085\u2028\u2029]/).test(inner)) return { value: inner };
  const end = raw.length - 1;
  let s = '';
  let i = 1;
  for (;;) {
    if (i > end) return undefined;
    let leadingBlanks = false;
    // Non-blank characters.
    while (i < end && !isBlank(raw[i]) && !breakLength(raw, i)) {
      const c = raw[i];
      if (single) {
        // `''` is a quote; a quote alone would have ended the scalar.
        if (c !== "'") s += c;
        else if (raw[i + 1] === "'" && i + 1 < end) {
          s += "'";
          i++;
        } else return undefined;
        i++;
        continue;
      }
      if (c === '"') return undefined;
      if (c !== '\\') {
        s += c;
        i++;
        continue;
      }
      const e = raw[i + 1];
      const br = breakLength(raw, i + 1);
      if (br) {
        // An escaped line break: the lines join without a space.
        i += 1 + br;
        leadingBlanks = true;
        break;
      }
      const simple = e === undefined ? undefined : DOUBLE_QUOTED_ESCAPES[e];
      if (simple !== undefined) {
        s += simple;
        i += 2;
        continue;
      }
      const len = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
      if (!len || i + 1 >= end) return { error: 'found unknown escape character', at: i };
      const hex = raw.slice(i + 2, i + 2 + len);
      if (hex.length < len || !/^[0-9a-fA-F]+$/.test(hex)) return { error: 'did not find expected hexdecimal number', at: i };
      const cp = parseInt(hex, 16);
      if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return { error: 'found invalid Unicode character escape code', at: i };
      s += String.fromCodePoint(cp);
      i += 2 + len;
    }
    if (i >= end) return { value: s };
    // Blanks and line breaks.
    let whitespaces = '';
    let leadingBreak = '';
    let trailingBreaks = '';
    while (i < end && (isBlank(raw[i]) || breakLength(raw, i))) {
      if (isBlank(raw[i])) {
        if (!leadingBlanks) whitespaces += raw[i];
        i++;
        continue;
      }
      const br = breakLength(raw, i);
      if (!leadingBlanks) {
        whitespaces = '';
        leadingBreak = lineBreak(raw, i);
        leadingBlanks = true;
      } else trailingBreaks += lineBreak(raw, i);
      i += br;
    }
    // Join the whitespace or fold the line breaks.
    if (leadingBlanks) {
      if (leadingBreak === '\n') s += trailingBreaks === '' ? ' ' : trailingBreaks;
      else s += leadingBreak + trailingBreaks;
    } else s += whitespaces;
    if (i >= end) return { value: s };
  }
}

/**
 * The offset just after the quote closing the quoted scalar that opens at `start`, as libyaml's scanner
 * finds it: across lines at any indentation, `''` and backslash escapes skipped. -1 when a line starting
 * with a document marker (`---`, `...`) or the end of the text comes first (go-yaml: "found unexpected
 * document indicator", "found unexpected end of stream").
 */
export function quotedScalarEnd(text: string, start: number): number {
  const q = text[start];
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === q) {
      if (q === "'" && text[i + 1] === "'") {
        i++;
        continue;
      }
      return i + 1;
    }
    if (c === '\\' && q === '"') {
      i++;
      if (text[i] === '\r' && text[i + 1] === '\n') i++;
      continue;
    }
    if ((c === '\n' || c === '\r') && documentMarkerAt(text, i + 1 + (c === '\r' && text[i + 1] === '\n' ? 1 : 0))) return -1;
  }
  return -1;
}

/** A `---` or `...` at `i` followed by a blank, a line break or the end. */
function documentMarkerAt(text: string, i: number): boolean {
  const m = text.slice(i, i + 3);
  if (m !== '---' && m !== '...') return false;
  const after = text[i + 3];
  return after === undefined || after === ' ' || after === '\t' || after === '\n' || after === '\r';
}
