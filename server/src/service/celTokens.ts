/**
 * Semantic tokens of the CEL expressions of a CRD's validation rules (`rule:` and `messageExpression:` of
 * `x-kubernetes-validations` items), for the editor's highlighting, on the lines it asks for. The
 * expressions are found without parsing the document (yaml/itemScalars.ts: one pass over its lines as far
 * as asked, kept for the text, read again after an edit from before the edit), so a 3 MB CRD is highlighted
 * as it opens without a parse; each expression on those lines is read as its scalar style decodes it,
 * classified by the engine's CEL lexer (celHighlights), and each span mapped back to its source
 * (scalarSourceOffsets: escapes, `''`, block indentation, folded lines).
 * Token types are the LSP standard ones, so themes color them.
 */
import { celHighlights, type CelHighlightKind } from '../engine';
import { ItemScalarScan, scalarSourceOffsets, scalarSourceValue, type ItemScalar } from '../yaml';

/** A token type, named as the LSP standard names it. */
export type CelTokenType = Exclude<CelHighlightKind, 'punctuation'>;

/**
 * The LSP type of each CEL class. The standard has no punctuation: `.`, `,` and brackets go as operators, so
 * that a theme paints the expression as code (left out, they would keep the YAML string's color).
 */
const TOKEN_TYPE: Readonly<Record<CelHighlightKind, CelTokenType>> = {
  keyword: 'keyword',
  operator: 'operator',
  punctuation: 'operator',
  string: 'string',
  number: 'number',
  function: 'function',
  method: 'method',
  macro: 'macro',
  variable: 'variable',
  property: 'property',
  comment: 'comment',
};

/** One token, on one line (0-based, UTF-16 as LSP counts). */
export interface CelToken {
  line: number;
  character: number;
  length: number;
  type: CelTokenType;
}

/** The keys of a validation rule that hold CEL (the API server compiles both). */
const CEL_KEYS: ReadonlySet<string> = new Set(['rule', 'messageExpression']);

/** Expressions decoded and tokens made, over all calls (the tests bound the work of a request with it). */
export const celTokenWork = { expressions: 0, tokens: 0 };

/**
 * The CEL expressions of a text's validation rules, found as far as asked (keep it for the text); for an
 * edit of the text `previous` scanned, read again only from before the edit.
 */
export function validationExpressions(text: string, previous?: ItemScalarScan): ItemScalarScan {
  return previous ? ItemScalarScan.after(previous, text) : new ItemScalarScan(text, 'x-kubernetes-validations', CEL_KEYS);
}

/** The tokens of the expressions of `text` (found by `scan`, for that text) on lines fromLine..toLine, in order. */
export function celTokens(text: string, scan: ItemScalarScan, fromLine: number, toLine: number): CelToken[] {
  const out: CelToken[] = [];
  const expressions = scan.upTo(toLine);
  // The first expression that may reach fromLine (they are in text order and do not overlap).
  let i = expressions.length;
  while (i > 0 && expressions[i - 1].endLine >= fromLine) i--;
  for (; i < expressions.length; i++) {
    const s: ItemScalar = expressions[i];
    if (s.line > toLine) break;
    if (s.endLine < fromLine) continue;
    celTokenWork.expressions++;
    const raw = text.slice(s.start, s.end);
    const value = scalarSourceValue(raw);
    const map = value === undefined ? undefined : scalarSourceOffsets(raw, s.type, value);
    if (value === undefined || !map) continue;
    const lines = new LineCursor(text, s.line, s.lineStart);
    for (const h of celHighlights(value)) {
      const start = s.start + map[h.start];
      if (start > text.length) break;
      addPieces(text, lines, start, s.start + sourceEnd(raw, map, h.end), TOKEN_TYPE[h.kind], fromLine, toLine, out);
    }
  }
  celTokenWork.tokens += out.length;
  return out;
}

/**
 * The end in `raw` of the value's text before index `e`: where the value's next character comes from (or
 * the content's end), less the blanks, line break and escaped line break (`\` at a line's end) before it.
 */
function sourceEnd(raw: string, map: readonly number[], e: number): number {
  const lastStart = map[e - 1];
  let x = map[e];
  while (x > lastStart + 1 && /\s/.test(raw[x - 1])) x--;
  if (x > lastStart + 1 && raw[x - 1] === '\\' && x < map[e]) x--;
  return x;
}

/** Adds the span start..end as one token per line it covers (a later line's indentation left out). */
function addPieces(text: string, lines: LineCursor, start: number, end: number, type: CelTokenType, fromLine: number, toLine: number, out: CelToken[]): void {
  let a = start;
  while (a < end) {
    const nl = text.indexOf('\n', a);
    const lineEnd = nl < 0 || nl >= end ? end : nl;
    let b = lineEnd;
    if (b > a && text.charCodeAt(b - 1) === 13) b--;
    const p = lines.position(a);
    if (b > a && p.line >= fromLine && p.line <= toLine) out.push({ line: p.line, character: p.character, length: b - a, type });
    if (lineEnd >= end) return;
    a = lineEnd + 1;
    while (a < end && (text.charCodeAt(a) === 32 || text.charCodeAt(a) === 9)) a++;
  }
}

/** Line and character of offsets asked in increasing order, from a known line start on (no index of the whole text). */
class LineCursor {
  private nextBreak: number;

  constructor(
    private readonly text: string,
    private line: number,
    private lineStart: number,
  ) {
    this.nextBreak = text.indexOf('\n', lineStart);
  }

  position(offset: number): { line: number; character: number } {
    while (this.nextBreak >= 0 && this.nextBreak < offset) {
      this.line++;
      this.lineStart = this.nextBreak + 1;
      this.nextBreak = this.text.indexOf('\n', this.lineStart);
    }
    return { line: this.line, character: offset - this.lineStart };
  }
}
