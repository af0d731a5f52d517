/**
 * npm run conformance -- [paths...] [--shared DIR] [--report FILE] [--write-expected-failures --reason TEXT]
 *
 * Prints `file: passed/total` per file and, last, `N passed, M failed`. With --write-expected-failures,
 * rewrites test/conformance/expected-failures.json to the current failures: entries that still fail keep
 * their reason, new ones get --reason (required), entries that now pass are dropped.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { listCaseFiles, loadCases, runCase, defaultSharedDir, PROJECT_CORPUS, EXPECTED_FAILURES_FILE, readExpectedFailures, type CaseResult } from './runner';

function main(argv: string[]): number {
  let shared = defaultSharedDir();
  let report: string | undefined;
  let write = false;
  let reason: string | undefined;
  const paths: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--shared') shared = path.resolve(argv[++i]);
    else if (a === '--report') report = argv[++i];
    else if (a === '--write-expected-failures') write = true;
    else if (a === '--reason') reason = argv[++i];
    else paths.push(a);
  }
  if (paths.length === 0) paths.push(path.join(shared, 'conformance'), PROJECT_CORPUS);
  const files = listCaseFiles(paths);
  if (files.length === 0) {
    console.error(`no .jsonl case files under ${paths.join(', ')}`);
    return 2;
  }
  const results: CaseResult[] = [];
  for (const f of files) {
    const rs = loadCases(f).map((c) => runCase(c, { sharedDir: shared }));
    results.push(...rs);
    console.log(`${path.relative(process.cwd(), f)}: ${rs.filter((r) => r.passed).length}/${rs.length}`);
  }
  if (report) {
    fs.writeFileSync(report, results.map((r) => JSON.stringify(r, jsonReplacer)).join('\n') + '\n');
  }
  if (write) {
    const old = readExpectedFailures();
    const next: Record<string, string> = {};
    for (const r of results) {
      if (r.passed) continue;
      const why = old[r.id] ?? reason;
      if (!why) {
        console.error(`--reason is required: ${r.id} fails and has no reason yet`);
        return 2;
      }
      next[r.id] = why;
    }
    // Keep entries of files not run this time.
    const ran = new Set(results.map((r) => r.id));
    for (const [id, why] of Object.entries(old)) if (!ran.has(id)) next[id] = why;
    const sorted = Object.fromEntries(Object.entries(next).sort(([a], [b]) => (a < b ? -1 : 1)));
    fs.writeFileSync(EXPECTED_FAILURES_FILE, JSON.stringify(sorted, null, 1) + '\n');
  }
  const passed = results.filter((r) => r.passed).length;
  console.log(`${passed} passed, ${results.length - passed} failed`);
  return 0;
}

export function jsonReplacer(_k: string, v: unknown): unknown {
  return typeof v === 'bigint' ? v.toString() : v;
}

process.exitCode = main(process.argv.slice(2));
