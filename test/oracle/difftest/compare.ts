/**
 * Runs one case through the engine (test/conformance/ops.ts) and compares with the oracle's answer:
 * errors must be the same (type, field) set with the oracle's full message contained in the engine's,
 * objects and values deep-equal (ints and doubles kept apart).
 */
import { parseJSONLossless } from '../../../server/src/engine/json/lossless';
import { errorMessage } from '../../../server/src/engine/field';
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
      return { comparable: true, agree: errorsMatch(oracle.errors.map((e) => ({ ...e, detail: stableDetail(e.detail) })), errs), engine };
    }
    if ('object' in oracle) return { comparable: true, agree: deepEqual(oracle.object, out.object), engine: { object: out.object } };
    if (oracle.error !== undefined) return { comparable: true, agree: out.error !== undefined, engine: { error: out.error, value: out.value } };
    return { comparable: true, agree: out.error === undefined && deepEqual(costComparable(oracle.value), costComparable(out.value)), engine: { error: out.error, value: out.value } };
  } catch (e) {
    return { comparable: true, agree: false, engine: { exception: e instanceof Error ? e.message : String(e) } };
  }
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
