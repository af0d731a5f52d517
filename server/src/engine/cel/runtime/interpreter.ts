/**
 * The CEL interpreter as cel-go plans and runs a checked AST (interpreter/planner.go,
 * interpretable.go, attributes.go) with the API server's program options: OptOptimize (constant
 * lists, maps and conversions folded at planning, `x in [constants]` as a set lookup) and
 * OptTrackCost with PresenceTestHasCost(false).
 *
 * The cost is charged to the tracker (tracker.ts) as cel-go's interpreter charges it: 1 for each
 * evaluated attribute and each applied qualifier (`self.a.b` is one attribute with two qualifiers),
 * 0 for constants, logical operators, conditionals and comprehensions themselves, the call cost of
 * each call whose arguments were all evaluated, 10 / 30 for building a list / map.
 *
 * Errors are values (cel-go's *types.Err): `&&`, `||`, the conditional and comprehension loop
 * conditions absorb them as cel-go does; library code throws CelThrow, turned into an error value at
 * the call.
 */
import type { CheckedAst, Reference } from '../checker/checker';
import type { ResolvedOverload } from '../library';
import { ACCUMULATOR, type ComprehensionExpr, type Expr } from '../syntax/ast';
import { compileRE2 } from '../../regex/re2';
import { escapeName, type CelType } from '../common/types';
import { formatDouble } from './convert';
import { celEqualsOrError, mapLookup } from './equality';
import { DeadlineExceeded, work } from './guard';
import { actualSize } from './size';
import { CostLimitExceeded, Tracker, charge, tracking } from './tracker';
import { CelError, CelThrow, Duration, K8S_OBJECT, MUTABLE_MAP, MutableList, Optional, Timestamp, TypeValue, isList, isOpaque, listGet, listItems, listSize, type Val } from './values';
import { Uint } from '../common/types';

interface Frame {
  vars: Record<string, Val>;
  slots: Val[];
}

const UNINITIALIZED = Symbol('uninitialized accumulator');

function isError(v: Val): v is CelError {
  return typeof v === 'object' && v instanceof CelError;
}

/** Go's %v of a qualifier value (in "no such key: %v"). */
function goValue(v: Val): string {
  if (typeof v === 'number') return formatDouble(v);
  if (v instanceof Uint) return v.value.toString();
  return String(v);
}

// ---------------------------------------------------------------------------------------------
// Interpretables

abstract class Interp {
  abstract exec(f: Frame): Val;
}

class Const extends Interp {
  constructor(readonly value: Val) {
    super();
  }
  exec(): Val {
    return this.value;
  }
}

/** The result of a presence-testing qualification that found nothing. */
const ABSENT = Symbol('absent');

/**
 * Go's refQualify: one step of field selection or indexing on a runtime value. Returns the value, a
 * CelError, or (with presenceTest) ABSENT when the key or index is not there.
 */
function refQualify(obj: Val, key: Val, presenceTest: boolean): Val {
  if (obj instanceof CelError) return obj;
  if (obj instanceof Map) {
    let v = obj.get(key);
    if (v === undefined && !obj.has(key)) {
      const r = mapLookup(obj, key);
      if (r.found) v = r.value;
      else if (typeof key === 'string' && (obj as unknown as Record<symbol, unknown>)[K8S_OBJECT]) {
        // A schema object's fields are keyed by escaped name; `self.namespace` finds `__namespace__`.
        const esc = escapeName(key);
        if (esc !== undefined && esc !== key && obj.has(esc)) v = obj.get(esc);
        else return presenceTest ? ABSENT : new CelError(`no such key: ${goValue(key)}`);
      } else return presenceTest ? ABSENT : new CelError(`no such key: ${goValue(key)}`);
    }
    return v;
  }
  if (isList(obj)) {
    let i: number;
    if (typeof key === 'bigint') i = Number(key);
    else if (typeof key === 'number' && Number.isInteger(key)) i = key;
    else if (key instanceof Uint) i = Number(key.value);
    else if (typeof key === 'number') return new CelError(`unsupported index value ${goValue(key)} in list`);
    else return new CelError(`unsupported index type '${typeNameForIndex(key)}' in list`);
    if (i >= 0 && i < listSize(obj)) return listGet(obj, i);
    return presenceTest ? ABSENT : new CelError(`index out of bounds: ${goValue(key)}`);
  }
  return presenceTest ? ABSENT : new CelError(`no such key: ${goValue(key)}`);
}

