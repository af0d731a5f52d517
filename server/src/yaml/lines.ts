/**
 * Offset <-> line/column conversion for a text.
 *
 * Offsets are indices into the JavaScript string (UTF-16 code units), which is also what LSP
 * positions count by default, so no re-encoding is needed. Lines and characters are 0-based, as in
 * LSP; add 1 for human-facing output (CLI, SARIF).
 */

/** A 0-based line/character position (LSP `Position` shape). */
export interface LinePosition {
  line: number;
  character: number;
}

/**
 * Line starts of a text, computed once (O(n)); each lookup is a binary search (O(log lines)).
 * Line breaks are `\n`, `\r\n` and a lone `\r`, as in YAML and LSP.
 */
export class LineIndex {
  private readonly starts: number[];

  constructor(readonly text: string) {
    const starts = [0];
    if (text.indexOf('\r') < 0) {
      // The usual text: V8's indexOf is several times faster than a loop over every character.
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    } else {
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 13 /* \r */) {
          if (text.charCodeAt(i + 1) === 10) i++;
          starts.push(i + 1);
        } else if (c === 10 /* \n */) {
          starts.push(i + 1);
        }
      }
    }
    this.starts = starts;
  }

  /** Number of lines (a text ending with a newline has an empty last line). */
  get lineCount(): number {
    return this.starts.length;
  }

  /** The 0-based line/character of an offset (clamped to the text). */
  positionAt(offset: number): LinePosition {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - this.starts[lo] };
  }

  /** The offset of a 0-based line/character (clamped to the line's content and to the text). */
  offsetAt(pos: LinePosition): number {
    if (pos.line < 0) return 0;
    if (pos.line >= this.starts.length) return this.text.length;
    const start = this.starts[pos.line];
    const end = this.lineContentEnd(pos.line);
    return Math.max(start, Math.min(start + Math.max(0, pos.character), end));
  }

  /** Offset where a line starts. */
  lineStart(line: number): number {
    return this.starts[Math.max(0, Math.min(line, this.starts.length - 1))];
  }

  /** Offset of the end of a line's content (before its line break). */
  lineContentEnd(line: number): number {
    const l = Math.max(0, Math.min(line, this.starts.length - 1));
    let end = l + 1 < this.starts.length ? this.starts[l + 1] : this.text.length;
    if (end > this.starts[l] && this.text.charCodeAt(end - 1) === 10) end--;
    if (end > this.starts[l] && this.text.charCodeAt(end - 1) === 13) end--;
    return end;
  }
}

/** Offset of the end of the line containing `offset` (before the line break), without an index. */
export function endOfLine(text: string, offset: number): number {
  let i = offset;
  while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
  return i;
}
