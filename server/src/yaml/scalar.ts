/**
 * Offsets inside a string value -> offsets in its YAML source, for every scalar style.
 *
 * Used to point at a spot inside a CEL rule (a compile error's column) whatever way the rule is
 * written: plain, single-quoted (`''`), double-quoted (escapes, escaped line breaks), literal or
 * folded block, over several lines. Every non-blank character of the value is matched to its own
 * source character; a blank of the value (folded line breaks, indentation) maps to the blank
 * source nearby.
 */
import { parseDocument, type Scalar } from 'yaml';
import { DOUBLE_QUOTED_ESCAPES } from './quoted';

/**
 * The string a scalar's source (as scalarSourceOffsets takes it) stands for, every scalar read as a string;
 * undefined when the source is not one scalar. For a scalar found without parsing its document (itemScalars.ts).
 */
export function scalarSourceValue(raw: string): string | undefined {
  const doc = parseDocument(raw, { schema: 'failsafe', logLevel: 'silent' });
  if (doc.errors.length) return undefined;
  const v = doc.contents?.toJSON();
  return typeof v === 'string' ? v : undefined;
}

interface SourceChar {
  /** The decoded character (a UTF-16 unit). */
  c: string;
  /** Offset of the source text it came from. */
  at: number;
}

/**
 * For each index of `value` (and `value.length`, the end), its offset in `raw` (the scalar's
 * source text from its first character to its value end); undefined when the source and value
 * cannot be aligned (then use the whole scalar).
 */
export function scalarSourceOffsets(raw: string, type: Scalar.Type | undefined, value: string): number[] | undefined {
  const chars = decode(raw, type);
  if (!chars) return undefined;
  const out: number[] = [];
  let j = 0;
  for (let i = 0; i < value.length; i++) {
    const v = value[i];
    if (isBlank(v)) {
      if (j < chars.length && isBlank(chars[j].c)) out.push(chars[j++].at);
      else out.push(j < chars.length ? chars[j].at : raw.length);
      continue;
    }
    while (j < chars.length && isBlank(chars[j].c) && chars[j].c !== v) j++;
    if (j >= chars.length || chars[j].c !== v) return undefined;
    out.push(chars[j++].at);
  }
  out.push(j < chars.length ? chars[j].at : endOfContent(raw, type));
  return out;
}

function isBlank(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

function endOfContent(raw: string, type: Scalar.Type | undefined): number {
  if (type === 'QUOTE_DOUBLE' || type === 'QUOTE_SINGLE') return Math.max(0, raw.length - 1);
  let e = raw.length;
  while (e > 0 && isBlank(raw[e - 1])) e--;
  return e;
}

function decode(raw: string, type: Scalar.Type | undefined): SourceChar[] | undefined {
  const out: SourceChar[] = [];
  switch (type) {
    case 'PLAIN':
    case undefined:
      for (let i = 0; i < raw.length; i++) out.push({ c: raw[i], at: i });
      return out;
    case 'BLOCK_LITERAL':
    case 'BLOCK_FOLDED': {
      // Content starts after the header line (`|-`, `>2 # comment`).
      const nl = raw.indexOf('\n');
      if (nl < 0) return out;
      for (let i = nl + 1; i < raw.length; i++) out.push({ c: raw[i], at: i });
      return out;
    }
    case 'QUOTE_SINGLE': {
      const end = raw.length - 1;
      for (let i = 1; i < end; i++) {
        out.push({ c: raw[i], at: i });
        if (raw[i] === "'" && raw[i + 1] === "'") i++;
      }
      return out;
    }
    case 'QUOTE_DOUBLE': {
      const end = raw.length - 1;
      for (let i = 1; i < end; i++) {
        const ch = raw[i];
        if (ch !== '\\') {
          out.push({ c: ch, at: i });
          continue;
        }
        const e = raw[i + 1];
        if (e === '\n' || e === '\r') {
          // An escaped line break joins the lines: nothing of it is in the value.
          i++;
          if (e === '\r' && raw[i + 1] === '\n') i++;
          while (i + 1 < end && (raw[i + 1] === ' ' || raw[i + 1] === '\t')) i++;
          continue;
        }
        const hex = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
        if (hex) {
          const code = parseInt(raw.slice(i + 2, i + 2 + hex), 16);
          if (Number.isNaN(code)) return undefined;
          for (const unit of String.fromCodePoint(code)) for (let k = 0; k < unit.length; k++) out.push({ c: unit[k], at: i });
          i += 1 + hex;
          continue;
        }
        const simple = ESCAPES[e];
        if (simple === undefined) return undefined;
        out.push({ c: simple, at: i });
        i++;
      }
      return out;
    }
    default:
      return undefined;
  }
}

/** The `yaml` package's double-quoted escapes: go-yaml's, and YAML 1.2's `\\/`. */
const ESCAPES: Record<string, string> = { ...DOUBLE_QUOTED_ESCAPES, '/': '/' };
