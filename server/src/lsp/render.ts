/**
 * Findings as LSP: diagnostics, code actions and the preview response. The API server's exact message is
 * one click away: the first related-information entry of a diagnostic whose short message differs from it.
 */
import { CodeActionKind, DiagnosticSeverity, DiagnosticTag, type CodeAction, type Diagnostic, type DiagnosticRelatedInformation } from 'vscode-languageserver/node';
import type { Finding, FindingSeverity, Fix } from '../service';
import type { StoredObjectPreview } from '../service';
import { renderPreview } from '../service';
import type { PreviewResponse } from './protocol';

export const SOURCE = 'crd-yaml';

const SEVERITY: Record<FindingSeverity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** The label of the related-information entry that carries the API server's exact message. */
export const API_SERVER_LABEL = 'API server: ';

/** A finding as a diagnostic of the file `uri`. */
export function toDiagnostic(f: Finding, uri: string): Diagnostic {
  const d: Diagnostic = { range: f.range, severity: SEVERITY[f.severity], code: f.code, source: SOURCE, message: f.message };
  const related: DiagnosticRelatedInformation[] = [];
  if (f.apiMessage && f.apiMessage !== f.message) related.push({ location: { uri, range: f.range }, message: API_SERVER_LABEL + f.apiMessage });
  for (const n of f.notes ?? []) related.push({ location: { uri, range: f.range }, message: n });
  for (const r of f.related ?? []) related.push({ location: r.location, message: r.message });
  if (related.length) d.relatedInformation = related;
  if (f.code === 'DeprecatedVersion') d.tags = [DiagnosticTag.Deprecated];
  return d;
}

import { SHOW_NOTES_COMMAND } from './protocol';
export { SHOW_NOTES_COMMAND };

/**
 * A fix as a quick-fix code action: its edits, or the editor command it runs (a way to supply CRDs); its
 * notes are shown by SHOW_NOTES_COMMAND once the edit is applied.
 */
export function toCodeAction(fix: Fix, uri: string): CodeAction {
  const action: CodeAction = {
    title: fix.title,
    kind: CodeActionKind.QuickFix,
    diagnostics: fix.findings.map((f) => toDiagnostic(f, uri)),
    isPreferred: fix.preferred === true,
  };
  if (fix.edits.length || !fix.command) action.edit = { changes: { [uri]: fix.edits } };
  if (fix.command) action.command = { title: fix.title, ...fix.command };
  else if (fix.notes?.length) action.command = { title: 'Show what changed', command: SHOW_NOTES_COMMAND, arguments: [fix.title, fix.notes] };
  // The edits as snippets, for a client that applies them so (the VS Code client does; others use `edit`).
  if (fix.snippets?.length) action.data = { snippets: { [uri]: fix.snippets } };
  return action;
}

/** The `crdYaml/preview` answer for one document. */
export function toPreviewResponse(p: StoredObjectPreview, uri: string): PreviewResponse {
  return {
    yaml: renderPreview(p),
    object: p.object ?? null,
    pruned: p.pruned.map((x) => x.path),
    defaulted: p.defaulted.map((x) => x.path),
    statusDropped: p.statusDropped,
    diagnostics: p.findings.map((f) => toDiagnostic(f, uri)),
  };
}
