/**
 * `has(e.f)` where `e` is not a plain identifier chain (e.g. `has(self[0].matches)`, common in
 * Gateway API rules): cel-go accepts any select, cel-js' macro only `a.b.c`. Such calls are rewritten
 * in the source to `__has__k8s(e, 'f')`, which tests field/key presence as cel-go does.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { kindOf } from './convert';
import { fail } from './errors';

/** End index (exclusive) of the string literal starting at i (with r/b prefixes before i). */
function skipString(src: string, i: number): number {
  const c = src[i];
  const triple = src.startsWith(c.repeat(3), i);
  const q = triple ? c.repeat(3) : c;
  let raw = false;
  for (let k = i - 1; k >= 0 && /[rRbB]/.test(src[k]); k--) if (src[k] === 'r' || src[k] === 'R') raw = true;
  let j = i + q.length;
  while (j < src.length && !src.startsWith(q, j)) j += !raw && src[j] === '\\' ? 2 : 1;
  return Math.min(src.length, j + q.length);
}

/** Index of the bracket closing the one opened at `open`, or -1. */
function matching(src: string, open: number): number {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '"' || c === "'") {
      i = skipString(src, i) - 1;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** Splits `X.f` at its last top-level dot; undefined when the argument is not a select. */
function splitSelect(arg: string): [string, string] | undefined {
  const m = /\.\s*([A-Za-z_][A-Za-z0-9_]*)\s*$/.exec(arg);
  if (!m) return undefined;
  const operand = arg.slice(0, m.index);
  // The dot must be at depth 0 of the argument.
  let depth = 0;
  for (let i = 0; i < operand.length; i++) {
    const c = operand[i];
    if (c === '"' || c === "'") {
      i = skipString(operand, i) - 1;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
  }
  if (depth !== 0) return undefined;
  return [operand, m[1]];
}

/** Rewrites has() calls cel-js cannot expand; other sources come back unchanged. */
export function rewriteHasMacros(src: string): string {
  if (!src.includes('has')) return src;
  let out = '';
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === '"' || c === "'") {
      const j = skipString(src, i);
      out += src.slice(i, j);
      i = j;
      continue;
    }
    const m = /^has\s*\(/.exec(src.slice(i, i + 40));
    const prev = src.slice(0, i).trimEnd().slice(-1);
    if (m && !/[A-Za-z0-9_.]/.test(src[i - 1] ?? '') && prev !== '.') {
      const open = i + m[0].length - 1;
      const close = matching(src, open);
      if (close > 0) {
        const inner = rewriteHasMacros(src.slice(open + 1, close));
        const sel = splitSelect(inner.trim());
        if (sel && !/^\s*[A-Za-z_][A-Za-z0-9_]*(\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*\s*$/.test(sel[0])) {
          out += `__has__k8s(${sel[0]}, '${sel[1]}')`;
        } else out += `has(${inner})`;
        i = close + 1;
        continue;
      }
    }
    out += c;
    i++;
  }
  return out;
}

/** Registers the helper. */
export function installHasHelper(env: Environment): void {
  env.registerFunction('__has__k8s(dyn, string): bool', ((v: unknown, f: string) => {
    if (v instanceof Map) return v.has(f);
    const k = kindOf(v);
    if (k === 'map') return Object.prototype.hasOwnProperty.call(v, f);
    return fail(`invalid type for field selection.`);
  }) as (...a: unknown[]) => unknown);
}
