/**
 * cel-go's syntax errors for `x.in` (the reserved word `in` used as a field name, e.g. `has(self.in)`).
 * `in` is the relation operator in the CEL grammar, so ANTLR reports the member access as
 * `no viable alternative at input '.in'`, recovers by reading `in` as the operator, and then complains
 * about the token that cannot start its right operand; a `has()` left with the bare receiver reports an
 * invalid argument. The cel-js parser stops at the first error with different wording; this reproduces
 * the API server's error list for that one, common, mistake (`self.__in__` is the correct spelling).
 */

/** The tokens ANTLR expects at the start of an operand, as cel-go prints them. */
const EXPECTING = "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
const BINARY_OPS = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '+', '*', '/', '%', '?', ':'];

export interface DotInIssue {
  offset: number;
  message: string;
}

/** Offsets of the `.` of every `.in` member access outside string literals. */
function dotInOffsets(src: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '"' || c === "'") {
      const triple = src.startsWith(c.repeat(3), i);
      const end = triple ? src.indexOf(c.repeat(3), i + 3) : -1;
      if (triple) {
        i = end < 0 ? src.length : end + 2;
        continue;
      }
      for (i++; i < src.length && src[i] !== c; i++) if (src[i] === '\\') i++;
      continue;
    }
    if (c === '.' && src.startsWith('in', i + 1) && !/[A-Za-z0-9_]/.test(src[i + 3] ?? '') && i > 0 && /[A-Za-z0-9_)\]}]/.test(src[i - 1])) out.push(i);
  }
  return out;
}

/**
 * The issues cel-go reports for `src` when its only syntax errors are `.in` member accesses
 * (`reparse` tells whether the text parses once they are spelled `.__in__`); undefined otherwise.
 */
export function dotInSyntaxIssues(src: string, reparse: (text: string) => boolean): DotInIssue[] | undefined {
  const dots = dotInOffsets(src);
  if (dots.length === 0) return undefined;
  let fixed = src;
  for (const d of [...dots].reverse()) fixed = fixed.slice(0, d + 1) + '__in__' + fixed.slice(d + 3);
  if (!reparse(fixed)) return undefined;
  const issues: DotInIssue[] = [];
  for (const d of dots) {
    issues.push({ offset: d + 1, message: "Syntax error: no viable alternative at input '.in'" });
    let q = d + 3;
    while (q < src.length && /\s/.test(src[q])) q++;
    if (q >= src.length) issues.push({ offset: q, message: `Syntax error: mismatched input '<EOF>' expecting ${EXPECTING}` });
    else if (')]},'.includes(src[q])) issues.push({ offset: q, message: `Syntax error: mismatched input '${src[q]}' expecting ${EXPECTING}` });
    else {
      const op = BINARY_OPS.find((o) => src.startsWith(o, q)) ?? (/^in(?![A-Za-z0-9_])/.test(src.slice(q)) ? 'in' : undefined);
      if (op) issues.push({ offset: q, message: `Syntax error: extraneous input '${op}' expecting ${EXPECTING}` });
    }
    // has(<identifier>.in): the macro is left with the bare identifier.
    const before = src.slice(0, d);
    const m = /\bhas\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*$/.exec(before);
    if (m && src[q] === ')') issues.push({ offset: d - m[1].length - (before.length - before.trimEnd().length), message: 'invalid argument to has() macro' });
  }
  return issues.sort((a, b) => a.offset - b.offset);
}
