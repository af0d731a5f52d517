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
 *   client sends its full text (a change without a range) or reopens it, and the rejection is logged;
 * - while out of sync, a notification's changes before its last full text are **ignored** (the text they
 *   edit is not the client's, so there is nothing to clamp them against); one without a full text leaves
 *   the document as it is. Malformed ones are still rejected.
 *
 * Whether a notification is well formed does not depend on the text, so it is decided before anything is
 * applied; the changes are then applied in place, each clamped against the text as the changes before it
 * left it (no copy of the document per notification: a burst of edits to a large document stays cheap).
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver-protocol';

/** What became of a didChange's content changes. */
export type ChangeOutcome =
  /** Applied in place (`clamped` says which positions were moved into the document); `resynced` when a full text brought an out-of-sync document back. */
  | { t: 'applied'; clamped: string[]; resynced: boolean }
  /** Not applied: the document is out of sync from now on. */
  | { t: 'rejected'; why: string }
  /** Not applied: the document is out of sync and the notification has no full text. */
  | { t: 'ignored' };

type Range = { start: { line: number; character: number }; end: { line: number; character: number } };

/** The changes as well-formed events (ranges of four finite numbers, string texts), or why not. */
function wellFormed(changes: unknown): { ok: true; changes: Array<{ range?: Range; text: string }> } | { ok: false; why: string } {
  if (!Array.isArray(changes)) return { ok: false, why: 'contentChanges is not an array' };
  const out: Array<{ range?: Range; text: string }> = [];
  for (const [i, raw] of changes.entries()) {
    const c = raw as { range?: unknown; text?: unknown };
    if (!c || typeof c !== 'object' || typeof c.text !== 'string') return { ok: false, why: `change ${i}: text is not a string` };
    if (c.range === undefined) {
      out.push({ text: c.text });
      continue;
    }
    const r = c.range as { start?: { line?: unknown; character?: unknown }; end?: { line?: unknown; character?: unknown } } | null;
    const nums = [r?.start?.line, r?.start?.character, r?.end?.line, r?.end?.character];
    if (!r || !nums.every((n) => typeof n === 'number' && Number.isFinite(n))) {
      return { ok: false, why: `change ${i}: range ${JSON.stringify(c.range)} is not four numbers` };
    }
    const [sl, sc, el, ec] = nums as number[];
    out.push({ range: { start: { line: sl, character: sc }, end: { line: el, character: ec } }, text: c.text });
  }
  return { ok: true, changes: out };
}

/**
 * Applies a didChange's content changes to `doc` in place (TextDocument.update mutates it), clamping
 * out-of-range positions, unless the notification is rejected or, on an out-of-sync document, ignored.
 */
export function applyChanges(doc: TextDocument, changes: unknown, version: number, outOfSync: boolean): ChangeOutcome {
  const v = wellFormed(changes);
  if (!v.ok) return { t: 'rejected', why: v.why };
  let from = 0;
  if (outOfSync) {
    from = -1;
    for (let i = v.changes.length - 1; i >= 0 && from < 0; i--) if (v.changes[i].range === undefined) from = i;
    if (from < 0) return { t: 'ignored' };
  }
  const clamped: string[] = [];
  for (let i = from; i < v.changes.length; i++) {
    const c = v.changes[i];
    let change: TextDocumentContentChangeEvent = c;
    if (c.range) {
      const lines = doc.lineCount;
      const pos = (p: { line: number; character: number }, which: string) => {
        let l = Math.floor(p.line);
        let ch = Math.floor(p.character);
        if (l < 0 || ch < 0) {
          clamped.push(`change ${i}: ${which} ${p.line}:${p.character} is negative`);
          l = Math.max(0, l);
          ch = Math.max(0, ch);
        }
        if (l >= lines) {
          clamped.push(`change ${i}: ${which} line ${p.line} is past the last line (${lines - 1})`);
          return doc.positionAt(doc.getText().length);
        }
        // Past the end of its line: the spec's own rule (end of line), not worth a log line.
        return { line: l, character: ch };
      };
      change = { range: { start: pos(c.range.start, 'start'), end: pos(c.range.end, 'end') }, text: c.text };
    }
    TextDocument.update(doc, [change], version);
  }
  return { t: 'applied', clamped, resynced: outOfSync };
}
