/**
 * A tiny test runner for the extension host (no mocha): tests register with `test()`, `run()` runs them in
 * order with a per-test timeout (a hang guard: it ends a test that would wait forever, and no test's
 * verdict is its duration, which is reported only). It is the `extensionTestsPath` entry point for both code-server (which
 * waits for the RESULT file named by CRD_YAML_E2E_RESULT) and @vscode/test-electron (which waits for the
 * promise: a rejection makes VS Code exit non-zero).
 */
import { writeFileSync } from 'node:fs';

type TestFn = () => Promise<void> | void;
interface TestCase {
  name: string;
  fn: TestFn;
  timeoutMs: number;
}
export interface TestOutcome {
  name: string;
  ok: boolean;
  ms: number;
  error?: string;
}

const tests: TestCase[] = [];

/** Registers a test; tests run in registration order (later tests may rely on earlier ones' state). */
export function test(name: string, fn: TestFn, timeoutMs = 60_000): void {
  tests.push({ name, fn, timeoutMs });
}

function withTimeout(p: Promise<void>, ms: number, name: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<void>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hang guard: no end within ${ms} ms: ${name}`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/** Runs every registered test; writes the RESULT file when asked to; rejects when a test failed. */
export async function runTests(): Promise<TestOutcome[]> {
  const outcomes: TestOutcome[] = [];
  const t0 = Date.now();
  for (const t of tests) {
    const start = Date.now();
    try {
      await withTimeout(Promise.resolve().then(t.fn), t.timeoutMs, t.name);
      outcomes.push({ name: t.name, ok: true, ms: Date.now() - start });
      console.log(`ok - ${t.name} (${Date.now() - start} ms)`);
    } catch (e) {
      const error = e instanceof Error ? (e.stack ?? e.message) : String(e);
      outcomes.push({ name: t.name, ok: false, ms: Date.now() - start, error });
      console.error(`not ok - ${t.name}\n${error}`);
    }
  }
  const failed = outcomes.filter((o) => !o.ok).length;
  const result = { ok: failed === 0, passed: outcomes.length - failed, failed, ms: Date.now() - t0, tests: outcomes };
  const file = process.env.CRD_YAML_E2E_RESULT;
  if (file) writeFileSync(file, JSON.stringify(result, null, 2));
  if (failed) throw new Error(`${failed} of ${outcomes.length} extension tests failed`);
  return outcomes;
}
