/**
 * String algorithms of cel-go's ext.Strings as Go computes them: indices count code points (Go
 * runes), not UTF-16 units, so emoji and other astral characters count once; Go's Replace, SplitN,
 * TrimSpace; strings.quote. The declarations are library/strings.ts.
 */
import { fail, listItems, type CelList } from '../runtime/values';
import { work } from '../runtime/guard';
import { ensureBudget } from '../runtime/tracker';

export function runes(s: string): string[] {
  work(s.length >> 2);
  return Array.from(s);
}

/** No surrogate pairs: UTF-16 indices are rune indices, so the native (fast) string methods apply. */
export function isBmp(s: string): boolean {
  work(s.length >> 6);
  return !/[\uD800-\uDFFF]/.test(s);
}

/** Go's unicode.IsSpace, which strings.TrimSpace uses. */
function isGoSpace(c: string): boolean {
  const cp = c.codePointAt(0)!;
  if (cp <= 0xff) return cp === 0x20 || (cp >= 0x09 && cp <= 0x0d) || cp === 0x85 || cp === 0xa0;
  return cp === 0x1680 || (cp >= 0x2000 && cp <= 0x200a) || cp === 0x2028 || cp === 0x2029 || cp === 0x202f || cp === 0x205f || cp === 0x3000;
}

/** Go's strings.TrimSpace. */
export function trimSpace(s: string): string {
  // None of Go's spaces is astral, so scanning UTF-16 units from both ends finds the same bounds.
  let a = 0;
  let b = s.length;
  while (a < b && isGoSpace(s[a])) a++;
  while (b > a && isGoSpace(s[b - 1])) b--;
  return s.slice(a, b);
}

