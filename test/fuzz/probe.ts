/**
 * Runs language-service calls under watch: an exception, a call whose work is over the engine's bounds,
 * or a finding that is one of our own failures (a swallowed exception) is recorded with what reproduces it.
 *
 * Work, not time, is the verdict (the developers' guide: no test decides by the clock). Each call is
 * charged what the engine's counters say it did: CEL work against the cost charged for it (and no
 * evaluation past its cost limit ending with a value), pattern steps against the per-object budgets made,
 * YAML key-index and alias-walk nodes against the characters the call could read. A call's CPU time is
 * measured and printed (the slowest), never asserted: speed belongs in `npm run bench`. A call that never
 * ends (an endless loop in synchronous code) cannot be interrupted from inside the process: the test
 * run's own time limit (CI) is the only guard for that, and no verdict here depends on it.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Diagnostic } from 'vscode-languageserver-types';
import { evaluationWork, WORK_PER_COST, WORK_PER_EVALUATION } from '../../server/src/engine/cel/environment';
import { OBJECT_WORK_LIMIT, patternWork } from '../../server/src/engine/regex/re2';
import { pathWork } from '../../server/src/yaml/path';
import { itemScalarWork } from '../../server/src/yaml/itemScalars';

/**
 * YAML nodes a call may index or walk per character it could read (the document, and the CRD texts the
 * service holds): a mapping's keys are indexed once per mapping, an alias's target walked once per
 * document; every key and node takes at least one character, so linear work stays under 1 per character.
 */
export const YAML_NODES_PER_CHAR = 1;

/** The engine's work counters of this thread (every LanguageService in the process adds to them). */
export function workCounters() {
  return {
    celEvaluations: evaluationWork.evaluations,
    celCost: evaluationWork.cost,
    celWork: evaluationWork.work,
    celStoppedByLimit: evaluationWork.stoppedByLimit,
    celInterrupted: evaluationWork.interrupted,
    celPastLimitNotStopped: evaluationWork.pastLimitNotStopped,
    patternSteps: patternWork.steps,
    patternBudgets: patternWork.budgets,
    patternRefused: patternWork.refused,
    yamlPairsIndexed: pathWork.pairsIndexed,
    yamlAliasWalkNodes: pathWork.aliasWalkNodes,
    yamlLinesScanned: itemScalarWork.lines,
  };
}
export type WorkCounters = ReturnType<typeof workCounters>;

/** Counters spent between two readings. */
export function workSince(before: WorkCounters, after = workCounters()): WorkCounters {
  return Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - before[k as keyof WorkCounters]])) as WorkCounters;
}

/**
 * YAML nodes the YAML layer visited and keys it looked up decoding a parsed file's documents as kubectl
 * does (yaml/decode.ts DecodeWork; aliases are counted, not walked again): linear work is at most one
 * per character of the text.
 */
export function decodedNodes(file: { documents: ReadonlyArray<{ decodeWork: { nodesVisited: number; keyLookups: number } }> }): number {
  return file.documents.reduce((n, d) => n + d.decodeWork.nodesVisited + d.decodeWork.keyLookups, 0);
}

/**
 * What a call's work breaks of the engine's bounds, for a call that could read `chars` characters
 * (empty when within them): CEL work is bounded by the cost charged, an evaluation past its cost limit
 * is stopped, pattern steps stay within the budgets of the objects checked, YAML work is linear in the text.
 */
export function overBounds(w: WorkCounters, chars: number): string[] {
  const out: string[] = [];
  const celBound = WORK_PER_COST * w.celCost + WORK_PER_EVALUATION * w.celEvaluations;
  if (w.celWork > celBound) out.push(`CEL work ${w.celWork} over ${celBound} (cost ${w.celCost} in ${w.celEvaluations} evaluations)`);
  if (w.celPastLimitNotStopped > 0) out.push(`${w.celPastLimitNotStopped} CEL evaluation(s) charged past their cost limit not stopped by it`);
  // (One budget more: validation outside a validation call shares the thread's one lasting budget: engine/validation/result.ts currentRun.)
  const patternBound = OBJECT_WORK_LIMIT * (w.patternBudgets + 1);
  if (w.patternSteps > patternBound) out.push(`pattern steps ${w.patternSteps} over ${patternBound}: ${w.patternBudgets} object budget(s) of ${OBJECT_WORK_LIMIT} made, and the lasting one`);
  const yamlNodes = w.yamlPairsIndexed + w.yamlAliasWalkNodes;
  if (yamlNodes > YAML_NODES_PER_CHAR * chars + 100) out.push(`YAML key-index and alias-walk nodes ${yamlNodes} for ${chars} characters`);
  // The line-by-line rule finder (yaml/itemScalars.ts) reads a line at most twice: itself, and ahead from the line before.
  if (w.yamlLinesScanned > 2 * (chars + 1)) out.push(`YAML lines scanned ${w.yamlLinesScanned} for ${chars} characters`);
  return out;
}

/** Throws unless each token lies on its line, after the one before it (what LSP's encoding needs). */
export function celTokensOnTheirLines(text: string, tokens: Array<{ line: number; character: number; length: number }>): void {
  const lines = text.split(/\r\n|\r|\n/);
  let end = { line: -1, character: 0 };
  for (const t of tokens) {
    const ok = t.length > 0 && t.line < lines.length && t.character + t.length <= lines[t.line].length && (t.line > end.line || t.character >= end.character);
    if (!ok) throw new Error(`token ${JSON.stringify(t)} not on its line ${JSON.stringify(lines[t.line])} or not after ${JSON.stringify(end)}`);
    end = { line: t.line, character: t.character + t.length };
  }
}

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
  /** Slowest call seen (CPU ms) and what it was: printed, never asserted. */
  slowest = { ms: 0, what: '' };
  calls = 0;
  /** The work of the last call. */
  last = workSince(workCounters());
  /** The counters when the probe was made (for the summary line). */
  private readonly started = workCounters();

  constructor(readonly seed: number) {}

  /**
   * Runs fn, recording an exception or work over the engine's bounds; returns its result (undefined on
   * exception). `chars`: how many characters the call could read (the document's text, plus the CRD texts
   * the service holds), the size its YAML work is bounded by.
   */
  call<T>(what: string, input: () => string, fn: () => T, chars = 0): T | undefined {
    this.calls++;
    const before = workCounters();
    const c0 = process.cpuUsage();
    let out: T | undefined;
    try {
      out = fn();
    } catch (e) {
      this.add(what, `threw: ${(e as Error)?.stack ?? String(e)}`, input());
    }
    const c = process.cpuUsage(c0);
    const cpu = (c.user + c.system) / 1000;
    if (cpu > this.slowest.ms) this.slowest = { ms: cpu, what: `${what} on ${input().slice(0, 80)}` };
    const spent = workSince(before);
    this.last = spent;
    const over = overBounds(spent, chars);
    if (over.length) this.add(what, `work over the bounds: ${over.join('; ')}`, input());
    return out;
  }

  /** The work of the calls since the probe was made. */
  work(): WorkCounters {
    return workSince(this.started);
  }

  /** The same, in one line. */
  workLine(): string {
    const w = this.work();
    return `CEL ${w.celEvaluations} evaluations, cost ${w.celCost}, work ${w.celWork} (${w.celStoppedByLimit} stopped by the cost limit, ${w.celInterrupted} by the safety net); pattern steps ${w.patternSteps} in ${w.patternBudgets} budgets (${w.patternRefused} matches refused); YAML nodes indexed ${w.yamlPairsIndexed}, alias walks ${w.yamlAliasWalkNodes}`;
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
