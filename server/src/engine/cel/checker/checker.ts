/**
 * CEL type checking as cel-go does it (checker/checker.go) over the expanded AST: identifier and
 * qualified-name resolution, field selection on schema object types, overload resolution with type
 * parameters, comprehension scopes, then cel-go's AST validators (duration/timestamp/regex literals,
 * homogeneous aggregate literals). Issues carry cel-go's wording and locations.
 */
import type { EnvDecls, ResolvedOverload } from '../library';
import { T, formatCelType, type CelType, type DeclField } from '../common/types';
import { type ComprehensionExpr, type Expr, type ParsedAst, walk } from '../syntax/ast';
import { isAssignable, isAssignableList, isDyn, isDynOrError, isExactType, maybeUnwrapOptional, mostGeneral, substitute, type Mapping } from './unify';
import { compileRE2 } from '../../regex/re2';
import { closestNames } from '../../field/similar';
import { parseGoDuration, parseRFC3339 } from '../runtime/time';
import { MAX_TIMESTAMP_NANOS, MIN_TIMESTAMP_NANOS } from '../runtime/values';

/** A type-check or validation issue. */
export interface CheckIssue {
  message: string;
  /** Where cel-go reports it. */
  offset: number;
  /** The expression it is about. */
  exprId: number;
  /**
   * An undefined field: the name, the fields the receiver type has (CEL spelling, escaped) and the
   * closest of them ("did you mean"), for messages and quick fixes.
   */
  undefinedField?: { name: string; knownNames: string[]; suggestions: string[] };
}

/** What an identifier or call resolved to. */
export type Reference = { kind: 'variable'; name: string } | { kind: 'type'; name: string; type: CelType } | { kind: 'call'; fn: string; overloads: ResolvedOverload[]; member: boolean };

/** A checked expression (cel-go's checked ast.AST). */
export interface CheckedAst {
  parsed: ParsedAst;
  /** Type of every expression, type parameters resolved (unbound ones as dyn). */
  types: Map<number, CelType>;
  references: Map<number, Reference>;
  /** The result type. */
  type: CelType;
  issues: CheckIssue[];
  /** Declared variables the expression reads (e.g. whether it uses oldSelf). */
  usedVariables: Set<string>;
  /** Scopes of comprehensions: the comprehension id -> its variables' types (for editor queries). */
  scopes: Map<number, Map<string, CelType>>;
  decls: EnvDecls;
  vars: Map<string, CelType>;
}

/** Type names usable as values (`type(x) == int`). */
export const TYPE_IDENTS: Record<string, CelType> = {
  int: T.int,
  uint: T.uint,
  double: T.double,
  bool: T.bool,
  string: T.string,
  bytes: T.bytes,
  null_type: T.null,
  list: T.list(T.dyn),
  map: T.map(T.dyn, T.dyn),
  type: T.type(null),
  optional_type: T.optional(T.dyn),
  'google.protobuf.Duration': T.duration,
  'google.protobuf.Timestamp': T.timestamp,
};

const KEYWORDS = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

class Checker {
  private m: Mapping = new Map();
  private freeVars = 0;
  readonly types = new Map<number, CelType>();
  readonly references = new Map<number, Reference>();
  readonly issues: CheckIssue[] = [];
  readonly used = new Set<string>();
  readonly scopes = new Map<number, Map<string, CelType>>();
  private readonly locals: Array<Map<string, CelType>> = [];

  constructor(
    private readonly decls: EnvDecls,
    private readonly vars: Map<string, CelType>,
  ) {}

  private error(e: Expr, message: string): void {
    this.issues.push({ message, offset: e.offset, exprId: e.id });
  }

  private setType(e: Expr, t: CelType): void {
    this.types.set(e.id, t);
  }

  getType(e: Expr): CelType {
    return this.types.get(e.id) ?? T.error;
  }

  private newTypeVar(): CelType {
    return T.param(`_var${this.freeVars++}`);
  }

