/**
 * Compilation of x-kubernetes-validations rules (k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel
 * compilation.go): parse and type-check against the schema's CEL type, rule must be bool,
 * messageExpression must be string, program creation, transition-rule detection, static cost.
 */
import { invalid, type FieldError, FieldPath } from '../../field';
import type { JSONSchemaProps, ValidationRule } from '../types';
import { schemaDeclType } from './model';
import { T, assignTypeName, maxCardinality, type CelType, type DeclType } from '../../cel/common/types';
import { celEnvironment, type CompiledExpression, type EnvironmentOptions } from '../../cel/environment';
import type { CostEstimateResult } from '../../cel/cost/estimate';
import { validFieldPath } from './fieldpath';
import { GoStruct } from '../../json/go';

export { PER_CALL_LIMIT, formatIssue } from '../../cel/environment';

/** What compiling one rule yields (CompilationResult). */
export interface CompiledRule {
  rule: ValidationRule;
  /** The compiled rule, when it compiled. */
  compiled?: CompiledExpression;
  error?: {
    type: 'Invalid' | 'Required' | 'Internal';
    detail: string;
    range?: { start: number; end: number };
    /** The first issue is an undefined field: the receiver's field names and the closest ones. */
    undefinedField?: { name: string; knownNames: string[]; suggestions: string[] };
  };
  usesOldSelf: boolean;
  maxCost: number;
  /** The estimate with its breakdown (comprehensions and calls sized by the schema). */
  estimate?: CostEstimateResult;
  maxCardinality: number;
  messageExpression?: CompiledExpression;
  messageExpressionError?: { detail: string; range?: { start: number; end: number } };
  messageExpressionMaxCost: number;
  /** The rule's fieldPath resolved against the schema (field.Path printing), when valid. */
  normalizedFieldPath?: FieldPath;
  /** The rule's self type (named as the API server names it for this node). */
  declType?: DeclType;
}

/**
 * Where each expression compiles (cel.Compile's envLoader) and for which Kubernetes version. By
 * default a rule compiles as a new expression (a CRD create: the NewExpressions environment at the
 * compatibility version); rules the stored CRD already had on an update (storedRule), and every rule
 * when serving custom resources (STORED_EXPRESSIONS), compile in the StoredExpressions environment.
 */
export interface CompileOptions {
  /** Kubernetes minor version of the API server modelled (default: the newest supported). */
  kubernetesMinor?: number;
  /** The compatibility version new expressions are checked at, when not the minor's default (EnvironmentOptions). */
  compatibilityMinor?: number;
  /** The environment of every expression ('new' unless a predicate below says otherwise). */
  kind?: 'new' | 'stored';
  storedRule?(rule: string): boolean;
  storedMessageExpression?(expr: string): boolean;
}

/** Every expression in the StoredExpressions environment (the custom resource handler's). */
export const STORED_EXPRESSIONS: CompileOptions = { kind: 'stored' };

function envFor(opts: CompileOptions, stored: boolean | undefined): EnvironmentOptions {
  return { kubernetesMinor: opts.kubernetesMinor, compatibilityMinor: opts.compatibilityMinor, kind: stored ? 'stored' : (opts.kind ?? 'new') };
}

/** The variables of a rule environment: self, and oldSelf (optional when optionalOldSelf). */
function ruleVars(selfType: CelType, optionalOldSelf: boolean): Map<string, CelType> {
  return new Map<string, CelType>([
    ['self', selfType],
    ['oldSelf', optionalOldSelf ? T.optional(selfType) : selfType],
  ]);
}

function firstRange(c: CompiledExpression): { start: number; end: number } | undefined {
  return c.issues[0]?.range;
}

/**
 * Compile all rules of one schema node (Compile + compileRule). declType is the node's CEL type
 * (SchemaDeclType of the node). opts: the Kubernetes version, and 'new' (CRD create/update: the
 * compatibility version) or 'stored' (custom resource validation: everything the server has).
 */
export function compileRules(node: JSONSchemaProps, declType: DeclType | undefined, opts: CompileOptions = {}): CompiledRule[] {
  const rules = Array.isArray(node['x-kubernetes-validations']) ? node['x-kubernetes-validations'] : [];
  if (rules.length === 0) return [];
  if (!declType) {
    return rules.map((rule) => ({
      rule,
      usesOldSelf: false,
      maxCost: 0,
      maxCardinality: 0,
      messageExpressionMaxCost: 0,
      error: { type: 'Internal', detail: 'failed to convert to declType for CEL validation rules' },
    }));
  }
  const named = assignTypeName(declType, 'selfType0');
  const card = maxCardinality(declType.minSerializedSize);
  return rules.map((rule) => compileRule(node, rule ?? ({} as ValidationRule), named, card, opts));
}

