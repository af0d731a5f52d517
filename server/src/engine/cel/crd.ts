/**
 * The CEL part of CRD validation (apiextensions-apiserver pkg/apis/apiextensions/validation:
 * ValidateCustomResourceDefinitionOpenAPISchema's x-kubernetes-validations block, CELSchemaContext
 * cardinality and TotalCost).
 */
import { FieldPath, forbidden, internalError, invalid, notSupported, required, withParams, type FieldError } from '../field';
import type { JSONSchemaProps, ValidationRule } from '../schema/types';
import { compileRules, internalValidationRule, validFieldPath } from './compile';
import { additionalPropertiesSchema, itemsSchema, schemaDeclType } from './types';

/** StaticEstimatedCostLimit: the largest static cost of one expression. */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
/** StaticEstimatedCRDCostLimit: the largest total static cost of all rules of a CRD. */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;

const SUPPORTED_REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

export interface CrdCelOptions {
  /**
   * Nodes where CRD validation found schema errors at that level or below: their rules are not
   * compiled (the API server skips CEL there, its errors would not be actionable).
   */
  hasSchemaErrors?: (node: JSONSchemaProps) => boolean;
  /** An update of a version whose schema is unchanged: the per-expression cost limit is not enforced. */
  suppressPerExpressionCost?: boolean;
  /** On an update, the rules and messageExpressions the stored CRD has: they compile in the stored-expressions environment. */
  preexistingRules?: ReadonlySet<string>;
  preexistingMessageExpressions?: ReadonlySet<string>;
}

function hasNewlines(s: string): boolean {
  return /[\n\r]/.test(s);
}

