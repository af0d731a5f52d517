/**
 * Runs one case through the engine (test/conformance/ops.ts) and compares with the oracle's answer:
 * errors must be the same (type, field) set with the oracle's full message contained in the engine's,
 * objects and values deep-equal (ints and doubles kept apart).
 */
import { parseJSONLossless } from '../../../server/src/engine/json/lossless';
import { errorMessage, type FieldError } from '../../../server/src/engine/field';
import { runOp } from '../../conformance/ops';
import { deepEqual, errorsMatch, type ConformanceCase } from '../../conformance/runner';
import type { OracleAnswer } from '../oracle';

export interface EngineAnswer {
  errors?: { type: string; field: string; detail: string }[];
  object?: unknown;
  value?: unknown;
  error?: string;
  exception?: string;
}

export interface Verdict {
  /** The oracle could run the case (otherwise nothing is compared). */
  comparable: boolean;
  agree: boolean;
  engine: EngineAnswer;
}

/**
 * A detail with its nondeterministic part cut: compilation.go names the type of self
 * `selfType<time.Now().Nanosecond()>`, so the message is only comparable up to that name.
 */
export function stableDetail(detail: string): string {
  return detail.replace(/selfType\d+[\s\S]*$/, 'selfType');
}

/** The oracle's answer as a conformance expectation (full messages as details, cut where nondeterministic). */
export function oracleExpectation(a: OracleAnswer): Record<string, unknown> {
  if (a.errors) return { errors: a.errors.map((e) => ({ type: e.type, field: e.field, detail: stableDetail(e.detail) })) };
  if ('object' in a) return { object: a.object };
  if (a.error !== undefined) return { error: a.error };
  return { value: a.value };
}

export function compareCase(text: string, oracle: OracleAnswer, sharedDir: string): Verdict {
  // Not comparable: the oracle cannot run the case, or the server refuses the body before validation
  // (HTTP 400; the engine reports those as field errors, the format has no way to say "rejected").
  if (oracle.oracleError !== undefined || oracle.rejected !== undefined) return { comparable: false, agree: false, engine: {} };
  const c = parseJSONLossless(text, { markIntegralFloats: true }) as ConformanceCase;
  c.file = '<difftest>';
  try {
    const out = runOp(c, { sharedDir });
    if (oracle.errors) {
      const errs = (out.errors ?? []).filter((e) => (e.severity ?? 'error') === 'error');
      const engine = { errors: errs.map((e) => ({ type: e.type, field: e.field, detail: errorMessage(e) })) };
      const tied = withoutTiedContributions(oracle.errors, errs);
      return {
        comparable: true,
        agree: errorsMatch(
          tied.oracle.map((e) => ({ ...e, detail: stableDetail(e.detail) })),
          tied.engine,
        ),
        engine,
      };
    }
    if ('object' in oracle) return { comparable: true, agree: deepEqual(oracle.object, out.object), engine: { object: out.object } };
    if (oracle.error !== undefined) return { comparable: true, agree: out.error !== undefined, engine: { error: out.error, value: out.value } };
    return { comparable: true, agree: out.error === undefined && deepEqual(costComparable(oracle.value), costComparable(out.value)), engine: { error: out.error, value: out.value } };
  } catch (e) {
    return { comparable: true, agree: false, engine: { exception: e instanceof Error ? e.message : String(e) } };
  }
}

const CONTRIBUTED = 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema';

/**
 * TotalCost.ObserveExpressionCost keeps the 4 most expensive expressions in the order the schema walk
 * observes them, and that walk ranges over the Go map `schema.Properties` (randomized): among
 * expressions of equal cost at the cut, which ones are listed varies between runs of the Kubernetes
 * code itself. The two lists are taken as the same (and left out of the comparison) when they are as
 * long and every expression only the engine lists costs as much as the engine's cheapest listed one.
 */
export function withoutTiedContributions<O extends { type: string; field: string; detail: string }>(oracle: O[], engine: FieldError[]): { oracle: O[]; engine: FieldError[] } {
  const isContribution = (e: { type: string; detail: string }) => e.type === 'FieldValueForbidden' && e.detail.endsWith(CONTRIBUTED);
  const o = oracle.filter(isContribution);
  const en = engine.filter((e) => isContribution({ type: e.type, detail: errorMessage(e) }));
  if (o.length === 0 || o.length !== en.length) return { oracle, engine };
  const cost = (e: FieldError) => e.params?.cost?.estimated;
  const cut = Math.min(...en.map((e) => Number(cost(e))));
  const listedByOracle = new Set(o.map((e) => e.field));
  const onlyEngine = en.filter((e) => !listedByOracle.has(e.field));
  if (onlyEngine.length === 0 || !onlyEngine.every((e) => Number(cost(e)) === cut)) return { oracle, engine };
  return { oracle: oracle.filter((e) => !isContribution(e)), engine: engine.filter((e) => !en.includes(e)) };
}

/**
 * cel-cost answers: estimates at or above 2^53 are compared to 15 significant digits (the engine's
 * estimator works in doubles; only comparisons with the limits and the exceed factor depend on them,
 * see found/UNRESOLVED.md).
 */
function costComparable(v: unknown): unknown {
  if (!v || typeof v !== 'object' || !('estimatedMax' in v)) return v;
  const e = (v as { estimatedMax: unknown }).estimatedMax;
  const n = typeof e === 'bigint' ? Number(e) : typeof e === 'number' ? e : typeof e === 'object' && e !== null && 'value' in e ? Number((e as { value: unknown }).value) : NaN;
  if (!(n >= 2 ** 53)) return v;
  return { ...(v as object), estimatedMax: Number(n.toPrecision(15)) };
}