  private assignable(t1: CelType, t2: CelType): boolean {
    const m = isAssignable(this.m, t1, t2);
    if (m) this.m = m;
    return !!m;
  }

  private lookupLocal(name: string): CelType | undefined {
    for (let i = this.locals.length - 1; i >= 0; i--) {
      const t = this.locals[i].get(name);
      if (t) return t;
    }
    return undefined;
  }

  /** A global identifier: a variable or a type name. */
  private lookupGlobal(name: string): Reference | undefined {
    const v = this.vars.get(name);
    if (v) return { kind: 'variable', name };
    const t = TYPE_IDENTS[name] ?? (this.decls.types.has(name) ? T.opaque(name) : undefined);
    if (t) return { kind: 'type', name, type: T.type(t) };
    return undefined;
  }

  private useGlobal(e: Expr, r: Reference): void {
    this.references.set(e.id, r);
    if (r.kind === 'variable') {
      this.used.add(r.name);
      this.setType(e, this.vars.get(r.name)!);
    } else if (r.kind === 'type') this.setType(e, r.type);
  }

  check(e: Expr): void {
    switch (e.kind) {
      case 'literal':
        return this.setType(e, literalType(e.value));
      case 'ident': {
        const local = this.lookupLocal(e.name);
        if (local) return this.setType(e, local);
        const g = this.lookupGlobal(e.name);
        if (g) return this.useGlobal(e, g);
        this.setType(e, T.error);
        return this.error(e, `undeclared reference to '${e.name}' (in container '')`);
      }
      case 'select':
        return this.checkSelect(e);
      case 'call':
        return this.checkCall(e);
      case 'list':
        return this.checkList(e);
      case 'map':
        return this.checkMap(e);
      case 'comprehension':
        return this.checkComprehension(e);
    }
  }

  private qualifiers(e: Expr): string[] | undefined {
    const q: string[] = [];
    let cur = e;
    while (cur.kind === 'select') {
      if (cur.testOnly) return undefined;
      q.unshift(cur.field);
      cur = cur.operand;
    }
    if (cur.kind !== 'ident') return undefined;
    q.unshift(cur.name);
    return q;
  }

  private checkSelect(e: Expr & { kind: 'select' }): void {
    const q = this.qualifiers(e);
    if (q && q.length > 1 && !this.lookupLocal(q[0])) {
      const g = this.lookupGlobal(q.join('.'));
      if (g) return this.useGlobal(e, g);
    }
    let t = this.checkSelectField(e, e.operand, e.field, false);
    if (e.testOnly) t = T.bool;
    this.setType(e, substitute(this.m, t, false));
  }

  /** The field's declaration on an object type (with the bare-keyword spelling from compatibility 1.31). */
  private field(t: CelType & { kind: 'object' }, name: string): DeclField | undefined {
    const f = t.decl.fields?.get(name);
    if (f) return f;
    if (this.decls.keywordFieldNames && KEYWORDS.has(name)) return t.decl.fields?.get(`__${name}__`);
    return undefined;
  }

  private checkSelectField(e: Expr, operand: Expr, field: string, optional: boolean): CelType {
    this.check(operand);
    const ot = substitute(this.m, this.getType(operand), false);
    const [target, isOpt] = maybeUnwrapOptional(ot);
    let result: CelType = T.error;
    switch (target.kind) {
      case 'map':
        result = target.value;
        break;
      case 'object': {
        const f = this.field(target, field);
        if (f) result = f.type.cel;
        else {
          const knownNames = [...(target.decl.fields?.keys() ?? [])];
          this.issues.push({ message: `undefined field '${field}'`, offset: e.offset, exprId: e.id, undefinedField: { name: field, knownNames, suggestions: closestNames(field, knownNames) } });
        }
        break;
      }
      case 'param':
        this.assignable(T.dyn, target);
        result = T.dyn;
        break;
      default:
        if (!isDynOrError(target)) this.error(e, `type '${formatCelType(target)}' does not support field selection`);
        result = T.dyn;
    }
    return isOpt || optional ? T.optional(result) : result;
  }

