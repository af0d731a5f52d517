/**
 * A CEL type checker over the @marcbachmann/cel-js AST that follows cel-go's checker (overload
 * resolution with type parameters, legacy nullability, macros, optionals) and reports issues with
 * cel-go's wording and locations, as the API server prints them in "compilation failed: ..." errors.
 */
import type { ASTNode } from '@marcbachmann/cel-js';
import { T, formatCelType, type CelType } from './types';
import { overloadTable, type Overload } from './overloads';
import { compileRE2 } from '../regex/re2';

export interface CheckIssue {
  message: string;
  /** Offset cel-go reports the issue at (for `<input>:line:col`). */
  offset: number;
  /** Range of the offending sub-expression in the source. */
  range: { start: number; end: number };
}

export interface CheckResult {
  type: CelType;
  issues: CheckIssue[];
  /** The expression references the variable `oldSelf`. */
  usesOldSelf: boolean;
  /** Errors cel-go reports only at program creation ("program instantiation failed: ..."). */
  programErrors: string[];
  /** The checked type of a sub-expression (type parameters resolved, unresolved ones as dyn). */
  typeOf(n: ASTNode): CelType | undefined;
}

class CheckError extends Error {
  constructor(
    message: string,
    readonly node: ASTNode,
    readonly offset?: number,
  ) {
    super(message);
  }
}

type Scope = Map<string, CelType>;
type Mapping = Map<string, CelType>;

const NAMESPACES = new Set(['optional', 'sets', 'lists', 'strings', 'format', 'ip', 'math']);

/** Type-check a parsed expression against declared variables (storedExpressions: the stored-expressions environment). */
export function checkExpression(ast: ASTNode, vars: Map<string, CelType>, opts: { storedExpressions?: boolean } = {}): CheckResult {
  const c = new Checker(vars, overloadTable(opts.storedExpressions === true));
  const type = c.check(ast, new Map());
  // cel-go's Errors.ToDisplayString sorts by location (stable), one ERROR block per issue.
  const issues = c.issues.map((x, i) => [x, i] as const).sort((a, b) => a[0].offset - b[0].offset || a[1] - b[1]).map(([x]) => x);
  const programErrors: string[] = [];
  if (issues.length === 0) {
    validateLiterals(ast, c, issues, programErrors);
  }
  return { type: substituteFinal(type), issues, usesOldSelf: c.usesOldSelf, programErrors, typeOf: (n) => c.typeOf(n) };
}

/** The offset cel-go attaches to an expression: operator tokens for calls, the dot for selections. */
export function celGoOffset(n: ASTNode): number {
  const src = n.input;
  const skip = (i: number) => {
    while (i < src.length && /\s/.test(src[i])) i++;
    return i;
  };
  const args = n.args as unknown;
  switch (n.op) {
    case '.':
    case '.?': {
      const [obj] = args as [ASTNode, string];
      return skip(obj.range.end);
    }
    case '[]':
    case '[?]': {
      const [obj] = args as [ASTNode, ASTNode];
      return skip(obj.range.end);
    }
    case 'rcall': {
      const [, recv] = args as [string, ASTNode, ASTNode[]];
      let i = skip(recv.range.end);
      if (src[i] === '.') i = skip(i + 1);
      while (i < src.length && /[A-Za-z0-9_]/.test(src[i])) i++;
      return skip(i);
    }
    case 'call': {
      let i = n.range.start;
      while (i < src.length && /[A-Za-z0-9_.]/.test(src[i])) i++;
      return skip(i);
    }
    case '?:':
    case '||':
    case '&&':
    case '==':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=':
    case '+':
    case '-':
    case '*':
    case '/':
    case '%':
    case 'in': {
      const [l] = args as [ASTNode, ASTNode];
      return skip(l.range.end);
    }
    default:
      return n.range.start;
  }
}

const BINARY: Record<string, string> = {
  '==': '_==_', '!=': '_!=_', '<': '_<_', '<=': '_<=_', '>': '_>_', '>=': '_>=_', '+': '_+_', '-': '_-_', '*': '_*_', '/': '_/_', '%': '_%_', in: '@in',
};

function isDynOrError(t: CelType): boolean {
  return t.kind === 'dyn' || t.kind === 'error';
}

