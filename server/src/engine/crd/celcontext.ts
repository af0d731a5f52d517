/**
 * CELSchemaContext (apiextensions-apiserver pkg/apis/apiextensions/validation/cel_validation.go): what the
 * CEL block of ValidateCustomResourceDefinitionOpenAPISchema knows about a schema node besides the node
 * itself (its TypeInfo inside a rule scope, the maximum cardinality its ancestors allow) and the
 * TotalCost of a whole schema, with getCostErrorMessage and the static cost limits.
 */
import { forbidden, withParams, type FieldError, type PathSegment } from '../field';
import { schemaDeclType } from '../schema/cel/model';
import type { JSONSchemaProps } from '../schema/types';

/** StaticEstimatedCostLimit: the largest static cost of one expression. */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
/** StaticEstimatedCRDCostLimit: the largest total static cost of all rules of a CRD. */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;

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
export function extractMaxElements(s: JSONSchemaProps): number | undefined {
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

/** multiplyWithOverflowGuard */
export function multiplyWithOverflowGuard(a: number, b: number): number {
  if (a === 0 || b === 0) return 0;
  const p = a * b;
  return p > Number.MAX_SAFE_INTEGER * 2048 ? Number.MAX_VALUE : p;
}

/** The CEL context of one schema node (nil in Go where CEL is not attempted: below junctors, or no structural schema). */
export interface CELSchemaContext {
  /** The node is the resource root (its CEL type gets apiVersion, kind and metadata). */
  isRoot: boolean;
  /** MaxCardinality of the node: how many times its rules may run per object; undefined = unbounded. */
  cardinality: number | undefined;
  /** A node at or above has rules (withinValidationRuleScope). */
  inRuleScope: boolean;
  /** The parent's TypeInfo failed inside the rule scope: children inherit the failure. */
  parentTypeInfoFailed: boolean;
  /**
   * Items or additionalProperties of a node whose CEL type has no element type (a string with items):
   * the accessor hands out type info without a DeclType, and cel.Compile fails.
   */
  noElemType: boolean;
}

/** RootCELContext */
export function rootCELContext(): CELSchemaContext {
  return { isRoot: true, cardinality: 1, inRuleScope: false, parentTypeInfoFailed: false, noElemType: false };
}

/** What a node's TypeInfo answers: the node's rule scope, and whether its type information failed. */
export interface TypeInfo {
  inRuleScope: boolean;
  failed: boolean;
}

/**
 * TypeInfo: inside a rule scope a node takes its type from its parent's (inheriting a failure), else
 * converts its own schema; no CEL type for it (untyped preserve-unknown-fields) is a failure.
 */
export function typeInfo(s: JSONSchemaProps, ctx: CELSchemaContext): TypeInfo {
  const own = s['x-kubernetes-validations'];
  const inRuleScope = ctx.inRuleScope || (Array.isArray(own) && own.length > 0);
  const failed = inRuleScope && (ctx.parentTypeInfoFailed || schemaDeclType(s, ctx.isRoot || s['x-kubernetes-embedded-resource'] === true) === undefined);
  return { inRuleScope, failed };
}

function childCardinality(s: JSONSchemaProps, ctx: CELSchemaContext): number | undefined {
  if (ctx.cardinality === undefined) return undefined;
  const m = extractMaxElements(s);
  return m === undefined ? undefined : multiplyWithOverflowGuard(ctx.cardinality, m);
}

/** ChildPropertyContext */
export function childPropertyContext(s: JSONSchemaProps, ctx: CELSchemaContext, ti: TypeInfo): CELSchemaContext {
  return { isRoot: false, cardinality: childCardinality(s, ctx), inRuleScope: ti.inRuleScope, parentTypeInfoFailed: ti.failed, noElemType: false };
}

/** ChildAdditionalPropertiesContext */
export function childAdditionalPropertiesContext(s: JSONSchemaProps, ctx: CELSchemaContext, ti: TypeInfo): CELSchemaContext {
  return { ...childPropertyContext(s, ctx, ti), noElemType: ti.inRuleScope && !ti.failed && s.type !== 'object' };
}

/** ChildItemsContext */
export function childItemsContext(s: JSONSchemaProps, ctx: CELSchemaContext, ti: TypeInfo): CELSchemaContext {
  return { ...childPropertyContext(s, ctx, ti), noElemType: ti.inRuleScope && !ti.failed && s.type !== 'array' };
}

/** The memo key of a CEL context (engine/field/memo.ts). */
export function celContextKey(ctx: CELSchemaContext | undefined): string {
  if (!ctx) return 'nil';
  return `${ctx.isRoot ? 'r' : ''}${ctx.cardinality ?? 'u'}${ctx.inRuleScope ? 's' : ''}${ctx.parentTypeInfoFailed ? 'f' : ''}${ctx.noElemType ? 'e' : ''}`;
}

/** One expression's estimated cost, observed by TotalCost (the path of its `rule` or `messageExpression`). */
export interface ExpressionCost {
  field: string;
  segments: PathSegment[];
  cost: number;
}

/**
 * TotalCost over a schema's expression costs (in walk order): when the total exceeds the CRD limit, the
 * most expensive contributors (each at least 1% of the limit, at most 4) and the total, at schemaPath.
 */
export function totalCostErrors(costs: readonly ExpressionCost[], schemaPath: { field: string; segments: PathSegment[] }): FieldError[] {
  let total = 0;
  const mostExpensive: ExpressionCost[] = [];
  for (const c of costs) {
    total += c.cost;
    if (c.cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100) continue;
    mostExpensive.push(c);
    mostExpensive.sort((a, b) => b.cost - a.cost);
    if (mostExpensive.length > 4) mostExpensive.length = 4;
  }
  if (total <= STATIC_ESTIMATED_CRD_COST_LIMIT) return [];
  const out: FieldError[] = [];
  for (const e of mostExpensive) {
    const c = forbidden(e.field, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema');
    c.segments = e.segments;
    out.push(withParams(c, { origin: 'celCost', cost: { scope: 'contribution', estimated: e.cost, limit: STATIC_ESTIMATED_CRD_COST_LIMIT } }));
  }
  const t = forbidden(schemaPath.field, costErrorMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', total, STATIC_ESTIMATED_CRD_COST_LIMIT));
  t.segments = schemaPath.segments;
  out.push(withParams(t, { origin: 'celCost', cost: { scope: 'total', estimated: total, limit: STATIC_ESTIMATED_CRD_COST_LIMIT } }));
  return out;
}
