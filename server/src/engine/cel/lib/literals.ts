/**
 * Kubernetes' AST validators (base env 1.29: ValidateDurationLiterals, ValidateTimestampLiterals,
 * ValidateRegexLiterals): constant arguments to duration(), timestamp(), matches() and the regex
 * library are checked at compile time, with cel-go's messages.
 */
import { compileRE2 } from '../../regex/re2';
import { parseGoDuration } from '../values';
import { parseRFC3339 } from './time';

interface Node {
  op: string;
  args: unknown;
}

function isNode(x: unknown): x is Node {
  return typeof x === 'object' && x !== null && typeof (x as Node).op === 'string' && 'args' in (x as object);
}

function constString(n: unknown): string | undefined {
  if (isNode(n) && n.op === 'value' && typeof n.args === 'string') return n.args;
  return undefined;
}

/** Strips our internal-name suffix (see OVERRIDDEN_FUNCTIONS) to get the CEL function name. */
function baseName(name: string): string {
  const i = name.indexOf('__');
  return i > 0 ? name.slice(0, i) : name;
}

/** First literal error in the AST (cel-go wording), or undefined. */
export function validateLiterals(root: unknown): string | undefined {
  let found: string | undefined;
  const seen = new Set<unknown>();
  const go = (x: unknown): void => {
    if (found || x === null || typeof x !== 'object' || seen.has(x)) return;
    seen.add(x);
    if (Array.isArray(x)) {
      for (const y of x) go(y);
      return;
    }
    if (!isNode(x)) {
      if (Object.getPrototypeOf(x) === Object.prototype) for (const y of Object.values(x)) go(y);
      return;
    }
    const a = x.args as unknown[];
    if (x.op === 'call' && Array.isArray(a) && typeof a[0] === 'string' && Array.isArray(a[1])) {
      const name = baseName(a[0]);
      const args = a[1] as unknown[];
      const s = args.length === 1 ? constString(args[0]) : undefined;
      if (s !== undefined && name === 'duration' && parseGoDuration(s) === undefined) {
        found = `invalid duration argument: time: invalid duration "${s}"`;
      } else if (s !== undefined && name === 'timestamp' && parseRFC3339(s) === undefined) {
        found = `invalid timestamp "${s}"`;
      } else if (name === 'matches' && args.length === 2) {
        const p = constString(args[1]);
        if (p !== undefined) {
          const c = compileRE2(p);
          if (!c.ok) found = `invalid matches argument: ${c.error}`;
        }
      }
    } else if (x.op === 'rcall' && Array.isArray(a) && typeof a[0] === 'string' && Array.isArray(a[2])) {
      const name = baseName(a[0]);
      // cel-js ships cel.bind; the Kubernetes base environment does not enable ext.Bindings.
      if (name === 'bind' && isNode(a[1]) && a[1].op === 'id' && a[1].args === 'cel') {
        found = "undeclared reference to 'cel' (in container '')";
        return;
      }
      const args = a[2] as unknown[];
      if ((name === 'matches' || name === 'find' || name === 'findAll') && args.length >= 1) {
        const p = constString(args[0]);
        if (p !== undefined) {
          const c = compileRE2(p);
          if (!c.ok) found = name === 'matches' ? `invalid matches argument: ${c.error}` : c.error;
        }
      }
    }
    go(x.args);
  };
  go(root);
  return found;
}
