/**
 * The one CEL token scanner of the engine (strings with prefixes and triple quotes, comments,
 * numbers, identifiers, punctuation). The parser proper is cel-js'; this scanner serves the source
 * rewrite for syntax cel-js lacks (rewriteOptionalEntries in syntax/parse.ts), cel-go's error recovery for `.in`, and the
 * editor queries that need tokens of text that does not parse yet (schema/cel/query.ts).
 */

export type TokenKind = 'ident' | 'number' | 'string' | 'punct' | 'error';

export interface Token {
  kind: TokenKind;
  text: string;
  start: number;
  end: number;
}

const PUNCT = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '+', '-', '*', '/', '%', '!', '?', ':', '.', ',', '(', ')', '[', ']', '{', '}'];

function isIdentStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
}

function isIdentPart(c: string): boolean {
  return isIdentStart(c) || (c >= '0' && c <= '9');
}

/** Scans a string literal starting at i (prefix included); returns its end, or -1 when unterminated. */
function scanString(src: string, i: number): number {
  let j = i;
  let raw = false;
  while (j < src.length && /[rRbB]/.test(src[j])) {
    if (src[j] === 'r' || src[j] === 'R') raw = true;
    j++;
  }
  const q = src[j];
  const triple = src.startsWith(q.repeat(3), j);
  const close = triple ? q.repeat(3) : q;
  j += close.length;
  while (j < src.length) {
    if (!raw && src[j] === '\\') {
      j += 2;
      continue;
    }
    if (src.startsWith(close, j)) return j + close.length;
    if (!triple && (src[j] === '\n' || src[j] === '\r')) return -1;
    j++;
  }
  return -1;
}

/** Tokens of src; an unterminated string or an unknown character becomes an 'error' token to the end. */
export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f') {
      i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (c === '"' || c === "'" || (/[rRbB]/.test(c) && /^[rRbB]{0,1}["']/.test(src.slice(i + 1, i + 3)) && /^[rRbB]{1,2}["']/.test(src.slice(i, i + 3)))) {
      const end = scanString(src, i);
      if (end < 0) {
        out.push({ kind: 'error', text: src.slice(i), start: i, end: src.length });
        return out;
      }
      out.push({ kind: 'string', text: src.slice(i, end), start: i, end });
      i = end;
      continue;
    }
    if (c >= '0' && c <= '9') {
      // cel-go's hex prefix is `0x` only: `0X1f` is the number 0 and the identifier X1f.
      const m = /^(0x[0-9a-fA-F]+[uU]?|\d+\.\d+([eE][+-]?\d+)?|\d+[eE][+-]?\d+|\d+[uU]?)/.exec(src.slice(i, i + 400));
      const len = m ? m[0].length : 1;
      out.push({ kind: 'number', text: src.slice(i, i + len), start: i, end: i + len });
      i += len;
      continue;
    }
    if (c === '.' && src[i + 1] >= '0' && src[i + 1] <= '9') {
      const m = /^\.\d+([eE][+-]?\d+)?/.exec(src.slice(i, i + 400))!;
      out.push({ kind: 'number', text: m[0], start: i, end: i + m[0].length });
      i += m[0].length;
      continue;
    }
    if (c === '`') {
      // A quoted field name (cel-go's ESC_IDENTIFIER): letters, digits and _ . - / and space.
      const m = /^`[A-Za-z0-9_.\-/ ]+`/.exec(src.slice(i, i + 1000));
      if (m) {
        out.push({ kind: 'ident', text: m[0], start: i, end: i + m[0].length });
        i += m[0].length;
        continue;
      }
    }
    if (isIdentStart(c)) {
      let j = i + 1;
      while (j < src.length && isIdentPart(src[j])) j++;
      out.push({ kind: 'ident', text: src.slice(i, j), start: i, end: j });
      i = j;
      continue;
    }
    const p = PUNCT.find((x) => src.startsWith(x, i));
    if (p) {
      out.push({ kind: 'punct', text: p, start: i, end: i + p.length });
      i += p.length;
      continue;
    }
    out.push({ kind: 'error', text: c, start: i, end: i + 1 });
    i++;
  }
  return out;
}

/** Whether a token ends an operand (so a following `[` indexes and a `?` is the conditional). */
export function endsOperand(t: Token | undefined): boolean {
  if (!t) return false;
  if (t.kind === 'ident') return t.text !== 'in';
  if (t.kind === 'number' || t.kind === 'string') return true;
  return t.kind === 'punct' && (t.text === ')' || t.text === ']' || t.text === '}');
}