  private checkOptSelect(e: Expr & { kind: 'call' }): void {
    const [operand, field] = e.args;
    if (e.args.length !== 2 || e.target) {
      this.error(e, `unsupported optional field selection: incorrect signature.${e.target ? ' member call with' : ''} argument count: ${e.args.length}`);
      return;
    }
    if (field.kind !== 'literal' || typeof field.value !== 'string') {
      this.error(field, 'unsupported optional field selection');
      return;
    }
    const t = this.checkSelectField(e, operand, field.value, true);
    this.setType(e, substitute(this.m, t, false));
    const fnDecl = this.decls.functions.get('_?._');
    this.references.set(e.id, { kind: 'call', fn: '_?._', overloads: fnDecl ? fnDecl.overloads : [], member: false });
  }

  /** `a.b.c` as a qualified name when it is a chain of selects on an identifier. */
  private toQualifiedName(e: Expr): string | undefined {
    if (e.kind === 'ident') return e.name;
    if (e.kind === 'select' && !e.testOnly) {
      const p = this.toQualifiedName(e.operand);
      return p === undefined ? undefined : `${p}.${e.field}`;
    }
    return undefined;
  }

  private checkCall(e: Expr & { kind: 'call' }): void {
    if (e.fn === '_?._') return this.checkOptSelect(e);
    for (const a of e.args) this.check(a);
    if (!e.target) {
      const fn = this.decls.functions.get(e.fn);
      if (!fn) {
        this.error(e, `undeclared reference to '${e.fn}' (in container '')`);
        return this.setType(e, T.error);
      }
      return this.resolve(e, e.fn, fn.overloads, undefined, e.args);
    }
    const qualified = this.toQualifiedName(e.target);
    if (qualified !== undefined && !this.lookupLocal(qualified.split('.')[0])) {
      const fn = this.decls.functions.get(`${qualified}.${e.fn}`);
      if (fn) return this.resolve(e, fn.name, fn.overloads, undefined, e.args, true);
    }
    this.check(e.target);
    const fn = this.decls.functions.get(e.fn);
    if (fn) return this.resolve(e, e.fn, fn.overloads, e.target, e.args);
    this.setType(e, T.error);
    this.error(e, `undeclared reference to '${e.fn}' (in container '')`);
  }

  private resolve(e: Expr & { kind: 'call' }, name: string, overloads: ResolvedOverload[], target: Expr | undefined, args: Expr[], namespaced = false): void {
    const argTypes = (target ? [target, ...args] : args).map((a) => this.getType(a));
    let result: CelType | undefined;
    const matched: ResolvedOverload[] = [];
    for (const o of overloads) {
      if (!!target !== o.member) continue;
      if (name === '_&&_' || name === '_||_') {
        let bad = false;
        argTypes.forEach((t, i) => {
          if (!this.assignable(t, T.bool)) {
            this.error(args[i], `expected type 'bool' but found '${formatCelType(t)}'`);
            bad = true;
          }
        });
        if (bad) return this.setType(e, T.error);
        this.references.set(e.id, { kind: 'call', fn: name, overloads: [o], member: false });
        return this.setType(e, T.bool);
      }
      if (o.params.length !== argTypes.length) continue;
      if (!possibleMatch(o.params, argTypes)) continue;
      const { params, result: res } = this.instantiate(o);
      const m = isAssignableList(this.m, argTypes, params);
      if (!m) continue;
      this.m = m;
      matched.push(o);
      const rt = substitute(this.m, res, false);
      if (result === undefined) result = rt;
      else if (!isDyn(result) && !isExactType(rt, result)) result = T.dyn;
    }
    if (result === undefined) {
      const shown = argTypes.map((t) => formatCelType(substitute(this.m, t, true)));
      const sig = target ? `${shown[0]}.(${shown.slice(1).join(', ')})` : `(${shown.join(', ')})`;
      this.error(e, `found no matching overload for '${name}' applied to '${sig}'`);
      return this.setType(e, T.error);
    }
    this.references.set(e.id, { kind: 'call', fn: name, overloads: matched, member: !!target && !namespaced });
    this.setType(e, result);
  }