function isLegacyNullable(t: CelType): boolean {
  return t.kind === 'opaque' || t.kind === 'object' || t.kind === 'duration' || t.kind === 'timestamp';
}

function params(t: CelType): CelType[] {
  switch (t.kind) {
    case 'list':
      return [t.elem];
    case 'map':
      return [t.key, t.value];
    case 'opaque':
      return t.params;
    case 'type':
      return t.param ? [t.param] : [];
    default:
      return [];
  }
}

function sameHead(a: CelType, b: CelType): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'object' && b.kind === 'object') return a.name === b.name;
  if (a.kind === 'opaque' && b.kind === 'opaque') return a.name === b.name && a.params.length === b.params.length;
  if (a.kind === 'type' && b.kind === 'type') return !!a.param === !!b.param;
  return true;
}

/** Exact type equality (IsExactType / IsEquivalentType). */
export function typeEquals(a: CelType, b: CelType): boolean {
  if (!sameHead(a, b)) return false;
  if (a.kind === 'param' && b.kind === 'param') return a.name === b.name;
  const pa = params(a);
  const pb = params(b);
  return pa.every((p, i) => typeEquals(p, pb[i]));
}

function substitute(m: Mapping, t: CelType, toDyn: boolean): CelType {
  switch (t.kind) {
    case 'param': {
      const s = m.get(t.name);
      if (s) return substitute(m, s, toDyn);
      return toDyn ? T.dyn : t;
    }
    case 'list':
      return t.listType ? { ...t, elem: substitute(m, t.elem, toDyn) } : T.list(substitute(m, t.elem, toDyn));
    case 'map':
      return T.map(substitute(m, t.key, toDyn), substitute(m, t.value, toDyn));
    case 'opaque':
      return { kind: 'opaque', name: t.name, params: t.params.map((p) => substitute(m, p, toDyn)) };
    case 'type':
      return T.type(t.param ? substitute(m, t.param, toDyn) : null);
    default:
      return t;
  }
}

function substituteFinal(t: CelType): CelType {
  return substitute(new Map(), t, true);
}

function occursIn(m: Mapping, name: string, t: CelType): boolean {
  if (t.kind === 'param') {
    if (t.name === name) return true;
    const s = m.get(t.name);
    return s ? occursIn(m, name, s) : false;
  }
  return params(t).some((p) => occursIn(m, name, p));
}

function mostGeneral(a: CelType, b: CelType): CelType {
  if (isDynOrError(a) || a.kind === 'null_type') return a.kind === 'null_type' ? b : a;
  if (isDynOrError(b)) return b;
  return a;
}

function isAssignable(m: Mapping, t1: CelType, t2: CelType): boolean {
  if (t2.kind === 'param') {
    const [valid, hasSub] = validSubstitution(m, t1, t2);
    if (valid) return true;
    if (hasSub) return false;
  }
  if (t1.kind === 'param') return validSubstitution(m, t2, t1)[0];
  if (isDynOrError(t1) || isDynOrError(t2)) return true;
  if (t1.kind === 'type' && t2.kind === 'type') return true;
  if (t1.kind === 'null_type') return t2.kind === 'null_type' || isLegacyNullable(t2);
  if (t2.kind === 'null_type') return isLegacyNullable(t1);
  if (!sameHead(t1, t2)) return false;
  const p1 = params(t1);
  const p2 = params(t2);
  for (let i = 0; i < p1.length; i++) if (!isAssignable(m, p1[i], p2[i])) return false;
  return true;
}

function validSubstitution(m: Mapping, t1: CelType, t2: CelType & { kind: 'param' }): [boolean, boolean] {
  if (t1.kind === 'param' && t1.name === t2.name) return [true, true];
  const sub = m.get(t2.name);
  if (sub) {
    if (typeEquals(t1, sub)) return [true, true];
    if (isAssignable(m, t1, sub)) {
      const g = mostGeneral(t1, sub);
      if (!occursIn(m, t2.name, g)) m.set(t2.name, g);
      return [true, true];
    }
    return [false, true];
  }
  if (!occursIn(m, t2.name, t1)) {
    m.set(t2.name, t1);
    return [true, false];
  }
  return [false, false];
}

