/**
 * CEL parsing as cel-go does it (parser/parser.go, parser/macro.go, ext comprehension macros):
 * text -> cel-go's AST with macros expanded, node ids and cel-go's issue locations.
 *
 * The grammar is @marcbachmann/cel-js' parser (a well-kept CEL parser; writing our own would only
 * repeat it). Where its syntax falls short of cel-go's, one source rewrite (optional entries in
 * list/map literals, which it lacks) runs first, offsets unchanged; docs/cel-js-proposals.md holds
 * what we proposed upstream. Its errors are reworded as cel-go's ANTLR errors.
 */
import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import { MAX_INT64, MAX_UINT64, Uint } from '../common/types';
import { ACCUMULATOR, type ComprehensionExpr, type Expr, type MacroCall, type ParsedAst } from './ast';
import { endsOperand, tokenize, type Token } from './lexer';

/** A syntax error: cel-go's message and the offset it reports it at. */
export interface SyntaxIssue {
  message: string;
  offset: number;
  /** Source range of the offending text (for editors). */
  range: { start: number; end: number };
}

export type ParseResult = { ok: true; ast: ParsedAst } | { ok: false; issues: SyntaxIssue[] };

/** cel-go's parser limits as the API server configures them (cel.ParserRecursionLimit, expression size). */
const MAX_RECURSION_DEPTH = 250;
const MAX_EXPRESSION_CODE_POINTS = 100_000;

/** Which macros the environment has (two-variable comprehensions came with Kubernetes 1.32, sortBy with 1.34). */
export interface MacroOptions {
  twoVarComprehensions: boolean;
  sortBy: boolean;
}

export const ALL_MACROS: MacroOptions = { twoVarComprehensions: true, sortBy: true };

/** The names the parser expands as macros (expandMacro below): `has(x.f)`, and calls on a receiver (`l.all(x, p)`). */
export const MACROS: { global: ReadonlySet<string>; member: ReadonlySet<string> } = {
  global: new Set(['has']),
  member: new Set(['all', 'exists', 'exists_one', 'existsOne', 'map', 'filter', 'transformList', 'transformMap', 'transformMapEntry', 'optMap', 'optFlatMap', 'sortBy']),
};

let parserEnv: Environment | undefined;
function celJs(): Environment {
  if (parserEnv) return parserEnv;
  // Loaded with the first rule parsed: the module builds its own function registry when it loads.
  const { Environment } = require('@marcbachmann/cel-js') as typeof import('@marcbachmann/cel-js');
  parserEnv = new Environment({
    unlistedVariablesAreDyn: true,
    enableOptionalTypes: true,
    limits: { maxAstNodes: 200_000, maxDepth: 2000, maxListElements: 200_000, maxMapEntries: 200_000, maxCallArguments: 64 },
  });
  return parserEnv;
}

// ---------------------------------------------------------------------------------------------
// The one rewrite: syntax cel-js lacks, made parseable with offsets unchanged and recorded for the
// converter: optional entries of list and map literals (`[a, ?b]`, `{?k: v}`), floats without a
// leading digit (`.5`), quoted field names (`` x.`a.b` ``), raw bytes literals (`br'\n'`); and the
// bytes literals cel-js reads as Latin-1 (`b'é'` is two bytes in cel-go).

interface OptionalEntry {
  /** Offset of the literal's `[` or `{`. */
  literal: number;
  index: number;
}

interface Rewrite {
  text: string;
  entries: OptionalEntry[];
  /** Float literals written `.5`: the offset of their placeholder and the value. */
  floats: Map<number, number>;
  /** Quoted field names: the end offset of the select and the name. */
  fields: Map<number, string>;
  /** Bytes literals by start offset, decoded as cel-go does. */
  bytes: Map<number, Uint8Array>;
  /** A syntax error cel-js would not report (`0X1f`). */
  issue?: SyntaxIssue;
  /** The first token that cannot follow the operand before it (`1a`, `x.5`), worded as ANTLR words it. */
  afterOperand?: SyntaxIssue;
}