function typeNameForIndex(v: Val): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (v === null) return 'null_type';
  if (v instanceof Timestamp) return 'google.protobuf.Timestamp';
  if (v instanceof Duration) return 'google.protobuf.Duration';
  if (isList(v)) return 'list';
  if (v instanceof Map) return 'map';
  return 'unknown';
}

abstract class Qualifier {
  constructor(readonly optional: boolean) {}
  /** Qualify (presence not tested): the value or a CelError; charged as a watched qualifier. */
  abstract qualify(f: Frame, obj: Val): Val;
  /** QualifyIfPresent: the value, a CelError or ABSENT; charged when present (or presence only). */
  abstract qualifyIfPresent(f: Frame, obj: Val, presenceOnly: boolean): Val;
}

class ConstQualifier extends Qualifier {
  constructor(
    readonly key: Val,
    optional: boolean,
    readonly testOnly = false,
  ) {
    super(optional);
  }
  qualify(_f: Frame, obj: Val): Val {
    if (this.testOnly) {
      const r = refQualify(obj, this.key, true);
      charge(1);
      return r instanceof CelError ? r : r !== ABSENT;
    }
    const r = refQualify(obj, this.key, false);
    charge(1);
    return r;
  }
  qualifyIfPresent(_f: Frame, obj: Val, presenceOnly: boolean): Val {
    const r = refQualify(obj, this.key, true);
    if ((r !== ABSENT && !(r instanceof CelError)) || presenceOnly) charge(1);
    return r;
  }
}

/** An index computed at run time (a variable, or any expression): the attribute resolves to the key. */
class AttrQualifier extends Qualifier {
  constructor(
    readonly attr: Attribute,
    optional: boolean,
  ) {
    super(optional);
  }
  private key(f: Frame): Val {
    const k = this.attr.resolve(f);
    if (k instanceof CelError) return k;
    if (!(typeof k === 'string' || typeof k === 'bigint' || typeof k === 'number' || typeof k === 'boolean' || k instanceof Uint)) {
      return new CelError(`invalid qualifier type: ${goType(k)}`);
    }
    return k;
  }
  qualify(f: Frame, obj: Val): Val {
    const k = this.key(f);
    const r = k instanceof CelError ? k : refQualify(obj, k, false);
    charge(1);
    return r;
  }
  qualifyIfPresent(f: Frame, obj: Val, presenceOnly: boolean): Val {
    const k = this.key(f);
    const r = k instanceof CelError ? k : refQualify(obj, k, true);
    if ((r !== ABSENT && !(r instanceof CelError)) || presenceOnly) charge(1);
    return r;
  }
}

/** Go's %T of a value, in errors that print it. */
function goType(v: Val): string {
  if (isList(v)) return 'types.baseList';
  if (v instanceof Map) return 'types.baseMap';
  if (v === null) return 'types.Null';
  if (v instanceof Timestamp) return 'types.Timestamp';
  if (v instanceof Duration) return 'types.Duration';
  if (v instanceof Uint8Array) return 'types.Bytes';
  if (v instanceof Uint) return 'types.Uint';
  switch (typeof v) {
    case 'bigint':
      return 'types.Int';
    case 'number':
      return 'types.Double';
    case 'string':
      return 'types.String';
    case 'boolean':
      return 'types.Bool';
  }
  return isOpaque(v) ? v.celTypeName : 'unknown';
}

/** Applies qualifiers (applyQualifiers): optional qualifiers make the rest optional. */
function applyQualifiers(f: Frame, obj: Val, quals: Qualifier[]): Val {
  let isOpt = false;
  if (obj instanceof Optional) {
    if (!obj.present) return obj;
    obj = obj.value;
    isOpt = true;
  }
  for (let i = 0; i < quals.length; i++) {
    const q = quals[i];
    isOpt = isOpt || q.optional;
    if (isOpt) {
      const r = q.qualifyIfPresent(f, obj, false);
      if (r instanceof CelError) return r;
      if (r === ABSENT) return Optional.none();
      obj = r;
    } else {
      obj = q.qualify(f, obj);
      if (obj instanceof CelError) return obj;
    }
  }
  return isOpt ? Optional.of(obj) : obj;
}

