/**
 * Runtime evaluation of x-kubernetes-validations rules on an object (apiextensions-apiserver
 * pkg/apiserver/schema/cel/validation.go Validator): rules evaluated per schema node, transition rules
 * with oldSelf through correlatable nodes, messageExpression/reason/fieldPath, ratcheting, cost limits.
 */
import { duplicate, forbidden, internalError, invalid, required, OMIT_VALUE, FieldPath, type FieldError } from '../../field';
import type { JSONSchemaProps, ValidationRule } from '../types';
import { additionalPropertiesSchema, itemsSchema, schemaDeclType, withDeclTypeCache } from './model';
import type { DeclType } from '../../cel/common/types';
import { compileRules, type CompiledRule } from './compile';
import { evaluate as evaluateProgram, PER_CALL_LIMIT, SAFETY_TIMEOUT_MS, supportedMinor, type Program, type Minor } from '../../cel/environment';
import { toCelValue, withConversionCache, withTypeAndObjectMetaMemo } from './unstructured';
import { IntegralFloat } from '../../json/lossless';
import { isJSONObject } from '../../json/values';
import { Optional } from '../../cel/runtime/values';
import { correlatedDeepEqual } from '../../validation/ratcheting';
import { makeMapList, type MapList } from '../../listtype/maplist';

export interface CelValidationOptions {
  /** The value is a whole resource (self at the root exposes apiVersion, kind, metadata.name/generateName). */
  isResourceRoot: boolean;
  /** The previous object on an update: transition rules (oldSelf) run only then. */
  oldObject?: unknown;
  /**
   * Ratchet errors of unchanged values (the update path, WithRatcheting). Default true when oldObject is
   * given; pass false where the API server validates with oldSelf but without ratcheting (CRD defaults).
   */
  ratcheting?: boolean;
  /** The runtime cost all rules of this object may spend; default RUNTIME_CEL_COST_BUDGET. */
  costBudget?: number;
  /** Called after each evaluation of a rule (or its messageExpression) with its wall time and cost (bench, tests). */
  observe?: (e: RuleEvaluation) => void;
  /** The Kubernetes minor version whose API server is modelled (default: the newest supported). */
  kubernetesMinor?: Minor;
  /**
   * Wall-clock safety net per evaluation in ms (default SAFETY_TIMEOUT_MS); the cost limits are what
   * stop rules, as in the API server. Tests pass Infinity so no outcome depends on machine speed.
   */
  safetyTimeoutMs?: number;
}

/** One evaluation as reported to CelValidationOptions.observe. */
export interface RuleEvaluation {
  rule: ValidationRule;
  /** The schema node's value path. */
  path: string;
  expression: 'rule' | 'messageExpression';
  ms: number;
  cost: number;
  /** The work the evaluation did (interpreter steps, elements and characters processed): bounded by its cost. */
  work: number;
  /** The evaluation's error, if any (cel-go wording). */
  error?: string;
}

/** RuntimeCELCostBudget: the cost all rules of one object may spend together. */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;
const MAX_MESSAGE_EXPRESSION_BYTES = 5 * 1024;
/**
 * Wall-clock bound of all rules of one object: a safety net behind the cost budget, in the role of
 * the API server's request deadline. No test depends on it.
 */
const TOTAL_TIME_MS = 5000;
/** cel-go's error when an evaluation is interrupted. */
const DEADLINE_EXCEEDED = 'operation interrupted';
const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';

interface RuleProgram {
  compiled: CompiledRule;
  program?: Program;
  messageProgram?: Program;
}

interface NodePrograms {
  /** Per isResourceRoot flavour: rules compiled against that node's type. */
  rules: RuleProgram[];
  /** The node has no CEL type (e.g. untyped preserve-unknown-fields): the API server skips it and below. */
  unexposed: boolean;
}

const cache = new WeakMap<JSONSchemaProps, Map<string, NodePrograms>>();

/** The rules of a node compiled in the StoredExpressions environment (what custom resource validation runs). */
function programsFor(node: JSONSchemaProps, isResourceRoot: boolean, minor: Minor): NodePrograms {
  let m = cache.get(node);
  if (!m) {
    m = new Map();
    cache.set(node, m);
  }
  const k = `${isResourceRoot ? 'root' : 'node'}/${minor}`;
  let p = m.get(k);
  if (!p) {
    const decl: DeclType | undefined = schemaDeclType(node, isResourceRoot);
    const compiled = compileRules(node, decl, { kind: 'stored', kubernetesMinor: minor });
    p = {
      unexposed: decl === undefined,
      rules: compiled.map((c) => {
        const r: RuleProgram = { compiled: c };
        if (!c.error && c.compiled?.program) {
          r.program = c.compiled.program;
          // Type-checked in the rule's environment; at run time the API server hands the messageExpression
          // the plain activation (oldSelf not optional).
          if (c.messageExpression?.program) r.messageProgram = c.messageExpression.program;
        }
        return r;
      }),
    };
    m.set(k, p);
  }
  return p;
}

