/**
 * cel-go's cost model (checker/cost.go, common/cost.go): size and cost estimates as [min, max]
 * ranges of uint64 that saturate at MaxUint64, and the constants both the estimator and the runtime
 * cost tracker use. Numbers are doubles: every cost that matters is far below 2^53, and a saturated
 * one only has to stay above the limits.
 */
import type { CelType } from '../common/types';
import type { Expr } from '../syntax/ast';

/** math.MaxUint64 (2^64 - 1) as a double: it rounds to 2^64. */
export const MAX_UINT64 = 2 ** 64;

export const SELECT_AND_IDENT_COST = 1;
export const CONST_COST = 0;
export const LIST_CREATE_BASE_COST = 10;
export const MAP_CREATE_BASE_COST = 30;
export const STRING_TRAVERSAL_COST_FACTOR = 0.1;
export const REGEX_STRING_LENGTH_COST_FACTOR = 0.25;

/** A [min, max] size or cost. */
export interface Range {
  min: number;
  max: number;
}

export const UNKNOWN: Range = { min: 0, max: MAX_UINT64 };

export function fixed(n: number): Range {
  return { min: n, max: n };
}

export function addU(x: number, y: number): number {
  const s = x + y;
  return Math.min(s, MAX_UINT64);
}

export function mulU(x: number, y: number): number {
  if (x === 0 || y === 0) return 0;
  const p = x * y;
  return Math.min(p, MAX_UINT64);
}

/** multiplyByCostFactor: ceil(x * f), saturating. */
export function factorU(x: number, f: number): number {
  if (x > 0 && f > 0 && x > MAX_UINT64 / f) return MAX_UINT64;
  const c = Math.ceil(x * f);
  return Math.min(c, MAX_UINT64);
}

export const R = {
  add: (a: Range, b: Range): Range => ({ min: addU(a.min, b.min), max: addU(a.max, b.max) }),
  mul: (a: Range, b: Range): Range => ({ min: mulU(a.min, b.min), max: mulU(a.max, b.max) }),
  factor: (a: Range, f: number): Range => ({ min: factorU(a.min, f), max: factorU(a.max, f) }),
  union: (a: Range, b: Range): Range => ({ min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) }),
};

/** What the estimator knows about an argument (cel-go checker.AstNode). */
export interface EstimateNode {
  /** The schema path of the value (`self`, `spec`, `@items`, ...), when known. */
  path?: string[];
  type: CelType;
  expr?: Expr;
  /** A size computed from the expression itself (literal, list literal, function result). */
  computedSize?: Range;
}

/** A function's static cost and, when it knows it, the size of its result (cel-go CallEstimate). */
export interface CallEstimate {
  cost: Range;
  resultSize?: Range;
}

/** The estimator services a function's static cost can use (Kubernetes' CostEstimator helpers). */
export interface EstimatorContext {
  /** The size of a node: computed, from the schema (maxLength, maxItems, ...), or unknown. */
  sizeEstimate(n: EstimateNode): Range;
  /** The element of a list node, with its path (`@items`) so a maxLength can be found. */
  listElementNode(n: EstimateNode): EstimateNode | undefined;
}
