/**
 * The CEL abstract syntax tree as cel-go's parser produces it (common/ast): operators and index
 * are calls (`_+_`, `_[_]`, `_?._`), macros are expanded (has() to a presence-test select,
 * all/exists/map/filter/... to comprehensions), and every node has an id and the source offset
 * cel-go reports issues at. The checker, the cost estimator and the interpreter all walk this tree.
 */
import type { Val } from '../runtime/values';

interface Base {
  /** Unique within one parsed expression. */
  id: number;
  /** Where cel-go locates this node (an operator's token, a call's '(', a select's '.'). */
  offset: number;
  /** Source range of the node (for editors); nodes made by a macro span the macro call. */
  start: number;
  end: number;
}

export interface LiteralExpr extends Base {
  kind: 'literal';
  /** bigint (int), Uint, number (double), string, Uint8Array (bytes), boolean, null. */
  value: Val;
}

export interface IdentExpr extends Base {
  kind: 'ident';
  name: string;
}

export interface SelectExpr extends Base {
  kind: 'select';
  operand: Expr;
  field: string;
  /** has(operand.field): a presence test. */
  testOnly: boolean;
}

export interface CallExpr extends Base {
  kind: 'call';
  fn: string;
  /** The receiver of a member call (`target.fn(args)`). */
  target?: Expr;
  args: Expr[];
}

export interface ListExpr extends Base {
  kind: 'list';
  elems: Expr[];
  /** Indexes of `?elem` entries. */
  optionalIndices: number[];
}

export interface MapEntry {
  id: number;
  key: Expr;
  value: Expr;
  optional: boolean;
}

export interface MapExpr extends Base {
  kind: 'map';
  entries: MapEntry[];
}

export interface ComprehensionExpr extends Base {
  kind: 'comprehension';
  iterRange: Expr;
  iterVar: string;
  /** The second variable of two-variable comprehensions (key/index and value). */
  iterVar2?: string;
  accuVar: string;
  accuInit: Expr;
  loopCondition: Expr;
  loopStep: Expr;
  result: Expr;
}

export type Expr = LiteralExpr | IdentExpr | SelectExpr | CallExpr | ListExpr | MapExpr | ComprehensionExpr;

/** A macro call as written, kept for the expansion it produced (cel-go's SourceInfo.MacroCalls). */
export interface MacroCall {
  name: string;
  target?: Expr;
  args: Expr[];
  /** Source range of the whole call. */
  start: number;
  end: number;
}

/** A parsed expression. */
export interface ParsedAst {
  source: string;
  expr: Expr;
  /** Expansion id -> the macro call it came from. */
  macroCalls: Map<number, MacroCall>;
  /** Number of ids handed out (ids are 1..maxId). */
  maxId: number;
}

/** cel-go's accumulator variable of macro comprehensions. */
export const ACCUMULATOR = '__result__';

/** Direct sub-expressions of a node, in evaluation order. */
export function children(e: Expr): Expr[] {
  switch (e.kind) {
    case 'literal':
    case 'ident':
      return [];
    case 'select':
      return [e.operand];
    case 'call':
      return e.target ? [e.target, ...e.args] : e.args;
    case 'list':
      return e.elems;
    case 'map':
      return e.entries.flatMap((x) => [x.key, x.value]);
    case 'comprehension':
      return [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result];
  }
}

/** Visits every node, parents first (iteratively: chains of thousands of operators are legal input). */
export function walk(root: Expr, visit: (e: Expr) => void): void {
  const stack: Expr[] = [root];
  while (stack.length) {
    const e = stack.pop()!;
    visit(e);
    const k = children(e);
    for (let i = k.length - 1; i >= 0; i--) stack.push(k[i]);
  }
}
