/**
 * npm run oracle -- [paths...] [--shared DIR] [--report FILE] [--rebuild]
 *
 * Builds the Go oracle if needed, runs every case of the given files (default: the shared corpus and
 * test/conformance/found), prints `file: agreed/total` per file, and writes each disagreement
 * ({id, file, expected, oracle}) as one JSON line to the report (default reports/oracle.jsonl).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { listCaseFiles, loadCases, defaultSharedDir, PROJECT_CORPUS } from '../conformance/runner';
import { jsonReplacer } from './report';
import { ensureOracleBinary, goAvailable, runOracleOnLines, oracleAgrees } from './oracle';

function main(argv: string[]): number {
  let shared = defaultSharedDir();
  let report = 'reports/oracle.jsonl';
  let force = false;
  const paths: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--shared') shared = path.resolve(argv[++i]);
    else if (a === '--report') report = argv[++i];
    else if (a === '--rebuild') force = true;
    else paths.push(a);
  }
  if (!goAvailable()) {
    console.error('oracle: `go` is not on PATH; the oracle cannot be built or run');
    return 2;
  }
  const bin = ensureOracleBinary({ force, log: (m) => console.error(m) });
  if (paths.length === 0) paths.push(path.join(shared, 'conformance'), PROJECT_CORPUS);
  const files = listCaseFiles(paths);
  if (files.length === 0) {
    console.error(`no .jsonl case files under ${paths.join(', ')}`);
    return 2;
  }
  const disagreements: string[] = [];
  let agreed = 0;
  let total = 0;
  for (const f of files) {
    const lines = fs
      .readFileSync(f, 'utf8')
      .split('\n')
      .filter((l) => l.trim());
    const cases = loadCases(f);
    const answers = runOracleOnLines(lines, shared, bin);
    if (answers.length !== cases.length) throw new Error(`${f}: ${cases.length} cases but ${answers.length} answers`);
    let ok = 0;
    cases.forEach((c, i) => {
      const a = answers[i];
      if (a.id !== c.id) throw new Error(`${f}: answer ${i} is for ${a.id}, expected ${c.id}`);
      if (oracleAgrees(c, a)) ok++;
      else {
        const { id: _id, ...oracle } = a;
        disagreements.push(JSON.stringify({ id: c.id, file: path.relative(process.cwd(), f), expected: c.expect, oracle }, jsonReplacer));
      }
    });
    agreed += ok;
    total += cases.length;
    console.log(`${path.relative(process.cwd(), f)}: ${ok}/${cases.length}`);
  }
  fs.mkdirSync(path.dirname(path.resolve(report)), { recursive: true });
  fs.writeFileSync(report, disagreements.join('\n') + (disagreements.length ? '\n' : ''));
  console.log(`${agreed} agreed, ${total - agreed} disagreed (report: ${report})`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