/** Runes in s (Go's utf8.RuneCountInString on the UTF-8 form of a JS string: a lone surrogate counts once). */
function runeCount(s: string): number {
  work(s.length >> 6);
  if (!/[\uD800-\uDFFF]/.test(s)) return s.length;
  return s.length - (s.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
}

/** UTF-16 offset of rune index r (r <= runeCount(s)). */
function unitOffset(s: string, r: number): number {
  if (isBmp(s)) return r;
  let u = 0;
  for (let i = 0; i < r; i++) u += isPairAt(s, u) ? 2 : 1;
  return u;
}

/** Rune index of UTF-16 offset u (on a rune boundary). */
function runeOffset(s: string, u: number): number {
  return runeCount(s.slice(0, u));
}

function isPairAt(s: string, u: number): boolean {
  const c = s.charCodeAt(u);
  if (c < 0xd800 || c > 0xdbff) return false;
  const d = s.charCodeAt(u + 1);
  return d >= 0xdc00 && d <= 0xdfff;
}

/** A UTF-16 match at u of sub covers whole runes of str (does not start or end inside a surrogate pair). */
function onRuneBoundaries(str: string, u: number, len: number): boolean {
  const inside = (i: number) => i > 0 && i < str.length && isPairAt(str, i - 1);
  return !inside(u) && !inside(u + len);
}

export function indexOfOffset(str: string, sub: string, offset: bigint): bigint {
  const off = Number(offset);
  if (off < 0) fail(`index out of range: ${off}`);
  const n = runeCount(str);
  if (sub === '') return off > n ? BigInt(n) : offset;
  if (off >= n) return -1n;
  // Native search on UTF-16 (linear), skipping matches that split a surrogate pair: the same answer as
  // comparing rune by rune, which is O(n*m) in JavaScript.
  let u = unitOffset(str, off);
  for (;;) {
    const j = str.indexOf(sub, u);
    if (j < 0) return -1n;
    if (onRuneBoundaries(str, j, sub.length)) return BigInt(runeOffset(str, j));
    u = j + 1;
  }
}

export function lastIndexOfOffset(str: string, sub: string, offset: bigint): bigint {
  let off = Number(offset);
  if (off < 0) fail(`index out of range: ${off}`);
  const n = runeCount(str);
  if (sub === '') return off > n ? BigInt(n) : offset;
  const m = runeCount(sub);
  if (off >= n) return -1n;
  if (off > n - m) off = n - m;
  if (off < 0) return -1n;
  let u = unitOffset(str, off);
  for (;;) {
    const j = str.lastIndexOf(sub, u);
    if (j < 0) return -1n;
    if (onRuneBoundaries(str, j, sub.length)) return BigInt(runeOffset(str, j));
    if (j === 0) return -1n;
    u = j - 1;
  }
}

export function lastIndexOfString(str: string, sub: string): bigint {
  if (sub === '') return BigInt(runeCount(str));
  if (Buffer.byteLength(str) < Buffer.byteLength(sub)) return -1n;
  return lastIndexOfOffset(str, sub, BigInt(runeCount(str) - 1));
}

/** Go's strings.Replace(s, old, new, n) (n < 0: all), with Go's empty-`old` behaviour (insert between runes). */
export function goReplace(s: string, old: string, rep: string, n: number): string {
  if (n === 0 || old === rep) return s;
  if (old === '') {
    const r = runes(s);
    // The output can be quadratic in the input (`s.replace('', s)`): pay for it before building it.
    // The result can be quadratic in the input (`s.replace('', s)`); past what an API server could build
    // (it would run out of memory), stop by cost instead.
    const outLen = (n < 0 ? r.length + 1 : Math.min(n, r.length + 1)) * rep.length + s.length;
    if (outLen > 1 << 26) ensureBudget(Infinity);
    const out: string[] = [];
    let done = 0;
    for (let i = 0; i <= r.length; i++) {
      if (n < 0 || done < n) {
        out.push(rep);
        done++;
      }
      if (i < r.length) out.push(r[i]);
    }
    return out.join('');
  }
  // Joined in chunks as it goes, so a million replacements never make one long uninterruptible join.
  const chunks: string[] = [];
  let parts: string[] = [];
  let i = 0;
  let done = 0;
  for (;;) {
    if (n >= 0 && done >= n) break;
    const j = s.indexOf(old, i);
    if (j < 0) break;
    parts.push(s.slice(i, j), rep);
    i = j + old.length;
    done++;
    if (parts.length >= 4096) {
      chunks.push(parts.join(''));
      parts = [];
      work(4096);
    }
  }
  parts.push(s.slice(i));
  chunks.push(parts.join(''));
  return chunks.join('');
}

/** Go's strings.SplitN (n < 0: all; n == 0: empty list; empty sep: split into runes). */
export function goSplitN(s: string, sep: string, n: number): string[] {
  if (n === 0) return [];
  if (sep === '') {
    // Rune by rune, reading the clock as it goes (a megabyte is a million strings).
    const out: string[] = [];
    let i = 0;
    while (i < s.length) {
      if (n > 0 && out.length === n - 1) {
        out.push(s.slice(i));
        break;
      }
      const w = s.codePointAt(i)! > 0xffff ? 2 : 1;
      out.push(s.slice(i, i + w));
      i += w;
      if ((out.length & 4095) === 0) work(4096);
    }
    return out;
  }
  const out: string[] = [];
  let i = 0;
  while (n < 0 || out.length < n - 1) {
    const j = s.indexOf(sep, i);
    if (j < 0) break;
    out.push(s.slice(i, j));
    i = j + sep.length;
  }
  out.push(s.slice(i));
  return out;
}

export function asciiMap(s: string, upper: boolean): string {
  work(s.length >> 4);
  return upper ? s.replace(/[a-z]+/g, (m) => m.toUpperCase()) : s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** cel-go's strings.quote: CEL-escaped, double-quoted. */
export function quote(s: string): string {
  work(s.length >> 4);
  return (
    '"' +
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters strconv.Quote escapes.
    s.replace(/[\x07\b\f\n\r\t\v\\"]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, (c) => QUOTE_ESCAPES[c] ?? '\ufffd') +
    '"'
  );
}

const QUOTE_ESCAPES: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '\\': '\\\\', '"': '\\"' };

export function joinList(l: CelList, sep: string): string {
  const list = listItems(l);
  for (const e of list) if (typeof e !== 'string') fail(`join: invalid input: ${String(e)}`);
  // In chunks, so the deadline is checked while a huge list is joined.
  const parts: string[] = [];
  for (let i = 0; i < list.length; i += 4096) {
    work(4096);
    parts.push((list as string[]).slice(i, i + 4096).join(sep));
  }
  return parts.join(sep);
}