let freshCounter = 0;
function freshen(o: Overload): { params: CelType[]; result: CelType } {
  const ren = new Map<string, CelType>();
  const f = (t: CelType): CelType => {
    if (t.kind === 'param') {
      let r = ren.get(t.name);
      if (!r) {
        r = T.param(`_${t.name}${++freshCounter}`);
        ren.set(t.name, r);
      }
      return r;
    }
    switch (t.kind) {
      case 'list':
        return T.list(f(t.elem));
      case 'map':
        return T.map(f(t.key), f(t.value));
      case 'opaque':
        return { kind: 'opaque', name: t.name, params: t.params.map(f) };
      case 'type':
        return T.type(t.param ? f(t.param) : null);
      default:
        return t;
    }
  };
  return { params: o.params.map(f), result: f(o.result) };
}

class Checker {
  usesOldSelf = false;
  /** Global type-parameter mapping across the expression (cel-go keeps one per check). */
  private m: Mapping = new Map();
  readonly types = new Map<ASTNode, CelType>();
  /** Every error found: like cel-go, an erroneous sub-expression gets the error type and checking goes on. */
  readonly issues: CheckIssue[] = [];
  /** Nodes a macro expansion creates take the macro call's location (has(a.b): the select sits at the '('). */
  private readonly macroOffsets = new Map<ASTNode, number>();

  constructor(
    private readonly vars: Map<string, CelType>,
    private readonly table: Map<string, Overload[]>,
  ) {}

  check(n: ASTNode, scope: Scope): CelType {
    let t: CelType;
    try {
      t = this.checkInner(n, scope);
    } catch (e) {
      if (!(e instanceof CheckError)) throw e;
      this.issues.push({ message: e.message, offset: e.offset ?? this.macroOffsets.get(e.node) ?? celGoOffset(e.node), range: { start: e.node.range.start, end: e.node.range.end } });
      t = T.error;
    }
    this.types.set(n, t);
    return t;
  }

  private resolved(t: CelType): CelType {
    return substitute(this.m, t, false);
  }

  private checkInner(n: ASTNode, scope: Scope): CelType {
    switch (n.op) {
      case 'value':
        return literalType(n.args);
      case 'id': {
        const name = n.args;
        const local = scope.get(name);
        if (local) return local;
        const v = this.vars.get(name);
        if (v) {
          if (name === 'oldSelf') this.usesOldSelf = true;
          return v;
        }
        const tt = TYPE_IDENTS[name];
        if (tt) return T.type(tt);
        throw new CheckError(`undeclared reference to '${name}' (in container '')`, n);
      }
      case '.':
      case '.?': {
        const [obj, field] = n.args;
        const qual = this.qualifiedName(n, scope);
        if (qual && TYPE_IDENTS[qual]) return T.type(TYPE_IDENTS[qual]);
        if (qual && !this.vars.has(qual.split('.')[0])) {
          // cel-go falls back to checking the operand: the root identifier is what is undeclared.
          let root: ASTNode = n;
          while (root.op === '.') root = root.args[0];
          throw new CheckError(`undeclared reference to '${qual.split('.')[0]}' (in container '')`, root);
        }
        const ot = this.resolved(this.check(obj, scope));
        return this.selectType(n, ot, field, n.op === '.?');
      }
      case '[]':
      case '[?]': {
        const [obj, idx] = n.args;
        const ot = this.resolved(this.check(obj, scope));
        const it = this.check(idx, scope);
        if (n.op === '[?]') {
          if (ot.kind === 'object' || (ot.kind === 'opaque' && ot.name === 'optional_type' && ot.params[0].kind === 'object')) {
            const inner = ot.kind === 'object' ? ot : (ot.params[0] as CelType);
            if (it.kind === 'string' && (idx.op === 'value' && typeof idx.args === 'string')) {
              return T.optional(this.selectType(n, inner, idx.args, true));
            }
          }
          return this.resolveCall(n, '_[?_]', [ot, it], false);
        }
        return this.resolveCall(n, '_[_]', [ot, it], false);
      }
      case 'list': {
        let elem: CelType | undefined;
        for (const e of n.args) {
          const et = this.check(e, scope);
          elem = elem === undefined ? et : this.join(elem, et);
        }
        return T.list(elem ?? T.param(`_L${++freshCounter}`));
      }
      case 'map': {
        let kt: CelType | undefined;
        let vt: CelType | undefined;
        for (const [k, v] of n.args) {
          const a = this.check(k, scope);
          const b = this.check(v, scope);
          kt = kt === undefined ? a : this.join(kt, a);
          vt = vt === undefined ? b : this.join(vt, b);
        }
        return T.map(kt ?? T.param(`_K${++freshCounter}`), vt ?? T.param(`_V${++freshCounter}`));
      }
      case '?:': {
        const [c, a, b] = n.args;
        return this.resolveCall(n, '_?_:_', [this.check(c, scope), this.check(a, scope), this.check(b, scope)], false);
      }
      case '||':
      case '&&': {
        // cel-go types logical operators apart (resolveOverload): each operand not assignable to bool is
        // its own "expected type 'bool'" error, at the operand.
        let bad = false;
        for (const arg of n.args as ASTNode[]) {
          const t = this.check(arg, scope);
          if (!isAssignable(this.m, t, T.bool)) {
            this.issues.push({ message: `expected type 'bool' but found '${formatCelType(this.resolved(t))}'`, offset: celGoOffset(arg), range: { start: arg.range.start, end: arg.range.end } });
            bad = true;
          }
        }
        return bad ? T.error : T.bool;
      }
      case '!_':
      case '-_':
        return this.resolveCall(n, n.op, [this.check(n.args, scope)], false);
      case 'call':
        return this.checkCall(n, scope);
      case 'rcall':
        return this.checkMemberCall(n, scope);
      default: {
        const fn = BINARY[n.op];
        if (!fn) throw new CheckError(`unsupported expression ${n.op}`, n);
        const [a, b] = n.args as [ASTNode, ASTNode];
        return this.resolveCall(n, fn, [this.check(a, scope), this.check(b, scope)], false);
      }
    }
  }

