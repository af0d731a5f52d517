/**
 * The memory bound of a file's parse (budget.ts says how it is kept), apart from budget.ts so that the
 * CLI's launcher sizes its check workers by it without loading the `yaml` package (cli/jobs.ts).
 */

/** The memory a file's parse may take: this many bytes per character of the file ... */
export const PARSE_BYTES_PER_CHAR = 20;
/** ... plus this fixed allowance (a 40,000-key map of 550 KB needs about 80 MB). */
export const PARSE_FIXED_BYTES = 128 * 1024 * 1024;

/** The bound on the memory of parsing a file of `chars` characters. */
export function parseBytesBound(chars: number): number {
  return PARSE_BYTES_PER_CHAR * chars + PARSE_FIXED_BYTES;
}
