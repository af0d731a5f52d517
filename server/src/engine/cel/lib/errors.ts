/**
 * Runtime errors raised by our library functions, worded as cel-go/Kubernetes word them.
 */

/** A CEL evaluation error with cel-go's message (the conformance runner matches on substrings of it). */
export class CelRuntimeError extends Error {
  /** cel-js reads `summary` for the message without source excerpt. */
  get summary(): string {
    return this.message;
  }
}

/** Throws a CelRuntimeError with msg. */
export function fail(msg: string): never {
  throw new CelRuntimeError(msg);
}

/** A JS number from a CEL int (bigint), for indexes and counts. */
export function num(v: bigint | number): number {
  return Number(v);
}
