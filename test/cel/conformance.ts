/**
 * Bare CEL expression evaluation for the `cel-eval` conformance op: the expression compiles in the
 * StoredExpressions environment of the newest supported Kubernetes version (every library it has)
 * with each var declared dyn, and runs under the per-call cost limit, as the oracle does.
 */
import { PER_CALL_LIMIT, celEnvironment, evaluate, type Minor } from '../../server/src/engine/cel/environment';
import { compileRules } from '../../server/src/engine/schema/cel/compile';
import { schemaDeclType } from '../../server/src/engine/schema/cel/model';
import { toCelValue, withConversionCache, withTypeAndObjectMetaMemo } from '../../server/src/engine/schema/cel/unstructured';
import type { JSONSchemaProps } from '../../server/src/engine/schema/types';
import { T, type CelType } from '../../server/src/engine/cel/common/types';
import { fromConformanceValue, toConformanceValue } from './values';

/**
 * Evaluates a bare CEL expression with the Kubernetes libraries, taking and returning values in the
 * conformance corpus' JSON encoding (FORMAT.md "Values"). Never throws: failures come back as `{error}`.
 */
export function evaluateConformanceExpression(expr: string, vars: Record<string, unknown>, kubernetesMinor?: Minor): { value?: unknown; error?: string; cost?: number } {
  try {
    const env = celEnvironment({ kind: 'stored', kubernetesMinor });
    const decls = new Map<string, CelType>();
    const activation: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(vars ?? {})) {
      decls.set(k, T.dyn);
      activation[k] = fromConformanceValue(v);
    }
    const c = env.compile(expr, decls);
    if (c.issuesText !== undefined) return { error: `compilation failed: ${c.issuesText}` };
    if (c.programErrors.length) return { error: `program construction failed: ${c.programErrors[0]}` };
    const r = evaluate(c.program!, activation);
    if ('error' in r) return { error: r.error, cost: r.cost };
    return { value: toConformanceValue(r.value), cost: r.cost };
  } catch (e) {
    return { error: `internal error: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/**
 * The `cel-cost` conformance op: the rule compiled on the schema as custom resource validation compiles
 * it (StoredExpressions environment), its estimated cost, and, with an object, its evaluation with
 * the runtime cost as cel-go's tracker counts it (what the oracle's cel-cost answers).
 */
export function evaluateConformanceCost(schema: JSONSchemaProps, expr: string, object: unknown, isResourceRoot: boolean, kubernetesMinor?: Minor): { value?: Record<string, unknown>; error?: string } {
  try {
    const decl = schemaDeclType(schema, isResourceRoot);
    if (!decl) return { error: 'schema has no CEL type' };
    const node: JSONSchemaProps = { ...schema, 'x-kubernetes-validations': [{ rule: expr }] };
    const [r] = compileRules(node, decl, { kind: 'stored', kubernetesMinor });
    if (r.error) return { error: r.error.detail };
    const out: Record<string, unknown> = { estimatedMax: r.maxCost };
    if (object !== undefined) {
      const self = withConversionCache(() => toCelValue(object, isResourceRoot ? withTypeAndObjectMetaMemo(schema) : schema));
      const ev = evaluate(r.compiled!.program!, { self }, { costLimit: PER_CALL_LIMIT });
      out.cost = ev.cost;
      if ('error' in ev) out.error = ev.error;
      else out.result = toConformanceValue(ev.value);
    }
    return { value: out };
  } catch (e) {
    return { error: `internal error: ${e instanceof Error ? e.message : String(e)}` };
  }
}