  /** An overload's signature with its type parameters renamed to fresh variables. */
  private instantiate(o: ResolvedOverload): { params: CelType[]; result: CelType } {
    const names = new Map<string, CelType>();
    const fresh = (t: CelType): CelType => {
      switch (t.kind) {
        case 'param': {
          let r = names.get(t.name);
          if (!r) names.set(t.name, (r = this.newTypeVar()));
          return r;
        }
        case 'list':
          return T.list(fresh(t.elem));
        case 'map':
          return T.map(fresh(t.key), fresh(t.value));
        case 'opaque':
          return t.params.length ? { kind: 'opaque', name: t.name, params: t.params.map(fresh) } : t;
        case 'type':
          return t.param ? T.type(fresh(t.param)) : t;
        default:
          return t;
      }
    };
    return { params: o.params.map(fresh), result: fresh(o.result) };
  }

  private join(e: Expr, prev: CelType | undefined, cur: CelType): CelType {
    if (prev === undefined) return cur;
    if (this.assignable(prev, cur)) return mostGeneral(prev, cur);
    // HomogeneousAggregateLiterals is a validator in the API server's environment: mixed literals are dyn here.
    void e;
    return T.dyn;
  }

  private checkList(e: Expr & { kind: 'list' }): void {
    let elem: CelType | undefined;
    const optional = new Set(e.optionalIndices);
    e.elems.forEach((x, i) => {
      this.check(x);
      let t = this.getType(x);
      if (optional.has(i)) {
        const [inner, isOpt] = maybeUnwrapOptional(t);
        if (!isOpt && !isDyn(inner)) this.error(x, `expected type '${formatCelType(T.optional(inner))}' but found '${formatCelType(inner)}'`);
        t = inner;
      }
      elem = this.join(x, elem, t);
    });
    this.setType(e, T.list(elem ?? this.newTypeVar()));
  }

  private checkMap(e: Expr & { kind: 'map' }): void {
    let kt: CelType | undefined;
    let vt: CelType | undefined;
    for (const entry of e.entries) {
      this.check(entry.key);
      kt = this.join(entry.key, kt, this.getType(entry.key));
      this.check(entry.value);
      let t = this.getType(entry.value);
      if (entry.optional) {
        const [inner, isOpt] = maybeUnwrapOptional(t);
        if (!isOpt && !isDyn(inner)) this.error(entry.value, `expected type '${formatCelType(T.optional(inner))}' but found '${formatCelType(inner)}'`);
        t = inner;
      }
      vt = this.join(entry.value, vt, t);
    }
    if (kt === undefined) {
      kt = this.newTypeVar();
      vt = this.newTypeVar();
    }
    this.setType(e, T.map(kt, vt!));
  }

