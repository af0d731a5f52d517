/**
 * `crd-yaml check` in worker threads. Small inputs are checked in the main thread (a worker would load
 * the program a second time). Larger ones are checked by one worker with a heap sized to its inputs, so
 * that the process stays small (V8 otherwise grows the heap far past what is live while 30 MB of CRDs
 * are read); a worker that runs out of that heap is replaced by a check in the main thread, which goes on
 * from the inputs the worker had checked (it posts each as it goes). With large
 * inputs (or `--jobs N`), the inputs are checked in shares by one worker per core: every worker opens
 * every input (each sees the same CRDs) and checks its share; the main thread merges and prints.
 * Other commands run in the main thread. cli/main.ts stays a plain function of its arguments.
 *
 * This module is the main thread's part, bundled apart from the program (dist/cli-launch.js): while a
 * worker checks, the main thread has not loaded the program at all (`load` loads it when it is needed:
 * a check here, or printing the shares' report), which keeps tens of megabytes out of the process.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { deserialize } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import type * as Zlib from 'node:zlib';
import { PARSE_BYTES_PER_CHAR, PARSE_FIXED_BYTES } from '../yaml/parseBound';
import { parseArgs } from './args';
import { ProgressLine } from './progress';
import type { CheckReport, InputReport } from './check';
import type { CoverageCounts } from '../service';
import type { CliIO, printCheckReport, runCli } from './main';

/** What the main thread uses of the program, loaded on first need (dist/cli.js compiles it from its code cache). */
export interface Program {
  runCli: typeof runCli;
  printCheckReport: typeof printCheckReport;
}

/** Inputs up to this size are checked in the main thread (a worker would load the program again: ~0.3 s). */
export const INLINE_INPUT_BYTES = 8 * 1024 * 1024;
/** Inputs above this size are checked by one worker per core (unless --jobs says otherwise). */
export const PARALLEL_INPUT_BYTES = 64 * 1024 * 1024;
/**
 * A worker's heap: this much, plus what the YAML layer may take to parse its largest input file
 * (yaml/parseBound.ts: it parses no file beyond that). A check keeps one input parsed at a
 * time and reads CRD texts again when they are used (check.ts, caches.ts), so what is live follows the
 * largest file, not the sum. A heap sized to what is live in the common case (56 MB plus the largest
 * file's size) ran out: checking objects against a large CRD compiles its schema (argo-helm's
 * ApplicationSets against a 1.4 MB CRD ran out of 59 and 72 MB, prometheus-community's charts of
 * 57 MB), and a file of many documents with a template action is parsed whole (kubeflow/manifests'
 * 3.5 MB kserve.yaml ran out of 108 MB); a heap close to full also costs many collections before it
 * runs out (kubeflow: 20 s of CPU in 144 MB, 17 s in 200 MB, 13.4 s unbounded). V8 fills the heap it
 * may before collecting, so a larger one only costs memory. The young generation is where a CRD's short-lived values die: at 2 MB they
 * outlived it and filled the old generation, whose collections then took a third of the check of all
 * real CRDs; at 8 MB that check is 10-15 % faster for about 10 MB more (peak 135 MB). A worker that runs
 * out is replaced by a check in the main thread.
 */
const HEAP_BASE_MB = 72;
const YOUNG_GENERATION_MB = 8;
/**
 * The heaps of all check workers together may not exceed this (issue 29: peak memory bounded by the
 * largest file, not by the total): V8 grows each worker's heap into its cap, so two workers sized for the
 * catalog's 2.9 MB CRDs (257 MB each) peaked at 560 MB where one peaked at about 300 MB (230 MB since the index and the report were made smaller), and on 2 cores
 * the second worker saved no wall time. Without --jobs, fewer workers are started when their caps add
 * up past it (at least one); --jobs N is taken as asked.
 */
export const WORKER_HEAPS_BUDGET_MB = 384;

/**
 * A worker's heap for inputs whose largest file has `largest` bytes: the base, and room for the parse of
 * that file. The YAML layer's bound (parseBound.ts) is a fixed allowance plus so much per character; the
 * fixed part is what a small file of pathological shape may take (a 40,000-key map of 550 KB: 80 MB), so
 * the room is the larger of the two, not their sum: the catalog's 2.9 MB CRDs get 200 MB, not 257 MB, and
 * V8 grows into whatever it is given. A file that needs more ends the worker, and the main thread checks
 * the rest (same report).
 */
export function workerHeapMb(largest: number): number {
  return Math.ceil(HEAP_BASE_MB + Math.max(PARSE_BYTES_PER_CHAR * largest, PARSE_FIXED_BYTES) / 1048576);
}

