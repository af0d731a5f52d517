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

const INVALID_DATA = Symbol.for('crd-yaml.cel.invalidData');
const INVALID_DATA_PREFIX = '\u0000celdata:';
const invalidDataClasses = new Map<string, new () => object>();

/**
 * A value UnstructuredToVal cannot convert (cel-go's types.NewErr): an instance of a class cel-js does
 * not know, named by the error, so the first access to it (reading the variable, selecting the field)
 * fails with `Unsupported type: <message>` (see invalidDataMessage), as the error value fails in cel-go;
 * our own library functions fail with the message itself (invalidDataOf).
 */
export function invalidData(message: string): object {
  let C = invalidDataClasses.get(message);
  if (!C) {
    C = class {};
    Object.defineProperty(C, 'name', { value: INVALID_DATA_PREFIX + message });
    Object.defineProperty(C.prototype, INVALID_DATA, { value: message });
    invalidDataClasses.set(message, C);
  }
  return new C();
}

/** The conversion error an invalidData value stands for, if v is one. */
export function invalidDataOf(v: unknown): string | undefined {
  return typeof v === 'object' && v !== null ? ((v as Record<symbol, string | undefined>)[INVALID_DATA] ?? undefined) : undefined;
}

/** The conversion error of a cel-js evaluation error caused by reading an invalidData value, if it is one. */
export function invalidDataMessage(error: string): string | undefined {
  const i = error.indexOf(INVALID_DATA_PREFIX);
  return i < 0 ? undefined : error.slice(i + INVALID_DATA_PREFIX.length);
}

/** A JS number from a CEL int (bigint), for indexes and counts. */
export function num(v: bigint | number): number {
  return Number(v);
}
