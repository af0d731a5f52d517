/**
 * cel-go's runtime cost of the builtin operators and functions whose work grows with their operands
 * (interpreter/runtimecost.go costCall, plus the Kubernetes CostEstimator in apiserver
 * pkg/cel/library/cost.go), charged before cel-js runs them so the cost limit stops runaway rules where
 * the API server would. cel-js runs these builtins itself, so we wrap the `handle` it sets on each
 * checked call/operator node.
 */
import { chargeCost, chargeWork } from './guard';

/** common.StringTraversalCostFactor */
const TRAVERSAL = 0.1;

/** cel-go's actualSize: length of strings, bytes, lists and maps; 1 for anything else. */
export function actualSize(v: unknown): number {
  if (typeof v === 'string') return v.length;
  if (Array.isArray(v)) return v.length;
  if (v instanceof Uint8Array) return v.length;
  if (v instanceof Map || v instanceof Set) return v.size;
  if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) return Object.keys(v).length;
  return 1;
}

/** Work units (see guard.ts) of touching a value of this size: characters count 1/16. */
function workOf(v: unknown): number {
  return typeof v === 'string' ? v.length >> 4 : actualSize(v);
}

const isSized = (v: unknown) => typeof v === 'string' || v instanceof Uint8Array;

/** The extra cost (beyond the node's 1) of a binary operator on these operands. */
function binaryCost(op: string, l: unknown, r: unknown): number {
  switch (op) {
    case '==':
    case '!=':
      return Math.ceil(Math.min(actualSize(l), actualSize(r)) * TRAVERSAL) - 1;
    case '<':
    case '<=':
    case '>':
    case '>=':
      return isSized(l) && isSized(r) ? Math.ceil(Math.min(actualSize(l), actualSize(r)) * TRAVERSAL) - 1 : 0;
    case 'in':
      return Array.isArray(r) ? r.length - 1 : 0;
    case '+':
      return isSized(l) && isSized(r) ? Math.ceil((actualSize(l) + actualSize(r)) * TRAVERSAL) - 1 : 0;
  }
  return 0;
}

const BINARY_OPS = new Set(['==', '!=', '<', '<=', '>', '>=', 'in', '+']);

/** The extra cost of a function call (receiver first in args for methods). */
function callCost(name: string, args: unknown[]): number {
  const s = args[0];
  switch (name) {
    case 'contains':
      if (typeof s === 'string' && typeof args[1] === 'string') return Math.ceil(s.length * TRAVERSAL) * Math.ceil(args[1].length * TRAVERSAL) - 1;
      return 0;
    case 'startsWith':
    case 'endsWith':
      return typeof s === 'string' ? Math.ceil(s.length * TRAVERSAL) - 1 : 0;
    case 'string':
    case 'bytes':
      return isSized(s) ? Math.ceil(actualSize(s) * TRAVERSAL) - 1 : 0;
  }
  return 0;
}

const CALLS = new Set(['contains', 'startsWith', 'endsWith', 'string', 'bytes']);

/** Code points of s, without walking it in JavaScript when it has no surrogates (cel-js iterates). */
export function stringSize(s: string): bigint {
  if (!/[\uD800-\uDFFF]/.test(s)) return BigInt(s.length);
  return BigInt(s.length - (s.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0));
}

interface CheckedNode {
  op: string;
  args: unknown;
  handle?: (...a: unknown[]) => unknown;
}

type Handle = (...a: unknown[]) => unknown;

/**
 * Wraps the handlers cel-js' checker set on node (call/rcall/binary operator) so they charge cel-go's
 * actual cost and our work before running. Call once per node, after type-checking.
 */
export function instrumentNode(n: CheckedNode): void {
  const h = n.handle;
  if (typeof h !== 'function') return;
  if (BINARY_OPS.has(n.op)) {
    const op = n.op;
    n.handle = function (this: unknown, l: unknown, r: unknown, ...rest: unknown[]) {
      const c = binaryCost(op, l, r);
      if (c > 0) chargeCost(c, 0);
      // Deep equality, list concatenation and membership walk the operands in JavaScript.
      chargeWork(op === '+' ? workOf(l) + workOf(r) : Math.min(workOf(l), workOf(r)) || workOf(r));
      return (h as Handle).call(this, l, r, ...rest);
    } as Handle;
    return;
  }
  if ((n.op === 'call' || n.op === 'rcall') && Array.isArray(n.args) && n.args[0] === 'size') {
    // cel-js counts a string's code points with a for-of loop: ~60 ms for a megabyte.
    n.handle = function (this: unknown, args: unknown, ...rest: unknown[]) {
      if (Array.isArray(args) && args.length === 1 && typeof args[0] === 'string') return stringSize(args[0]);
      return (h as Handle).call(this, args, ...rest);
    } as Handle;
    return;
  }
  if ((n.op === 'call' || n.op === 'rcall') && Array.isArray(n.args) && typeof n.args[0] === 'string' && CALLS.has(n.args[0])) {
    const name = n.args[0];
    n.handle = function (this: unknown, args: unknown, ...rest: unknown[]) {
      if (Array.isArray(args)) {
        const c = callCost(name, args);
        if (c > 0) chargeCost(c, 0);
        chargeWork(workOf(args[0]));
      }
      return (h as Handle).call(this, args, ...rest);
    } as Handle;
  }
}
