/**
 * crd-yaml command line entry (bundled to dist/cli.js, the package's `crd-yaml` bin).
 * See cli/main.ts for the commands; this file only wires them to the process (cli/jobs.ts: `check` runs
 * in worker threads started from this same file).
 */
import { isJobThread, runCliProcess, runJob } from './cli/jobs';

if (isJobThread()) {
  runJob();
} else {
  // `crd-yaml check . | head` closes stdout early: stop quietly instead of dying with a stack trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      process.exit(2);
    });
  }
  void runCliProcess(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    cwd: process.cwd(),
  }).then((code) => {
    process.exitCode = code;
  });
}
