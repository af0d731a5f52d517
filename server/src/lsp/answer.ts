/**
 * LSP requests answered by a language service, in either worker: one place maps each method to its
 * service call. A failure answers the method's empty value and is logged; the worker keeps running.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Position, Range } from 'vscode-languageserver-types';
import type { LanguageService } from '../service';
import type { PreviewResponse } from './protocol';
import { toCodeAction, toPreviewResponse } from './render';
import { encodeSemanticTokens } from './semanticTokens';
import { emptyAnswer, type DocumentMethod } from './workerProtocol';

/** The requests answered from the text alone: the caller need not update the service (parse the document) first. */
export const PARSE_FREE: ReadonlySet<string> = new Set(['textDocument/semanticTokens/range']);

/** The fields of the document requests' params that the service calls read (the caller routed by method). */
interface Params {
  position: Position;
  range: Range;
  /** crdYaml/preview */
  scope?: string;
  readBack?: boolean;
}

/** Answers a document request with the service (the caller has updated the service with `td` first, unless PARSE_FREE). */
export function answer(service: LanguageService, method: string, td: TextDocument, params: unknown, log: (m: string) => void): unknown {
  const p = params as Params;
  try {
    switch (method as DocumentMethod) {
      case 'textDocument/hover':
        return service.hover(td, p.position);
      case 'textDocument/completion':
        return service.completion(td, p.position);
      case 'textDocument/signatureHelp':
        return service.signatureHelp(td, p.position);
      case 'textDocument/codeAction':
        return service.fixes(td, p.range).map((f) => toCodeAction(f, td.uri));
      case 'textDocument/documentSymbol':
        return service.documentSymbols(td);
      case 'textDocument/definition':
        return service.definition(td, p.position);
      case 'textDocument/foldingRange':
        return service.foldingRanges(td);
      case 'textDocument/codeLens':
        return service.codeLenses(td);
      case 'textDocument/semanticTokens/range':
        return encodeSemanticTokens(service.celTokens(td, p.range));
      case 'crdYaml/preview': {
        if (p.scope === 'file') return { yaml: service.previewFile(td), object: null, pruned: [], defaulted: [], diagnostics: [] } satisfies PreviewResponse;
        const r = service.preview(td, p.position, { readBack: p.readBack === true });
        return r && toPreviewResponse(r, td.uri);
      }
    }
    return null;
  } catch (e) {
    log(`${method.replace(/^textDocument\//, '')} failed: ${(e as Error).stack ?? e}`);
    return emptyAnswer(method);
  }
}