  /** `a.b.c` where `a` is not a variable: a qualified identifier such as `optional.none`. */
  private qualifiedName(n: ASTNode, scope: Scope): string | undefined {
    const parts: string[] = [];
    let cur: ASTNode = n;
    while (cur.op === '.') {
      parts.unshift(cur.args[1]);
      cur = cur.args[0];
    }
    if (cur.op !== 'id') return undefined;
    if (scope.has(cur.args) || this.vars.has(cur.args)) return undefined;
    return [cur.args, ...parts].join('.');
  }

  private join(prev: CelType, next: CelType): CelType {
    if (isAssignable(this.m, prev, next)) return mostGeneral(prev, next);
    return T.dyn;
  }

  private selectType(n: ASTNode, ot: CelType, field: string, optional: boolean): CelType {
    let target = ot;
    let wrapOpt = optional;
    if (ot.kind === 'opaque' && ot.name === 'optional_type') {
      target = ot.params[0];
      wrapOpt = true;
    }
    let rt: CelType;
    switch (target.kind) {
      case 'dyn':
      case 'error':
        rt = T.dyn;
        break;
      case 'map':
        rt = target.value;
        break;
      case 'object': {
        const f = target.decl.fields?.get(field) ?? (escapeKeyword(field) ? target.decl.fields?.get(escapeKeyword(field)!) : undefined);
        if (!f) throw new CheckError(`undefined field '${field}'`, n);
        rt = f.type.cel;
        break;
      }
      case 'param':
        rt = T.dyn;
        break;
      default:
        throw new CheckError(`type '${formatCelType(target)}' does not support field selection`, n);
    }
    return wrapOpt ? T.optional(rt) : rt;
  }

  private checkCall(n: ASTNode & { op: 'call' }, scope: Scope): CelType {
    const [name, args] = n.args;
    if (name === 'has') {
      const a = args[0];
      // The parser reports a bad argument at the argument's own location (the operator of a binary expression).
      if (args.length !== 1 || a.op !== '.') throw new CheckError('invalid argument to has() macro', a ?? n, a ? celGoOffset(a) : undefined);
      this.macroOffsets.set(a, celGoOffset(n));
      this.check(a, scope);
      return T.bool;
    }
    const argTypes = args.map((a) => this.check(a, scope));
    if (!this.table.has(name)) throw new CheckError(`undeclared reference to '${name}' (in container '')`, n);
    return this.resolveCall(n, name, argTypes, false);
  }