function hasRules(s: JSONSchemaProps | undefined): boolean {
  if (!s || typeof s !== 'object') return false;
  if (Array.isArray(s['x-kubernetes-validations']) && s['x-kubernetes-validations'].length > 0) return true;
  let memo = hasRulesMemo.get(s);
  if (memo !== undefined) return memo;
  memo = false;
  for (const p of Object.values(s.properties ?? {})) if (hasRules(p)) memo = true;
  if (!memo && hasRules(additionalPropertiesSchema(s))) memo = true;
  if (!memo && hasRules(itemsSchema(s))) memo = true;
  hasRulesMemo.set(s, memo);
  return memo;
}
const hasRulesMemo = new WeakMap<JSONSchemaProps, boolean>();

/** Old/new pair for ratcheting (common.CorrelatedObject), undefined where uncorrelatable. */
interface Correlation {
  oldValue: unknown;
  newValue: unknown;
  schema: JSONSchemaProps;
  eq?: boolean;
}

function cachedDeepEqual(c: Correlation | undefined): boolean {
  if (!c) return false;
  // CorrelatedObject.CachedDeepEqual: keys the schema does not declare never correlate (a root whose schema
  // does not list apiVersion/kind/metadata is never unchanged, so its rules never ratchet).
  c.eq ??= correlatedDeepEqual(c.oldValue, c.newValue, c.schema);
  return c.eq;
}

interface Ratchet {
  current?: Correlation;
  nearestParent?: Correlation;
}

function ratchetKey(r: Ratchet, field: string, childSchema: JSONSchemaProps | undefined): Ratchet {
  if (!r.current) return r;
  if (!r.nearestParent && (field === 'apiVersion' || field === 'kind')) return {};
  let next: Correlation | undefined;
  const o = r.current.oldValue;
  const n = r.current.newValue;
  if (childSchema && isJSONObject(o) && isJSONObject(n) && field in o && field in n) {
    next = { oldValue: o[field], newValue: n[field], schema: childSchema };
  }
  return { current: next, nearestParent: r.current };
}

function ratchetIndex(r: Ratchet, i: number, itemSchema: JSONSchemaProps | undefined, oldItem: unknown): Ratchet {
  if (!r.current) return r;
  const n = r.current.newValue;
  let next: Correlation | undefined;
  if (itemSchema && Array.isArray(n) && oldItem !== undefined) next = { oldValue: oldItem, newValue: n[i], schema: itemSchema };
  return { current: next, nearestParent: r.current };
}

function shouldRatchet(r: Ratchet): boolean {
  if (r.current) return cachedDeepEqual(r.current);
  return cachedDeepEqual(r.nearestParent);
}

/** makeMapList: the old item correlating with a new item of a list-type=map list (by its keys). */
function correlateOldItem(schema: JSONSchemaProps, oldList: unknown[] | undefined, item: unknown, lists: Map<unknown[], MapList>): unknown {
  if (!oldList) return undefined;
  let m = lists.get(oldList);
  if (!m) lists.set(oldList, (m = makeMapList(schema, oldList)));
  return m.get(item);
}

function mapIsCorrelatable(s: JSONSchemaProps): boolean {
  const t = s['x-kubernetes-map-type'];
  return t === undefined || t === 'granular' || t === 'atomic';
}

interface State {
  /** Cost left of RuntimeCELCostBudget for this object. */
  budget: number;
  /** Wall time spent evaluating this object's rules (compiling, cached per schema, does not count). */
  evalMs: number;
  stop: boolean;
  observe?: (e: RuleEvaluation) => void;
  minor: Minor;
  timeoutMs: number;
}

/** One evaluation under the cost limit, timed for State.observe. */
function evaluate(st: State, path: FieldPath, rule: ValidationRule, expression: RuleEvaluation['expression'], program: Program, vars: Record<string, unknown>, costLimit: number): ReturnType<typeof evaluateProgram> {
  const t0 = performance.now();
  const r = evaluateProgram(program, vars, { costLimit, timeoutMs: st.timeoutMs });
  const ms = performance.now() - t0;
  st.evalMs += ms;
  st.observe?.({ rule, path: path.toString(), expression, ms, cost: r.cost, work: r.work ?? 0, ...('error' in r ? { error: r.error } : {}) });
  return r;
}

function ruleErrorString(rule: ValidationRule): string {
  if (typeof rule.message === 'string' && rule.message.length > 0) return rule.message.trim();
  return String(rule.rule ?? '').trim();
}