function compileRule(node: JSONSchemaProps, rule: ValidationRule, declType: DeclType, card: number, opts: CompileOptions): CompiledRule {
  const out: CompiledRule = { rule, usesOldSelf: false, maxCost: 0, maxCardinality: 0, messageExpressionMaxCost: 0, declType };
  const src = typeof rule.rule === 'string' ? rule.rule : '';
  if (src.trim().length === 0) return out;
  const env = celEnvironment(envFor(opts, opts.storedRule?.(src)));
  const vars = ruleVars(declType.cel, rule.optionalOldSelf === true);
  const c = env.compile(src, vars);
  out.compiled = c;
  if (c.issuesText !== undefined) {
    out.error = { type: 'Invalid', detail: `compilation failed: ${c.issuesText}`, range: firstRange(c), undefinedField: c.issues[0]?.undefinedField };
    return out;
  }
  const checked = c.checked!;
  if (checked.type.kind !== 'bool') {
    out.error = { type: 'Invalid', detail: 'cel expression must evaluate to a bool', range: { start: 0, end: src.length } };
    return out;
  }
  out.usesOldSelf = checked.usedVariables.has('oldSelf');
  if (c.programErrors.length) {
    out.error = { type: 'Invalid', detail: `program instantiation failed: ${c.programErrors[0]}`, range: { start: 0, end: src.length } };
    return out;
  }
  out.estimate = env.estimate(c, declType);
  out.maxCost = out.estimate?.cost.max ?? 0;
  out.maxCardinality = card;
  const me = typeof rule.messageExpression === 'string' ? rule.messageExpression : '';
  if (me !== '') {
    const menv = celEnvironment(envFor(opts, opts.storedMessageExpression?.(me)));
    const m = menv.compile(me, vars);
    if (m.issuesText !== undefined) {
      out.messageExpressionError = { detail: `messageExpression compilation failed: ${m.issuesText}`, range: firstRange(m) };
    } else if (m.checked!.type.kind !== 'string') {
      out.messageExpressionError = { detail: 'messageExpression must evaluate to a string', range: { start: 0, end: me.length } };
    } else if (m.programErrors.length) {
      out.messageExpressionError = { detail: `messageExpression instantiation failed: ${m.programErrors[0]}` };
    } else {
      out.messageExpression = m;
      out.messageExpressionMaxCost = menv.estimate(m, declType)?.cost.max ?? 0;
    }
  }
  // compileRule returns on a messageExpression error before normalizing the fieldPath: such a rule's
  // failures are reported at the node itself.
  if (typeof rule.fieldPath === 'string' && rule.fieldPath !== '' && !out.messageExpressionError) {
    const fp = validFieldPath(rule.fieldPath, node);
    if (fp.path) out.normalizedFieldPath = fp.path;
  }
  return out;
}

interface Visit {
  node: JSONSchemaProps;
  path: FieldPath;
  isResourceRoot: boolean;
}

/** Every schema node with its path relative to the schema root (properties, items, additionalProperties). */
export function schemaNodes(schema: JSONSchemaProps, root: FieldPath): Visit[] {
  const out: Visit[] = [];
  const walk = (s: JSONSchemaProps, p: FieldPath, isRoot: boolean) => {
    if (!s || typeof s !== 'object') return;
    out.push({ node: s, path: p, isResourceRoot: isRoot || s['x-kubernetes-embedded-resource'] === true });
    if (s.properties && typeof s.properties === 'object') {
      for (const k of Object.keys(s.properties).sort()) walk(s.properties[k], p.child('properties').key(k), false);
    }
    if (s.additionalProperties && typeof s.additionalProperties === 'object') walk(s.additionalProperties, p.child('additionalProperties'), false);
    if (s.items && typeof s.items === 'object' && !Array.isArray(s.items)) walk(s.items, p.child('items'), false);
  };
  walk(schema, root, true);
  return out;
}

/**
 * The rule as the API server prints it in a compile error: the internal apiextensions.ValidationRule struct
 * (no json tags, so Go field names in declaration order, nil pointers as null).
 */
export function internalValidationRule(rule: ValidationRule): GoStruct {
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const ptr = (v: unknown) => (v === undefined ? null : v);
  return new GoStruct([
    ['Rule', str(rule?.rule)],
    ['Message', str(rule?.message)],
    ['MessageExpression', str(rule?.messageExpression)],
    ['Reason', ptr(rule?.reason)],
    ['FieldPath', str(rule?.fieldPath)],
    ['OptionalOldSelf', ptr(rule?.optionalOldSelf)],
  ]);
}

function ruleErr(path: FieldPath, i: number, child: string, bad: unknown, detail: string, range?: { start: number; end: number }): FieldError {
  const e = invalid(path.child('x-kubernetes-validations').index(i).child(child), bad, detail);
  if (range) e.ruleRange = range;
  return e;
}

/**
 * Compiles and type-checks every x-kubernetes-validations rule of a schema as the API server does on
 * CRD create; error paths are relative to the schema root (`properties[a].x-kubernetes-validations[0].rule`).
 */
export function compileSchemaValidations(schema: JSONSchemaProps, opts: CompileOptions = {}): FieldError[] {
  const errs: FieldError[] = [];
  try {
    for (const v of schemaNodes(schema, FieldPath.root())) {
      const rules = v.node['x-kubernetes-validations'];
      if (!Array.isArray(rules) || rules.length === 0) continue;
      const results = compileRules(v.node, schemaDeclType(v.node, v.isResourceRoot), opts);
      results.forEach((r, i) => {
        if (r.error) errs.push(withUndefinedField(ruleErr(v.path, i, 'rule', internalValidationRule(r.rule), r.error.detail, r.error.range), r.error.undefinedField));
        if (r.messageExpressionError) errs.push(ruleErr(v.path, i, 'messageExpression', internalValidationRule(r.rule), r.messageExpressionError.detail, r.messageExpressionError.range));
      });
    }
  } catch (e) {
    errs.push(invalid(FieldPath.root(), undefined, `internal error compiling rules: ${e instanceof Error ? e.message : String(e)}`));
  }
  return errs;
}

/** A compile error about an undefined field carries the receiver's field names and "did you mean" suggestions. */
export function withUndefinedField(e: FieldError, u: { knownNames: string[]; suggestions: string[] } | undefined): FieldError {
  e.params = { ...e.params, origin: 'celCompile', ...(u ? { knownNames: u.knownNames, ...(u.suggestions.length ? { suggestions: u.suggestions } : {}) } : {}) };
  return e;
}