abstract class Attribute {
  readonly quals: Qualifier[] = [];
  addQualifier(q: Qualifier): void {
    this.quals.push(q);
  }
  abstract resolve(f: Frame): Val;
}

class VariableAttr extends Attribute {
  constructor(readonly name: string) {
    super();
  }
  resolve(f: Frame): Val {
    if (!Object.hasOwn(f.vars, this.name)) return new CelError(`no such attribute(s): ${this.name}`);
    const v = f.vars[this.name];
    if (isError(v)) return v;
    return applyQualifiers(f, v, this.quals);
  }
}

class LocalAttr extends Attribute {
  constructor(
    readonly slot: number,
    readonly fold?: FoldInterp,
  ) {
    super();
  }
  resolve(f: Frame): Val {
    let v = f.slots[this.slot];
    if (v === UNINITIALIZED) v = this.fold!.initAccumulator(f);
    if (isError(v)) return v;
    return applyQualifiers(f, v, this.quals);
  }
}

class RelativeAttr extends Attribute {
  constructor(readonly operand: Interp) {
    super();
  }
  resolve(f: Frame): Val {
    const v = this.operand.exec(f);
    if (isError(v)) return v;
    return applyQualifiers(f, v, this.quals);
  }
}

class ConditionalAttr extends Attribute {
  constructor(
    readonly cond: Interp,
    readonly truthy: Attribute,
    readonly falsy: Attribute,
  ) {
    super();
  }
  override addQualifier(q: Qualifier): void {
    this.truthy.addQualifier(q);
    this.falsy.addQualifier(q);
  }
  resolve(f: Frame): Val {
    const c = this.cond.exec(f);
    if (c === true) return this.truthy.resolve(f);
    if (c === false) return this.falsy.resolve(f);
    return isError(c) ? c : new CelError('no such overload');
  }
}

/** An attribute as an interpretable (evalAttr under evalWatchAttr): 1 per evaluation, 0 for conditionals. */
class AttrInterp extends Interp {
  private readonly cost: number;
  constructor(readonly attr: Attribute) {
    super();
    this.cost = attr instanceof ConditionalAttr ? 0 : 1;
  }
  exec(f: Frame): Val {
    const v = this.attr.resolve(f);
    if (this.cost) charge(1);
    return v;
  }
}

/** has(): a presence test; with PresenceTestHasCost(false) the attribute itself costs nothing. */
class TestOnlyInterp extends Interp {
  constructor(readonly attr: Attribute) {
    super();
  }
  exec(f: Frame): Val {
    const v = this.attr.resolve(f);
    if (v instanceof Optional) return v.present;
    return v;
  }
}

class AndInterp extends Interp {
  constructor(readonly terms: Interp[]) {
    super();
  }
  exec(f: Frame): Val {
    let err: Val;
    for (const t of this.terms) {
      const v = t.exec(f);
      if (v === false) return false;
      if (v !== true && err === undefined) err = isError(v) ? v : new CelError('no such overload');
    }
    return err ?? true;
  }
}

class OrInterp extends Interp {
  constructor(readonly terms: Interp[]) {
    super();
  }
  exec(f: Frame): Val {
    let err: Val;
    for (const t of this.terms) {
      const v = t.exec(f);
      if (v === true) return true;
      if (v !== false && err === undefined) err = isError(v) ? v : new CelError('no such overload');
    }
    return err ?? false;
  }
}

function runtimeCost(o: ResolvedOverload | undefined, id: string, args: Val[], result: Val): number {
  const c = o?.cost?.(id, args, result);
  return c === undefined ? 1 : c;
}

class EqInterp extends Interp {
  constructor(
    readonly lhs: Interp,
    readonly rhs: Interp,
    readonly negate: boolean,
    readonly overload: ResolvedOverload | undefined,
  ) {
    super();
  }
  exec(f: Frame): Val {
    const l = this.lhs.exec(f);
    const r = this.rhs.exec(f);
    let out: Val;
    if (isError(l)) out = l;
    else if (isError(r)) out = r;
    else {
      const e = celEqualsOrError(l, r);
      out = isError(e) ? e : this.negate ? !e : e;
    }
    charge(runtimeCost(this.overload, this.negate ? 'not_equals' : 'equals', [l, r], out));
    return out;
  }
}

