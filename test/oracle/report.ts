/**
 * JSON output helpers for oracle reports.
 */

/** JSON.stringify replacer: bigints (lossless int64s) as their decimal text. */
export function jsonReplacer(_k: string, v: unknown): unknown {
  return typeof v === 'bigint' ? v.toString() : v;
}
