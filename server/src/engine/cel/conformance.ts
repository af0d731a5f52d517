/**
 * Evaluates a bare CEL expression with the Kubernetes libraries, taking and returning values in the
 * conformance corpus' JSON encoding (FORMAT.md "Values").
 */
export function evaluateConformanceExpression(expr: string, vars: Record<string, unknown>): { value?: unknown; error?: string } {
  void expr;
  void vars;
  throw new Error('not implemented: CEL evaluation');
}
