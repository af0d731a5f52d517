/**
 * Optional entries in aggregate literals (`[a, ?b]`, `{?'k': v}`, cel-go OptionalTypes syntax) which the
 * cel-js parser does not accept: rewritten to helper calls with the same meaning.
 *   [a, ?b, c]        -> [a] + __optElem(b) + [c]
 *   {'k2': v2, ?k: v} -> __optMap({'k2': v2}, k, v)
 * Applied only when the source fails to parse as is and contains such entries.
 */

export const OPT_ELEM_FN = '__optElem';
export const OPT_MAP_FN = '__optMap';

interface Tok {
  kind: 'open' | 'close' | 'comma' | 'question' | 'colon' | 'other';
  text: string;
  start: number;
  end: number;
}

function tokenize(src: string): Tok[] | undefined {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    // String and bytes literals, optionally raw/bytes prefixed, single or triple quoted.
    const m = /^([rRbB]{0,2})('''|"""|'|")/.exec(src.slice(i));
    if (m && (m[1].length > 0 ? /[^A-Za-z0-9_]/.test(src[i - 1] ?? ' ') : true)) {
      const q = m[2];
      const raw = /[rR]/.test(m[1]);
      let j = i + m[0].length;
      while (j < src.length) {
        if (!raw && src[j] === '\\') {
          j += 2;
          continue;
        }
        if (src.startsWith(q, j)) break;
        if (q.length === 1 && src[j] === '\n') return undefined;
        j++;
      }
      if (j >= src.length) return undefined;
      out.push({ kind: 'other', text: src.slice(i, j + q.length), start: i, end: j + q.length });
      i = j + q.length;
      continue;
    }
    if (c === '[' || c === '{' || c === '(') {
      out.push({ kind: 'open', text: c, start: i, end: i + 1 });
      i++;
      continue;
    }
    if (c === ']' || c === '}' || c === ')') {
      out.push({ kind: 'close', text: c, start: i, end: i + 1 });
      i++;
      continue;
    }
    if (c === ',') {
      out.push({ kind: 'comma', text: c, start: i, end: i + 1 });
      i++;
      continue;
    }
    if (c === '?') {
      out.push({ kind: 'question', text: c, start: i, end: i + 1 });
      i++;
      continue;
    }
    if (c === ':') {
      out.push({ kind: 'colon', text: c, start: i, end: i + 1 });
      i++;
      continue;
    }
    let j = i + 1;
    if (/[A-Za-z0-9_.]/.test(c)) while (j < src.length && /[A-Za-z0-9_]/.test(src[j])) j++;
    out.push({ kind: 'other', text: src.slice(i, j), start: i, end: j });
    i = j;
  }
  return out;
}

/** Rewrite optional literal entries; undefined when there are none (or the text cannot be tokenized). */
export function desugarOptionalLiterals(src: string): string | undefined {
  const toks = tokenize(src);
  if (!toks) return undefined;
  let changed = false;

  // Renders tokens [from, to) with nested literals rewritten.
  const render = (from: number, to: number): string => {
    let out = '';
    let i = from;
    while (i < to) {
      const t = toks[i];
      if (t.kind === 'open') {
        const close = matching(i);
        if (close < 0 || close >= to) return src.slice(t.start, toks[to - 1].end);
        const prev = toks[i - 1];
        const isIndex = t.text === '[' && prev !== undefined && (prev.kind === 'close' || (prev.kind === 'other' && prev.text !== 'in' && /[A-Za-z0-9_'"]$/.test(prev.text)));
        const gap = i > from ? src.slice(toks[i - 1].end, t.start) : '';
        out += gap;
        if (t.text === '[' && !isIndex) out += renderList(i, close);
        else if (t.text === '{') out += renderMap(i, close);
        else out += t.text + render(i + 1, close) + src.slice(close > i + 1 ? toks[close - 1].end : t.end, toks[close].start) + toks[close].text;
        i = close + 1;
        continue;
      }
      out += (i > from ? src.slice(toks[i - 1].end, t.start) : '') + t.text;
      i++;
    }
    return out;
  };

  const matching = (open: number): number => {
    let depth = 0;
    for (let j = open; j < toks.length; j++) {
      if (toks[j].kind === 'open') depth++;
      else if (toks[j].kind === 'close') {
        depth--;
        if (depth === 0) return j;
      }
    }
    return -1;
  };

  // Top-level comma-separated entries of a literal between open and close.
  const entries = (open: number, close: number): [number, number][] => {
    const out: [number, number][] = [];
    let start = open + 1;
    let depth = 0;
    for (let j = open + 1; j < close; j++) {
      const k = toks[j].kind;
      if (k === 'open') depth++;
      else if (k === 'close') depth--;
      else if (k === 'comma' && depth === 0) {
        out.push([start, j]);
        start = j + 1;
      }
    }
    if (start < close) out.push([start, close]);
    return out;
  };

  const renderList = (open: number, close: number): string => {
    const es = entries(open, close);
    if (!es.some(([s]) => toks[s]?.kind === 'question')) return '[' + es.map(([s, e]) => render(s, e)).join(', ') + ']';
    changed = true;
    const parts: string[] = [];
    let plain: string[] = [];
    for (const [s, e] of es) {
      if (toks[s].kind === 'question') {
        if (plain.length) parts.push('[' + plain.join(', ') + ']');
        plain = [];
        parts.push(`${OPT_ELEM_FN}(${render(s + 1, e)})`);
      } else plain.push(render(s, e));
    }
    if (plain.length) parts.push('[' + plain.join(', ') + ']');
    return '(' + parts.join(' + ') + ')';
  };

  const renderMap = (open: number, close: number): string => {
    const es = entries(open, close);
    const colonAt = (s: number, e: number): number => {
      let depth = 0;
      for (let j = s; j < e; j++) {
        const k = toks[j].kind;
        if (k === 'open') depth++;
        else if (k === 'close') depth--;
        else if (k === 'colon' && depth === 0) return j;
      }
      return -1;
    };
    const plain: string[] = [];
    const opt: [string, string][] = [];
    for (const [s, e] of es) {
      const optional = toks[s].kind === 'question';
      const ks = optional ? s + 1 : s;
      const c = colonAt(ks, e);
      if (c < 0) return '{' + es.map(([a, b]) => render(a, b)).join(', ') + '}';
      if (optional) opt.push([render(ks, c), render(c + 1, e)]);
      else plain.push(render(ks, c) + ': ' + render(c + 1, e));
    }
    let out = '{' + plain.join(', ') + '}';
    if (opt.length) changed = true;
    for (const [k, v] of opt) out = `${OPT_MAP_FN}(${out}, ${k}, ${v})`;
    return out;
  };

  if (toks.length === 0) return undefined;
  const body = render(0, toks.length);
  return changed ? body : undefined;
}
