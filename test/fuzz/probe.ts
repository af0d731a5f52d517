/**
 * Runs language-service calls under watch: an exception, a call over the time budget, or a finding that
 * is one of our own failures (a swallowed exception) is recorded with what reproduces it.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Diagnostic } from 'vscode-languageserver-types';

/** CPU budget per call (the issue's "no hang over 1 s"). */
export const CALL_BUDGET_MS = 1000;

/**
 * The `yaml` package warns through process.emitWarning for every complex mapping key it stringifies
 * (random edits make many); those warnings would bury the test output, so they are counted, not printed.
 */
export const yamlKeyWarnings = { count: 0 };
process.removeAllListeners('warning');
process.on('warning', (w) => {
  if (/Keys with collection values will be stringified/.test(w.message)) yamlKeyWarnings.count++;
  else console.warn(`${w.name}: ${w.message}`);
});

export interface Finding {
  what: string;
  problem: string;
  /** A short description of the input (the seed and step reproduce it). */
  input: string;
}

let gcFn: (() => void) | undefined;
/** A full GC (exposed at runtime, so the tests need no node flag). */
export function gc(): void {
  if (!gcFn) {
    setFlagsFromString('--expose-gc');
    gcFn = runInNewContext('gc') as () => void;
  }
  gcFn();
}

/** Heap in use after a full GC, in MB. */
export function heapMB(): number {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

/**
 * Our own failures surfacing as findings instead of exceptions. The YAML layer's report of a parser
 * stack overflow as a syntax error (input nested too deeply) is graceful and not counted.
 */
export function swallowedFailures<T extends Pick<Diagnostic, 'code' | 'message'>>(diags: T[]): T[] {
  return diags.filter((d) => {
    if (d.code === 'YAMLSyntax') return false;
    if (d.code === 'EngineUnavailable') return true;
    // The API server's own InternalErrors are answers, not failures of ours: nesting past its limit, and a
    // rule scope whose schema has no CEL type (items of a non-list, say: the Go oracle's answer in
    // test/conformance/found/update-found.jsonl, update/cel-items-of-non-list-in-rule-scope).
    if (d.code === 'InternalError') return !/nested too deeply|failed to convert to declType for CEL validation rules/.test(String(d.message));
    return /crd-yaml internal error|internal error validating|CEL evaluation failed|is not a function|Cannot read properties|Maximum call stack|undefined is not|is not iterable/.test(String(d.message));
  });
}

export class Probe {
  readonly findings: Finding[] = [];
  /** Slowest call seen (CPU ms) and what it was. */
  slowest = { ms: 0, what: '' };
  calls = 0;

  constructor(readonly seed: number) {}

  /**
   * Runs fn, recording an exception or an over-budget call; returns its result (undefined on exception).
   * `floorMs`: the CPU time of a plain YAML parse of the same text, for inputs so large that the parse
   * alone (the `yaml` package, which no non-incremental server can avoid) is near the budget; such a
   * call may take 1 s more than 2.5 × the floor.
   */
  call<T>(what: string, input: () => string, fn: () => T, floorMs: number | (() => number) = 0): T | undefined {
    this.calls++;
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    let out: T | undefined;
    try {
      out = fn();
    } catch (e) {
      this.add(what, `threw: ${(e as Error)?.stack ?? String(e)}`, input());
    }
    const wall = performance.now() - w0;
    const c = process.cpuUsage(c0);
    const cpu = (c.user + c.system) / 1000;
    if (cpu > this.slowest.ms) this.slowest = { ms: cpu, what: `${what} on ${input().slice(0, 80)}` };
    // The calls are synchronous, so a hang burns this thread's CPU: the verdict is on CPU time, never on wall
    // time alone (a loaded machine stretches wall time, not work). CPU time counts GC helper threads too, so
    // a call is charged only when its wall time is over the budget as well.
    const over = (floor: number) => Math.min(cpu, wall) > CALL_BUDGET_MS + 2.5 * floor;
    // The floor is measured only when needed (it costs a full parse of a huge text).
    if (over(0) && over(typeof floorMs === 'number' ? floorMs : floorMs())) this.add(what, `took ${cpu.toFixed(0)} ms CPU, ${wall.toFixed(0)} ms wall`, input());
    return out;
  }

  add(what: string, problem: string, input: string): void {
    if (this.findings.length < 50) this.findings.push({ what, problem, input: input.length > 600 ? `${input.slice(0, 600)}… (${input.length} chars)` : input });
  }

  /** A failure message naming the seed, for assert. */
  report(): string {
    return `${this.findings.length} finding(s); reproduce with CRD_YAML_FUZZ_SEED=${this.seed}\n${this.findings
      .slice(0, 10)
      .map((f) => `- ${f.what}: ${f.problem.slice(0, 1500)}\n  input: ${JSON.stringify(f.input)}`)
      .join('\n')}`;
  }
}
