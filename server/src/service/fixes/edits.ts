/**
 * The fixes' edits in editor terms: file offsets as ranges of the document, and a fix of one or more
 * findings. The YAML source edits themselves (remove a pair, add lines to a mapping) are the YAML layer's
 * (yaml/sourceEdits.ts).
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Finding, Fix } from '../finding';
import type { SourceEdit } from '../../yaml/sourceEdits';

export type TextEdit = Fix['edits'][number];

/** An edit of file offsets [start, end). */
export function edit(td: TextDocument, start: number, end: number, newText: string): TextEdit {
  return { range: { start: td.positionAt(start), end: td.positionAt(end) }, newText };
}

/** A YAML source edit as an edit of the document (none stays none). */
export function placed(td: TextDocument, e: SourceEdit | undefined): TextEdit | undefined {
  return e && edit(td, e.start, e.end, e.newText);
}

/** A fix of one finding. */
export function fix(title: string, f: Finding | Finding[], edits: TextEdit[], preferred = true): Fix {
  return { title, edits, findings: Array.isArray(f) ? f : [f], preferred };
}
