/**
 * Static cost estimation as the API server computes it on CRD create (cel-go checker/cost.go with the
 * Kubernetes CostEstimator, apiserver pkg/cel/library/cost.go, whose sizes come from the schema:
 * apiextensions-apiserver compilation.go sizeEstimator). Each function's own estimate is in its
 * library declaration; this walks the expression: paths into the schema, sizes, comprehension loops.
 *
 * Besides the total, it records the cost of every node and which schema paths sized each
 * comprehension and call (`breakdown`), so editors can show what dominates a rule's cost.
 */
import type { CheckedAst } from '../checker/checker';
import type { ResolvedOverload } from '../library';
import { ACCUMULATOR, type ComprehensionExpr, type Expr } from '../syntax/ast';
import { T, type CelType, type DeclType } from '../common/types';
import { runeCount } from '../runtime/size';
import {
  CONST_COST,
  LIST_CREATE_BASE_COST,
  MAP_CREATE_BASE_COST,
  MAX_UINT64,
  R,
  SELECT_AND_IDENT_COST,
  STRING_TRAVERSAL_COST_FACTOR,
  UNKNOWN,
  fixed,
  type CallEstimate,
  type EstimateNode,
  type EstimatorContext,
  type Range,
} from './model';

interface EntrySize {
  container: 'list' | 'map' | undefined;
  key: Range;
  val: Range;
}

interface LocalVar {
  path?: string[];
  size?: Range;
  entry?: EntrySize;
}

/** One place where a size multiplied the cost: a comprehension over a range, or a call over a value. */
export interface CostFactor {
  /** The expression (comprehension or call) and its source range. */
  exprId: number;
  start: number;
  end: number;
  /** 'iteration': a comprehension loops over `path`; 'call': a function traverses it. */
  kind: 'iteration' | 'call';
  /** The schema path of the sized value (`self.spec.items`), when it comes from the schema. */
  path?: string[];
  /** The size estimate used (max = MaxUint64 when unbounded). */
  size: Range;
  /** The cost of this node (including its children). */
  cost: Range;
}

/** An estimate of a whole expression. */
export interface CostEstimateResult {
  cost: Range;
  /** Cost of every expression node by id. */
  nodeCosts: Map<number, Range>;
  /** Comprehensions and size-dependent calls, outermost first. */
  factors: CostFactor[];
}

function entryUnion(a: EntrySize | undefined, b: EntrySize | undefined): EntrySize | undefined {
  if (!a || !b) return undefined;
  return { container: a.container, key: R.union(a.key, b.key), val: R.union(a.val, b.val) };
}

function isScalar(t: CelType | undefined): boolean {
  if (!t) return false;
  switch (t.kind) {
    case 'bool':
    case 'double':
    case 'duration':
    case 'int':
    case 'timestamp':
    case 'uint':
      return true;
    case 'opaque':
      return t.name === 'optional_type' && isScalar(t.params[0]);
    default:
      return false;
  }
}

class Coster implements EstimatorContext {
  private readonly paths = new Map<number, string[]>();
  private readonly sizes = new Map<number, Range>();
  private readonly entries = new Map<number, EntrySize>();
  private readonly locals = new Map<string, LocalVar[]>();
  readonly nodeCosts = new Map<number, Range>();
  readonly factors: CostFactor[] = [];

  constructor(
    private readonly ast: CheckedAst,
    private readonly root: DeclType | undefined,
  ) {}

  // -- EstimatorContext (the Kubernetes CostEstimator's helpers) ---------------------------------

  /** apiextensions' sizeEstimator: the MaxElements of the DeclType at the path (after its root variable). */
  private schemaSize(path: string[] | undefined): Range | undefined {
    if (!path || path.length === 0 || !this.root) return undefined;
    let cur: DeclType | undefined = this.root;
    for (const seg of path.slice(1)) {
      if (!cur) return undefined;
      if (seg === '@items' || seg === '@values') cur = cur.elemType;
      else if (seg === '@keys') cur = cur.keyType;
      else cur = cur.fields?.get(seg)?.type;
    }
    if (!cur) return undefined;
    return { min: 0, max: cur.maxElements };
  }

  sizeEstimate(n: EstimateNode): Range {
    return n.computedSize ?? this.schemaSize(n.path) ?? UNKNOWN;
  }