  private checkComprehension(e: ComprehensionExpr): void {
    this.check(e.iterRange);
    this.check(e.accuInit);
    const rangeType = substitute(this.m, this.getType(e.iterRange), false);
    const accuType = this.getType(e.accuInit);
    this.locals.push(new Map([[e.accuVar, accuType]]));
    let v1: CelType;
    let v2: CelType | undefined;
    switch (rangeType.kind) {
      case 'list':
        v1 = rangeType.elem;
        if (e.iterVar2 !== undefined) {
          v2 = v1;
          v1 = T.int;
        }
        break;
      case 'map':
        v1 = rangeType.key;
        if (e.iterVar2 !== undefined) v2 = rangeType.value;
        break;
      case 'dyn':
      case 'error':
      case 'param':
        this.assignable(T.dyn, rangeType);
        v1 = T.dyn;
        if (e.iterVar2 !== undefined) v2 = T.dyn;
        break;
      default:
        this.error(e.iterRange, `expression of type '${formatCelType(rangeType)}' cannot be range of a comprehension (must be list, map, or dynamic)`);
        v1 = T.error;
        if (e.iterVar2 !== undefined) v2 = T.error;
    }
    const loop = new Map<string, CelType>([[e.iterVar, v1]]);
    if (e.iterVar2 !== undefined) loop.set(e.iterVar2, v2!);
    this.locals.push(loop);
    this.scopes.set(e.id, new Map([...this.locals[this.locals.length - 2], ...loop]));
    this.check(e.loopCondition);
    this.assertType(e.loopCondition, T.bool);
    this.check(e.loopStep);
    this.assertType(e.loopStep, accuType);
    this.locals.pop();
    this.check(e.result);
    this.locals.pop();
    this.setType(e, substitute(this.m, this.getType(e.result), false));
  }

  private assertType(e: Expr, t: CelType): void {
    const actual = this.getType(e);
    if (!this.assignable(t, actual)) this.error(e, `expected type '${formatCelType(t)}' but found '${formatCelType(actual)}'`);
  }

  /** Final types: every type parameter substituted, unbound ones as dyn. */
  finalTypes(): Map<number, CelType> {
    const out = new Map<number, CelType>();
    for (const [id, t] of this.types) out.set(id, substitute(this.m, t, true));
    return out;
  }

  /** The scopes' variable types, finalized. */
  finalScopes(): Map<number, Map<string, CelType>> {
    const out = new Map<number, Map<string, CelType>>();
    for (const [id, s] of this.scopes) out.set(id, new Map([...s].map(([k, t]) => [k, substitute(this.m, t, true)])));
    return out;
  }
}

/** A cheap test before unification: an overload whose concrete parameter kinds differ from the arguments' cannot match. */
function possibleMatch(params: CelType[], args: CelType[]): boolean {
  for (let i = 0; i < params.length; i++) {
    const p = params[i];
    const a = args[i];
    if (p.kind === 'param' || p.kind === 'dyn' || a.kind === 'param' || a.kind === 'dyn' || a.kind === 'error') continue;
    if (a.kind === 'null_type' || p.kind === 'null_type') continue;
    if (p.kind !== a.kind) return false;
    if ((p.kind === 'opaque' || p.kind === 'object') && (a as { name: string }).name !== p.name) return false;
  }
  return true;
}

function literalType(v: unknown): CelType {
  switch (typeof v) {
    case 'bigint':
      return T.int;
    case 'number':
      return T.double;
    case 'string':
      return T.string;
    case 'boolean':
      return T.bool;
  }
  if (v === null) return T.null;
  if (v instanceof Uint8Array) return T.bytes;
  return T.uint;
}

/** Type-checks a parsed expression against the declared variables of an environment. */
export function check(parsed: ParsedAst, decls: EnvDecls, vars: Map<string, CelType>): CheckedAst {
  const c = new Checker(decls, vars);
  c.check(parsed.expr);
  const types = c.finalTypes();
  const issues = sortIssues(c.issues);
  const out: CheckedAst = {
    parsed,
    types,
    references: c.references,
    type: types.get(parsed.expr.id) ?? T.error,
    issues,
    usedVariables: c.used,
    scopes: c.finalScopes(),
    decls,
    vars,
  };
  if (issues.length === 0) {
    validate(out);
    out.issues = sortIssues(out.issues);
  }
  return out;
}

/** cel-go prints issues sorted by location (stable). */
function sortIssues(issues: CheckIssue[]): CheckIssue[] {
  return issues
    .map((x, i) => [x, i] as const)
    .sort((a, b) => a[0].offset - b[0].offset || a[1] - b[1])
    .map(([x]) => x);
}

