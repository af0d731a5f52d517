/**
 * Cheap split of a YAML stream into chunks at `---` document markers, so that each chunk can be
 * parsed on its own and an edit re-parses only the chunk it touched.
 *
 * A line that starts with `---` followed by a space, a tab or the end of the line is always a
 * document marker in YAML (such a line is forbidden inside any content, block scalars and quoted
 * strings included), so splitting there never changes the meaning of the stream. The one thing a
 * marker line does not start by itself is the directives (`%YAML`, `%TAG`) before it: a chunk made
 * only of directives, comments and blank lines is merged into the chunk that follows it.
 * `...` document-end markers are left to the parser (a chunk may then hold several documents).
 */

/** A piece of the text: `text === source.slice(start, end)`. */
export interface YamlChunk {
  start: number;
  end: number;
  text: string;
  /** The rest of a text cut into `maxChunks` chunks: several documents, not to be parsed. */
  tail?: true;
}

/**
 * Split `text` into chunks; each chunk but the first starts at a `---` marker line. With `maxChunks`,
 * the last chunk is the rest of the text from its marker on, marked `tail`.
 */
export function splitYamlChunks(text: string, maxChunks = Infinity): YamlChunk[] {
  const cuts: number[] = [0];
  // Cuts beyond the limit are not collected (a file of a million `---` lines stays cheap).
  const limit = maxChunks + 8;
  let truncated = false;
  // (`includes` first: a native search, ten times faster than the regex on the megabytes of a CRD.)
  if (!text.includes('\r') || !LONE_CR.test(text)) {
    // Every line starts after a `\n`: jump between `\n---` with the native search (a 3 MB CRD has none).
    for (let i = text.indexOf('\n---'); i >= 0; i = text.indexOf('\n---', i + 1)) {
      if (!isMarkerLine(text, i + 1)) continue;
      if (cuts.length >= limit) {
        truncated = true;
        break;
      }
      cuts.push(i + 1);
    }
  } else {
    let lineStart = 0;
    while (lineStart < text.length) {
      if (cuts.length >= limit) {
        truncated = true;
        break;
      }
      if (lineStart > 0 && isMarkerLine(text, lineStart)) cuts.push(lineStart);
      const nl = nextLineStart(text, lineStart);
      if (nl < 0) break;
      lineStart = nl;
    }
  }
  const chunks: YamlChunk[] = [];
  let pendingStart = -1; // start of a directives-only chunk waiting for its document
  for (let i = 0; i < cuts.length; i++) {
    if ((chunks.length === maxChunks - 1 && i + 1 < cuts.length) || (truncated && i === cuts.length - 1)) {
      const start = pendingStart >= 0 ? pendingStart : cuts[i];
      chunks.push({ start, end: text.length, text: text.slice(start), tail: true });
      return chunks;
    }
    const start = pendingStart >= 0 ? pendingStart : cuts[i];
    const end = i + 1 < cuts.length ? cuts[i + 1] : text.length;
    if (i + 1 < cuts.length && hasOnlyDirectives(text, cuts[i], end)) {
      if (pendingStart < 0) pendingStart = cuts[i];
      continue;
    }
    pendingStart = -1;
    chunks.push({ start, end, text: text.slice(start, end) });
  }
  if (chunks.length === 0) chunks.push({ start: 0, end: text.length, text });
  return chunks;
}

/** A `\r` line break not followed by `\n` (old Mac style): lines may then start after it. */
const LONE_CR = /\r(?!\n)/;

function nextLineStart(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) return i + 1;
    if (c === 13) return text.charCodeAt(i + 1) === 10 ? i + 2 : i + 1;
  }
  return -1;
}

function isMarkerLine(text: string, at: number): boolean {
  if (text.charCodeAt(at) !== 45 || text.charCodeAt(at + 1) !== 45 || text.charCodeAt(at + 2) !== 45) return false;
  const c = text.charCodeAt(at + 3);
  return Number.isNaN(c) || c === 32 || c === 9 || c === 10 || c === 13;
}

/** True when the lines in [start, end) hold at least one `%` directive and nothing but directives, comments, blanks. */
function hasOnlyDirectives(text: string, start: number, end: number): boolean {
  let sawDirective = false;
  let i = start;
  while (i < end) {
    let j = i;
    while (j < end && text[j] !== '\n' && text[j] !== '\r') j++;
    const line = text.slice(i, j).trim();
    // The chunk's own `---` line (when it has one) is content: a chunk starting with it is not directives-only.
    if (line.startsWith('%')) sawDirective = true;
    else if (line !== '' && !line.startsWith('#')) return false;
    i = j;
    while (i < end && (text[i] === '\n' || text[i] === '\r')) i++;
  }
  return sawDirective;
}