/** The workers a check starts: `wanted`, fewer when their heaps (`heapMb` each) add up past the budget. */
export function workersWithin(wanted: number, heapMb: number): number {
  return Math.max(1, Math.min(wanted, Math.floor(WORKER_HEAPS_BUDGET_MB / heapMb)));
}

/** What a check worker is given (cli/job.ts runs it). */
export interface JobData {
  argv: string[];
  cwd: string;
  shard?: { index: number; count: number };
}

export type FromWorker =
  /** The output of a whole check (stdout as UTF-8, in the pieces written: cli/job.ts). */
  | { kind: 'out'; stdout: Uint8Array[]; stderr: string; code: number }
  | { kind: 'report'; report: CheckReport; inputErrors: string[]; stderr: string }
  /**
   * One input checked (posted as the worker goes), of `total` input files; its report serialized
   * (v8.serialize): the main thread keeps it only in case the worker fails, as bytes (the findings of
   * the whole catalog as objects took tens of megabytes beside the worker's own copy).
   */
  | { kind: 'input'; file: string; report: Uint8Array; total: number };

/** The bytes of the YAML files under the given paths, and of the largest (a quick walk, bounded, links inside folders not followed). */
export function inputBytes(paths: string[], cwd: string): { total: number; largest: number } {
  let total = 0;
  let largest = 0;
  let seen = 0;
  // A named path is followed; inside folders, links are not (they may lead to a cycle or to /): an
  // estimate that reads nothing outside the named folders.
  const walk = (p: string, depth: number) => {
    if (++seen > 100_000 || depth > 32) return;
    let st: fs.Stats;
    try {
      st = depth === 0 ? fs.statSync(p) : fs.lstatSync(p);
    } catch {
      return;
    }
    if (st.isFile()) {
      // As files.ts reads folders: *.yaml and *.yml inside them; a named file whatever its name.
      if (depth > 0 && !/\.ya?ml$/i.test(p)) return;
      total += st.size;
      largest = Math.max(largest, st.size);
    } else if (st.isDirectory()) {
      let names: string[] = [];
      try {
        names = fs.readdirSync(p);
      } catch {
        return;
      }
      for (const n of names) {
        if (n.startsWith('.') || n === 'node_modules') continue;
        // Folders named like domains (the catalog's `<group>/`) hold YAML too: every entry is looked at.
        walk(path.join(p, n), depth + 1);
      }
    }
  };
  for (const p of paths) if (p !== '-' && !/^https?:/.test(p)) walk(path.resolve(cwd, p), 0);
  return { total, largest };
}

/**
 * Runs the CLI as the process does: `check` in workers, the rest here. `load` gives the program; `entry`
 * is the script a worker starts with (dist/cli.js). Resolves to the exit code.
 */
export function runCliProcess(argv: string[], given: CliIO, load: () => Program, entry: string): Promise<number> {
  const runCli = (a: string[], o: CliIO) => load().runCli(a, o);
  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs(argv);
  } catch {
    return Promise.resolve(runCli(argv, given));
  }
  const { io, tick } = withProgress(given, args);
  // The standard input is read by the main thread's process, and baselines (--base, --base-cluster: git,
  // a cluster's credentials) are read asynchronously: checked here.
  if (args.command !== 'check' || args.paths.includes('-') || args.base !== undefined || args.baseCluster) return Promise.resolve(runCli(argv, io));
  // The inputs the workers checked: a worker that runs out of its heap (or fails otherwise) is replaced
  // by a check in the main thread that goes on from there (it indexes every input again, and checks
  // the ones no worker finished).
  const done = new Map<string, Uint8Array>();
  const runWorker = (data: JobData, heapMb: number) =>
    startWorker(entry, data, heapMb, (file, r, total) => {
      done.set(file, packed(r));
      tick(file, total);
    });
  const { total: bytes, largest } = inputBytes([...args.paths, ...args.crdPaths], io.cwd);
  const heapMb = workerHeapMb(largest);
  const jobs = args.jobs ?? (bytes > PARALLEL_INPUT_BYTES ? workersWithin(Math.min(4, os.availableParallelism()), heapMb) : 1);
  const inline = () => Promise.resolve(runCli(argv, done.size ? { ...io, done: readReports(done) } : io));
  if (jobs === 1 && args.jobs === undefined && bytes <= INLINE_INPUT_BYTES) return inline();
  if (jobs === 1) {
    return runWorker({ argv, cwd: io.cwd }, heapMb).then(
      (m) => {
        if (m.kind !== 'out') return inline();
        // Each piece is whole text (a string encoded alone): decoded alone where bytes are not taken.
        for (const b of m.stdout) {
          if (io.stdoutBytes) io.stdoutBytes(b);
          else io.stdout(new TextDecoder().decode(b));
        }
        io.stderr(m.stderr);
        return m.code;
      },
      // Out of its heap (or any failure of the worker itself): the rest of the check here, unbounded.
      inline,
    );
  }
  // Every share is waited for, failed or not: the check in the main thread goes on from all they did.
  const shares = Array.from({ length: jobs }, (_, index) => runWorker({ argv, cwd: io.cwd, shard: { index, count: jobs } }, heapMb).catch(() => undefined));
  return Promise.all(shares).then((ms) => {
    const reports = ms.filter((m) => m?.kind === 'report');
    if (reports.length !== jobs) return inline();
    // The first share says what every share would (input errors, skipped links).
    io.stderr(reports[0].stderr);
    return load().printCheckReport(mergeReports(reports.map((r) => r.report)), args, io, reports[0].inputErrors);
  }, inline);
}

