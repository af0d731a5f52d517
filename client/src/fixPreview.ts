/**
 * Fixes whose edits come as snippets too (code action `data.snippets`: "Add required field" with each
 * inserted value a tab stop) are applied as snippets in the editor of their file.
 *
 * Fixes that carry notes (a v1beta1 -> v1 upgrade: what it changed, the workspace objects whose verdict
 * it changes) are shown before they are applied: their edits are marked as needing confirmation, so VS
 * Code opens its refactor preview (the diff, with the first notes as the change's description) instead
 * of applying at once. The notes still go to the output channel after the edit (the server's command).
 */
import * as vscode from 'vscode';
import type { Middleware } from 'vscode-languageclient/node';
import { SHOW_NOTES_COMMAND } from '../../server/src/lsp/protocol';

function withPreview(action: vscode.CodeAction): vscode.CodeAction {
  if (action.command?.command !== SHOW_NOTES_COMMAND || !action.edit) return action;
  const notes = (action.command.arguments?.[1] as unknown[] | undefined)?.map(String) ?? [];
  const meta: vscode.WorkspaceEditEntryMetadata = { needsConfirmation: true, label: action.title, description: notes.slice(0, 3).join(' · ') };
  const edit = new vscode.WorkspaceEdit();
  for (const [uri, edits] of action.edit.entries()) for (const e of edits) edit.replace(uri, e.range, e.newText, meta);
  action.edit = edit;
  return action;
}

type LspRange = { start: { line: number; character: number }; end: { line: number; character: number } };

function withSnippets(action: vscode.CodeAction): vscode.CodeAction {
  const snippets = (action as vscode.CodeAction & { data?: { snippets?: Record<string, Array<{ range: LspRange; newText: string }>> } }).data?.snippets;
  if (!snippets || !action.edit) return action;
  const edit = new vscode.WorkspaceEdit();
  for (const [uri, edits] of Object.entries(snippets)) {
    edit.set(
      vscode.Uri.parse(uri),
      edits.map((e) => new vscode.SnippetTextEdit(new vscode.Range(e.range.start.line, e.range.start.character, e.range.end.line, e.range.end.character), new vscode.SnippetString(e.newText))),
    );
  }
  action.edit = edit;
  return action;
}

export const previewFixes: Middleware['provideCodeActions'] = async (document, range, context, token, next) => {
  const actions = await next(document, range, context, token);
  return actions?.map((a) => (a instanceof vscode.CodeAction ? withPreview(withSnippets(a)) : a));
};
