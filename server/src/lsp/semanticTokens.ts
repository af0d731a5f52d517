/**
 * Semantic tokens (the CEL of validation rules, service/celTokens.ts) in LSP's encoding: the legend the
 * server declares, and the relative integer array of an answer. Range requests only: an editor asks for
 * the lines it shows, and a large document is never tokenized whole.
 */
import type { SemanticTokens, SemanticTokensLegend } from 'vscode-languageserver-types';
import type { CelToken, CelTokenType } from '../service';

/** Each token type's index in the legend (every type the service makes: the compiler checks). */
const TYPE_INDEX: Readonly<Record<CelTokenType, number>> = {
  keyword: 0,
  operator: 1,
  string: 2,
  number: 3,
  function: 4,
  method: 5,
  macro: 6,
  variable: 7,
  property: 8,
  comment: 9,
};

export const SEMANTIC_TOKENS_LEGEND: SemanticTokensLegend = {
  tokenTypes: Object.entries(TYPE_INDEX)
    .sort((a, b) => a[1] - b[1])
    .map(([t]) => t),
  tokenModifiers: [],
};

/** Tokens in document order as LSP's array: per token, line and start relative to the previous one, length, type, modifiers. */
export function encodeSemanticTokens(tokens: readonly CelToken[]): SemanticTokens {
  const data: number[] = [];
  let line = 0;
  let character = 0;
  for (const t of tokens) {
    data.push(t.line - line, t.line === line ? t.character - character : t.character, t.length, TYPE_INDEX[t.type], 0);
    line = t.line;
    character = t.character;
  }
  return { data };
}