/** Whether a static type is or holds dyn (its values' runtime types are not known from it). */
function hasDyn(t: CelType | undefined): boolean {
  if (!t) return true;
  switch (t.kind) {
    case 'dyn':
    case 'error':
      return true;
    case 'list':
      return hasDyn(t.elem);
    case 'map':
      return hasDyn(t.key) || hasDyn(t.value);
    case 'opaque':
      return t.params.some(hasDyn);
    default:
      return false;
  }
}

/** Runtime type test of an overload parameter (cel-go's function-level dispatch). */
function matchesParam(t: CelType, v: Val): boolean {
  switch (t.kind) {
    case 'dyn':
    case 'param':
      return true;
    case 'int':
      return typeof v === 'bigint';
    case 'uint':
      return v instanceof Uint;
    case 'double':
      return typeof v === 'number';
    case 'bool':
      return typeof v === 'boolean';
    case 'string':
      return typeof v === 'string';
    case 'bytes':
      return v instanceof Uint8Array;
    case 'null_type':
      return v === null;
    case 'timestamp':
      return v instanceof Timestamp;
    case 'duration':
      return v instanceof Duration;
    case 'list': {
      // cel-go's Type.IsAssignableRuntimeType: the kind, then the first element only.
      if (!isList(v)) return false;
      const items = listItems(v);
      return items.length === 0 || matchesParam(t.elem, items[0]);
    }
    case 'map': {
      if (!(v instanceof Map)) return false;
      const first = v.entries().next();
      return first.done === true || (matchesParam(t.key, first.value[0]) && matchesParam(t.value, first.value[1]));
    }
    case 'object':
      return v instanceof Map;
    case 'type':
      return v instanceof TypeValue;
    case 'opaque':
      if (t.name === 'optional_type') return v instanceof Optional;
      return isOpaque(v) && v.celTypeName === t.name;
    default:
      return false;
  }
}

/** A function call (evalUnary / evalBinary / evalVarArgs / evalZeroArity). */
class CallInterp extends Interp {
  constructor(
    readonly fn: string,
    readonly args: Interp[],
    /** The overload the checker resolved, or undefined: dispatch on the runtime values among `candidates`. */
    readonly overload: ResolvedOverload | undefined,
    readonly candidates: ResolvedOverload[],
    /**
     * An argument is statically dyn: the resolved overload's parameter types are checked on the values
     * first (cel-go's type guards on overload bindings), "no such overload" when they do not match.
     */
    readonly guard = false,
  ) {
    super();
  }
  exec(f: Frame): Val {
    const n = this.args.length;
    const vals: Val[] = new Array(n);
    const strict = !this.overload?.nonStrict;
    // evalUnary/evalBinary evaluate every argument; evalVarArgs stops at the first error.
    const evalAll = n <= 2;
    let stopped = -1;
    for (let i = 0; i < n; i++) {
      vals[i] = this.args[i].exec(f);
      if (strict && !evalAll && isError(vals[i])) {
        stopped = i;
        break;
      }
    }
    let out: Val;
    let o = this.overload;
    let charged = false;
    if (stopped >= 0) out = vals[stopped];
    else if (strict && vals.some(isError)) out = vals.find(isError);
    else {
      if (!o) o = this.candidates.find((c) => c.params.length === n && c.params.every((p, i) => matchesParam(p, vals[i])));
      if (!o?.impl) out = new CelError(`no such overload: ${this.fn}`);
      else if (this.guard && !o.params.every((p, i) => matchesParam(p, vals[i]))) out = new CelError('no such overload');
      else {
        // A cost known from the arguments is charged before the call's work: one that cannot fit stops it
        // (the same error after it), and work the safety net interrupts was paid for (the same total after it).
        if (o.costFromArgs) {
          charged = true;
          charge(runtimeCost(o, this.overload ? this.overload.id : '', vals, undefined));
        }
        try {
          out = o.impl(...vals);
        } catch (e) {
          if (e instanceof CelThrow) out = new CelError(e.message);
          else if (e instanceof RangeError && /call stack|Invalid array length|Invalid string length/.test(e.message)) out = new CelError(e.message);
          else throw e;
        }
      }
    }
    // The call is charged only when every argument was evaluated (its values are on the cost stack).
    // With several overloads cel-go plans the call without an overload id (costs keyed by id do not apply).
    if (stopped < 0 && !charged) charge(runtimeCost(o ?? this.candidates[0], this.overload ? this.overload.id : '', vals, out));
    return out;
  }
}

