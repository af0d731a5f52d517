/**
 * The one conformance runner: loads cases of the shared corpus format (../shared/conformance/FORMAT.md),
 * runs each through the engine, and compares with the expectation as FORMAT.md defines it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseJSONLossless, IntegralFloat } from '../../server/src/engine/json/lossless';
import { errorMessage, type FieldError } from '../../server/src/engine/field';
import { runOp } from './ops';
import { sharedDir } from '../shared';

export interface ExpectedError {
  type: string;
  field: string;
  detail?: string;
}

export interface ConformanceCase {
  id: string;
  source?: string;
  op: string;
  schema?: unknown;
  crd?: unknown;
  crdFile?: string;
  /** Extension (test/oracle/README.md): the stored CRD of a `crd` update. */
  oldCrd?: unknown;
  version?: string;
  object?: unknown;
  oldObject?: unknown;
  isResourceRoot?: boolean;
  expr?: string;
  vars?: Record<string, unknown>;
  /** Extension (test/oracle/README.md), cel-compile: the compatibility version of the new-expression environment. */
  compatibilityVersion?: string;
  expect: { errors?: ExpectedError[]; object?: unknown; value?: unknown; error?: string };
  /** Where the case was read from (set by the loader). */
  file: string;
}

export interface CaseResult {
  id: string;
  file: string;
  passed: boolean;
  expected: unknown;
  actual: unknown;
}

export interface RunContext {
  sharedDir: string;
}

/** The files named by paths (files or folders, recursively), `.jsonl` only, sorted. */
export function listCaseFiles(paths: string[]): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const st = fs.statSync(p);
    if (st.isDirectory()) for (const e of fs.readdirSync(p).sort()) walk(path.join(p, e));
    else if (p.endsWith('.jsonl')) out.push(p);
  };
  for (const p of paths) if (fs.existsSync(p)) walk(p);
  return out;
}

export function loadCases(file: string): ConformanceCase[] {
  const cases: ConformanceCase[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const c = parseJSONLossless(line, { markIntegralFloats: true }) as ConformanceCase;
    c.file = file;
    cases.push(c);
  }
  return cases;
}

export function runCase(c: ConformanceCase, ctx: RunContext): CaseResult {
  let actual: unknown;
  let passed = false;
  try {
    const out = runOp(c, ctx);
    if ('errors' in c.expect && c.expect.errors) {
      const errs = (out.errors ?? []).filter((e) => (e.severity ?? 'error') === 'error');
      actual = errs.map((e) => ({ type: e.type, field: e.field, message: errorMessage(e) }));
      passed = errorsMatch(c.expect.errors, errs);
    } else if ('object' in c.expect) {
      actual = out.object;
      passed = deepEqual(c.expect.object, out.object);
    } else if ('value' in c.expect || 'error' in c.expect) {
      actual = out.error !== undefined ? { error: out.error } : { value: out.value };
      if ('error' in c.expect) passed = out.error?.includes(c.expect.error ?? '') ?? false;
      else passed = out.error === undefined && deepEqual(c.expect.value, out.value);
    } else {
      actual = { unsupportedExpectation: Object.keys(c.expect) };
    }
  } catch (e) {
    actual = { exception: e instanceof Error ? e.message : String(e) };
    passed = false;
  }
  return { id: c.id, file: c.file, passed, expected: c.expect, actual };
}

/** FORMAT.md: same set of (type, field) pairs, and each given detail is a substring of that pair's message. */
export function errorsMatch(expected: ExpectedError[], actual: FieldError[]): boolean {
  return reportedErrorsMatch(
    expected,
    actual.map((e) => ({ type: e.type, field: e.field, message: errorMessage(e) })),
  );
}

/** errorsMatch on errors already printed (`message` is the full `field: body` text), e.g. the Go oracle's. */
export function reportedErrorsMatch(expected: ExpectedError[], actual: { type: string; field: string; message: string }[]): boolean {
  const key = (t: string, f: string) => `${t}\u0000${f}`;
  const actualByKey = new Map<string, string[]>();
  for (const e of actual) {
    const k = key(e.type, e.field);
    const list = actualByKey.get(k) ?? [];
    list.push(e.message);
    actualByKey.set(k, list);
  }
  const expectedKeys = new Set(expected.map((e) => key(e.type, e.field)));
  if (expectedKeys.size !== actualByKey.size) return false;
  for (const k of expectedKeys) if (!actualByKey.has(k)) return false;
  for (const e of expected) {
    if (!e.detail) continue;
    const msgs = actualByKey.get(key(e.type, e.field))!;
    if (!msgs.some((m) => m.includes(e.detail!))) return false;
  }
  return true;
}

/** Structural equality that keeps int and double apart (IntegralFloat vs number) and bigint exact. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a instanceof IntegralFloat || b instanceof IntegralFloat) {
    return a instanceof IntegralFloat && b instanceof IntegralFloat && a.value === b.value;
  }
  if (typeof a === 'bigint' || typeof b === 'bigint') {
    return (typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number') && BigInt(a as number) === BigInt(b as number);
  }
  if (typeof a === 'number' && typeof b === 'number') return a === b || (Number.isNaN(a) && Number.isNaN(b));
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Where the shared folder is by default: `../shared` beside the checkout. */
export function defaultSharedDir(): string {
  return sharedDir();
}

/** The project's own corpus, run with the shared one. */
export const PROJECT_CORPUS = path.resolve(__dirname, 'found');

export const EXPECTED_FAILURES_FILE = path.resolve(__dirname, 'expected-failures.json');

export function readExpectedFailures(): Record<string, string> {
  if (!fs.existsSync(EXPECTED_FAILURES_FILE)) return {};
  return JSON.parse(fs.readFileSync(EXPECTED_FAILURES_FILE, 'utf8')) as Record<string, string>;
}
