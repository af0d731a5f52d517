/**
 * The runtime guard shared by the evaluator and library functions: a per-evaluation cost budget (the
 * API server's per-call limit) and a wall-clock deadline, so no expression can run away in the editor.
 *
 * Why module state: cel-js gives function handlers no per-evaluation context, and evaluation is
 * synchronous, so the one active budget is kept here for the duration of a single evaluate call.
 */

/** Kubernetes' PerCallLimit (apiserver pkg/apis/cel/config.go): cost units one evaluation may spend. */
export const PER_CALL_LIMIT = 1_000_000;

/** Error thrown when the budget or the deadline runs out; cel-go's wording. */
export class CostLimitExceeded extends Error {
  constructor(readonly reason: 'cost' | 'time') {
    super(reason === 'cost' ? 'operation cancelled: actual cost limit exceeded' : 'operation cancelled: evaluation timed out');
  }
}

interface Budget {
  remaining: number;
  deadline: number;
  ticks: number;
  /** Cost spent since the clock was last read (big single charges read it at once). */
  sinceCheck: number;
  /** Once exceeded, every later charge rethrows this same object: cel-js' all/exists absorb errors
   * and keep iterating, so the stop must be sticky and cheap (no new stack trace per iteration). */
  exceeded?: CostLimitExceeded;
}

let active: Budget | undefined;

/** Runs fn with a fresh budget; budgets nest (the inner one is restored afterwards). */
export function withBudget<T>(costLimit: number, timeoutMs: number, fn: () => T): T {
  const prev = active;
  active = { remaining: costLimit, deadline: Date.now() + timeoutMs, ticks: 0, sinceCheck: 0 };
  try {
    return fn();
  } finally {
    active = prev;
  }
}

/** Spends n cost units (e.g. one per evaluated node, or the size of a list a function builds). */
export function chargeCost(n: number): void {
  const b = active;
  if (!b) return;
  if (b.exceeded) throw b.exceeded;
  b.remaining -= n;
  if (b.remaining < 0) throw (b.exceeded = new CostLimitExceeded('cost'));
  b.ticks += 1;
  b.sinceCheck += n;
  if (((b.ticks & 255) === 0 || b.sinceCheck >= 4096) && Date.now() > b.deadline) throw (b.exceeded = new CostLimitExceeded('time'));
  if (b.sinceCheck >= 4096) b.sinceCheck = 0;
}

/** The limit error of the active evaluation, if it ran out (errors may have been absorbed on the way). */
export function budgetExceeded(): CostLimitExceeded | undefined {
  return active?.exceeded;
}

/** Cost units spent so far in the active evaluation (for tests and diagnostics). */
export function remainingCost(): number | undefined {
  return active?.remaining;
}