  listElementNode(n: EstimateNode): EstimateNode | undefined {
    const t = n.type;
    const elem = t.kind === 'list' ? t.elem : t.kind === 'map' ? t.key : t.kind === 'opaque' && t.params.length ? t.params[0] : t.kind === 'type' && t.param ? t.param : undefined;
    if (!elem) return undefined;
    return { path: n.path ? [...n.path, '@items'] : undefined, type: elem };
  }

  // -- cel-go coster ---------------------------------------------------------------------------

  private type(e: Expr): CelType {
    return this.ast.types.get(e.id) ?? T.dyn;
  }

  private peek(name: string): LocalVar | undefined {
    const s = this.locals.get(name);
    return s?.length ? s[s.length - 1] : undefined;
  }

  private push(name: string, v: LocalVar): void {
    const s = this.locals.get(name) ?? [];
    s.push(v);
    this.locals.set(name, s);
  }

  private pop(name: string): void {
    this.locals.get(name)?.pop();
  }

  private getPath(e: Expr): string[] | undefined {
    if (e.kind === 'ident') {
      const v = this.peek(e.name);
      if (v) return v.path;
    }
    return this.paths.get(e.id);
  }

  private computeSize(e: Expr): Range | undefined {
    const s = this.sizes.get(e.id);
    if (s) return s;
    if (e.kind === 'literal') {
      const v = e.value;
      if (typeof v === 'string') return fixed(runeCount(v));
      if (v instanceof Uint8Array) return fixed(v.length);
      return fixed(1);
    }
    if (e.kind === 'list') return fixed(e.elems.length);
    if (e.kind === 'map') return fixed(e.entries.length);
    const est = this.schemaSize(this.getPath(e));
    if (est) {
      this.sizes.set(e.id, est);
      return est;
    }
    if (isScalar(this.type(e))) return fixed(1);
    if (e.kind === 'ident') {
      const v = this.peek(e.name);
      if (v?.size) return v.size;
    }
    return undefined;
  }

  private sizeOrUnknown(e: Expr): Range {
    return this.computeSize(e) ?? UNKNOWN;
  }

  private computeEntry(e: Expr): EntrySize | undefined {
    const s = this.entries.get(e.id);
    if (s) return s;
    if (e.kind === 'ident') return this.peek(e.name)?.entry;
    return undefined;
  }

  private node(e: Expr): EstimateNode {
    let path = this.getPath(e);
    if (path && path.length > 0 && (path[0] === ACCUMULATOR || path[0] === '@result')) path = undefined;
    return { path, type: this.type(e), expr: e, computedSize: this.computeSize(e) };
  }

  cost(e: Expr): Range {
    const c = this.costInner(e);
    this.nodeCosts.set(e.id, c);
    return c;
  }

  private costInner(e: Expr): Range {
    switch (e.kind) {
      case 'literal':
        return fixed(CONST_COST);
      case 'ident': {
        const v = this.peek(e.name);
        this.paths.set(e.id, v ? (v.path ?? []) : [e.name]);
        if (v && !v.path) this.paths.delete(e.id);
        return fixed(SELECT_AND_IDENT_COST);
      }
      case 'select': {
        if (e.testOnly) return R.add(fixed(0), this.cost(e.operand));
        let sum = this.cost(e.operand);
        const t = this.type(e.operand);
        if (t.kind === 'map' || t.kind === 'object' || t.kind === 'param') sum = R.add(sum, fixed(SELECT_AND_IDENT_COST));
        this.paths.set(e.id, [...(this.getPath(e.operand) ?? []), e.field]);
        return sum;
      }
      case 'call':
        return this.costCall(e);
      case 'list': {
        let sum = fixed(0);
        let item: Range = { min: e.elems.length === 0 ? 0 : MAX_UINT64, max: 0 };
        for (const x of e.elems) {
          sum = R.add(sum, this.cost(x));
          item = R.union(item, this.sizeOrUnknown(x));
        }
        this.entries.set(e.id, { container: 'list', key: fixed(1), val: item });
        return R.add(sum, fixed(LIST_CREATE_BASE_COST));
      }
      case 'map': {
        let sum = fixed(0);
        let key: Range = { min: e.entries.length === 0 ? 0 : MAX_UINT64, max: 0 };
        let val: Range = { min: e.entries.length === 0 ? 0 : MAX_UINT64, max: 0 };
        for (const x of e.entries) {
          sum = R.add(R.add(sum, this.cost(x.key)), this.cost(x.value));
          key = R.union(key, this.sizeOrUnknown(x.key));
          val = R.union(val, this.sizeOrUnknown(x.value));
        }
        this.entries.set(e.id, { container: 'map', key, val });
        return R.add(sum, fixed(MAP_CREATE_BASE_COST));
      }
      case 'comprehension':
        return this.isBind(e) ? this.costBind(e) : this.costComprehension(e);
    }
  }

