/**
 * A CEL expression's text classified for an editor's highlighting, from the lexer's tokens alone: the text
 * need not parse (it is being typed). An identifier is named by its place: after `.` a field (or, called,
 * a method or a member macro), called without a receiver a function (or `has`), else a variable. Literals,
 * operators, punctuation and the comments between tokens are classified as they are; what the lexer cannot
 * read (an unterminated string to the end, a stray character) is left out.
 */
import { tokenize } from './lexer';
import { MACROS } from './parse';

export type CelHighlightKind = 'keyword' | 'operator' | 'punctuation' | 'string' | 'number' | 'function' | 'method' | 'macro' | 'variable' | 'property' | 'comment';

/** A classified span of the expression (UTF-16 offsets into it, end exclusive). */
export interface CelHighlight {
  kind: CelHighlightKind;
  start: number;
  end: number;
}

/** Literals and the one word operator (cel-go's lexer keywords). */
const KEYWORDS = new Set(['true', 'false', 'null', 'in']);
const OPERATORS = new Set(['==', '!=', '<=', '>=', '&&', '||', '<', '>', '+', '-', '*', '/', '%', '!', '?', ':']);

/** The classified spans of `src`, in source order. */
export function celHighlights(src: string): CelHighlight[] {
  const tokens = tokenize(src);
  const out: CelHighlight[] = [];
  let last = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    comments(src, last, t.start, out);
    last = t.end;
    const kind = kindOf(t.kind, t.text, tokens[i - 1]?.text, tokens[i + 1]?.text);
    if (kind) out.push({ kind, start: t.start, end: t.end });
  }
  comments(src, last, src.length, out);
  return out;
}

function kindOf(token: string, text: string, before: string | undefined, after: string | undefined): CelHighlightKind | undefined {
  switch (token) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'punct':
      return OPERATORS.has(text) ? 'operator' : 'punctuation';
    case 'ident': {
      const called = after === '(';
      if (before === '.') return called ? (MACROS.member.has(text) ? 'macro' : 'method') : 'property';
      if (called) return MACROS.global.has(text) ? 'macro' : 'function';
      return KEYWORDS.has(text) ? 'keyword' : 'variable';
    }
    default:
      return undefined;
  }
}

/** The `//` comments in a gap between tokens (the lexer skipped only blanks and comments there). */
function comments(src: string, from: number, to: number, out: CelHighlight[]): void {
  for (let i = src.indexOf('//', from); i >= 0 && i < to; i = src.indexOf('//', i)) {
    let e = src.indexOf('\n', i);
    if (e < 0 || e > to) e = to;
    out.push({ kind: 'comment', start: i, end: e });
    i = e;
  }
}