  private checkMemberCall(n: ASTNode & { op: 'rcall' }, scope: Scope): CelType {
    const [name, recv, args] = n.args;
    // Namespaced global functions: optional.of(x), sets.contains(a, b), format.dns1123Label(), ...
    if (recv.op === 'id' && NAMESPACES.has(recv.args) && !scope.has(recv.args) && !this.vars.has(recv.args)) {
      const full = `${recv.args}.${name}`;
      const argTypes = args.map((a) => this.check(a, scope));
      if (!this.table.has(full)) throw new CheckError(`undeclared reference to '${recv.args}' (in container '')`, recv);
      return this.resolveCall(n, full, argTypes, false);
    }
    if (['all', 'exists', 'exists_one', 'existsOne', 'map', 'filter', 'transformList', 'transformMap', 'transformMapEntry', 'optMap', 'optFlatMap', 'sortBy'].includes(name) && args.length >= 2 && args[0].op === 'id') {
      return this.checkComprehension(n, name, recv, args, scope);
    }
    const rt = this.check(recv, scope);
    const argTypes = args.map((a) => this.check(a, scope));
    if (!this.table.has(name)) throw new CheckError(`undeclared reference to '${name}' (in container '')`, n);
    return this.resolveCall(n, name, [rt, ...argTypes], true);
  }

  private checkComprehension(n: ASTNode, name: string, recv: ASTNode, args: ASTNode[], scope: Scope): CelType {
    const rt = this.resolved(this.check(recv, scope));
    if (name === 'optMap' || name === 'optFlatMap') {
      if (!(rt.kind === 'opaque' && rt.name === 'optional_type') && !isDynOrError(rt)) {
        throw new CheckError(`found no matching overload for '${name}' applied to '${formatCelType(rt)}.(${'dyn'})'`, n);
      }
      const inner = rt.kind === 'opaque' ? rt.params[0] : T.dyn;
      const s = new Map(scope);
      s.set((args[0] as ASTNode & { op: 'id' }).args, inner);
      const bt = this.resolved(this.check(args[1], s));
      return name === 'optMap' ? T.optional(bt) : bt;
    }
    const twoVar = (name === 'all' || name === 'exists' || name === 'existsOne' || name === 'exists_one') ? args.length === 3 : name.startsWith('transform') ? args.length >= 3 && args[1].op === 'id' : false;
    let v1: CelType;
    let v2: CelType | undefined;
    if (rt.kind === 'list') {
      v1 = twoVar ? T.int : rt.elem;
      v2 = twoVar ? rt.elem : undefined;
    } else if (rt.kind === 'map') {
      v1 = rt.key;
      v2 = twoVar ? rt.value : undefined;
    } else if (isDynOrError(rt) || rt.kind === 'param') {
      v1 = T.dyn;
      v2 = twoVar ? T.dyn : undefined;
    } else {
      throw new CheckError(`expression of type '${formatCelType(rt)}' cannot be range of a comprehension (must be list, map, or dynamic)`, recv);
    }
    const s = new Map(scope);
    s.set((args[0] as ASTNode & { op: 'id' }).args, v1);
    let rest = args.slice(1);
    if (twoVar) {
      s.set((args[1] as ASTNode & { op: 'id' }).args, v2!);
      rest = args.slice(2);
    }
    const checkBool = (e: ASTNode) => {
      const t = this.resolved(this.check(e, s));
      if (!isAssignable(this.m, t, T.bool)) {
        throw new CheckError(`found no matching overload for '_&&_' applied to '(bool, ${formatCelType(t)})'`, e);
      }
    };
    switch (name) {
      case 'all':
      case 'exists':
      case 'exists_one':
      case 'existsOne':
        checkBool(rest[0]);
        return T.bool;
      case 'filter':
        checkBool(rest[0]);
        return rt.kind === 'map' ? T.list(rt.key) : rt.kind === 'list' ? rt : T.list(T.dyn);
      case 'map': {
        if (rest.length === 2) checkBool(rest[0]);
        return T.list(this.resolved(this.check(rest[rest.length - 1], s)));
      }
      case 'sortBy': {
        this.check(rest[0], s);
        return rt.kind === 'list' ? rt : T.list(T.dyn);
      }
      case 'transformList': {
        if (rest.length === 2) checkBool(rest[0]);
        return T.list(this.resolved(this.check(rest[rest.length - 1], s)));
      }
      case 'transformMap': {
        if (rest.length === 2) checkBool(rest[0]);
        return T.map(rt.kind === 'list' ? T.int : rt.kind === 'map' ? rt.key : T.dyn, this.resolved(this.check(rest[rest.length - 1], s)));
      }
      case 'transformMapEntry': {
        if (rest.length === 2) checkBool(rest[0]);
        const et = this.resolved(this.check(rest[rest.length - 1], s));
        return et.kind === 'map' ? et : T.map(T.dyn, T.dyn);
      }
    }
    return T.dyn;
  }