function rewriteSource(src: string, tokens: Token[]): Rewrite {
  const out: Rewrite = { text: src, entries: [], floats: new Map(), fields: new Map(), bytes: new Map() };
  const stack: { open: string; start: number; literal: boolean; index: number; call: boolean }[] = [];
  // Replacements are collected in source order and applied once (a long rule may hold thousands).
  const parts: string[] = [];
  let copied = 0;
  const replace = (t: Token, text: string) => {
    parts.push(src.slice(copied, t.start), text);
    copied = t.end;
  };
  let prev: Token | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (!out.afterOperand && t.kind !== 'punct' && t.kind !== 'error' && t.text !== 'in' && endsOperand(prev)) {
      out.afterOperand = unexpectedAfterOperand(t, tokens[i + 1], stack[stack.length - 1]);
    }
    if (t.kind === 'punct') {
      if (t.text === '[' || t.text === '{' || t.text === '(') {
        stack.push({ open: t.text, start: t.start, literal: t.text !== '(' && !endsOperand(prev), index: 0, call: t.text === '(' && prev?.kind === 'ident' });
      } else if (t.text === ']' || t.text === '}' || t.text === ')') {
        stack.pop();
      } else if (t.text === ',') {
        const top = stack[stack.length - 1];
        if (top) top.index++;
      } else if (t.text === '?') {
        const top = stack[stack.length - 1];
        const atEntryStart = prev?.kind === 'punct' && (prev.text === ',' || prev.text === '[' || prev.text === '{');
        if (top?.literal && atEntryStart) {
          out.entries.push({ literal: top.start, index: top.index });
          replace(t, ' ');
        }
      }
    } else if (t.kind === 'number' && t.text.startsWith('.')) {
      // cel-go's NUM_FLOAT needs no digit before the point: the placeholder ` 1` parses as a number.
      out.floats.set(t.start + 1, Number(`0${t.text}`));
      replace(t, ` 1${' '.repeat(t.text.length - 2)}`);
    } else if (t.kind === 'number' && t.text === '0' && !out.issue) {
      // `0X1f`: cel-go reads 0 then the identifier X1f (its hex prefix is `0x` only).
      const next = tokens[i + 1];
      if (next?.kind === 'ident' && next.start === t.end && next.text[0] === 'X') out.issue = unexpectedAfterOperand(next, tokens[i + 2], stack[stack.length - 1]);
    } else if (t.kind === 'ident' && t.text.startsWith('`')) {
      // A quoted field name is a select's field only (x.`a.b`, x.?`a-b`), never a call's name.
      const afterDot = prev?.text === '.' || (prev?.text === '?' && tokens[i - 2]?.text === '.');
      if (afterDot && tokens[i + 1]?.text !== '(') {
        out.fields.set(t.end, t.text.slice(1, -1));
        replace(t, '_'.repeat(t.text.length));
      } else if (afterDot && !out.issue) {
        // `x.`a`()`: the select parses; the call's '(' is what cel-go stops at.
        out.issue = unexpectedAfterOperand(tokens[i + 1], tokens[i + 2], stack[stack.length - 1]);
      } else if (!afterDot && !endsOperand(prev) && !out.afterOperand) {
        out.afterOperand = { message: `Syntax error: mismatched input '${t.text}' expecting ${EXPECTING_OPERAND}`, offset: t.start, range: { start: t.start, end: t.end } };
      }
    } else if (t.kind === 'string' && /^([rR]?[bB]|[bB][rR])['"]/.test(t.text)) {
      const b = decodeBytesLiteral(t.text);
      if (b) {
        out.bytes.set(t.start, b);
        // cel-js reads no raw bytes literal: a plain bytes literal of the same length stands for it.
        if (/[rR]/.test(t.text.slice(0, 2))) replace(t, `b"${' '.repeat(t.text.length - 3)}"`);
      }
    }
    prev = t;
  }
  if (parts.length) out.text = parts.join('') + src.slice(copied);
  return out;
}

/** ANTLR's message for a token where an operand has ended (`0X1f`: X1f after 0), by what encloses it. */
function unexpectedAfterOperand(t: Token, after: Token | undefined, enclosing: { open: string; call: boolean } | undefined): SyntaxIssue {
  const close = !enclosing ? undefined : enclosing.open === '[' ? ']' : enclosing.open === '(' ? ')' : '}';
  const expecting = !enclosing ? '<EOF>' : enclosing.open === '(' && !enclosing.call ? "')'" : `{'${close}', ','}`;
  const resyncs = !enclosing ? after === undefined : after?.text === close || after?.text === ',';
  const message = `Syntax error: ${resyncs ? 'extraneous' : 'mismatched'} input '${t.text}' expecting ${expecting}`;
  return { message, offset: t.start, range: { start: t.start, end: t.end } };
}

const SIMPLE_ESCAPES: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92, "'": 39, '"': 34, '`': 96, '?': 63 };

/**
 * A bytes literal's bytes as cel-go's unescape makes them: characters as UTF-8, `\x` and octal escapes
 * as single bytes, raw literals verbatim. Undefined for what cel-js reports as an error itself.
 */
