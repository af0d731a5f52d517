/**
 * Cost helpers of the libraries (cel-go's regex cost, apiserver pkg/cel/library/cost.go's parse and
 * accessor costs), shared by the library files.
 */
import { R, STRING_TRAVERSAL_COST_FACTOR, REGEX_STRING_LENGTH_COST_FACTOR, fixed, type EstimateNode, type EstimatorContext } from '../cost/model';
import { k8sActualSize } from '../runtime/size';
import type { Val } from '../runtime/values';
import { traversal } from './decls';

/** ceil(0.1 * (1 + |s|)) * ceil(0.25 * |pattern|) (cel-go's regex cost). */
export function regexCost(strSize: number, patternSize: number): number {
  return Math.ceil((1 + strSize) * STRING_TRAVERSAL_COST_FACTOR) * Math.ceil(patternSize * REGEX_STRING_LENGTH_COST_FACTOR);
}

/** Cost of parsing the first argument: a traversal of it (Kubernetes CostEstimator). */
export const parseCost = {
  estimate: (ctx: EstimatorContext, _id: string, _t: EstimateNode | undefined, args: EstimateNode[]) => (args.length >= 1 ? { cost: R.factor(ctx.sizeEstimate(args[0]), STRING_TRAVERSAL_COST_FACTOR) } : undefined),
  cost: (_id: string, args: Val[]) => (args.length >= 1 ? traversal(k8sActualSize(args[0])) : undefined),
};

/** Accessors and comparisons of the Kubernetes types cost 1 (estimate and runtime). */
export const unitCost = { estimate: () => ({ cost: fixed(1) }), cost: () => 1 };