  private resolveCall(n: ASTNode, name: string, argTypes: CelType[], member: boolean): CelType {
    const overloads = (this.table.get(name) ?? []).filter((o) => o.member === member && o.params.length === argTypes.length);
    let result: CelType | undefined;
    let matched: Mapping | undefined;
    for (const o of overloads) {
      // Cheap kind pre-check before copying the mapping and freshening type parameters.
      let possible = true;
      for (let i = 0; i < argTypes.length && possible; i++) {
        const p = o.params[i];
        const a = argTypes[i];
        if (p.kind !== 'param' && a.kind !== 'param' && a.kind !== p.kind && !isDynOrError(a) && a.kind !== 'null_type') possible = false;
      }
      if (!possible) continue;
      const f = freshen(o);
      const m: Mapping = new Map(this.m);
      if (!f.params.every((p, i) => isAssignable(m, argTypes[i], p))) continue;
      const rt = substitute(m, f.result, false);
      if (result === undefined) {
        result = rt;
        matched = m;
      } else if (!typeEquals(result, rt)) {
        result = T.dyn;
      }
    }
    if (result === undefined || !matched) {
      const shown = argTypes.map((t) => formatCelType(substitute(this.m, t, true)));
      const sig = member ? `${shown[0]}.(${shown.slice(1).join(', ')})` : `(${shown.join(', ')})`;
      throw new CheckError(`found no matching overload for '${name}' applied to '${sig}'`, n);
    }
    this.m = matched;
    return result;
  }

  typeOf(n: ASTNode): CelType | undefined {
    const t = this.types.get(n);
    return t ? substitute(this.m, t, true) : undefined;
  }
}

/** Type names usable as values (`type(x) == int`). */
const TYPE_IDENTS: Record<string, CelType> = {
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
  dyn: T.dyn,
  optional_type: T.optional(T.dyn),
  'google.protobuf.Duration': T.duration,
  'google.protobuf.Timestamp': T.timestamp,
  'net.IP': T.opaque('net.IP'),
  'net.CIDR': T.opaque('net.CIDR'),
  'kubernetes.Quantity': T.opaque('kubernetes.Quantity'),
  'kubernetes.URL': T.opaque('kubernetes.URL'),
  'kubernetes.Semver': T.opaque('kubernetes.Semver'),
};

function escapeKeyword(name: string): string | undefined {
  return /^(true|false|null|in|as|break|const|continue|else|for|function|if|import|let|loop|package|namespace|return|var|void|while)$/.test(name) ? `__${name}__` : undefined;
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
    default:
      if (v === null) return T.null;
      if (v instanceof Uint8Array) return T.bytes;
      return T.uint;
  }
}