function ruleMessageOrDefault(rule: ValidationRule): string {
  if (typeof rule.message !== 'string' || rule.message.length === 0) return `failed rule: ${ruleErrorString(rule)}`;
  return rule.message.trim();
}

function schemaTypeValue(s: JSONSchemaProps): string {
  return typeof s.type === 'string' ? s.type : '';
}

function withRule(e: FieldError, rule: ValidationRule, rulePath?: string): FieldError {
  e.provenance = { ...(e.provenance ?? {}), rule: rule.rule, ...(rulePath ? { rulePath } : {}) };
  return e;
}

function validateExpressions(node: JSONSchemaProps, isResourceRoot: boolean, path: FieldPath, obj: unknown, oldObj: unknown, ratchet: Ratchet, st: State, errs: FieldError[]): void {
  if (obj === null || obj === undefined) return;
  const rules = node['x-kubernetes-validations'];
  if (!Array.isArray(rules) || rules.length === 0) return;
  const progs = programsFor(node, isResourceRoot, st.minor);
  if (progs.unexposed) {
    errs.push(invalid(path, schemaTypeValue(node), 'rule compiler initialization error: failed to convert to declType for CEL validation rules'));
    return;
  }
  if (st.budget <= 0) {
    errs.push(invalid(path, schemaTypeValue(node), OUT_OF_BUDGET));
    st.stop = true;
    return;
  }
  const sts = isResourceRoot ? withTypeAndObjectMetaMemo(node) : node;
  const typeStr = schemaTypeValue(node);
  const self = toCelValue(obj, sts);
  const hasOld = oldObj !== null && oldObj !== undefined;
  const oldSelf = hasOld ? toCelValue(oldObj, sts) : undefined;
  for (const rp of progs.rules) {
    if (st.stop) return;
    const c = rp.compiled;
    const rule = c.rule;
    if (c.error) {
      errs.push(withRule(invalid(path, typeStr, `rule compile error: ${c.error.detail}`), rule));
      continue;
    }
    if (!rp.program) continue;
    const optionalOld = rule.optionalOldSelf === true;
    if (c.usesOldSelf && !hasOld && !optionalOld) continue;
    if (st.evalMs > TOTAL_TIME_MS && Number.isFinite(st.timeoutMs)) {
      // The request deadline has passed: cel-go interrupts the evaluation; we do not start it.
      errs.push(withRule(invalid(path, typeStr, `${DEADLINE_EXCEEDED} evaluating rule: ${ruleErrorString(rule)}`), rule));
      st.stop = true;
      return;
    }
    // Without an old value oldSelf is unbound (validationActivation.ResolveName), so a messageExpression
    // of an optionalOldSelf rule that reads it fails and falls back to the message, as in the API server.
    const activation: Record<string, unknown> = hasOld ? { self, oldSelf } : { self };
    const ruleActivation: Record<string, unknown> = optionalOld ? { self, oldSelf: hasOld ? Optional.of(oldSelf) : Optional.none() } : activation;
    // Stop as soon as the rule has spent more than the object's remaining budget: the API server
    // reports that case by the budget, whether or not the evaluation finished.
    const res = evaluate(st, path, rule, 'rule', rp.program, ruleActivation, Math.min(PER_CALL_LIMIT, st.budget + 1));
    if (res.cost > st.budget) {
      errs.push(withRule(invalid(path, typeStr, OUT_OF_BUDGET), rule));
      st.budget = -1;
      st.stop = true;
      return;
    }
    st.budget -= res.cost;
    if ('error' in res) {
      const msg = res.error;
      if (res.kind === 'limit') {
        errs.push(withRule(invalid(path, typeStr, `'${msg}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(rule)}`), rule));
        st.stop = true;
        return;
      }
      if (msg.startsWith('no such overload') || msg.startsWith('found no matching overload')) {
        errs.push(withRule(invalid(path, typeStr, `'${msg}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(rule)}`), rule));
      } else {
        errs.push(withRule(invalid(path, typeStr, `${msg} evaluating rule: ${ruleErrorString(rule)}`), rule));
      }
      continue;
    }
    if (res.value === true) continue;
    // Go appends the normalized fieldPath as one element; appending its segments prints the same and
    // keeps them mappable to YAML ranges.
    let current = path;
    for (const seg of c.normalizedFieldPath?.segments() ?? []) {
      current = seg.kind === 'field' ? current.child(seg.name) : seg.kind === 'key' ? current.key(seg.key) : current.index(seg.index);
    }
    let detail: string | undefined;
    if (rp.messageProgram) {
      const mr = evaluate(st, current, rule, 'messageExpression', rp.messageProgram, activation, Math.min(PER_CALL_LIMIT, st.budget + 1));
      let stopDetail: string | undefined;
      if (mr.cost > st.budget) stopDetail = 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run';
      else if ('error' in mr && mr.kind === 'limit') stopDetail = `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(rule.messageExpression)}`;
      if (stopDetail) {
        if (!(!c.usesOldSelf && shouldRatchet(ratchet))) errs.push(withRule(invalid(current, typeStr, stopDetail), rule));
        st.budget = -1;
        st.stop = true;
        return;
      }
      st.budget -= mr.cost;
      if ('value' in mr && typeof mr.value === 'string') {
        const t = mr.value.trim();
        if (t.length > 0 && Buffer.byteLength(t) <= MAX_MESSAGE_EXPRESSION_BYTES && !/[\n]/.test(t)) detail = t;
      }
    }
    detail ??= ruleMessageOrDefault(rule);
    const value = typeStr === 'object' || typeStr === 'array' ? OMIT_VALUE : obj instanceof IntegralFloat ? obj.value : obj;
    let e: FieldError;
    switch (rule.reason) {
      case 'FieldValueForbidden':
        e = forbidden(current, detail);
        break;
      case 'FieldValueRequired':
        e = required(current, detail);
        break;
      case 'FieldValueDuplicate':
        e = duplicate(current, value);
        break;
      default:
        e = invalid(current, value, detail);
    }
    if (!c.usesOldSelf && shouldRatchet(ratchet)) continue;
    errs.push(withRule(e, rule));
  }
}