  private isBind(e: ComprehensionExpr): boolean {
    return e.iterRange.kind === 'list' && e.iterRange.elems.length === 0 && e.loopCondition.kind === 'literal' && e.loopCondition.value === false && e.accuVar !== ACCUMULATOR;
  }

  private costBind(e: ComprehensionExpr): Range {
    let sum = this.cost(e.iterRange);
    sum = R.add(sum, this.cost(e.accuInit));
    this.push(e.accuVar, { path: this.getPath(e.accuInit), size: this.computeSize(e.accuInit), entry: this.computeEntry(e.accuInit) });
    sum = R.add(sum, this.cost(e.result));
    this.pop(e.accuVar);
    const s = this.computeSize(e.result);
    if (s) this.sizes.set(e.id, s);
    const en = this.computeEntry(e.result);
    if (en) this.entries.set(e.id, en);
    return sum;
  }

  private iterVar(name: string, range: Expr, part: 'key' | 'value' | 'single'): void {
    const entry = this.computeEntry(range);
    let container = entry?.container;
    if (!container) {
      const k = this.type(range).kind;
      container = k === 'list' ? 'list' : k === 'map' ? 'map' : undefined;
    }
    const path = this.getPath(range) ?? [];
    let size: Range | undefined;
    let sub: string;
    if (part === 'key') {
      size = entry?.key;
      sub = container === 'list' ? '@indices' : '@keys';
    } else if (part === 'value') {
      size = entry?.val;
      sub = container === 'list' ? '@items' : '@values';
    } else {
      size = entry?.key;
      sub = '@keys';
      if (container === 'list') {
        size = entry?.val;
        sub = '@items';
      }
    }
    this.push(name, { path: [...path, sub], size });
  }

  private costComprehension(e: ComprehensionExpr): Range {
    let sum = this.cost(e.iterRange);
    sum = R.add(sum, this.cost(e.accuInit));
    this.push(e.accuVar, { path: this.getPath(e.accuInit), size: this.computeSize(e.accuInit), entry: this.computeEntry(e.accuInit) });
    if (e.iterVar2 !== undefined) {
      this.iterVar(e.iterVar, e.iterRange, 'key');
      this.iterVar(e.iterVar2, e.iterRange, 'value');
    } else this.iterVar(e.iterVar, e.iterRange, 'single');
    const loop = this.cost(e.loopCondition);
    const step = this.cost(e.loopStep);
    this.pop(e.iterVar);
    if (e.iterVar2 !== undefined) this.pop(e.iterVar2);
    sum = R.add(sum, this.cost(e.result));
    this.pop(e.accuVar);
    const count = this.sizeOrUnknown(e.iterRange);
    sum = R.add(sum, R.mul(count, R.add(step, loop)));
    const k = e.accuInit.kind;
    if (k === 'literal') {
      const s = this.computeSize(e.accuInit);
      if (s) this.sizes.set(e.id, s);
    } else if (k === 'list' || k === 'map') {
      this.sizes.set(e.id, count);
      const stepEntry = this.computeEntry(e.loopStep);
      if (stepEntry) this.entries.set(e.id, stepEntry);
    }
    const macro = this.ast.parsed.macroCalls.get(e.id);
    this.factors.push({ exprId: e.id, start: macro?.start ?? e.start, end: macro?.end ?? e.end, kind: 'iteration', path: this.getPath(e.iterRange), size: count, cost: sum });
    return sum;
  }

