/**
 * The wall-clock safety net of an evaluation. Cost limits stop rules (the interpreter's Tracker, runtime/interpreter.ts, as cel-go
 * charges them); this only keeps the editor responsive should some operation take far longer here
 * than its cost says (the API server has its request deadline for the same purpose). Library code
 * reports the work it does (characters scanned, elements copied) with `work(n)`; the clock is read
 * every few thousand units. No test decides pass or fail by this deadline.
 *
 * Module state: evaluation is synchronous and library functions get no context argument, so the one
 * active evaluation is kept here for the duration of a call.
 */

/** Work units between two clock reads. */
const WORK_PER_CLOCK_READ = 8192;

/** Thrown when the deadline passes; the interpreter reports cel-go's interrupt error. */
export class DeadlineExceeded extends Error {
  constructor() {
    super('operation interrupted');
  }
}

interface Guard {
  deadline: number;
  work: number;
  /** All work reported during this guard (tests bound it by the cost spent: machine-independent). */
  total: number;
}

let active: Guard | undefined;

/** Runs fn with a deadline timeoutMs from now (nesting restores the outer one); work = the work it reported. */
export function withDeadline<T>(timeoutMs: number, fn: () => T): { result: T; work: number } {
  const prev = active;
  const g: Guard = { deadline: Date.now() + timeoutMs, work: 0, total: 0 };
  active = g;
  try {
    const result = fn();
    return { result, work: g.total };
  } finally {
    active = prev;
  }
}

/** Records n units of work; throws DeadlineExceeded once the deadline has passed. */
export function work(n: number): void {
  const g = active;
  if (!g) return;
  g.work += n;
  g.total += n;
  if (g.work >= WORK_PER_CLOCK_READ) {
    g.work = 0;
    if (Date.now() > g.deadline) throw new DeadlineExceeded();
  }
}
