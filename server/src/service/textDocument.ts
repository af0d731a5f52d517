/**
 * A TextDocument that is never edited (the CLI's inputs, a CRD's text for related locations), over
 * yaml/lines.ts's LineIndex: the same positions as vscode-languageserver-textdocument's document, whose
 * line table is a loop over every character (12 ms for the 2.9 MB argo-workflows CRD, 1.6 ms for a file
 * of 300 custom resources, on the first check); LineIndex finds line breaks with indexOf. The editor's
 * documents stay the library's (it applies incremental edits).
 */
import type { Position, Range, TextDocument } from 'vscode-languageserver-textdocument';
import { LineIndex } from '../yaml';

/** A read-only TextDocument of `text`. */
export function readOnlyTextDocument(uri: string, languageId: string, version: number, text: string): TextDocument {
  let index: LineIndex | undefined;
  const lines = () => (index ??= new LineIndex(text));
  // As the library does: an offset is never left between a line's end and its line break (\r|\n).
  const beforeLineBreak = (offset: number, lineStart: number) => {
    let o = offset;
    while (o > lineStart && (text.charCodeAt(o - 1) === 10 || text.charCodeAt(o - 1) === 13)) o--;
    return o;
  };
  const lineEnd = (line: number) => (line + 1 < lines().lineCount ? lines().lineStart(line + 1) : text.length);
  const offsetAt = (p: Position): number => {
    const l = lines();
    if (p.line >= l.lineCount) return text.length;
    if (p.line < 0) return 0;
    const start = l.lineStart(p.line);
    if (p.character <= 0) return start;
    return beforeLineBreak(Math.min(start + p.character, lineEnd(p.line)), start);
  };
  return {
    uri,
    languageId,
    version,
    getText: (range?: Range) => (range ? text.substring(offsetAt(range.start), offsetAt(range.end)) : text),
    positionAt(offset: number): Position {
      const p = lines().positionAt(offset);
      const start = lines().lineStart(p.line);
      return { line: p.line, character: beforeLineBreak(start + p.character, start) - start };
    },
    offsetAt,
    get lineCount() {
      return lines().lineCount;
    },
    getLineRange(line: number): Range {
      const count = lines().lineCount;
      if (line >= count) {
        const last = count - 1;
        return { start: { line: last, character: 0 }, end: { line: last, character: text.length - lines().lineStart(last) } };
      }
      if (line < 0) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
      const start = lines().lineStart(line);
      return { start: { line, character: 0 }, end: { line, character: beforeLineBreak(lineEnd(line), start) - start } };
    },
    getEOLCharacters(line: number): string {
      if (line < 0 || line >= lines().lineCount) return '';
      const end = lineEnd(line);
      return text.substring(beforeLineBreak(end, lines().lineStart(line)), end);
    },
  };
}
