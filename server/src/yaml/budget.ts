/**
 * The bounds of the YAML layer, named so that tests and the fuzz tier can use them.
 *
 * Memory: parsing a document with the `yaml` package builds its concrete syntax tree (about 200-800
 * bytes per token, most for flow collections: a 2 MB one-line list of numbers took 1.2 GB) and then
 * its AST. So each document's tokens are first counted by the `yaml` lexer (memory stays flat: tokens
 * are counted, not kept) and weighted by what each kind of token costs, and a file's documents are
 * parsed in order while what the parsed ones keep (RETAINED_SHARE of their estimates) plus the
 * estimate of the next stays within PARSE_BYTES_PER_CHAR times the file's size plus PARSE_FIXED_BYTES.
 * A document that does not fit is not parsed and says so; a file has at most MAX_YAML_DOCUMENTS. The weights are
 * upper bounds measured on the shapes that cost most (yaml/bounds.test.ts measures hostile files in a
 * separate process against the bound).
 */
import { Lexer } from 'yaml';
import { PARSE_BYTES_PER_CHAR, PARSE_FIXED_BYTES, parseBytesBound } from './parseBound';

export { PARSE_BYTES_PER_CHAR, PARSE_FIXED_BYTES, parseBytesBound };
/** Documents (`---` chunks) per file; the rest of a longer file is not parsed (and says so). */
export const MAX_YAML_DOCUMENTS = 10_000;
/** Longest one-line insertion spliced into a parsed document (longer ones are parsed and estimated in full). */
export const SPLICE_MAX_INSERT_CHARS = 32 * 1024;
/** What a document that is not parsed costs (the `yaml` Document that says so, and its wrappers). */
export const UNPARSED_DOCUMENT_BYTES = 4000;
/**
 * Deepest collection nesting composed. The `yaml` composer recurses per level and overflows the stack
 * at ~800 levels; it catches the RangeError, but V8 may then need to compile a regular expression with
 * no stack left, which aborts the whole process (FATAL ERROR: RegExpCompiler Allocation failed). Real
 * manifests nest a few dozen levels, so deeper documents are reported instead of composed.
 */
export const MAX_YAML_DEPTH = 400;

/**
 * What stays of a parsed document's estimate once its syntax tree is freed (its AST and value): the
 * estimate is the peak while parsing it; the documents before it keep at most this share (measured:
 * 0.2 for real CRDs, up to 0.55 for files of one-line documents; more, to leave room for garbage not
 * yet collected).
 */
export const RETAINED_SHARE = 0.75;

/** Bytes per token of the `yaml` package's syntax tree and AST, by token (measured upper bounds). */
const TOKEN_BYTES = 350;
const FLOW_START_BYTES = 1100; // `[` and `{`: a collection with its item list
const ENTRY_BYTES = 600; // `-` and `?`: a block item
const COMMA_BYTES = 400; // `,`: a flow item
/** A document's own objects (Document, directives, options, the layer's wrappers). */
const DOCUMENT_BYTES = 3000;

/**
 * An upper estimate of the peak memory of parsing `text` (bytes), from its tokens; counting stops as
 * soon as the estimate passes `stopAbove`.
 */
export function estimateParseBytes(text: string, stopAbove = Infinity): { bytes: number; tokens: number } {
  let bytes = DOCUMENT_BYTES;
  let tokens = 0;
  for (const t of new Lexer().lex(text)) {
    tokens++;
    bytes += TOKEN_BYTES;
    if (t === '[' || t === '{') bytes += FLOW_START_BYTES;
    else if (t === '-' || t === '?') bytes += ENTRY_BYTES;
    else if (t === ',') bytes += COMMA_BYTES;
    if (bytes > stopAbove) break;
  }
  return { bytes, tokens };
}

/** The `yaml` lexer's tokens of a text by kind, or upper bounds of them (block.ts counts them as it reads). */
export interface TokenCounts {
  tokens: number;
  /** `[` and `{` */
  flowStarts: number;
  /** `-` and `?` */
  entries: number;
  /** `,` */
  commas: number;
}

/** estimateParseBytes's estimate from token counts (an upper bound of it from upper bounds of the counts). */
export function parseBytesOfTokens(c: TokenCounts): number {
  return DOCUMENT_BYTES + TOKEN_BYTES * c.tokens + FLOW_START_BYTES * c.flowStarts + ENTRY_BYTES * c.entries + COMMA_BYTES * c.commas;
}
