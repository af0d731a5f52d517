/**
 * Applying the client's document changes without trusting them. The LSP spec says a position whose
 * character is past the end of its line means the end of that line; it says nothing of lines past the end
 * of the document, negative numbers or non-numbers, and vscode-languageserver-textdocument turns those
 * into NaN offsets that corrupt the document's text and line table (diagnostics then carry
 * `character: null`).
 *
 * Decision:
 * - a range that is numeric but out of the document (a line past the last, a negative line or character)
 *   is **clamped** to the document, as an editor would place such a cursor: the edit lands at the nearest
 *   real position, the text stays consistent, and the clamp is logged (a client bug worth knowing of);
 * - a change that is not numeric at all (missing range parts, null, NaN, strings, a non-string text) is
 *   **rejected** with the whole notification: there is no position to clamp to, and applying part of an
 *   edit would leave the server's text differing from the client's without either knowing. The document's
 *   text stays as it was, the document is marked out of sync (no findings, no answers on it) until the
 *   client sends its full text (a change without a range) or reopens it, and the rejection is logged.
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver-protocol';

export type ChangeVerdict = { ok: true; changes: TextDocumentContentChangeEvent[]; clamped: string[] } | { ok: false; why: string };

/** Checks and clamps a didChange's content changes against the document as each change finds it. */
export function sanitizeChanges(doc: TextDocument, changes: unknown): ChangeVerdict {
  if (!Array.isArray(changes)) return { ok: false, why: 'contentChanges is not an array' };
  const out: TextDocumentContentChangeEvent[] = [];
  const clamped: string[] = [];
  // Line counts change as the changes apply in order: track them on a scratch copy.
  let scratch = doc;
  for (const [i, raw] of changes.entries()) {
    const c = raw as { range?: unknown; text?: unknown };
    if (!c || typeof c !== 'object' || typeof c.text !== 'string') return { ok: false, why: `change ${i}: text is not a string` };
    if (c.range === undefined) {
      out.push({ text: c.text });
      if (i < changes.length - 1) scratch = TextDocument.create(doc.uri, doc.languageId, doc.version, c.text);
      continue;
    }
    const r = c.range as { start?: { line?: unknown; character?: unknown }; end?: { line?: unknown; character?: unknown } } | null;
    const nums = [r?.start?.line, r?.start?.character, r?.end?.line, r?.end?.character];
    if (!r || !nums.every((n) => typeof n === 'number' && Number.isFinite(n))) {
      return { ok: false, why: `change ${i}: range ${JSON.stringify(c.range)} is not four numbers` };
    }
    const lines = scratch.lineCount;
    const pos = (line: number, character: number, which: string) => {
      let l = Math.floor(line);
      let ch = Math.floor(character);
      if (l < 0 || ch < 0) {
        clamped.push(`change ${i}: ${which} ${line}:${character} is negative`);
        l = Math.max(0, l);
        ch = Math.max(0, ch);
      }
      if (l >= lines) {
        clamped.push(`change ${i}: ${which} line ${line} is past the last line (${lines - 1})`);
        return scratch.positionAt(scratch.getText().length);
      }
      // Past the end of its line: the spec's own rule (end of line), not worth a log line.
      return { line: l, character: ch };
    };
    const start = pos(nums[0] as number, nums[1] as number, 'start');
    const end = pos(nums[2] as number, nums[3] as number, 'end');
    const change = { range: { start, end }, text: c.text };
    out.push(change);
    // A copy (update mutates): only when more changes follow, which is rare.
    if (i < changes.length - 1) scratch = TextDocument.update(TextDocument.create(doc.uri, doc.languageId, doc.version, scratch.getText()), [change], doc.version);
  }
  return { ok: true, changes: out, clamped };
}
