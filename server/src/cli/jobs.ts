/**
 * `crd-yaml check` in worker threads. Small inputs are checked in the main thread (a worker would load
 * the program a second time). Larger ones are checked by one worker with a heap sized to its inputs, so
 * that the process stays small (V8 otherwise grows the heap far past what is live while 30 MB of CRDs
 * are read); a worker that runs out of that heap is replaced by a check in the main thread. With large
 * inputs (or `--jobs N`), the inputs are checked in shares by one worker per core: every worker opens
 * every input (each sees the same CRDs) and checks its share; the main thread merges and prints.
 * Other commands run in the main thread. cli/main.ts stays a plain function of its arguments.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { parseArgs } from './args';
import type { CheckReport } from './check';
import { printCheckReport, runCli, type CliIO } from './main';

/** Inputs up to this size are checked in the main thread (a worker would load the program again: ~0.3 s). */
export const INLINE_INPUT_BYTES = 8 * 1024 * 1024;
/** Inputs above this size are checked by one worker per core (unless --jobs says otherwise). */
export const PARALLEL_INPUT_BYTES = 64 * 1024 * 1024;
/**
 * A worker's heap: this much, plus HEAP_PER_INPUT_BYTE per byte of its inputs (texts, values, index):
 * all real CRDs (35 MB) keep about 120 MB live while their samples are checked; a tighter heap spends
 * the run in garbage collection, or runs out and the check runs twice.
 */
const HEAP_BASE_MB = 48;
const HEAP_PER_INPUT_BYTE = 4;
const YOUNG_GENERATION_MB = 8;

interface JobData {
  argv: string[];
  cwd: string;
  shard?: { index: number; count: number };
}

type FromWorker = { kind: 'out'; stdout: string; stderr: string; code: number } | { kind: 'report'; report: CheckReport; inputErrors: string[]; stderr: string };

/** The bytes of the YAML files under the given paths (a quick walk, bounded). */
export function inputBytes(paths: string[], cwd: string): number {
  let total = 0;
  let seen = 0;
  const walk = (p: string, depth: number) => {
    if (++seen > 100_000 || depth > 32) return;
    let st: fs.Stats;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (st.isFile()) total += st.size;
    else if (st.isDirectory()) {
      let names: string[] = [];
      try {
        names = fs.readdirSync(p);
      } catch {
        return;
      }
      for (const n of names) {
        if (n.startsWith('.') || n === 'node_modules') continue;
        const c = path.join(p, n);
        if (/\.ya?ml$/i.test(n) || !n.includes('.')) walk(c, depth + 1);
      }
    }
  };
  for (const p of paths) if (p !== '-' && !/^https?:/.test(p)) walk(path.resolve(cwd, p), 0);
  return total;
}

/** Runs the CLI as the process does: `check` in workers, the rest here. Resolves to the exit code. */
export function runCliProcess(argv: string[], io: CliIO): Promise<number> {
  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs(argv);
  } catch {
    return Promise.resolve(runCli(argv, io));
  }
  // The standard input is read by the main thread's process, and baselines (--base, --base-cluster: git,
  // a cluster's credentials) are read asynchronously: checked here.
  if (args.command !== 'check' || args.paths.includes('-') || args.base !== undefined || args.baseCluster) return Promise.resolve(runCli(argv, io));
  const bytes = inputBytes([...args.paths, ...args.crdPaths], io.cwd);
  const jobs = args.jobs ?? (bytes > PARALLEL_INPUT_BYTES ? Math.min(4, os.availableParallelism()) : 1);
  const heapMb = Math.ceil(HEAP_BASE_MB + (HEAP_PER_INPUT_BYTE * bytes) / 1048576);
  const inline = () => Promise.resolve(runCli(argv, io));
  if (jobs === 1 && args.jobs === undefined && bytes <= INLINE_INPUT_BYTES) return inline();
  if (jobs === 1) {
    return runWorker({ argv, cwd: io.cwd }, heapMb).then(
      (m) => {
        if (m.kind !== 'out') return inline();
        io.stdout(m.stdout);
        io.stderr(m.stderr);
        return m.code;
      },
      // Out of its heap (or any failure of the worker itself): the check again, here, unbounded.
      inline,
    );
  }
  const shares = Array.from({ length: jobs }, (_, index) => runWorker({ argv, cwd: io.cwd, shard: { index, count: jobs } }, heapMb));
  return Promise.all(shares).then((ms) => {
    const reports = ms.filter((m): m is Extract<FromWorker, { kind: 'report' }> => m.kind === 'report');
    if (reports.length !== jobs) return inline();
    // The first share says what every share would (input errors, skipped links).
    io.stderr(reports[0].stderr);
    return printCheckReport(mergeReports(reports.map((r) => r.report)), args, io, reports[0].inputErrors);
  }, inline);
}

/** The shares' reports as one: findings in input order (each share's in its own order). */
function mergeReports(reports: CheckReport[]): CheckReport {
  const order = new Map<string, number>();
  for (const p of reports[0].paths.values()) if (!order.has(p)) order.set(p, order.size);
  const findings = reports.flatMap((r) => r.findings);
  const at = (f: { file: string }) => order.get(f.file) ?? Infinity;
  findings.sort((a, b) => at(a) - at(b));
  return {
    findings,
    files: reports[0].files,
    documents: reports.reduce((n, r) => n + r.documents, 0),
    unchecked: reports.reduce((n, r) => n + r.unchecked, 0),
    paths: reports[0].paths,
  };
}

function runWorker(data: JobData, heapMb: number): Promise<FromWorker> {
  return new Promise((resolve, reject) => {
    const w = new Worker(__filename, {
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      stdout: false,
      stderr: false,
    });
    let answer: FromWorker | undefined;
    w.on('message', (m: FromWorker) => (answer = m));
    w.on('error', reject);
    w.on('exit', () => (answer ? resolve(answer) : reject(new Error('worker ended without an answer'))));
  });
}

/** In a worker: runs its job and posts the outcome (all output at once, so a failed worker printed nothing). */
export function runJob(): void {
  const data = workerData as JobData;
  let stdout = '';
  let stderr = '';
  const io: CliIO = { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), cwd: data.cwd };
  if (data.shard) {
    let report: { report: CheckReport; inputErrors: string[] } | undefined;
    io.shard = { ...data.shard, report: (r) => (report = r) };
    runCli(data.argv, io);
    parentPort!.postMessage(report ? { kind: 'report', ...report, stderr } : { kind: 'out', stdout, stderr, code: 2 });
    return;
  }
  const code = runCli(data.argv, io);
  void Promise.resolve(code).then((c) => parentPort!.postMessage({ kind: 'out', stdout, stderr, code: c }));
}

/** Whether this thread is a check worker (the bundle's entry then runs its job instead of the CLI). */
export function isJobThread(): boolean {
  return !isMainThread && (workerData as JobData | undefined)?.argv !== undefined;
}
