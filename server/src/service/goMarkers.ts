/**
 * Kubebuilder marker comments as text: where a marker's arguments are, and Go string literals with the
 * offset of each character of their value in the source (escapes accounted for), so that a column inside
 * a CEL rule of the generated CRD lands on the same character of the `rule="..."` the author wrote.
 * Positions from the generator are byte columns (go/token); editors count UTF-16 units.
 */

/** A Go string literal read from source: its value and, per UTF-16 unit of the value, its source offset. */
export interface GoStringLiteral {
  value: string;
  /** `offsets[i]`: the source offset of value unit i; `offsets[value.length]`: the end of the content. */
  offsets: number[];
  /** Where the literal starts (its quote) and ends (after its closing quote, or the line's end when open). */
  start: number;
  end: number;
  /** The literal has no closing quote on its line (being typed). */
  open?: boolean;
}

const SIMPLE_ESCAPES: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"' };

/**
 * The Go string literal at `start` of `text` (one line): interpreted (`"..."`, strconv.Unquote's escapes),
 * raw (`` `...` ``), or, as controller-tools' marker parser takes them, a bare word up to `,` or the end.
 */
export function goStringAt(text: string, start: number): GoStringLiteral {
  const q = text[start];
  let value = '';
  const offsets: number[] = [];
  const push = (s: string, at: number) => {
    for (let k = 0; k < s.length; k++) offsets.push(at);
    value += s;
  };
  if (q === '`') {
    let i = start + 1;
    for (; i < text.length && text[i] !== '`' && text[i] !== '\n'; i++) push(text[i], i);
    offsets.push(i);
    const open = text[i] !== '`';
    return { value, offsets, start, end: open ? i : i + 1, open };
  }
  if (q !== '"') {
    // A bare value: up to the next argument.
    let i = start;
    for (; i < text.length && text[i] !== ',' && text[i] !== '\n'; i++) push(text[i], i);
    offsets.push(i);
    return { value, offsets, start, end: i };
  }
  let i = start + 1;
  while (i < text.length && text[i] !== '"' && text[i] !== '\n') {
    const c = text[i];
    if (c !== '\\') {
      push(c, i);
      i++;
      continue;
    }
    const e = text[i + 1];
    if (e !== undefined && e in SIMPLE_ESCAPES) {
      push(SIMPLE_ESCAPES[e], i);
      i += 2;
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = text.slice(i + 2, i + 2 + n);
      const cp = /^[0-9a-fA-F]+$/.test(hex) && hex.length === n ? Number.parseInt(hex, 16) : Number.NaN;
      // \xNN is a byte: in a rule (UTF-8 text) it is a character only below 0x80.
      push(Number.isNaN(cp) || cp > 0x10ffff ? '\ufffd' : String.fromCodePoint(cp), i);
      i += 2 + n;
    } else if (e !== undefined && e >= '0' && e <= '7') {
      const oct = text.slice(i + 1, i + 4);
      push(String.fromCharCode(Number.parseInt(oct, 8) & 0xff), i);
      i += 4;
    } else {
      push(e ?? '', i);
      i += 2;
    }
  }
  offsets.push(Math.min(i, text.length));
  const open = text[i] !== '"';
  return { value, offsets, start, end: open ? i : i + 1, open };
}

/** A marker's arguments (`rule="..."`, `message=...`): name, where its value starts, its literal. */
export interface MarkerArgument {
  name: string;
  nameStart: number;
  literal: GoStringLiteral;
}

/**
 * The named arguments of a marker written on one line, from `start` (just after the marker's name and
 * its `:`): `rule="...",message="..."`. Literals are skipped whole, so commas inside them do not split.
 */
export function markerArguments(line: string, start: number): MarkerArgument[] {
  const out: MarkerArgument[] = [];
  let i = start;
  while (i < line.length) {
    while (i < line.length && (line[i] === ' ' || line[i] === ',')) i++;
    const m = /^([A-Za-z][A-Za-z0-9]*)\s*=\s*/.exec(line.slice(i));
    if (!m) break;
    const valueStart = i + m[0].length;
    // A list argument ({a,b}) or a bare value: read up to the next comma at depth 0.
    if (line[valueStart] === '{') {
      const close = line.indexOf('}', valueStart);
      i = close < 0 ? line.length : close + 1;
      continue;
    }
    const literal = goStringAt(line, valueStart);
    out.push({ name: m[1], nameStart: i, literal });
    i = literal.end;
  }
  return out;
}

/**
 * The marker of a comment line: where its `+` is, its name as written up to the first `=` (for markers
 * with named arguments, `kubebuilder:validation:XValidation:rule`), and where the named arguments of an
 * `XValidation` marker start.
 */
export function markerOfLine(line: string): { text: string; start: number; xvalidationArgs?: number } | undefined {
  const m = /^(\s*\/\/\s*)\+(?=[A-Za-z])/.exec(line);
  if (!m) return undefined;
  const start = m[1].length;
  const text = line.slice(start).trimEnd();
  const x = /^\+kubebuilder:validation:XValidation:/.exec(text);
  return { text, start, ...(x ? { xvalidationArgs: start + x[0].length } : {}) };
}

/** The UTF-16 column of a 1-based byte column in a line. */
export function utf16Column(line: string, byteCol: number): number {
  const bytes = Buffer.from(line, 'utf8');
  return bytes.subarray(0, Math.max(0, Math.min(bytes.length, byteCol - 1))).toString('utf8').length;
}