class ListInterp extends Interp {
  constructor(
    readonly elems: Interp[],
    readonly optional: Set<number>,
  ) {
    super();
  }
  exec(f: Frame): Val {
    const out: Val[] = [];
    let res: Val = out;
    for (let i = 0; i < this.elems.length; i++) {
      let v = this.elems[i].exec(f);
      if (isError(v)) {
        res = v;
        break;
      }
      if (this.optional.has(i)) {
        if (!(v instanceof Optional)) {
          res = new CelError(`cannot initialize optional list element from non-optional value ${goValue(v)}`);
          break;
        }
        if (!v.present) continue;
        v = v.value;
      }
      out.push(v);
    }
    charge(10);
    return res;
  }
}

class MapInterp extends Interp {
  constructor(readonly entries: Array<{ key: Interp; value: Interp; optional: boolean }>) {
    super();
  }
  exec(f: Frame): Val {
    const out = new Map<Val, Val>();
    let res: Val = out;
    for (const e of this.entries) {
      const k = e.key.exec(f);
      if (isError(k)) {
        res = k;
        break;
      }
      let v = e.value.exec(f);
      if (isError(v)) {
        res = v;
        break;
      }
      if (e.optional) {
        if (!(v instanceof Optional)) {
          res = new CelError(`cannot initialize optional entry '${goValue(k)}' from non-optional value ${goValue(v)}`);
          break;
        }
        if (!v.present) {
          out.delete(k);
          continue;
        }
        v = v.value;
      }
      out.set(k instanceof Uint ? k : k, v);
    }
    charge(30);
    return res;
  }
}

/** optional.or / orValue: short-circuiting, not a call (cel-go's evalOptionalOr / evalOptionalOrValue). */
class OptionalOrInterp extends Interp {
  constructor(
    readonly lhs: Interp,
    readonly rhs: Interp,
    readonly orValue: boolean,
  ) {
    super();
  }
  exec(f: Frame): Val {
    const l = this.lhs.exec(f);
    if (isError(l)) return l;
    if (!(l instanceof Optional)) return new CelError('no such overload');
    if (l.present) return this.orValue ? l.value : l;
    return this.rhs.exec(f);
  }
}

/** `x in [constants]` (OptOptimize): a set lookup, costing nothing itself. */
class SetMembershipInterp extends Interp {
  constructor(
    readonly arg: Interp,
    readonly values: Val[],
  ) {
    super();
  }
  exec(f: Frame): Val {
    const v = this.arg.exec(f);
    if (isError(v)) return v;
    for (const x of this.values) {
      if (x === v) return true;
      if (typeof x === 'bigint' || typeof x === 'number' || x instanceof Uint) {
        if ((typeof v === 'bigint' || typeof v === 'number' || v instanceof Uint) && celEqualsOrError(x, v) === true) return true;
      }
    }
    return false;
  }
}