// ---------------------------------------------------------------------------------------------
// cel-go's AST validators (cel/validator.go), in the API server's environment from 1.29.

function validDuration(s: string): boolean {
  return parseGoDuration(s) !== undefined;
}

function validTimestamp(v: unknown): boolean {
  if (typeof v === 'string') return parseRFC3339(v) !== undefined;
  if (typeof v === 'bigint') {
    const ns = v * 1_000_000_000n;
    return ns >= MIN_TIMESTAMP_NANOS && ns <= MAX_TIMESTAMP_NANOS;
  }
  return true;
}

function validate(a: CheckedAst): void {
  const report = (e: Expr, message: string) => a.issues.push({ message, offset: e.offset, exprId: e.id });
  const exempt = new Set<number>();
  walk(a.parsed.expr, (e) => {
    if (e.kind !== 'call') return;
    // Literals inside string format calls may mix types.
    if (e.fn === 'format' && e.target) walk(e, (x) => exempt.add(x.id));
    const lit = e.args[0];
    if (lit?.kind === 'literal') {
      if (e.fn === 'duration' && typeof lit.value === 'string' && !validDuration(lit.value)) report(lit, 'invalid duration argument');
      if (e.fn === 'timestamp' && !validTimestamp(lit.value)) report(lit, 'invalid timestamp argument');
      if (e.fn === 'matches' && typeof lit.value === 'string' && !compileRE2(lit.value).ok) report(lit, 'invalid matches argument');
    }
  });
  validateFormatCalls(a, report);
  walk(a.parsed.expr, (e) => {
    if (exempt.has(e.id)) return;
    if (e.kind === 'list') {
      let first: CelType | undefined;
      const opt = new Set(e.optionalIndices);
      for (let i = 0; i < e.elems.length; i++) {
        let t = a.types.get(e.elems[i].id)!;
        if (opt.has(i)) t = maybeUnwrapOptional(t)[0];
        if (first === undefined) first = t;
        else if (!isExactType(first, t)) {
          report(e.elems[i], `expected type '${formatCelType(first)}' but found '${formatCelType(t)}'`);
          break;
        }
      }
    }
    if (e.kind === 'map') {
      let kt: CelType | undefined;
      let vt: CelType | undefined;
      for (const entry of e.entries) {
        const k = a.types.get(entry.key.id)!;
        let v = a.types.get(entry.value.id)!;
        if (entry.optional) v = maybeUnwrapOptional(v)[0];
        if (kt === undefined || vt === undefined) {
          kt = k;
          vt = v;
          continue;
        }
        if (!isExactType(kt, k)) report(entry.key, `expected type '${formatCelType(kt)}' but found '${formatCelType(k)}'`);
        if (!isExactType(vt, v)) report(entry.value, `expected type '${formatCelType(vt)}' but found '${formatCelType(v)}'`);
      }
    }
  });
}

/** A type's name as cel-go's Type.TypeName() gives it (format validator messages). */
function typeName(t: CelType): string {
  switch (t.kind) {
    case 'timestamp':
      return 'google.protobuf.Timestamp';
    case 'duration':
      return 'google.protobuf.Duration';
    case 'list':
      return 'list';
    case 'map':
      return 'map';
    case 'object':
    case 'opaque':
      return t.name;
    case 'null_type':
      return 'null_type';
    case 'param':
      return t.name;
    default:
      return t.kind;
  }
}

type Kind = CelType['kind'];

/**
 * ext strings' stringFormatValidator (cel-go ext/formatting.go, strings library version 1..3): a
 * `'literal'.format([list literal])` call is parsed at check time and each clause checked against the
 * static type of its argument (dyn passes), with the runtime formatter's messages.
 */
