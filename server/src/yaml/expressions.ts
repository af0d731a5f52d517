/**
 * Kyverno Chainsaw's expressions (kyverno-json assertion trees and chainsaw's resource templating): a key
 * or a scalar value written `(...)` is a JMESPath expression the tool evaluates when the test runs
 * (`($namespace)`, `(wildcard('...', adminUrl))`, `(conditions != null)`); a key may also iterate
 * (`~.(containers)`, `~name.(items)`) or bind its value (`(spec.replicas)->replicas`, `metadata->m`).
 * What such a key or value decides is unknown until then, so it is masked as a `${VAR}` reference is
 * (substitution.ts): `x`s of the same length and a span, and findings on what it decides are dropped.
 */
import { isMap, isPair, isScalar, isSeq, parseAllDocuments, Scalar } from 'yaml';
import type { MaskedTemplate } from './template';

/** A key that is an expression, an iteration or a binding. */
const EXPRESSION_KEY = /^(?:~[A-Za-z0-9_]*\.)?\(.*\)(?:->[A-Za-z_][A-Za-z0-9_]*)?$|->[A-Za-z_][A-Za-z0-9_]*$/s;
/** Bounds of the walk (a test file is small; a huge one is walked this far). */
const MAX_DEPTH = 200;
const MAX_NODES = 200_000;

/** Whether a scalar value is an expression. */
export function isExpressionValue(v: unknown): boolean {
  return typeof v === 'string' && v.length >= 2 && v.startsWith('(') && v.endsWith(')');
}

/** Whether a mapping key is an expression (a projection, an iteration or a binding). */
export function isExpressionKey(k: unknown): boolean {
  return typeof k === 'string' && EXPRESSION_KEY.test(k);
}

/**
 * The expression keys and scalar values of a text (offsets of their source, quotes included). Only
 * scalars on one line that are plain or quoted: their text can be masked in place.
 */
export function lexExpressions(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let nodes = 0;
  const take = (n: Scalar) => {
    const r = n.range;
    if (!r || (n.type !== Scalar.PLAIN && n.type !== Scalar.QUOTE_SINGLE && n.type !== Scalar.QUOTE_DOUBLE)) return;
    const src = text.slice(r[0], r[1]);
    if (src.includes('\n') || src.includes('\r')) return;
    out.push({ start: r[0], end: r[1] });
  };
  const walk = (node: unknown, depth: number): void => {
    if (!node || depth > MAX_DEPTH || ++nodes > MAX_NODES) return;
    if (isMap(node)) {
      for (const p of node.items) {
        if (!isPair(p)) continue;
        // The value of an expression key is compared with the expression's result: not a field's value.
        if (isScalar(p.key) && isExpressionKey(p.key.value)) take(p.key);
        else walk(p.value, depth + 1);
      }
    } else if (isSeq(node)) {
      for (const it of node.items) walk(it, depth + 1);
    } else if (isScalar(node) && isExpressionValue(node.value)) take(node);
  };
  let docs: ReturnType<typeof parseAllDocuments>;
  try {
    docs = parseAllDocuments(text, { logLevel: 'silent', keepSourceTokens: false });
  } catch {
    return out;
  }
  if (!Array.isArray(docs)) return out;
  for (const d of docs) walk(d.contents, 0);
  return out.sort((a, b) => a.start - b.start);
}

/**
 * Adds the expressions of a Chainsaw test's file to its masking (`mask`: its template and substitution
 * masking so far, whose masked text is searched), as substitution references are added.
 */
export function maskExpressions(text: string, mask?: MaskedTemplate): MaskedTemplate | undefined {
  const source = mask?.text ?? text;
  if (!source.includes('(')) return mask;
  const refs = lexExpressions(source);
  if (refs.length === 0) return mask;
  const chars = source.split('');
  refs.forEach((r, i) => {
    chars.fill('x', r.start, r.end);
    // Two expression keys of one length in one object must not become the same key.
    const tail = distinct(i);
    for (let j = 0; j < tail.length && r.end - 1 - j >= r.start; j++) chars[r.end - 1 - j] = tail[tail.length - 1 - j];
  });
  const spans = [...(mask?.spans ?? []), ...refs].sort((a, b) => a.start - b.start);
  const substitutions = [...(mask?.substitutions ?? []), ...refs].sort((a, b) => a.start - b.start);
  return { ...(mask ?? { actions: [] }), text: chars.join(''), spans, substitutions };
}

/** Letters other than `x` that tell the `i`th mask from the others (none for the first). */
function distinct(i: number): string {
  const letters = 'abcdefghijklmnopqrstuvwyz';
  let s = '';
  for (let n = i; n > 0; n = Math.floor(n / letters.length)) s = letters[n % letters.length] + s;
  return s;
}