class FoldInterp extends Interp {
  constructor(
    readonly iterRange: Interp,
    readonly accuSlot: number,
    readonly accuInit: Interp,
    readonly iterSlot: number,
    readonly iter2Slot: number | undefined,
    public cond: Interp = new Const(true),
    public step: Interp = new Const(null),
    public result: Interp = new Const(null),
  ) {
    super();
  }
  initAccumulator(f: Frame): Val {
    let v = this.accuInit.exec(f);
    if (isList(v) && listSize(v) === 0) v = new MutableList();
    else if (v instanceof Map && v.size === 0) {
      const m = new Map<Val, Val>();
      (m as unknown as Record<symbol, boolean>)[MUTABLE_MAP] = true;
      v = m;
    }
    f.slots[this.accuSlot] = v;
    return v;
  }
  exec(f: Frame): Val {
    const r = this.iterRange.exec(f);
    if (isError(r)) return r;
    const slots = f.slots;
    const saved = [slots[this.accuSlot], slots[this.iterSlot], this.iter2Slot === undefined ? undefined : slots[this.iter2Slot]];
    slots[this.accuSlot] = UNINITIALIZED;
    try {
      const step = (k: Val, v?: Val): boolean => {
        slots[this.iterSlot] = k;
        if (this.iter2Slot !== undefined) slots[this.iter2Slot] = v;
        const c = this.cond.exec(f);
        if (c === false) return false;
        slots[this.accuSlot] = this.step.exec(f);
        work(4);
        return true;
      };
      if (this.iter2Slot !== undefined) {
        if (isList(r)) {
          const items = listItems(r);
          for (let i = 0; i < items.length; i++) if (!step(BigInt(i), items[i])) break;
        } else if (r instanceof Map) {
          for (const [k, v] of r) if (!step(k, v)) break;
        } else return new CelError(`unsupported comprehension range type: ${goType(r)}`);
      } else if (isList(r)) {
        const items = listItems(r);
        for (let i = 0; i < items.length; i++) if (!step(items[i])) break;
      } else if (r instanceof Map) {
        for (const k of r.keys()) if (!step(k)) break;
      } else return new CelError(`got '${goType(r)}', expected iterable type`);
      let out = this.result.exec(f);
      if (out instanceof MutableList) out = out.items;
      else if (out instanceof Map && (out as unknown as Record<symbol, boolean>)[MUTABLE_MAP]) delete (out as unknown as Record<symbol, boolean>)[MUTABLE_MAP];
      return out;
    } finally {
      slots[this.accuSlot] = saved[0];
      slots[this.iterSlot] = saved[1];
      if (this.iter2Slot !== undefined) slots[this.iter2Slot] = saved[2];
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Planning

const TYPE_CONVERSIONS = new Set(['bool', 'bytes', 'double', 'duration', 'dyn', 'int', 'string', 'timestamp', 'type', 'uint']);

/** A planned program: run it with an activation and a cost limit. */
export interface Program {
  /** Errors cel-go reports at program creation ("program instantiation failed: ..."). */
  errors: string[];
  run(vars: Record<string, Val>, costLimit: number): Evaluation;
}

/**
 * An evaluation's value or error, the cost it spent (cel-go ActualCost) and, from evaluate(), the work
 * it did (interpreter steps plus elements and characters processed by library code).
 */
export type Evaluation = ({ value: Val } | { error: string; kind: 'runtime' | 'limit' | 'timeout' }) & { cost: number; work?: number };

class Planner {
  private slotCount = 0;
  private readonly scopes: Array<Map<string, { slot: number; fold?: FoldInterp }>> = [];
  readonly errors: string[] = [];

  constructor(private readonly ast: CheckedAst) {}

  get slots(): number {
    return this.slotCount;
  }

  private ref(e: Expr): Reference | undefined {
    return this.ast.references.get(e.id);
  }

  private local(name: string): { slot: number; fold?: FoldInterp } | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const s = this.scopes[i].get(name);
      if (s) return s;
    }
    return undefined;
  }

  plan(e: Expr): Interp {
    switch (e.kind) {
      case 'literal':
        return new Const(e.value);
      case 'ident': {
        const l = this.local(e.name);
        if (l) return new AttrInterp(new LocalAttr(l.slot, l.fold));
        const r = this.ref(e);
        if (r?.kind === 'type') return new Const(typeValueOf(r.type));
        return new AttrInterp(new VariableAttr(e.name));
      }
      case 'select': {
        const r = this.ref(e);
        if (r?.kind === 'type') return new Const(typeValueOf(r.type));
        if (r?.kind === 'variable') return new AttrInterp(new VariableAttr(r.name));
        const op = this.plan(e.operand);
        const attr = this.attributeOf(op);
        attr.addQualifier(new ConstQualifier(e.field, false, e.testOnly));
        if (e.testOnly) return new TestOnlyInterp(attr);
        return op instanceof AttrInterp ? op : new AttrInterp(attr);
      }
      case 'call':
        return this.planCall(e);
      case 'list': {
        const elems = e.elems.map((x) => this.plan(x));
        const opt = new Set(e.optionalIndices);
        const li = new ListInterp(elems, opt);
        if (elems.every((x) => x instanceof Const)) return this.fold(li);
        return li;
      }
      case 'map': {
        const entries = e.entries.map((x) => ({ key: this.plan(x.key), value: this.plan(x.value), optional: x.optional }));
        const mi = new MapInterp(entries);
        if (entries.every((x) => x.key instanceof Const && x.value instanceof Const)) return this.fold(mi);
        return mi;
      }
      case 'comprehension':
        return this.planFold(e);
    }
  }

  /** Evaluates an interpretable of constants at planning time (OptOptimize). */
  private fold(i: Interp): Const {
    return tracking(new Tracker(Infinity), () => new Const(i.exec({ vars: {}, slots: [] })));
  }

  /** The attribute of an operand, or a relative attribute over it. */
  private attributeOf(op: Interp): Attribute {
    if (op instanceof AttrInterp) return op.attr;
    if (op instanceof TestOnlyInterp) return new RelativeAttr(op);
    return new RelativeAttr(op);
  }

  private qualifierFor(ind: Interp, optional: boolean): Qualifier {
    if (ind instanceof Const) {
      // cel-go's newQualifier takes constants of the key kinds only; others fail the program.
      const v = ind.value;
      if (!(typeof v === 'string' || typeof v === 'bigint' || typeof v === 'number' || typeof v === 'boolean' || v instanceof Uint)) this.errors.push(`invalid qualifier type: ${goConstTypeName(v)}`);
      return new ConstQualifier(v, optional);
    }
    if (ind instanceof AttrInterp) return new AttrQualifier(ind.attr, optional);
    return new AttrQualifier(new RelativeAttr(ind), optional);
  }

  private planCall(e: Expr & { kind: 'call' }): Interp {
    const r = this.ref(e);
    const ref = r?.kind === 'call' ? r : undefined;
    const fn = ref?.fn ?? e.fn;
    const member = ref ? ref.member : !!e.target;
    const argExprs = member && e.target ? [e.target, ...e.args] : e.args;
    const args = argExprs.map((a) => this.plan(a));
    const single = ref && ref.overloads.length === 1 ? ref.overloads[0] : undefined;
    switch (fn) {
      case '_&&_':
        return new AndInterp(args);
      case '_||_':
        return new OrInterp(args);
      case '_?_:_': {
        const [c, t, f] = args;
        const ta = t instanceof AttrInterp ? t.attr : new RelativeAttr(t);
        const fa = f instanceof AttrInterp ? f.attr : new RelativeAttr(f);
        return new AttrInterp(new ConditionalAttr(c, ta, fa));
      }
      case '_==_':
      case '_!=_':
        return new EqInterp(args[0], args[1], fn === '_!=_', single ?? ref?.overloads[0]);
      case '_[_]':
      case '_[?_]':
      case '_?._': {
        const [op, ind] = args;
        const attr = this.attributeOf(op);
        attr.addQualifier(this.qualifierFor(ind, fn !== '_[_]'));
        return op instanceof AttrInterp ? op : new AttrInterp(attr);
      }
    }
    if ((fn === 'or' || fn === 'orValue') && args.length === 2) {
      const id = fn === 'or' ? 'optional_or_optional' : 'optional_orValue_value';
      if (ref?.overloads.length !== 1 || ref.overloads[0].id === id) return new OptionalOrInterp(args[0], args[1], fn === 'orValue');
    }
    const candidates = this.ast.decls.functions.get(fn)?.overloads.filter((o) => o.member === member) ?? [];
    const guard = single !== undefined && single.typeGuards !== false && argExprs.some((a) => hasDyn(this.ast.types.get(a.id)));
    const call = new CallInterp(fn, args, single, candidates, guard);
    if (fn === '@in' && single?.id === 'in_list' && args[1] instanceof Const && isList(args[1].value)) {
      const values = listItems(args[1].value);
      if (values.length === 0) return new Const(false);
      if (values.every((v) => typeof v === 'bigint' || typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean' || v instanceof Uint)) {
        return new SetMembershipInterp(args[0], [...values]);
      }
    }
    if (TYPE_CONVERSIONS.has(fn) && args.length === 1 && args[0] instanceof Const) {
      const c = this.fold(call);
      if (isError(c.value)) this.errors.push(c.value.message);
      return c;
    }
    // The regex optimizations (matches; find and findAll of the Kubernetes library) compile a constant
    // pattern, literal or folded (`dyn('(')`), when the program is created.
    if ((fn === 'matches' || fn === 'find' || fn === 'findAll') && args[1] instanceof Const && typeof args[1].value === 'string') {
      const r = compileRE2(args[1].value);
      if (!r.ok) this.errors.push(r.error);
    }
    return call;
  }

  private planFold(e: ComprehensionExpr): Interp {
    const iterRange = this.plan(e.iterRange);
    const accuSlot = this.slotCount++;
    const accuInit = this.plan(e.accuInit);
    const iterSlot = this.slotCount++;
    const iter2Slot = e.iterVar2 !== undefined ? this.slotCount++ : undefined;
    const fold = new FoldInterp(iterRange, accuSlot, accuInit, iterSlot, iter2Slot);
    this.scopes.push(new Map([[e.accuVar, { slot: accuSlot, fold }]]));
    const loop = new Map<string, { slot: number }>([[e.iterVar, { slot: iterSlot }]]);
    if (e.iterVar2 !== undefined) loop.set(e.iterVar2, { slot: iter2Slot! });
    this.scopes.push(loop);
    fold.cond = this.plan(e.loopCondition);
    fold.step = this.plan(e.loopStep);
    this.scopes.pop();
    fold.result = this.plan(e.result);
    this.scopes.pop();
    void ACCUMULATOR;
    return fold;
  }
}

/** Go's %T of a constant cel-go cannot index with (newQualifier's error). */
function goConstTypeName(v: Val): string {
  if (v === null) return 'types.Null';
  if (v instanceof Uint8Array) return 'types.Bytes';
  if (v instanceof Timestamp) return 'types.Timestamp';
  if (v instanceof Duration) return 'types.Duration';
  if (v instanceof TypeValue) return '*types.Type';
  if (v instanceof Optional) return '*types.Optional';
  if (isList(v)) return '*types.baseList';
  if (v instanceof Map) return '*types.baseMap';
  return `${typeof v}`;
}

function typeValueOf(t: CelType): TypeValue {
  const inner = t.kind === 'type' && t.param ? t.param : t;
  switch (inner.kind) {
    case 'list':
      return TypeValue.of('list');
    case 'map':
      return TypeValue.of('map');
    case 'timestamp':
      return TypeValue.of('google.protobuf.Timestamp');
    case 'duration':
      return TypeValue.of('google.protobuf.Duration');
    case 'null_type':
      return TypeValue.of('null_type');
    case 'opaque':
      return TypeValue.of(inner.name);
    case 'type':
      return TypeValue.of('type');
    default:
      return TypeValue.of(inner.kind);
  }
}

/** Plans a checked expression into a program (cel-go env.Program with the API server's options). */
export function plan(ast: CheckedAst): Program {
  const p = new Planner(ast);
  const root = p.plan(ast.parsed.expr);
  const slots = p.slots;
  return {
    errors: p.errors,
    run(vars: Record<string, Val>, costLimit: number): Evaluation {
      const t = new Tracker(costLimit);
      try {
        const v = tracking(t, () => root.exec({ vars, slots: new Array(slots).fill(undefined) }));
        if (isError(v)) return { error: v.message, kind: 'runtime', cost: t.cost };
        return { value: v, cost: t.cost };
      } catch (e) {
        if (e instanceof CostLimitExceeded) return { error: e.message, kind: 'limit', cost: t.cost };
        if (e instanceof DeadlineExceeded) return { error: 'operation interrupted', kind: 'timeout', cost: t.cost };
        if (e instanceof RangeError) return { error: `operation cancelled: ${e.message}`, kind: 'limit', cost: t.cost };
        throw e;
      }
    },
  };
}

export { actualSize };
