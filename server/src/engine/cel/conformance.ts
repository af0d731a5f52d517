/**
 * Bare CEL expression evaluation for the `cel-eval` conformance op: the expression runs in the Kubernetes
 * base environment (stored-expressions flavour, so every library of the 1.37 line is visible) with each
 * var declared as dyn, under the runtime cost and wall-clock guard.
 */
import { createKubernetesEnvironment, evaluateWithLimits } from './environment';
import { fromConformanceValue, toConformanceValue } from './values';

/**
 * Evaluates a bare CEL expression with the Kubernetes libraries, taking and returning values in the
 * conformance corpus' JSON encoding (FORMAT.md "Values"). Never throws: failures come back as `{error}`.
 */
export function evaluateConformanceExpression(expr: string, vars: Record<string, unknown>): { value?: unknown; error?: string } {
  try {
    const env = createKubernetesEnvironment({ compatibilityVersion: '1.37' });
    const ctx: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(vars ?? {})) {
      env.registerVariable(k, 'dyn');
      ctx[k] = fromConformanceValue(v);
    }
    const r = evaluateWithLimits(env, expr, ctx);
    if ('error' in r) return { error: r.error };
    return { value: toConformanceValue(r.value) };
  } catch (e) {
    return { error: `internal error: ${e instanceof Error ? e.message : String(e)}` };
  }
}
