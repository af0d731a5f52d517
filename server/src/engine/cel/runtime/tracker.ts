/**
 * cel-go's runtime cost tracker (interpreter/runtimecost.go) for one evaluation at a time: the
 * interpreter charges each step, the libraries check a charge to come (ensureBudget), and the limit
 * is checked after every charge, so a rule stops exactly where the API server stops it.
 */
import { work } from './guard';

/** Thrown when the cost limit is exceeded: the evaluation stops at once (cel-go panics likewise). */
export class CostLimitExceeded extends Error {
  constructor() {
    super('operation cancelled: actual cost limit exceeded');
  }
}

/** The cost tracker of one evaluation. */
export class Tracker {
  cost = 0;
  private ticks = 0;
  constructor(readonly limit: number) {}
  charge(n: number): void {
    this.cost += n;
    if (this.cost > this.limit) throw new CostLimitExceeded();
    // Each charge is a step of the interpreter: reported as work in batches (the clock is read there).
    if ((++this.ticks & 255) === 0) work(256);
  }
}

let current: Tracker = new Tracker(Infinity);

/** Charges the running evaluation. */
export function charge(n: number): void {
  current.charge(n);
}

/**
 * For library functions whose result cel-go builds before charging it (lists.range, replace with an
 * empty pattern): stops with the cost-limit error when the charge to come cannot fit, instead of
 * first building a result larger than any API server could (it would run out of memory).
 */
export function ensureBudget(n: number): void {
  if (current.cost + n > current.limit) current.charge(n);
}

/** Runs fn with t as the tracker (an evaluation, or constants folded at planning with no limit). */
export function tracking<R>(t: Tracker, fn: () => R): R {
  const saved = current;
  current = t;
  try {
    return fn();
  } finally {
    current = saved;
  }
}