function validateFormatCalls(a: CheckedAst, report: (e: Expr, message: string) => void): void {
  walk(a.parsed.expr, (e) => {
    if (e.kind !== 'call' || e.fn !== 'format' || !e.target || e.args.length !== 1) return;
    const ref = a.references.get(e.id);
    if (ref?.kind === 'call' && !ref.overloads.some((o) => o.id === 'string_format')) return;
    if (e.target.kind !== 'literal' || typeof e.target.value !== 'string' || e.args[0].kind !== 'list') return;
    const format = e.target.value;
    const args = e.args[0].elems;
    const typeOf = (x: Expr): CelType => a.types.get(x.id) ?? T.dyn;
    const oneOf = (x: Expr, ...kinds: Kind[]) => {
      const t = typeOf(x);
      return t.kind === 'dyn' || kinds.includes(t.kind);
    };
    // verifyString: lists and maps are checked element by element; the first bad one is named.
    const badForString = (x: Expr): Expr | undefined => {
      if (!oneOf(x, 'list', 'map', 'int', 'uint', 'double', 'bool', 'string', 'timestamp', 'bytes', 'duration', 'type', 'null_type')) return x;
      if (x.kind === 'list')
        for (const el of x.elems) {
          const b = badForString(el);
          if (b) return b;
        }
      if (x.kind === 'map')
        for (const en of x.entries) {
          const b = badForString(en.key) ?? badForString(en.value);
          if (b) return b;
        }
      return undefined;
    };
    let requested = 0;
    let argIndex = 0;
    let i = 0;
    // Go's strings are bytes: the format is walked as UTF-8 (clause letters are ASCII).
    const bytes = Buffer.from(format, 'utf8');
    const at = (k: number) => String.fromCharCode(bytes[k]);
    while (i < bytes.length) {
      if (at(i) !== '%') {
        i++;
        continue;
      }
      if (i + 1 < bytes.length && at(i + 1) === '%') {
        i += 2;
        continue;
      }
      requested++;
      if (i + 1 >= bytes.length) return report(e, 'unexpected end of string');
      if (argIndex >= args.length) return report(e, `index ${argIndex} out of range`);
      let j = i + 1;
      if (at(j) === '.') {
        j++;
        while (j < bytes.length && at(j) >= '0' && at(j) <= '9') j++;
        if (j >= bytes.length) return report(e, 'could not parse formatting clause: error while parsing precision: could not find end of precision specifier');
      }
      const clause = at(j);
      j++;
      const arg = args[argIndex];
      const bad = (x: Expr, what: string) => report(x, `error during formatting: ${what}, was given ${typeName(typeOf(x))}`);
      switch (clause) {
        case 's': {
          const b = badForString(arg);
          if (b) return bad(b, 'string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps');
          break;
        }
        case 'd':
          if (!oneOf(arg, 'int', 'uint')) return bad(arg, 'decimal clause can only be used on integers');
          break;
        case 'f':
          if (!oneOf(arg, 'double', 'string')) return bad(arg, 'fixed-point clause can only be used on doubles');
          break;
        case 'e':
          if (!oneOf(arg, 'double', 'string')) return bad(arg, 'scientific clause can only be used on doubles');
          break;
        case 'b':
          if (!oneOf(arg, 'int', 'uint', 'bool')) return bad(arg, 'only integers and bools can be formatted as binary');
          break;
        case 'x':
        case 'X':
          if (!oneOf(arg, 'int', 'uint', 'string', 'bytes')) return bad(arg, 'only integers, byte buffers, and strings can be formatted as hex');
          break;
        case 'o':
          if (!oneOf(arg, 'int', 'uint')) return bad(arg, 'octal clause can only be used on integers');
          break;
        default: {
          // %c of the byte as a rune (a UTF-8 lead byte prints as its Latin-1 character, as Go's rune(byte)).
          return report(e, `could not parse formatting clause: unrecognized formatting clause "${clause}"`);
        }
      }
      argIndex++;
      i = j;
    }
    if (args.length > requested) report(e, `too many arguments supplied to string.format (expected ${requested}, got ${args.length})`);
  });
}