  private costCall(e: Expr & { kind: 'call' }): Range {
    const ref = this.ast.references.get(e.id);
    const fnName = ref?.kind === 'call' ? ref.fn : e.fn;
    if (fnName === 'dyn' && e.args.length === 1) {
      const arg = e.args[0];
      const c = this.cost(arg);
      const s = this.computeSize(arg);
      if (s) this.sizes.set(e.id, s);
      const en = this.computeEntry(arg);
      if (en) this.entries.set(e.id, en);
      return R.add(fixed(1), c);
    }
    const member = ref?.kind === 'call' ? ref.member : !!e.target;
    const args = e.args;
    const argCosts = args.map((a) => this.cost(a));
    const argNodes = args.map((a) => this.node(a));
    const overloads: ResolvedOverload[] = ref?.kind === 'call' ? ref.overloads : [];
    if (overloads.length === 0) return fixed(0);
    let sum = fixed(0);
    let target: EstimateNode | undefined;
    if (e.target && member) {
      sum = R.add(sum, this.cost(e.target));
      target = this.node(e.target);
    } else if (e.target) {
      // A namespaced function (optional.of, sets.contains): the namespace is not evaluated.
    }
    let fnCost: Range = { min: MAX_UINT64, max: 0 };
    let resultSize: Range | undefined;
    for (const o of overloads) {
      const oc = this.functionCost(e, fnName, o, target, argNodes, argCosts, args);
      fnCost = R.union(fnCost, oc.cost);
      if (oc.resultSize) resultSize = resultSize ? R.union(resultSize, oc.resultSize) : oc.resultSize;
      if (o.id === 'index_list' && args.length > 0) {
        resultSize = this.computeEntry(args[0])?.val;
        this.paths.set(e.id, [...(this.getPath(args[0]) ?? []), '@items']);
      } else if (o.id === 'index_map' && args.length > 0) {
        resultSize = this.computeEntry(args[0])?.val;
        this.paths.set(e.id, [...(this.getPath(args[0]) ?? []), '@values']);
      }
      if (!resultSize) resultSize = this.computeSize(e);
    }
    if (resultSize) this.sizes.set(e.id, resultSize);
    const total = R.add(sum, fnCost);
    const sized = target ?? argNodes[0];
    if (sized && (fnCost.max > 1 || total.max > 1) && !['_&&_', '_||_', '_?_:_', '_[_]', '_?._', '_[?_]', '_==_', '_!=_'].includes(fnName)) {
      const own = R.union({ min: MAX_UINT64, max: 0 }, fnCost);
      this.factors.push({ exprId: e.id, start: e.start, end: e.end, kind: 'call', path: sized.path, size: this.sizeEstimate(sized), cost: own });
    }
    return total;
  }

  private functionCost(e: Expr, fn: string, o: ResolvedOverload, target: EstimateNode | undefined, args: EstimateNode[], argCosts: Range[], argExprs: Expr[]): CallEstimate {
    let argSum = fixed(0);
    for (const a of argCosts) argSum = R.add(argSum, a);
    const est = o.estimate?.(this, o.id, target, args);
    if (est) return { cost: R.add(est.cost, argSum), resultSize: est.resultSize };
    switch (o.id) {
      case 'logical_or':
      case 'logical_and': {
        const [l, r] = argCosts;
        return { cost: { min: l.min, max: R.add(l, r).max } };
      }
      case 'conditional': {
        const size = R.union(this.sizeOrUnknown(argExprs[1]), this.sizeOrUnknown(argExprs[2]));
        const en = entryUnion(this.computeEntry(argExprs[1]), this.computeEntry(argExprs[2]));
        if (en) this.entries.set(e.id, en);
        const [c, t, f] = argCosts;
        return { cost: R.add(c, R.union(t, f)), resultSize: size };
      }
      case 'add_string':
      case 'add_bytes':
      case 'add_list': {
        if (args.length !== 2) break;
        const size = R.add(this.sizeOrUnknown(argExprs[0]), this.sizeOrUnknown(argExprs[1]));
        const en = entryUnion(this.computeEntry(argExprs[0]), this.computeEntry(argExprs[1]));
        if (en) this.entries.set(e.id, en);
        if (o.id === 'add_list') return { cost: R.add(fixed(1), argSum), resultSize: size };
        return { cost: R.add(R.factor(size, STRING_TRAVERSAL_COST_FACTOR), argSum), resultSize: size };
      }
    }
    void fn;
    return { cost: R.add(fixed(1), argSum) };
  }
}

/** Estimates the cost of a checked expression whose variables are typed by root (the rule's self). */
export function estimateCost(ast: CheckedAst, root: DeclType | undefined): CostEstimateResult {
  const c = new Coster(ast, root);
  const cost = c.cost(ast.parsed.expr);
  return { cost, nodeCosts: c.nodeCosts, factors: c.factors };
}
