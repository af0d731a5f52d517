/**
 * Static cost estimation of CRD rules (cel-go checker/cost.go with the Kubernetes library costs and
 * the schema-derived size estimates of apiextensions' sizeEstimator). Placeholder: refined below.
 */
import type { ASTNode } from '@marcbachmann/cel-js';
import type { CelType, DeclType } from './types';

/** Worst-case cost of an expression (CostEstimate.Max). */
export function estimateCost(ast: ASTNode, self: DeclType, vars: Map<string, CelType>): number {
  void ast;
  void self;
  void vars;
  return 1;
}