/**
 * The progress line of a check (progress.ts), where asked (`--progress`) or stderr is a terminal, not
 * with --quiet: `tick` counts an input checked; anything written to stdout or stderr erases the line first.
 */
function withProgress(io: CliIO, args: ReturnType<typeof parseArgs>): { io: CliIO; tick: (file: string, total: number) => void } {
  if (args.command !== 'check' || args.quiet || !(args.progress || io.terminal)) return { io, tick: () => {} };
  const line = new ProgressLine(io.stderr, io.terminal);
  const checked = new Set<string>();
  const tick = (file: string, total: number) => {
    checked.add(file);
    line.tick(checked.size, total, file);
  };
  const erasing =
    <T>(write: (s: T) => void) =>
    (s: T): void => {
      line.end();
      write(s);
    };
  const bytes = io.stdoutBytes && { stdoutBytes: erasing(io.stdoutBytes) };
  return { io: { ...io, stdout: erasing(io.stdout), ...bytes, stderr: erasing(io.stderr), onInput: (file, _r, total) => tick(file, total) }, tick };
}

/** The shares' coverage counts added up (by key: this bundle holds no service code). */
function sumCoverage(all: CoverageCounts[]): CoverageCounts {
  const sum = structuredClone(all[0]);
  for (const c of all.slice(1)) {
    for (const [section, counts] of Object.entries(c) as [keyof CoverageCounts, Record<string, number>][]) {
      for (const [k, n] of Object.entries(counts)) (sum[section] as Record<string, number>)[k] += n;
    }
  }
  return sum;
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
    coverage: sumCoverage(reports.map((r) => r.coverage)),
    paths: reports[0].paths,
    ...(reports[0].catalog ? { catalog: reports[0].catalog } : {}),
  };
}

/**
 * A report posted by a worker as the main thread keeps it, compressed (brotli at its fastest): the whole
 * catalog's were 13 MB of the process's peak as they came, a quarter of that compressed, for about 0.1 s of
 * this thread's time, which is otherwise idle while the worker checks.
 */
function packed(report: Uint8Array): Uint8Array {
  const { brotliCompressSync, constants } = zlib();
  const z = brotliCompressSync(report, { params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_SIZE_HINT]: report.length } });
  // Copied out: the result is a view of zlib's 16 KB output chunk, which it would keep (130 MB for the catalog).
  return new Uint8Array(z);
}

/** The reports workers posted, as objects again (for the check in the main thread that goes on from them). */
function readReports(done: Map<string, Uint8Array>): Map<string, InputReport> {
  return new Map([...done].map(([file, bytes]) => [file, deserialize(zlib().brotliDecompressSync(bytes)) as InputReport]));
}

/** zlib, loaded when a worker posts a report (a check in the main thread does not load it). */
const zlib = (): typeof Zlib => require('node:zlib');

function startWorker(entry: string, data: JobData, heapMb: number, onInput: (file: string, r: Uint8Array, total: number) => void): Promise<Exclude<FromWorker, { kind: 'input' }>> {
  return new Promise((resolve, reject) => {
    // Loaded here: a small check runs in the main thread and starts no worker.
    const w = new (require('node:worker_threads') as { Worker: typeof Worker }).Worker(entry, {
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      stdout: false,
      stderr: false,
    });
    let answer: Exclude<FromWorker, { kind: 'input' }> | undefined;
    w.on('message', (m: FromWorker) => {
      if (m.kind === 'input') onInput(m.file, m.report, m.total);
      else answer = m;
    });
    w.on('error', reject);
    w.on('exit', () => (answer ? resolve(answer) : reject(new Error('worker ended without an answer'))));
  });
}