/** cel-go's validators: duration/timestamp/regex literals, homogeneous aggregate literals; regex constants of find/findAll. */
function validateLiterals(ast: ASTNode, c: Checker, issues: CheckIssue[], programErrors: string[]): void {
  const report = (n: ASTNode, message: string) => issues.push({ message, offset: celGoOffset(n), range: { start: n.range.start, end: n.range.end } });
  const walk = (n: ASTNode, inFormat: boolean) => {
    if (!n || typeof n !== 'object' || !('op' in n)) return;
    if (n.op === 'call' || n.op === 'rcall') {
      const name = n.args[0];
      const args = n.op === 'call' ? n.args[1] : n.args[2];
      const lit = args[0];
      if (n.op === 'call' && lit && lit.op === 'value' && typeof lit.args === 'string') {
        if (name === 'duration' && !validDuration(lit.args)) report(lit, 'invalid duration argument');
        if (name === 'timestamp' && !validTimestamp(lit.args)) report(lit, 'invalid timestamp argument');
      }
      const intLit = lit && lit.op === 'value' && typeof lit.args === 'bigint' ? lit.args : lit && lit.op === '-_' && lit.args.op === 'value' && typeof lit.args.args === 'bigint' ? -lit.args.args : undefined;
      if (n.op === 'call' && intLit !== undefined && name === 'timestamp') {
        if (intLit < -62135596800n || intLit > 253402300799n) report(lit, 'invalid timestamp argument');
      }
      const pat = n.op === 'call' ? args[1] : args[0];
      if (name === 'matches' && pat && pat.op === 'value' && typeof pat.args === 'string') {
        const r = compileRE2(pat.args);
        if (!r.ok) report(pat, 'invalid matches argument');
      }
      if (n.op === 'rcall' && (name === 'find' || name === 'findAll') && pat && pat.op === 'value' && typeof pat.args === 'string') {
        const r = compileRE2(pat.args);
        if (!r.ok) programErrors.push(r.error);
      }
    }
    const fmt = inFormat || (n.op === 'rcall' && n.args[0] === 'format');
    if (!fmt && n.op === 'list') {
      let first: CelType | undefined;
      for (const e of n.args) {
        const t = c.typeOf(e);
        if (!t) continue;
        if (first === undefined) first = t;
        else if (!typeEquals(first, t)) {
          report(e, `expected type '${formatCelType(first)}' but found '${formatCelType(t)}'`);
          break;
        }
      }
    }
    if (!fmt && n.op === 'map') {
      let kt: CelType | undefined;
      let vt: CelType | undefined;
      for (const [k, v] of n.args) {
        const a = c.typeOf(k);
        const b = c.typeOf(v);
        if (!a || !b) continue;
        if (kt === undefined || vt === undefined) {
          kt = a;
          vt = b;
          continue;
        }
        if (!typeEquals(kt, a)) report(k, `expected type '${formatCelType(kt)}' but found '${formatCelType(a)}'`);
        if (!typeEquals(vt, b)) report(v, `expected type '${formatCelType(vt)}' but found '${formatCelType(b)}'`);
      }
    }
    for (const child of children(n)) walk(child, fmt);
  };
  walk(ast, false);
}

/** Direct sub-expressions of a node. */
export function children(n: ASTNode): ASTNode[] {
  const a = n.args as unknown;
  switch (n.op) {
    case 'value':
    case 'id':
      return [];
    case '.':
    case '.?':
      return [(a as [ASTNode])[0]];
    case 'call':
      return (a as [string, ASTNode[]])[1];
    case 'rcall':
      return [(a as [string, ASTNode, ASTNode[]])[1], ...(a as [string, ASTNode, ASTNode[]])[2]];
    case 'map':
      return (a as [ASTNode, ASTNode][]).flat();
    case '!_':
    case '-_':
      return [a as ASTNode];
    default:
      return Array.isArray(a) ? (a as ASTNode[]).filter((x) => x && typeof x === 'object' && 'op' in x) : [];
  }
}

const DURATION_RE = /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$|^[-+]?0$/;
function validDuration(s: string): boolean {
  if (!DURATION_RE.test(s)) return false;
  return true;
}

const TS_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
function validTimestamp(s: string): boolean {
  const m = TS_RE.exec(s);
  if (!m) return false;
  const [y, mo, d, h, mi, se] = m.slice(1, 7).map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 59) return false;
  const days = new Date(Date.UTC(2000, mo, 0)).getUTCDate();
  if (d > days && !(mo === 2 && d === 29 && (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)))) return false;
  if (mo === 2 && d === 29 && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0))) return false;
  return y >= 1;
}