function validateNode(node: JSONSchemaProps, isResourceRoot: boolean, path: FieldPath, obj: unknown, oldObj: unknown, ratchet: Ratchet, st: State, errs: FieldError[]): void {
  if (st.stop || obj === null || obj === undefined || !hasRules(node)) return;
  if (!path.isRoot() && programsFor(node, isResourceRoot, st.minor).unexposed) return;
  validateExpressions(node, isResourceRoot, path, obj, oldObj, ratchet, st, errs);
  if (st.stop) return;
  if (Array.isArray(obj)) {
    const items = itemsSchema(node);
    if (!items || !hasRules(items)) return;
    const oldList = Array.isArray(oldObj) ? oldObj : undefined;
    const lists = new Map<unknown[], MapList>();
    obj.forEach((item, i) => {
      const oldItem = correlateOldItem(node, oldList, item, lists);
      validateNode(items, items['x-kubernetes-embedded-resource'] === true, path.index(i), item, oldItem, ratchetIndex(ratchet, i, items, oldItem), st, errs);
    });
    return;
  }
  if (isJSONObject(obj)) {
    const oldMap = isJSONObject(oldObj) ? oldObj : undefined;
    const correlatable = mapIsCorrelatable(node);
    const ap = additionalPropertiesSchema(node);
    if (ap && hasRules(ap)) {
      for (const k of Object.keys(obj)) {
        const oldV = correlatable ? oldMap?.[k] : undefined;
        validateNode(ap, ap['x-kubernetes-embedded-resource'] === true, path.key(k), obj[k], oldV, ratchetKey(ratchet, k, ap), st, errs);
      }
    }
    const props = node.properties;
    if (props) {
      for (const k of Object.keys(obj)) {
        const sub = props[k];
        if (!sub || !hasRules(sub)) continue;
        const oldV = correlatable ? oldMap?.[k] : undefined;
        validateNode(sub, sub['x-kubernetes-embedded-resource'] === true, path.child(k), obj[k], oldV, ratchetKey(ratchet, k, sub), st, errs);
      }
    }
  }
}

/**
 * Evaluates every x-kubernetes-validations rule of the schema on obj (after pruning and defaulting),
 * as the API server's CEL validator does, with its error types, paths and messages.
 */
export function validateCelRules(schema: JSONSchemaProps, obj: unknown, opts: CelValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  if (!hasRules(schema)) return errs;
  const st: State = {
    budget: opts.costBudget ?? RUNTIME_CEL_COST_BUDGET,
    evalMs: 0,
    stop: false,
    observe: opts.observe,
    minor: supportedMinor(opts.kubernetesMinor),
    timeoutMs: opts.safetyTimeoutMs ?? SAFETY_TIMEOUT_MS,
  };
  const hasOld = opts.oldObject !== undefined && opts.oldObject !== null;
  const ratchet: Ratchet = hasOld && opts.ratcheting !== false ? { current: { oldValue: opts.oldObject, newValue: obj, schema } } : {};
  try {
    withDeclTypeCache(() => withConversionCache(() => validateNode(schema, opts.isResourceRoot, FieldPath.root(), obj, opts.oldObject, ratchet, st, errs)));
  } catch (e) {
    errs.push(internalError(FieldPath.root(), `CEL evaluation failed: ${e instanceof Error ? e.message : String(e)}`));
  }
  return errs;
}