function decodeBytesLiteral(text: string): Uint8Array | undefined {
  const m = /^([rRbB]{1,2})('''|"""|'|")/.exec(text);
  if (!m) return undefined;
  const q = m[2];
  if (!text.endsWith(q) || text.length < m[0].length + q.length) return undefined;
  const body = text.slice(m[0].length, text.length - q.length);
  if (/[rR]/.test(m[1])) return new Uint8Array(Buffer.from(body, 'utf8'));
  const out: number[] = [];
  for (let i = 0; i < body.length; ) {
    if (body[i] !== '\\') {
      const cp = body.codePointAt(i)!;
      out.push(...Buffer.from(String.fromCodePoint(cp), 'utf8'));
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    const e = body[i + 1];
    if (e !== undefined && e in SIMPLE_ESCAPES) {
      out.push(SIMPLE_ESCAPES[e]);
      i += 2;
    } else if ((e === 'x' || e === 'X') && /^[0-9A-Fa-f]{2}$/.test(body.slice(i + 2, i + 4))) {
      out.push(Number.parseInt(body.slice(i + 2, i + 4), 16));
      i += 4;
    } else if (/^[0-3][0-7]{2}$/.test(body.slice(i + 1, i + 4))) {
      out.push(Number.parseInt(body.slice(i + 1, i + 4), 8));
      i += 4;
    } else return undefined;
  }
  return new Uint8Array(out);
}

// ---------------------------------------------------------------------------------------------
// cel-js errors in cel-go's words.

/** What ANTLR prints as the tokens that may start an operand. */
const EXPECTING_OPERAND = "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";

function tokenText(t: Token | undefined): string {
  return t ? t.text : '<EOF>';
}

/** The ANTLR-style message for a cel-js parse failure at range. */
function syntaxMessage(src: string, tokens: Token[], summary: string, range: { start: number; end: number }): string {
  const at = tokens.find((t) => t.start >= range.start);
  if (/maximum.*depth|Exceeded maxDepth/i.test(summary)) return 'max recursion depth exceeded';
  if (/^Unterminated string/.test(summary)) return `Syntax error: token recognition error at: '${src.slice(range.start, Math.min(src.length, range.start + 1))}'`;
  // cel-go's lexer takes \u in any literal; its unescape refuses it in bytes, at the literal.
  if (/not allowed in bytes/.test(summary)) return 'unable to unescape string';
  if (/^Invalid (hex|octal|Unicode|escape)|^Octal escape/.test(summary)) {
    return `Syntax error: token recognition error at: '${src.slice(tokenStart(tokens, range.start), range.end)}'`;
  }
  if (/^Unexpected character: '?([^']*)'?$/.test(summary)) {
    const ch = src[range.start];
    if (ch !== undefined && !/[A-Za-z0-9_'"\s]/.test(ch) && !tokens.some((t) => t.start === range.start && t.kind !== 'error')) {
      return `Syntax error: token recognition error at: '${ch}'`;
    }
    return `Syntax error: mismatched input '${tokenText(at)}' expecting <EOF>`;
  }
  let m: RegExpExecArray | null;
  if ((m = /^Expected (\w+), got (\w+)/.exec(summary))) {
    // A '.' not followed by a field name: ANTLR has no alternative for the text from the '.' on.
    const before = tokens.filter((t) => t.end <= range.start).pop();
    if (m[1] === 'IDENTIFIER' && before?.text === '.' && !(at && ['true', 'false', 'null'].includes(at.text)))
      return `Syntax error: no viable alternative at input '${src.slice(before.start, m[2] === 'EOF' || !at ? before.end : at.end)}'`;
    const expected: Record<string, string> = { RPAREN: "')'", RBRACKET: "']'", RBRACE: "'}'", COLON: "':'", IDENTIFIER: 'IDENTIFIER', COMMA: "','" };
    const got = m[2] === 'EOF' ? '<EOF>' : tokenText(at);
    if (m[2] === 'EOF' && (m[1] === 'RPAREN' || m[1] === 'RBRACKET' || m[1] === 'RBRACE')) {
      // At the end, an unclosed list or map literal could still take a ',': ANTLR names both; a call,
      // a parenthesis or an index is missing its closing token.
      const open = unclosedOpener(tokens, range.start);
      const list = open && (open.text === '{' || (open.text === '[' && !endsOperand(open.prev)));
      const close = expected[m[1]];
      return list ? `Syntax error: mismatched input '<EOF>' expecting {${close}, ','}` : `Syntax error: missing ${close} at '<EOF>'`;
    }
    return `Syntax error: mismatched input '${got}' expecting ${expected[m[1]] ?? m[1]}`;
  }
  if ((m = /^Unexpected token: (\w+)/.exec(summary))) {
    const got = m[1] === 'EOF' ? '<EOF>' : tokenText(at);
    // ANTLR deletes a stray token when the next one can start the operand it wanted (`a + * 2`).
    const next = at ? tokens[tokens.indexOf(at) + 1] : undefined;
    return `Syntax error: ${m[1] !== 'EOF' && startsOperand(next) ? 'extraneous' : 'mismatched'} input '${got}' expecting ${EXPECTING_OPERAND}`;
  }
  if (/^Invalid (hex )?integer/.test(summary)) return `Syntax error: token recognition error at: '${src.slice(range.start, range.end)}'`;
  return `Syntax error: ${summary.charAt(0).toLowerCase()}${summary.slice(1)}`;
}

/** Whether a token can begin an operand (ANTLR's expected set after a binary operator). */
function startsOperand(t: Token | undefined): boolean {
  if (!t) return false;
  if (t.kind === 'number' || t.kind === 'string') return true;
  if (t.kind === 'ident') return t.text !== 'in' && !t.text.startsWith('`');
  return t.kind === 'punct' && ['[', '{', '(', '.', '-', '!'].includes(t.text);
}

/** The innermost bracket still open before offset, and the token before it. */
function unclosedOpener(tokens: Token[], offset: number): (Token & { prev?: Token }) | undefined {
  const stack: Array<Token & { prev?: Token }> = [];
  let prev: Token | undefined;
  for (const t of tokens) {
    if (t.start >= offset) break;
    if (t.kind === 'punct' && (t.text === '(' || t.text === '[' || t.text === '{')) stack.push({ ...t, prev });
    else if (t.kind === 'punct' && (t.text === ')' || t.text === ']' || t.text === '}')) stack.pop();
    prev = t;
  }
  return stack.at(-1);
}

/**
 * The first error of cel-go's lexer (ANTLR): a character no token starts with, a lone `=`, `&` or `|`
 * (the text includes the character after it, which the lexer also drops), a quoted name with a character
 * it may not hold, or an unterminated string (to its line's end). Returns the issue and the source with the dropped text blanked, for the parser's turn.
 */
function lexerError(src: string, tokens: Token[]): { issue: SyntaxIssue; recovered: string } | undefined {
  const t = tokens.find((x) => x.kind === 'error');
  if (!t) return undefined;
  let start = t.start;
  let end: number;
  if (t.text.length > 1 || /['"]/.test(t.text)) {
    // An unterminated string: up to and including the newline where it stops, else to the end. An
    // unterminated triple quote is the empty string of its first two quotes, then an unterminated one.
    const triple = /^[rRbB]{0,2}(?:'''|""")/.exec(t.text);
    if (triple) start += triple[0].length - 1;
    const nl = src.indexOf('\n', start);
    end = nl >= 0 ? nl + 1 : src.length;
  } else if (t.text === '`') {
    // A quoted name with a character it may not hold: up to and including that character.
    let j = t.start + 1;
    while (j < src.length && /[A-Za-z0-9_.\-/ ]/.test(src[j])) j++;
    end = Math.min(src.length, j + 1);
  } else end = Math.min(src.length, t.start + ('=&|'.includes(t.text) ? 2 : 1));
  const text = src.slice(start, end);
  const issue = { message: `Syntax error: token recognition error at: '${text}'`, offset: start, range: { start, end } };
  return { issue, recovered: src.slice(0, start) + text.replace(/[^\n]/g, ' ') + src.slice(end) };
}

function tokenStart(tokens: Token[], offset: number): number {
  let s = offset;
  for (const t of tokens) if (t.start <= offset && t.end > offset) s = t.start;
  return s;
}

/**
 * cel-go's errors for `x.in` (the reserved word `in` as a field name): ANTLR reports the member
 * access as `no viable alternative at input '.in'`, recovers by reading `in` as the operator, and
 * then complains about what follows. Reported when the text parses once `.in` is spelled `.__in__`.
 */
function dotInIssues(src: string, tokens: Token[], parses: (text: string) => boolean): SyntaxIssue[] | undefined {
  const dots: number[] = [];
  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === 'ident' && t.text === 'in' && tokens[i - 1].text === '.' && tokens[i - 1].end === t.start && endsOperand(tokens[i - 2])) dots.push(i - 1);
  }
  if (dots.length === 0) return undefined;
  let fixed = src;
  for (const d of [...dots].reverse()) fixed = fixed.slice(0, tokens[d].end) + '__in__' + fixed.slice(tokens[d + 1].end);
  if (!parses(fixed)) return undefined;
  const BINARY_OPS = new Set(['==', '!=', '<=', '>=', '&&', '||', '<', '>', '+', '*', '/', '%', '?', ':', 'in']);
  const issues: SyntaxIssue[] = [];
  const add = (offset: number, message: string) => issues.push({ offset, message, range: { start: offset, end: offset + 1 } });
  for (const d of dots) {
    const dot = tokens[d];
    add(dot.start + 1, "Syntax error: no viable alternative at input '.in'");
    const next = tokens[d + 2];
    if (!next) add(src.length, `Syntax error: mismatched input '<EOF>' expecting ${EXPECTING_OPERAND}`);
    else if (next.kind === 'punct' && [')', ']', '}', ','].includes(next.text)) add(next.start, `Syntax error: mismatched input '${next.text}' expecting ${EXPECTING_OPERAND}`);
    else if (BINARY_OPS.has(next.text)) add(next.start, `Syntax error: extraneous input '${next.text}' expecting ${EXPECTING_OPERAND}`);
    // has(<identifier>.in): the macro is left with the bare identifier.
    const recv = tokens[d - 1];
    if (tokens[d - 2]?.text === '(' && tokens[d - 3]?.text === 'has' && recv.kind === 'ident' && next?.text === ')') add(recv.start, 'invalid argument to has() macro');
  }
  return issues.sort((a, b) => a.offset - b.offset);
}

// ---------------------------------------------------------------------------------------------
// Conversion of the cel-js tree to cel-go's AST.

const BINARY: Record<string, string> = {
  '==': '_==_',
  '!=': '_!=_',
  '<': '_<_',
  '<=': '_<=_',
  '>': '_>_',
  '>=': '_>=_',
  '+': '_+_',
  '-': '_-_',
  '*': '_*_',
  '/': '_/_',
  '%': '_%_',
  in: '@in',
  '&&': '_&&_',
  '||': '_||_',
};

class MacroError extends Error {
  constructor(
    message: string,
    readonly offset: number,
    readonly range: { start: number; end: number },
  ) {
    super(message);
  }
}

class Converter {
  private nextId = 1;
  readonly macroCalls = new Map<number, MacroCall>();
  private readonly optional = new Map<number, Set<number>>();

  constructor(
    private readonly src: string,
    private readonly rewrite: Rewrite,
    private readonly macros: MacroOptions,
  ) {
    for (const e of rewrite.entries) {
      let s = this.optional.get(e.literal);
      if (!s) this.optional.set(e.literal, (s = new Set()));
      s.add(e.index);
    }
  }

  get maxId(): number {
    return this.nextId - 1;
  }

  /** The first token after offset i, past whitespace and closing parentheses (an operator's position). */
  private after(i: number): number {
    const src = this.src;
    while (i < src.length && (src[i] === ' ' || src[i] === '\t' || src[i] === '\n' || src[i] === '\r' || src[i] === ')')) i++;
    return i;
  }

  private skipWs(i: number): number {
    const src = this.src;
    while (i < src.length && /\s/.test(src[i])) i++;
    return i;
  }

  /** cel-go's location of a node: the operator token, a call's '(', a select's '.', else its start. */
  private location(n: ASTNode): number {
    const args = n.args as unknown;
    switch (n.op) {
      case 'rcall': {
        const [, recv] = args as [string, ASTNode];
        let i = this.after(recv.end);
        if (this.src[i] === '.') i = this.skipWs(i + 1);
        while (i < this.src.length && /[A-Za-z0-9_]/.test(this.src[i])) i++;
        return this.skipWs(i);
      }
      case 'call': {
        let i = n.start;
        while (i < this.src.length && /[A-Za-z0-9_.]/.test(this.src[i])) i++;
        return this.skipWs(i);
      }
      case '!_':
      case '-_':
      case 'value':
      case 'id':
      case 'list':
      case 'map':
        return n.start;
      default:
        // Selects, indexes, the conditional and binary operators: the token after the first operand.
        return Array.isArray(args) && args[0] && typeof args[0] === 'object' && 'end' in args[0] ? this.after((args[0] as ASTNode).end) : n.start;
    }
  }

  private id(): number {
    return this.nextId++;
  }

  convert(n: ASTNode): Expr {
    const base = () => ({ id: this.id(), offset: this.location(n), start: n.start, end: n.end });
    const args = n.args as unknown;
    switch (n.op) {
      case 'value':
        return { ...base(), kind: 'literal', value: this.literal(n, args) };
      case 'id':
        return { ...base(), kind: 'ident', name: args as string };
      case '.': {
        const [obj, written] = args as [ASTNode, string];
        const field = this.rewrite.fields.get(n.end) ?? written;
        const b = base();
        return { ...b, kind: 'select', operand: this.convert(obj), field, testOnly: false };
      }
      case '.?': {
        const [obj, written] = args as [ASTNode, string];
        const field = this.rewrite.fields.get(n.end) ?? written;
        const b = base();
        const operand = this.convert(obj);
        const fieldLit: Expr = { id: this.id(), offset: b.offset, start: b.start, end: b.end, kind: 'literal', value: field };
        return { ...b, kind: 'call', fn: '_?._', args: [operand, fieldLit] };
      }
      case '[]':
      case '[?]': {
        const [obj, idx] = args as [ASTNode, ASTNode];
        const b = base();
        return { ...b, kind: 'call', fn: n.op === '[]' ? '_[_]' : '_[?_]', args: [this.convert(obj), this.convert(idx)] };
      }
      case 'list': {
        const b = base();
        const opt = this.optional.get(n.start);
        const elems = (args as ASTNode[]).map((e) => this.convert(e));
        return { ...b, kind: 'list', elems, optionalIndices: opt ? [...opt].filter((i) => i < elems.length).sort((x, y) => x - y) : [] };
      }
      case 'map': {
        const b = base();
        const opt = this.optional.get(n.start);
        const entries = (args as [ASTNode, ASTNode][]).map(([k, v], i) => ({ id: this.id(), key: this.convert(k), value: this.convert(v), optional: opt?.has(i) ?? false }));
        return { ...b, kind: 'map', entries };
      }
      case '?:': {
        const [c, t, f] = args as [ASTNode, ASTNode, ASTNode];
        const b = base();
        return { ...b, kind: 'call', fn: '_?_:_', args: [this.convert(c), this.convert(t), this.convert(f)] };
      }
      case '!_':
      case '-_':
        return this.unary(n);
      case 'call': {
        const [name, callArgs] = args as [string, ASTNode[]];
        return this.call(n, name, undefined, callArgs);
      }
      case 'rcall': {
        const [name, recv, callArgs] = args as [string, ASTNode, ASTNode[]];
        return this.call(n, name, recv, callArgs);
      }
      default: {
        const fn = BINARY[n.op];
        if (!fn) throw new MacroError(`Syntax error: unsupported expression ${n.op}`, n.start, { start: n.start, end: n.end });
        const [l, r] = args as [ASTNode, ASTNode];
        const b = base();
        return { ...b, kind: 'call', fn, args: [this.convert(l), this.convert(r)] };
      }
    }
  }

  private literal(n: ASTNode, v: unknown): unknown {
    const float = this.rewrite.floats.get(n.start);
    if (float !== undefined) return float;
    if (v instanceof Uint8Array) return this.rewrite.bytes.get(n.start) ?? v;
    if (typeof v === 'bigint') {
      if (v > MAX_INT64) throw new MacroError('invalid int literal', n.start, { start: n.start, end: n.end });
      return v;
    }
    if (v !== null && typeof v === 'object' && !(v instanceof Uint8Array) && typeof (v as { value?: unknown }).value === 'bigint') {
      const u = (v as { value: bigint }).value;
      if (u > MAX_UINT64) throw new MacroError('invalid uint literal', n.start, { start: n.start, end: n.end });
      return Uint.of(u);
    }
    return v;
  }

  /** Unary operators: a run of the same operator cancels in pairs; `-` directly on a number is part of the literal. */
  private unary(n: ASTNode): Expr {
    const op = n.op;
    let count = 0;
    let cur: ASTNode = n;
    // A run is `--x` as written: parentheses end it (`-(-x)` is two negations, the inner one of a
    // parenthesized operand, so `-(-9223372036854775808)` is the negation of a valid literal).
    while (cur.op === op) {
      count++;
      const next = cur.args as ASTNode;
      if (next.op !== op || !/^\s*$/.test(this.src.slice(cur.start + 1, next.start))) {
        cur = next;
        break;
      }
      cur = next;
    }
    // `-1`, `- 1`: the grammar's signed literal (so -9223372036854775808 is a valid int).
    if (op === '-_' && count % 2 === 1 && cur.op === 'value' && (typeof cur.args === 'bigint' || typeof cur.args === 'number')) {
      const between = this.src.slice(n.start + count - 1, cur.start);
      if (/^-\s*$/.test(between) || /^-$/.test(between.trim())) {
        const v = this.rewrite.floats.get(cur.start) ?? cur.args;
        const folded = typeof v === 'bigint' ? -v : -(v as number);
        if (typeof folded === 'bigint' && folded < -MAX_INT64 - 1n) throw new MacroError('invalid int literal', n.start, { start: n.start, end: n.end });
        const lit: Expr = { id: this.id(), offset: n.start + count - 1, start: n.start + count - 1, end: cur.end, kind: 'literal', value: folded };
        if (count === 1) return lit;
        return { id: this.id(), offset: n.start, start: n.start, end: n.end, kind: 'call', fn: '-_', args: [lit] };
      }
    }
    if (count % 2 === 0) return this.convert(cur);
    const b = { id: this.id(), offset: n.start, start: n.start, end: n.end };
    return { ...b, kind: 'call', fn: op, args: [this.convert(cur)] };
  }

  private call(n: ASTNode, name: string, recv: ASTNode | undefined, rawArgs: ASTNode[]): Expr {
    const offset = this.location(n);
    const id = this.id();
    const target = recv ? this.convert(recv) : undefined;
    const args = rawArgs.map((a) => this.convert(a));
    const expanded = this.expandMacro(n, offset, name, target, args);
    if (expanded) {
      this.macroCalls.set(expanded.id, { name, target, args, start: n.start, end: n.end });
      return expanded;
    }
    return { id, offset, start: n.start, end: n.end, kind: 'call', fn: name, ...(target ? { target } : {}), args };
  }

  // -------------------------------------------------------------------------------------------
  // Macro expansion (cel-go parser/macro.go, ext/comprehensions.go, ext/lists.go, cel/library.go).

  private expandMacro(n: ASTNode, offset: number, name: string, target: Expr | undefined, args: Expr[]): Expr | undefined {
    if (!(target ? MACROS.member : MACROS.global).has(name)) return undefined;
    const at = { offset, start: n.start, end: n.end };
    const mk = {
      ident: (nm: string): Expr => ({ id: this.id(), ...at, kind: 'ident', name: nm }),
      lit: (v: unknown): Expr => ({ id: this.id(), ...at, kind: 'literal', value: v }),
      call: (fn: string, ...a: Expr[]): Expr => ({ id: this.id(), ...at, kind: 'call', fn, args: a }),
      member: (fn: string, t: Expr, ...a: Expr[]): Expr => ({ id: this.id(), ...at, kind: 'call', fn, target: t, args: a }),
      list: (...e: Expr[]): Expr => ({ id: this.id(), ...at, kind: 'list', elems: e, optionalIndices: [] }),
      map: (): Expr => ({ id: this.id(), ...at, kind: 'map', entries: [] }),
      fold: (c: Omit<ComprehensionExpr, 'id' | 'offset' | 'start' | 'end' | 'kind'>): Expr => ({ id: this.id(), ...at, kind: 'comprehension', ...c }),
    };
    const err = (e: Expr, message: string): never => {
      throw new MacroError(message, e.offset, { start: e.start, end: e.end });
    };
    const simpleName = (e: Expr, message = 'argument must be a simple name'): string => (e.kind === 'ident' ? e.name : err(e, message));
    const accu = () => mk.ident(ACCUMULATOR);
    const checkAccu = (v: string, e: Expr) => {
      if (v === ACCUMULATOR) err(e, 'iteration variable overwrites accumulator variable');
    };
    if (!target) {
      if (name === 'has' && args.length === 1) {
        const a = args[0];
        if (a.kind !== 'select') return err(a, 'invalid argument to has() macro');
        return { id: this.id(), ...at, kind: 'select', operand: a.operand, field: a.field, testOnly: true };
      }
      return undefined;
    }
    const one = (v: string, init: Expr, cond: Expr, step: Expr, result: Expr) => mk.fold({ iterRange: target, iterVar: v, accuVar: ACCUMULATOR, accuInit: init, loopCondition: cond, loopStep: step, result });
    const two = (v1: string, v2: string, init: Expr, cond: Expr, step: Expr, result: Expr) =>
      mk.fold({ iterRange: target, iterVar: v1, iterVar2: v2, accuVar: ACCUMULATOR, accuInit: init, loopCondition: cond, loopStep: step, result });
    const twoVars = (a0: Expr, a1: Expr): [string, string] => {
      const v1 = simpleName(a0);
      const v2 = simpleName(a1);
      if (v1 === v2) err(a1, `duplicate variable name: ${v1}`);
      checkAccu(v1, a0);
      checkAccu(v2, a1);
      return [v1, v2];
    };
    const quantifier = (kind: 'all' | 'exists' | 'exists_one', vars: string[], pred: Expr): Expr => {
      const [init, cond, step, result] =
        kind === 'all'
          ? [mk.lit(true), mk.call('@not_strictly_false', accu()), mk.call('_&&_', accu(), pred), accu()]
          : kind === 'exists'
            ? [mk.lit(false), mk.call('@not_strictly_false', mk.call('!_', accu())), mk.call('_||_', accu(), pred), accu()]
            : [mk.lit(0n), mk.lit(true), mk.call('_?_:_', pred, mk.call('_+_', accu(), mk.lit(1n)), accu()), mk.call('_==_', accu(), mk.lit(1n))];
      return vars.length === 1 ? one(vars[0], init, cond, step, result) : two(vars[0], vars[1], init, cond, step, result);
    };
    switch (name) {
      case 'all':
      case 'exists':
      case 'exists_one':
      case 'existsOne': {
        const kind = name === 'existsOne' ? 'exists_one' : name;
        if (args.length === 2) {
          const v = simpleName(args[0]);
          checkAccu(v, args[0]);
          return quantifier(kind, [v], args[1]);
        }
        if (args.length === 3 && this.macros.twoVarComprehensions) return quantifier(kind, twoVars(args[0], args[1]), args[2]);
        return undefined;
      }
      case 'map':
      case 'filter': {
        if (!(args.length === 2 || (name === 'map' && args.length === 3))) return undefined;
        const v = simpleName(args[0], name === 'map' || name === 'filter' ? 'argument is not an identifier' : undefined);
        checkAccu(v, args[0]);
        if (name === 'filter') {
          const step = mk.call('_?_:_', args[1], mk.call('_+_', accu(), mk.list(mk.ident(v))), accu());
          return one(v, mk.list(), mk.lit(true), step, accu());
        }
        const [filter, fn] = args.length === 3 ? [args[1], args[2]] : [undefined, args[1]];
        let step = mk.call('_+_', accu(), mk.list(fn));
        if (filter) step = mk.call('_?_:_', filter, step, accu());
        return one(v, mk.list(), mk.lit(true), step, accu());
      }
      case 'transformList':
      case 'transformMap':
      case 'transformMapEntry': {
        if (!this.macros.twoVarComprehensions || (args.length !== 3 && args.length !== 4)) return undefined;
        const [v1, v2] = twoVars(args[0], args[1]);
        const [filter, fn] = args.length === 4 ? [args[2], args[3]] : [undefined, args[2]];
        let step = name === 'transformList' ? mk.call('_+_', accu(), mk.list(fn)) : name === 'transformMap' ? mk.call('cel.@mapInsert', accu(), mk.ident(v1), fn) : mk.call('cel.@mapInsert', accu(), fn);
        if (filter) step = mk.call('_?_:_', filter, step, accu());
        return two(v1, v2, name === 'transformList' ? mk.list() : mk.map(), mk.lit(true), step, accu());
      }
      case 'optMap':
      case 'optFlatMap': {
        if (args.length !== 2) return undefined;
        const v = simpleName(args[0], `${name}() variable name must be a simple identifier`);
        const fold = mk.fold({ iterRange: mk.list(), iterVar: '#unused', accuVar: v, accuInit: mk.member('value', target), loopCondition: mk.lit(false), loopStep: mk.ident(v), result: args[1] });
        return mk.call('_?_:_', mk.member('hasValue', target), name === 'optMap' ? mk.call('optional.of', fold) : fold, mk.call('optional.none'));
      }
      case 'sortBy': {
        if (!this.macros.sortBy || args.length !== 2) return undefined;
        if (!['list', 'select', 'ident', 'comprehension', 'call'].includes(target.kind)) {
          err(target, 'sortBy can only be applied to a list, identifier, comprehension, call or select expression');
        }
        const input = '@__sortBy_input__';
        const v = simpleName(args[0], 'argument is not an identifier');
        checkAccu(v, args[0]);
        const mapStep = mk.call('_+_', accu(), mk.list(args[1]));
        const mapFold = mk.fold({ iterRange: mk.ident(input), iterVar: v, accuVar: ACCUMULATOR, accuInit: mk.list(), loopCondition: mk.lit(true), loopStep: mapStep, result: accu() });
        const call = mk.member('@sortByAssociatedKeys', mk.ident(input), mapFold);
        return mk.fold({ iterRange: mk.list(), iterVar: '#unused', accuVar: input, accuInit: target, loopCondition: mk.lit(false), loopStep: mk.ident(input), result: call });
      }
    }
    return undefined;
  }
}

/**
 * The nesting of `expr` rules in cel-go's ANTLR parse (its recursion listener stops at 250 with
 * "expression recursion limit exceeded"): each parenthesis, list element, map entry and call argument
 * is a nested expr, and so is the else branch of each conditional.
 */
function exprNestingDepth(tokens: Token[]): number {
  const levels: Array<{ pending: number; elses: number }> = [{ pending: 0, elses: 0 }];
  let extra = 0;
  let max = 1;
  let prev: Token | undefined;
  for (const t of tokens) {
    if (t.kind === 'punct') {
      const top = levels[levels.length - 1];
      switch (t.text) {
        case '(':
        case '[':
        case '{':
          levels.push({ pending: 0, elses: 0 });
          break;
        case ')':
        case ']':
        case '}':
          if (levels.length > 1) extra -= levels.pop()!.elses;
          break;
        case ',':
          extra -= top.elses;
          top.elses = 0;
          top.pending = 0;
          break;
        case '?':
          if (endsOperand(prev)) top.pending++;
          break;
        case ':':
          if (top.pending > 0) {
            top.pending--;
            top.elses++;
            extra++;
          }
          break;
      }
      max = Math.max(max, levels.length + extra);
    }
    prev = t;
  }
  return max;
}

/** Nesting depth as cel-go's parser counts it (&& and || chains are flat lists in its grammar). */
function deeperThan(root: ASTNode, max: number): boolean {
  const stack: Array<[ASTNode, number]> = [[root, 0]];
  while (stack.length) {
    const [n, d] = stack.pop()!;
    const kids = astChildren(n);
    if (kids.length && d + 1 > max) return true;
    // &&/|| chains and runs of one unary operator are flat lists in cel-go's grammar.
    const flat = n.op === '&&' || n.op === '||' || n.op === '!_' || n.op === '-_';
    for (const k of kids) stack.push([k, flat && k.op === n.op ? d : d + 1]);
  }
  return false;
}

function astChildren(n: ASTNode): ASTNode[] {
  const a = n.args as unknown;
  switch (n.op) {
    case 'value':
    case 'id':
      return [];
    case '.':
    case '.?':
      return [(a as [ASTNode])[0]];
    case 'call':
      return (a as [string, ASTNode[]])[1];
    case 'rcall':
      return [(a as [string, ASTNode, ASTNode[]])[1], ...(a as [string, ASTNode, ASTNode[]])[2]];
    case 'map':
      return (a as [ASTNode, ASTNode][]).flat();
    case '!_':
    case '-_':
      return [a as ASTNode];
    default:
      return Array.isArray(a) ? (a as ASTNode[]).filter((x) => x && typeof x === 'object' && 'op' in x) : [];
  }
}

function rawParse(text: string): { ast?: ASTNode; error?: { summary: string; range: { start: number; end: number } } } {
  try {
    return { ast: celJs().parse(text).ast };
  } catch (e) {
    const err = e as { summary?: string; message?: string; range?: { start: number; end: number } };
    return { error: { summary: err.summary ?? err.message ?? String(e), range: err.range ?? { start: 0, end: text.length } } };
  }
}

/** Parses a CEL expression into cel-go's AST, or cel-go's syntax errors. */
export function parse(src: string, macros: MacroOptions = ALL_MACROS, lexerErrors = 0): ParseResult {
  if ([...src].length > MAX_EXPRESSION_CODE_POINTS) {
    return { ok: false, issues: [{ message: `expression code point size exceeds limit: size: ${[...src].length}, limit ${MAX_EXPRESSION_CODE_POINTS}`, offset: 0, range: { start: 0, end: src.length } }] };
  }
  const tokens = tokenize(src);
  if (exprNestingDepth(tokens) > MAX_RECURSION_DEPTH) {
    return { ok: false, issues: [{ message: `expression recursion limit exceeded: ${MAX_RECURSION_DEPTH}`, offset: -1, range: { start: 0, end: src.length } }] };
  }
  const rewrite = rewriteSource(src, tokens);
  if (rewrite.issue) return { ok: false, issues: [rewrite.issue] };
  const raw = rawParse(rewrite.text);
  if (!raw.ast) {
    const dotIn = dotInIssues(src, tokens, (t) => rawParse(rewriteSource(t, tokenize(t)).text).ast !== undefined);
    if (dotIn) return { ok: false, issues: dotIn };
    const { summary, range } = raw.error!;
    // A lexer error, then what the parser makes of the tokens left (as ANTLR reports both, in order).
    const lex = lexerErrors < 20 ? lexerError(src, tokens) : undefined;
    if (lex && (range.start >= lex.issue.offset || /^Unterminated/i.test(summary))) {
      const rest = parse(lex.recovered, macros, lexerErrors + 1);
      const more = rest.ok ? [] : rest.issues;
      return { ok: false, issues: [lex.issue, ...more].sort((a, b) => a.offset - b.offset) };
    }
    // cel-js stops at or after the token ANTLR stops at: ANTLR's words for that token.
    const at = rewrite.afterOperand;
    if (at && range.start >= at.offset) return { ok: false, issues: [at] };
    let message = syntaxMessage(src, tokens, summary, range);
    let offset = range.start;
    if (/invalid predicate iteration variable|predicate/.test(summary)) {
      message = 'argument must be a simple name';
    }
    if (message === 'max recursion depth exceeded') offset = 0;
    if (message === 'unable to unescape string') offset = tokenStart(tokens, range.start);
    // `x.?` without a field name: the optional select also takes a quoted name, and its action fails too.
    const before = tokens.filter((t) => t.end <= range.start);
    if (/^Syntax error: mismatched input .* expecting IDENTIFIER$/.test(message) && before.at(-1)?.text === '?' && before.at(-2)?.text === '.') {
      message = message.replace(/IDENTIFIER$/, '{IDENTIFIER, ESC_IDENTIFIER}');
      return {
        ok: false,
        issues: [
          { message, offset, range },
          { message: 'unsupported ident kind', offset, range },
        ],
      };
    }
    return { ok: false, issues: [{ message, offset, range }] };
  }
  if (deeperThan(raw.ast, MAX_RECURSION_DEPTH)) {
    return { ok: false, issues: [{ message: 'max recursion depth exceeded', offset: 0, range: { start: 0, end: src.length } }] };
  }
  const conv = new Converter(src, rewrite, macros);
  try {
    const expr = conv.convert(raw.ast);
    return { ok: true, ast: { source: src, expr, macroCalls: conv.macroCalls, maxId: conv.maxId } };
  } catch (e) {
    if (e instanceof MacroError) return { ok: false, issues: [{ message: e.message, offset: e.offset, range: e.range }] };
    if (e instanceof RangeError) return { ok: false, issues: [{ message: 'max recursion depth exceeded', offset: 0, range: { start: 0, end: src.length } }] };
    throw e;
  }
}

/**
 * cel-go's issue printing (common.Error.ToDisplayString): `ERROR: <input>:L:C: msg`, then the source line
 * (tabs as spaces; left out past 16,384 bytes) and a caret under the column, with full-width dots and
 * caret under non-ASCII characters.
 */
export function formatIssue(src: string, offset: number, message: string): string {
  // cel-go's NoLocation (the parser's own limits).
  if (offset < 0) return `ERROR: <input>:-1:0: ${message}`;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < src.length; i++) {
    if (src[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  let lineEnd = src.indexOf('\n', lineStart);
  if (lineEnd < 0) lineEnd = src.length;
  const col = [...src.slice(lineStart, offset)].length;
  const head = `ERROR: <input>:${line}:${col + 1}: ${message}`;
  const snippet = src.slice(lineStart, lineEnd).replace(/\t/g, ' ');
  if (Buffer.byteLength(snippet) > 16384) return head;
  const chars = [...snippet];
  let caret = '';
  for (let i = 0; i < col && i < chars.length; i++) caret += chars[i].charCodeAt(0) > 0x7f ? '\uff0e' : '.';
  caret += chars[col] !== undefined && chars[col].charCodeAt(0) > 0x7f ? '\uff3e' : '^';
  return `${head}\n | ${snippet}\n | ${caret}`;
}
