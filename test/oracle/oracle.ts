/**
 * The reference oracle: a Go program (this folder) that answers conformance cases with the Kubernetes
 * API server's own code. This module builds it when needed, runs it over case files, and compares its
 * answers with the cases' expectations the way test/conformance/runner.ts compares the engine's.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { parseJSONLossless } from '../../server/src/engine/json/lossless';
import { deepEqual, reportedErrorsMatch, type ConformanceCase, type ExpectedError } from '../conformance/runner';

export const ORACLE_DIR = __dirname;
export const ORACLE_BIN = path.join(ORACLE_DIR, 'bin', process.platform === 'win32' ? 'oracle.exe' : 'oracle');

/** One error as the oracle prints it: `detail` is the full Go message (field.Error.Error()). */
export interface OracleError {
  type: string;
  field: string;
  detail: string;
}

/** The oracle's answer to one case, in the shape of a case's `expect`. */
export interface OracleAnswer {
  id: string;
  errors?: OracleError[];
  object?: unknown;
  value?: unknown;
  error?: string;
  /** The server refuses the CR body before validation (HTTP 400); no field errors. */
  rejected?: string;
  oracleError?: string;
}

/** Whether a `go` toolchain is on PATH (the oracle tier runs only then). */
export function goAvailable(): boolean {
  const r = spawnSync('go', ['version'], { encoding: 'utf8' });
  return r.status === 0;
}

function newestSourceMtime(): number {
  let newest = 0;
  for (const f of fs.readdirSync(ORACLE_DIR)) {
    if (f.endsWith('.go') || f === 'go.mod' || f === 'go.sum') {
      newest = Math.max(newest, fs.statSync(path.join(ORACLE_DIR, f)).mtimeMs);
    }
  }
  return newest;
}

/**
 * Builds test/oracle/bin/oracle with `go build` when it is missing or older than its sources.
 * Throws with go's output when the build fails.
 */
export function ensureOracleBinary(opts: { force?: boolean; log?: (msg: string) => void } = {}): string {
  const upToDate = fs.existsSync(ORACLE_BIN) && fs.statSync(ORACLE_BIN).mtimeMs >= newestSourceMtime();
  if (upToDate && !opts.force) return ORACLE_BIN;
  opts.log?.(`building the oracle (go build in ${path.relative(process.cwd(), ORACLE_DIR) || '.'}) ...`);
  const env = { ...process.env, GOFLAGS: process.env.GOFLAGS ?? '-mod=mod' };
  const r = spawnSync('go', ['build', '-o', ORACLE_BIN, '.'], { cwd: ORACLE_DIR, env, encoding: 'utf8' });
  if (r.error) throw new Error(`go build failed to start: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`go build failed:\n${r.stdout}${r.stderr}`);
  return ORACLE_BIN;
}

/** Runs the oracle over raw case lines (JSON text, one case each) and returns its answers in order. */
export function runOracleOnLines(lines: string[], sharedDir: string, bin = ORACLE_BIN): OracleAnswer[] {
  const input = lines.filter((l) => l.trim()).join('\n') + '\n';
  const r = spawnSync(bin, ['--shared', sharedDir], { input, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`oracle exited with ${r.status}: ${r.stderr}`);
  return r.stdout
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => parseJSONLossless(l, { markIntegralFloats: true }) as OracleAnswer);
}

/**
 * FORMAT.md's comparison, as runner.ts errorsMatch does it for the engine, on the oracle's errors:
 * the same set of (type, field) pairs, and each expected detail a substring of a message of its pair.
 */
export function oracleErrorsMatch(expected: ExpectedError[], actual: OracleError[]): boolean {
  return reportedErrorsMatch(
    expected,
    actual.map((e) => ({ type: e.type, field: e.field, message: e.detail })),
  );
}

/** Whether the oracle's answer agrees with the case's expectation (runner.ts runCase semantics). */
export function oracleAgrees(c: Pick<ConformanceCase, 'expect'>, a: OracleAnswer): boolean {
  if (a.oracleError !== undefined || a.rejected !== undefined) return false;
  if ('errors' in c.expect && c.expect.errors) return a.errors !== undefined && oracleErrorsMatch(c.expect.errors, a.errors);
  if ('object' in c.expect) return 'object' in a && deepEqual(c.expect.object, a.object);
  if ('error' in c.expect) return a.error?.includes(c.expect.error ?? '') ?? false;
  if ('value' in c.expect) return a.error === undefined && 'value' in a && deepEqual(c.expect.value, a.value);
  return false;
}
