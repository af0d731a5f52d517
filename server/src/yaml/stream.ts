/**
 * What kubectl refuses in a file before any value is decoded. kubectl reads a file with apimachinery's
 * YAMLReader (lines starting with `---` end a document, and only a comment may follow them), then
 * gives each document to go-yaml v2, whose reader refuses control characters and whose parser wants
 * `---` after directives: since the reader has cut the file at that `---`, a `%YAML` or `%TAG`
 * directive always ends up alone and the file cannot be read. go-yaml also reads only the first
 * document of what it is given, so a document after `...` without a `---` line is silently dropped.
 *
 * Offsets are relative to the text given (a chunk of the file: see split.ts).
 */

import type { YamlSyntaxError } from './problem';

/** A problem in the text, with kubectl's error when kubectl refuses the file. */
export type StreamProblem = YamlSyntaxError;

const KUBECTL = 'error converting YAML to JSON: ';

/** go-yaml v2's reader accepts only these characters (readerc.go). */
const NOT_PRINTABLE = /[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

/**
 * The reader- and stream-level problems of one chunk (a piece of the file that starts at a `---`
 * line or at the file start). `documentStarts` are the offsets where the `yaml` package found
 * documents in it (a second one follows `...`).
 */
export function streamProblems(text: string, documentStarts: readonly number[]): StreamProblem[] {
  const out: StreamProblem[] = [];
  const bad = NOT_PRINTABLE.exec(text);
  if (bad) {
    const cp = bad[0].codePointAt(0)!;
    const u = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
    out.push({
      severity: 'error',
      code: 'CONTROL_CHARACTER',
      message: `a control character (${u}) that kubectl cannot read`,
      kubectl: `${KUBECTL}yaml: control characters are not allowed`,
      start: bad.index,
      end: bad.index + bad[0].length,
    });
  }
  // Lines that start with `---`: kubectl's document separators (the text's first line, then each after a
  // line break; the first of those ends the document kubectl reads first: directiveProblem).
  const firstBreak = text.indexOf('\n---');
  if (text.startsWith('---')) separatorProblem(text, 0, out);
  for (let at = firstBreak; at >= 0; at = text.indexOf('\n---', at + 1)) separatorProblem(text, at + 1, out);
  const directive = directiveProblem(text, firstBreak);
  if (directive) out.push(directive);
  for (let i = 1; i < documentStarts.length; i++) {
    const s = documentStarts[i];
    let e = text.indexOf('\n', s);
    if (e < 0) e = text.length;
    out.push({
      severity: 'warning',
      code: 'IGNORED_DOCUMENT',
      message: 'kubectl ignores this document: it follows `...` without a `---` line, and kubectl reads only the first document between `---` lines',
      start: s,
      end: e,
    });
  }
  return out;
}

/** A `---` line at lineStart with more than a comment after the `---`: kubectl refuses the file there. */
function separatorProblem(text: string, lineStart: number, out: StreamProblem[]): void {
  let lineEnd = text.indexOf('\n', lineStart);
  if (lineEnd < 0) lineEnd = text.length;
  const rest = text.slice(lineStart + 3, lineEnd).trim();
  if (rest !== '' && !rest.startsWith('#')) {
    out.push({
      severity: 'error',
      code: 'DOCUMENT_SEPARATOR',
      message: 'kubectl stops reading the file at this line: it takes every line starting with --- as a document separator, and only a comment may follow one',
      kubectl: `invalid Yaml document separator: ${rest}`,
      start: lineStart,
      end: lineEnd,
    });
  }
}

/**
 * A chunk that begins with directives: kubectl's reader cuts the file at the `---` after them, and
 * go-yaml then finds the directives with no document (or an unsupported %YAML version first).
 * `firstBreak`: text.indexOf('\n---').
 */
function directiveProblem(text: string, firstBreak: number): StreamProblem | undefined {
  // The kubectl document: from after a leading `---` line (when the chunk has one) to the next `---` line.
  let from = 0;
  if (/^---(?:[ \t#]|\r?\n|$)/.test(text)) {
    const nl = text.indexOf('\n');
    from = nl < 0 ? text.length : nl + 1;
  }
  // The next `---` line: the first after a line break (the first line ends at or before that break).
  const to = firstBreak < 0 ? text.length : firstBreak + 1;
  const head = text.slice(from, to);
  // Directives come before any content (blank and comment lines aside).
  const m = /^(?:[ \t]*(?:#[^\n]*)?\n)*(%[^\r\n]*)/.exec(head);
  if (!m) return undefined;
  const start = from + m[0].length - m[1].length;
  const end = from + m[0].length;
  const lineOf = (offset: number) => head.slice(0, offset).split('\n').length - 1;
  const version = /^%YAML[ \t]+([^ \t#\r\n]+)/m.exec(head);
  let goError: string;
  if (version && version[1] !== '1.1') {
    const line = lineOf(version.index);
    goError = `${line ? `line ${line}: ` : ''}found incompatible YAML document`;
  } else {
    // The parser's mark is at the end of the piece kubectl gave it (a parser error: 0-based line).
    const line = head.split('\n').length - 1;
    goError = `${line ? `line ${line}: ` : ''}did not find expected <document start>`;
  }
  return {
    severity: 'error',
    code: 'DIRECTIVE',
    message: 'kubectl cannot read a file with a % directive: it cuts the file at the --- line, which leaves the directive without its document',
    kubectl: `${KUBECTL}yaml: ${goError}`,
    start,
    end,
  };
}
