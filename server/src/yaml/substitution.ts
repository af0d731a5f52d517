/**
 * Variable references that a tool substitutes in YAML before it reaches the API server: `envsubst`,
 * Flux's `postBuild.substitute` and clusterctl templates write `${VAR}`, `${VAR:=default}`, `${VAR:-x}`
 * in values (and sometimes keys). The substitution tool decides such a value, so it is masked as a Go
 * action inside a line is (yaml/template.ts): a placeholder of the same length, recorded as a span, and
 * findings on what it decides are dropped the same way.
 *
 * The references follow drone/envsubst (used by Flux and clusterctl): `${` a name (optionally after `#`
 * or `!`), then `}` or an operator and its text up to the matching `}` on the same line; nested references
 * (`${A:-${B}}`) belong to the outer one. `$VAR` without braces is not taken: shell scripts in YAML
 * strings are full of it, and a string field cannot be wrong because of it.
 *
 * kustomize's `vars` write `$(NAME)` (Kubernetes' own expansion syntax, `$$` escapes it): kustomize build
 * replaces them in the fields its varReference configuration names (container commands, args and env by
 * default, any field a `configurations:` file adds). Which fields that is, and which vars a kustomization
 * that reaches the file defines, cannot be known from the file, so in a file of a kustomize tree every
 * `$(NAME)` is masked the same way (a string field cannot be wrong because of it either).
 */
import type { MaskedTemplate } from './template';

/** A reference longer than this is not believed to be one. */
const MAX_REFERENCE_CHARS = 1024;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
/** What may follow the name inside the braces (drone/envsubst's functions: defaults, substrings, case...). */
const OPERATORS = new Set([':', '-', '=', '+', '?', '#', '%', '/', '^', ',']);

/** The `${...}` references of a text, as offsets (start of `$`, just after the closing `}`). */
export function lexSubstitutions(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let i = text.indexOf('${');
  while (i >= 0) {
    const end = referenceEnd(text, i);
    if (end < 0) {
      i = text.indexOf('${', i + 2);
      continue;
    }
    out.push({ start: i, end });
    i = text.indexOf('${', end);
  }
  return out;
}

/** The offset just after the `}` closing the reference opened at `start` (`${`), or -1. */
function referenceEnd(text: string, start: number): number {
  let i = start + 2;
  if (text[i] === '#' || text[i] === '!') i++;
  NAME.lastIndex = i;
  const m = NAME.exec(text);
  if (!m) return -1;
  i += m[0].length;
  if (text[i] === '}') return i + 1;
  if (!OPERATORS.has(text[i])) return -1;
  const limit = Math.min(text.length, start + MAX_REFERENCE_CHARS);
  let depth = 1;
  for (; i < limit; i++) {
    const c = text[i];
    if (c === '\n' || c === '\r') return -1;
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
  }
  return -1;
}

/** A kustomize var reference: `$(` a name up to `)` on the same line (names may hold `-` and `.`). */
const KUSTOMIZE_VAR = /\$\([^()\s$]{1,253}\)/g;

/** The `$(NAME)` references of a text (kustomize vars), as offsets; `$$(NAME)` is an escaped `$`. */
export function lexKustomizeVars(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (const m of text.matchAll(KUSTOMIZE_VAR)) {
    let dollars = 0;
    for (let i = m.index - 1; i >= 0 && text[i] === '$'; i--) dollars++;
    if (dollars % 2 === 0) out.push({ start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/**
 * Adds the substitution references of a text to its masking (`mask`: the text's Go template masking,
 * whose masked text is searched so that nothing inside an action counts), or makes a masking of them
 * alone (`kustomizeVars`: `$(NAME)` references too). Each reference becomes `x`s of the same length and
 * a span, as an action inside a line does.
 * Undefined when there is neither.
 */
export function maskSubstitutions(text: string, mask?: MaskedTemplate, opts: { kustomizeVars?: boolean } = {}): MaskedTemplate | undefined {
  const source = mask?.text ?? text;
  const refs = source.includes('${') ? lexSubstitutions(source) : [];
  // `kustomizeVars`: a file of a kustomize tree, whose `$(NAME)` references kustomize may replace.
  if (opts.kustomizeVars && source.includes('$(')) {
    // Both lists are sorted: one pass drops the `$(NAME)` inside a `${...}` (`${A:-$(B)}`).
    let i = 0;
    const inside = (v: { start: number }) => {
      while (i < refs.length && refs[i].end <= v.start) i++;
      return i < refs.length && refs[i].start <= v.start;
    };
    refs.push(...lexKustomizeVars(source).filter((v) => !inside(v)));
  }
  if (refs.length === 0) return mask;
  refs.sort((a, b) => a.start - b.start);
  const chars = source.split('');
  for (const r of refs) chars.fill('x', r.start, r.end);
  const spans = [...(mask?.spans ?? []), ...refs].sort((a, b) => a.start - b.start);
  return { ...(mask ?? { actions: [] }), text: chars.join(''), spans, substitutions: refs };
}
