// npm run soak: the long robustness run, outside CI. 100,000 random edits (CRD_YAML_SOAK_EDITS, or the
// first argument) sent to the built server without waiting, requests in between; then the final
// diagnostics must equal a fresh server's, the server's memory stay bounded, and each thread's work is
// reported. Then the hostile-input classes (test/fuzz/attacks.fuzz.test.ts) and the thread tests, with
// their hover latencies. Reproduce a failure with the CRD_YAML_FUZZ_SEED it prints.
import { spawnSync } from 'node:child_process';

const edits = process.argv[2] ?? process.env.CRD_YAML_SOAK_EDITS ?? '100000';
const env = { ...process.env, CRD_YAML_SOAK_EDITS: edits };
const run = (args) => spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...args], { stdio: 'inherit', env }).status ?? 1;
let status = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' }).status ?? 1;
if (status === 0) status = run(['--test-name-pattern', 'soak', 'test/fuzz/server.fuzz.test.ts']);
if (status === 0) status = run(['test/fuzz/attacks.fuzz.test.ts', 'test/lsp/threads.test.ts']);
process.exit(status);
