/**
 * The runtime guard shared by the evaluator and library functions: a per-evaluation cost budget (the
 * API server's per-call limit, charged as cel-go's runtime cost tracker charges) and a wall-clock
 * deadline as the backstop, so no expression can run away in the editor.
 *
 * Two meters: `cost` follows cel-go's actual cost (what the limit and the per-object budget are about);
 * `work` estimates the time spent (elements copied, characters scanned) where our JavaScript does more
 * than cel-go charges for (e.g. list `+` is O(1) in cel-go, O(n) here). Work only decides when to read
 * the clock (reading it costs ~0.1-0.5 µs), it never fails an evaluation by itself.
 *
 * Why module state: cel-js gives function handlers no per-evaluation context, and evaluation is
 * synchronous, so the one active budget is kept here for the duration of a single evaluate call.
 */

/** Kubernetes' PerCallLimit (apiserver pkg/apis/cel/config.go): cost units one evaluation may spend. */
export const PER_CALL_LIMIT = 1_000_000;

/** Default wall-clock bound of one evaluation (ms): the backstop behind the cost limit. */
export const DEFAULT_TIMEOUT_MS = 50;

/** Work units between two clock reads (a node evaluation is 16, a list element or 16 characters 1). */
const WORK_PER_CLOCK_READ = 4096;
/** Work units of one evaluated AST node. */
export const NODE_WORK = 16;

/**
 * Error thrown when the budget or the deadline runs out. The wording is cel-go's: the cost tracker's
 * panic for the cost limit; for the deadline, the interrupt error ContextEval wraps with the context's
 * cause, as the API server reports a rule cut by its request deadline.
 */
export class CostLimitExceeded extends Error {
  constructor(readonly reason: 'cost' | 'time') {
    super(reason === 'cost' ? 'operation cancelled: actual cost limit exceeded' : 'operation interrupted: context deadline exceeded');
  }
}

interface Budget {
  limit: number;
  /** Cost spent so far (cel-go's ActualCost). */
  spent: number;
  deadline: number;
  /** Work since the clock was last read. */
  work: number;
  /** Once exceeded, every later charge rethrows this same object: cel-js' all/exists absorb errors
   * and keep iterating, so the stop must be sticky and cheap (no new stack trace per iteration). */
  exceeded?: CostLimitExceeded;
}

let active: Budget | undefined;

/** What an evaluation spent, filled in when withBudget returns or throws. */
export interface CostMeter {
  cost: number;
}

/**
 * Runs fn with a fresh budget (cost limit and a deadline timeoutMs from now); budgets nest (the outer
 * one is restored afterwards, and is not charged for the inner one). The spent cost goes to meter.
 */
export function withBudget<T>(costLimit: number, timeoutMs: number, fn: () => T, meter?: CostMeter): T {
  const prev = active;
  const b: Budget = { limit: costLimit, spent: 0, deadline: Date.now() + timeoutMs, work: 0 };
  active = b;
  try {
    return fn();
  } finally {
    active = prev;
    if (meter) meter.cost = b.spent;
  }
}

function readClock(b: Budget): void {
  b.work = 0;
  if (Date.now() > b.deadline) throw (b.exceeded = new CostLimitExceeded('time'));
}

/**
 * Spends n cost units (one per evaluated node, or what cel-go charges for a call, e.g. a tenth of the
 * string length), before the work is done where possible so the limit stops it. work defaults to n.
 */
export function chargeCost(n: number, work = n): void {
  const b = active;
  if (!b) return;
  if (b.exceeded) throw b.exceeded;
  b.spent += n;
  if (b.spent > b.limit) throw (b.exceeded = new CostLimitExceeded('cost'));
  b.work += work;
  if (b.work >= WORK_PER_CLOCK_READ) readClock(b);
}

/** Records time-consuming work that cel-go does not charge as cost (e.g. copying a list for `+`). */
export function chargeWork(n: number): void {
  const b = active;
  if (!b) return;
  if (b.exceeded) throw b.exceeded;
  b.work += n;
  if (b.work >= WORK_PER_CLOCK_READ) readClock(b);
}

/** The limit error of the active evaluation, if it ran out (errors may have been absorbed on the way). */
export function budgetExceeded(): CostLimitExceeded | undefined {
  return active?.exceeded;
}

/** Cost units left in the active evaluation (for tests and diagnostics). */
export function remainingCost(): number | undefined {
  return active ? active.limit - active.spent : undefined;
}
