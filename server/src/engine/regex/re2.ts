/**
 * RE2 regular expressions (Go's regexp syntax and linear-time matching) for schema `pattern`s and CEL.
 *
 * Why re2js: a pure-JS port of RE2 whose syntax errors are worded as Go's `regexp` package words them
 * ("error parsing regexp: missing closing ]: `[a`"), and whose matching never backtracks, so no
 * user-typed pattern can hang the server. Compiled patterns are cached (patterns repeat across CRs).
 */
import { RE2JS } from 're2js';

export type CompiledRegex = { ok: true; re: RE2JS } | { ok: false; error: string };

const cache = new Map<string, CompiledRegex>();
const MAX_CACHE = 5000;

/** Compile with Go regexp semantics; the error is Go's message. */
export function compileRE2(pattern: string): CompiledRegex {
  let c = cache.get(pattern);
  if (c) return c;
  try {
    c = { ok: true, re: RE2JS.compile(pattern) };
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    c = { ok: false, error: goRegexpError(msg) };
    if (msg.startsWith('error parsing regexp: duplicate capture group name')) {
      // Go 1.22+ (Kubernetes 1.37 builds with Go 1.26) accepts duplicate group names; names never
      // change what matches, so compile without them.
      try {
        c = { ok: true, re: RE2JS.compile(pattern.replace(/(^|[^\\])\(\?P?<[A-Za-z0-9_]+>/g, '$1(')) };
      } catch {
        /* keep the first error */
      }
    }
  }
  if (cache.size >= MAX_CACHE) cache.clear();
  cache.set(pattern, c);
  return c;
}

/** Go's regexp.MatchString: does the pattern match anywhere in s? Throws on a bad pattern. */
export function re2Test(pattern: string, s: string): boolean {
  const c = compileRE2(pattern);
  if (!c.ok) throw new Error(c.error);
  return c.re.matcher(s).find();
}

/** re2js words errors as Go does, except that Go quotes an empty expression for a trailing backslash. */
function goRegexpError(msg: string): string {
  return msg === 'error parsing regexp: trailing backslash at end of expression' ? msg + ': ``' : msg;
}