/** Go's %f / %.1f formatting of the exceed factor (getCostErrorMessage). */
export function costErrorMessage(costName: string, cost: number, limit: number): string {
  const f = cost / limit;
  let factor: string;
  if (f > 100) factor = 'more than 100x';
  else if (f < 1.5) factor = `${f.toFixed(6)}x`;
  else factor = `${f.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** extractMaxElements: how a node multiplies the cardinality of its children; undefined = unbounded. */
function extractMaxElements(s: JSONSchemaProps): number | undefined {
  switch (s.type) {
    case 'object':
      // Any additionalProperties (false included: a non-nil JSONSchemaPropsOrBool) makes the object a map.
      if (s.additionalProperties !== undefined && s.additionalProperties !== null) {
        return typeof s.maxProperties === 'number' ? Math.max(0, s.maxProperties) : undefined;
      }
      return 1;
    case 'array':
      return typeof s.maxItems === 'number' ? Math.max(0, s.maxItems) : undefined;
    default:
      return 1;
  }
}

function mul(a: number, b: number): number {
  if (a === 0 || b === 0) return 0;
  const p = a * b;
  return p > Number.MAX_SAFE_INTEGER * 2048 ? Number.MAX_VALUE : p;
}

interface RuleCost {
  path: FieldPath;
  cost: number;
}

class TotalCost {
  total = 0;
  mostExpensive: RuleCost[] = [];
  observe(path: FieldPath, cost: number): void {
    this.total += cost;
    if (cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100) return;
    this.mostExpensive.push({ path, cost });
    this.mostExpensive.sort((a, b) => b.cost - a.cost);
    if (this.mostExpensive.length > 4) this.mostExpensive.length = 4;
  }
}

interface Ctx {
  path: FieldPath;
  isRoot: boolean;
  /** undefined = unbounded */
  cardinality: number | undefined;
  uncorrelatable?: FieldPath;
  /** A node at or above has rules (CELSchemaContext.withinValidationRuleScope). */
  inRuleScope?: boolean;
  /** The parent's TypeInfo failed inside the rule scope: children inherit the failure. */
  parentTypeInfoFailed?: boolean;
  /**
   * Items or additionalProperties of a node whose CEL type has no element type (a string with items):
   * the accessor hands out type info without a DeclType, and cel.Compile fails.
   */
  noElemType?: boolean;
}

/**
 * The CEL part of CRD validation on create: every rule compiled and type-checked against the schema,
 * messageExpression/fieldPath/reason/optionalOldSelf checked, and the cost budget (per rule and per CRD)
 * enforced, with paths under schemaPath (e.g. `spec.validation.openAPIV3Schema`).
 */
export function validateCrdCelRules(schema: JSONSchemaProps, schemaPath: FieldPath, opts: CrdCelOptions = {}): FieldError[] {
  const errs: FieldError[] = [];
  const total = new TotalCost();
  try {
    walk(schema, { path: schemaPath, isRoot: true, cardinality: 1 }, errs, total, opts);
    if (total.total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
      for (const e of total.mostExpensive) {
        const c = forbidden(e.path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema');
        errs.push(withParams(c, { origin: 'celCost', cost: { scope: 'contribution', estimated: e.cost, limit: STATIC_ESTIMATED_CRD_COST_LIMIT } }));
      }
      const t = forbidden(schemaPath, costErrorMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', total.total, STATIC_ESTIMATED_CRD_COST_LIMIT));
      errs.push(withParams(t, { origin: 'celCost', cost: { scope: 'total', estimated: total.total, limit: STATIC_ESTIMATED_CRD_COST_LIMIT } }));
    }
  } catch (e) {
    errs.push(invalid(schemaPath, undefined, `internal error validating x-kubernetes-validations: ${e instanceof Error ? e.message : String(e)}`));
  }
  return errs;
}

function walk(s: JSONSchemaProps, ctx: Ctx, errs: FieldError[], total: TotalCost, opts: CrdCelOptions): void {
  if (!s || typeof s !== 'object') return;
  const childCard = (): number | undefined => {
    if (ctx.cardinality === undefined) return undefined;
    const m = extractMaxElements(s);
    return m === undefined ? undefined : mul(ctx.cardinality, m);
  };
  // CELSchemaContext.TypeInfo: inside a rule scope a node takes its type from its parent's (inheriting a
  // failure), else converts its own schema; no CEL type for it (untyped preserve-unknown-fields) is a failure.
  const ownRules = s['x-kubernetes-validations'];
  const inRuleScope = ctx.inRuleScope === true || (Array.isArray(ownRules) && ownRules.length > 0);
  const typeInfoFailed =
    inRuleScope && (ctx.parentTypeInfoFailed === true || schemaDeclType(s, ctx.isRoot || s['x-kubernetes-embedded-resource'] === true) === undefined);
  const scope = { inRuleScope, parentTypeInfoFailed: typeInfoFailed };
  const ap = additionalPropertiesSchema(s);
  const apNoElem = inRuleScope && !typeInfoFailed && s.type !== 'object';
  if (ap) walk(ap, { path: ctx.path.child('additionalProperties'), isRoot: false, cardinality: childCard(), uncorrelatable: ctx.uncorrelatable, ...scope, noElemType: apNoElem }, errs, total, opts);
  if (s.properties && typeof s.properties === 'object') {
    const mt = s['x-kubernetes-map-type'];
    const correlatable = mt === undefined || mt === 'granular' || mt === 'atomic';
    for (const k of Object.keys(s.properties).sort()) {
      const unc = ctx.uncorrelatable ?? (correlatable ? undefined : ctx.path);
      walk(s.properties[k], { path: ctx.path.child('properties').key(k), isRoot: false, cardinality: childCard(), uncorrelatable: unc, ...scope }, errs, total, opts);
    }
  }
  const items = itemsSchema(s);
  if (items) {
    const unc = ctx.uncorrelatable ?? (s['x-kubernetes-list-type'] !== 'map' ? ctx.path : undefined);
    const itemsNoElem = inRuleScope && !typeInfoFailed && s.type !== 'array';
    walk(items, { path: ctx.path.child('items'), isRoot: false, cardinality: childCard(), uncorrelatable: unc, ...scope, noElemType: itemsNoElem }, errs, total, opts);
  }
  validateNodeRules(s, ctx, errs, total, opts, typeInfoFailed);
}

function validateNodeRules(s: JSONSchemaProps, ctx: Ctx, errs: FieldError[], total: TotalCost, opts: CrdCelOptions, typeInfoFailed: boolean): void {
  const rules = s['x-kubernetes-validations'];
  if (!Array.isArray(rules) || rules.length === 0) return;
  const vpath = ctx.path.child('x-kubernetes-validations');
  let schemaErrors = 0;
  const add = (e: FieldError) => {
    errs.push(e);
    schemaErrors++;
  };
  rules.forEach((rule: ValidationRule, i) => {
    const r = vpath.index(i);
    const text = typeof rule?.rule === 'string' ? rule.rule : '';
    const msg = typeof rule?.message === 'string' ? rule.message : '';
    const trimmedRule = text.trim();
    const trimmedMsg = msg.trim();
    if (trimmedRule.length === 0) add(required(r.child('rule'), 'rule is not specified'));
    else if (msg.length > 0 && trimmedMsg.length === 0) add(invalid(r.child('message'), msg, 'must be non-empty if specified'));
    else if (hasNewlines(trimmedMsg)) add(invalid(r.child('message'), msg, 'must not contain line breaks'));
    else if (hasNewlines(trimmedRule) && trimmedMsg.length === 0) add(required(r.child('message'), 'message must be specified if rule contains line breaks'));
    const me = typeof rule?.messageExpression === 'string' ? rule.messageExpression : '';
    if (me.length > 0 && me.trim().length === 0) add(required(r.child('messageExpression'), 'messageExpression must be non-empty if specified'));
    if (rule?.reason !== undefined && rule.reason !== null && !SUPPORTED_REASONS.includes(String(rule.reason))) {
      add(notSupported(r.child('reason'), rule.reason, SUPPORTED_REASONS));
    }
    const fp = typeof rule?.fieldPath === 'string' ? rule.fieldPath : '';
    if (fp.length > 0 && fp.trim().length === 0) add(invalid(r.child('fieldPath'), fp, 'must be non-empty if specified'));
    if (hasNewlines(fp)) add(invalid(r.child('fieldPath'), fp, 'must not contain line breaks'));
    if (fp.length > 0 && validFieldPath(fp, s).error !== undefined) add(invalid(r.child('fieldPath'), fp, 'must be a valid path'));
  });
  if (schemaErrors > 0 || opts.hasSchemaErrors?.(s)) return;

  if (ctx.noElemType && !typeInfoFailed) {
    errs.push(internalError(vpath, 'failed to convert to declType for CEL validation rules'));
    return;
  }
  const decl = schemaDeclType(s, ctx.isRoot || s['x-kubernetes-embedded-resource'] === true);
  if (typeInfoFailed || !decl) {
    // CELSchemaContext.TypeInfo fails (an untyped x-kubernetes-preserve-unknown-fields node has no CEL type):
    // one InternalError for the node's rules, nothing compiled or costed.
    errs.push(internalError(vpath, 'internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations'));
    return;
  }
  const results = compileRules(s, decl, {
    storedRule: (r) => opts.preexistingRules?.has(r) === true,
    storedMessageExpression: (m) => opts.preexistingMessageExpressions?.has(m) === true,
  });
  results.forEach((cr, i) => {
    const r = vpath.index(i);
    const rule = rules[i] as ValidationRule;
    const cost = ctx.cardinality !== undefined ? mul(cr.maxCost, ctx.cardinality) : mul(cr.maxCost, cr.maxCardinality);
    if (!opts.suppressPerExpressionCost && cost > STATIC_ESTIMATED_COST_LIMIT) {
      const e = forbidden(r.child('rule'), costErrorMessage('estimated rule cost', cost, STATIC_ESTIMATED_COST_LIMIT));
      errs.push(withParams(e, { origin: 'celCost', cost: { scope: 'rule', estimated: cost, limit: STATIC_ESTIMATED_COST_LIMIT } }));
    }
    total.observe(r.child('rule'), cost);
    if (cr.error) {
      const e = cr.error.type === 'Required' ? required(r.child('rule'), cr.error.detail) : invalid(r.child('rule'), internalValidationRule(rule), cr.error.detail);
      if (cr.error.range) e.ruleRange = cr.error.range;
      e.provenance = { rule: rule.rule };
      withParams(e, { origin: 'celCompile' });
      errs.push(e);
    }
    if (cr.messageExpressionError) {
      const e = invalid(r.child('messageExpression'), internalValidationRule(rule), cr.messageExpressionError.detail);
      if (cr.messageExpressionError.range) e.ruleRange = cr.messageExpressionError.range;
      errs.push(e);
    } else if (cr.messageExpressionAst) {
      const mcost = cr.messageExpressionMaxCost;
      if (!opts.suppressPerExpressionCost && mcost > STATIC_ESTIMATED_COST_LIMIT) {
        errs.push(forbidden(r.child('messageExpression'), costErrorMessage('estimated messageExpression cost', mcost, STATIC_ESTIMATED_COST_LIMIT)));
      }
      total.observe(r.child('messageExpression'), mcost);
    }
    if (cr.usesOldSelf) {
      if (ctx.uncorrelatable) {
        errs.push(invalid(r.child('rule'), rule.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${ctx.uncorrelatable.toString()}`));
      }
    } else if (rule.optionalOldSelf !== undefined && rule.optionalOldSelf !== null) {
      errs.push(invalid(r.child('optionalOldSelf'), rule.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
    }
  });
}
