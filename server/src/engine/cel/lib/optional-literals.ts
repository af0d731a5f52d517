/**
 * CEL's optional aggregate entries (`[a, ?opt]`, `{?'k': opt}`), which cel-js' parser lacks: the source
 * is rewritten before parsing into calls of our helpers, `__optList__k8s([a, __optEntry__k8s(opt)])`
 * and `__optMap__k8s({'k': __optEntry__k8s(opt)})`; an absent entry becomes a sentinel the wrapper drops.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { Optional } from '@marcbachmann/cel-js';
import { fail } from './errors';

/** The placeholder of an absent optional entry (never visible outside the enclosing literal). */
export class AbsentEntry {
  static celTypeName = 'k8s.AbsentEntry';
}
const ABSENT = new AbsentEntry();

interface Frame {
  open: '[' | '{' | '(';
  literal: boolean;
  optional: boolean;
  start: number;
  /** Positions to insert text at (position, text). */
  entryOpen?: boolean;
  awaitingColon?: boolean;
}

/** Rewrites optional entries in list/map literals; sources without them come back unchanged. */
export function rewriteOptionalLiterals(src: string): string {
  if (!src.includes('?')) return src;
  const inserts: [number, string][] = [];
  const removes = new Set<number>();
  const stack: Frame[] = [];
  let prev = ''; // previous significant character ('' = start)
  let prevIsValueEnd = false; // identifier/number/string/closing bracket before
  let i = 0;
  const n = src.length;
  const closeEntry = (f: Frame, pos: number) => {
    if (f.entryOpen) {
      inserts.push([pos, ')']);
      f.entryOpen = false;
    }
  };
  while (i < n) {
    const c = src[i];
    // String literals (with r/b prefixes), skipped whole.
    if (c === '"' || c === "'") {
      const triple = src.startsWith(c.repeat(3), i);
      const q = triple ? c.repeat(3) : c;
      let raw = false;
      for (let k = i - 1; k >= 0 && /[rRbB]/.test(src[k]); k--) if (src[k] === 'r' || src[k] === 'R') raw = true;
      let j = i + q.length;
      while (j < n && !src.startsWith(q, j)) j += !raw && src[j] === '\\' ? 2 : 1;
      i = j + q.length;
      prev = c;
      prevIsValueEnd = true;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '[' || c === '{' || c === '(') {
      const literal = c !== '(' && !prevIsValueEnd;
      stack.push({ open: c, literal, optional: false, start: i, awaitingColon: false });
      prev = c;
      prevIsValueEnd = false;
      i++;
      continue;
    }
    const top = stack[stack.length - 1];
    if (c === '?' && top && top.literal && (prev === '[' || prev === '{' || prev === ',')) {
      top.optional = true;
      removes.add(i);
      if (top.open === '[') {
        inserts.push([i + 1, '__optEntry__k8s(']);
        top.entryOpen = true;
      } else top.awaitingColon = true;
      i++;
      prev = '?entry';
      prevIsValueEnd = false;
      continue;
    }
    if (c === ':' && top && top.open === '{' && top.awaitingColon) {
      top.awaitingColon = false;
      inserts.push([i + 1, '__optEntry__k8s(']);
      top.entryOpen = true;
      prev = c;
      prevIsValueEnd = false;
      i++;
      continue;
    }
    if (c === ',' && top) closeEntry(top, i);
    if (c === ']' || c === '}' || c === ')') {
      const f = stack.pop();
      if (f) {
        closeEntry(f, i);
        if (f.optional) {
          inserts.push([f.start, f.open === '[' ? '__optList__k8s(' : '__optMap__k8s(']);
          inserts.push([i + 1, ')']);
        }
      }
      prev = c;
      prevIsValueEnd = true;
      i++;
      continue;
    }
    prevIsValueEnd = /[A-Za-z0-9_.]/.test(c);
    prev = c;
    i++;
  }
  if (!inserts.length) return src;
  // Apply: at equal positions, closers before openers keep nesting right ("))" then "__opt(").
  inserts.sort((a, b) => a[0] - b[0] || (a[1] === ')' ? -1 : 1) - (b[1] === ')' ? -1 : 1));
  let out = '';
  let k = 0;
  for (let p = 0; p <= n; p++) {
    while (k < inserts.length && inserts[k][0] === p) out += inserts[k++][1];
    if (p < n && !removes.has(p)) out += src[p];
  }
  return out;
}

/** Registers the helpers the rewrite calls. */
export function installOptionalLiterals(env: Environment): void {
  env.registerType('k8s.AbsentEntry', AbsentEntry);
  env.registerFunction('__optEntry__k8s(optional<A>): A', ((o: unknown) => {
    if (!(o instanceof Optional)) fail('optional entry must be an optional');
    return o.hasValue() ? o.value() : ABSENT;
  }) as (...a: unknown[]) => unknown);
  env.registerFunction('__optList__k8s(list<A>): list<A>', ((l: unknown[]) => l.filter((x) => x !== ABSENT)) as (...a: unknown[]) => unknown);
  env.registerFunction('__optMap__k8s(map<K, V>): map<K, V>', ((m: unknown) => {
    const out = new Map<unknown, unknown>();
    const es = m instanceof Map ? [...m.entries()] : Object.entries(m as object);
    for (const [k, v] of es) if (v !== ABSENT) out.set(k, v);
    return out;
  }) as (...a: unknown[]) => unknown);
}
