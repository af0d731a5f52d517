/**
 * The crd-yaml program (bundled to dist/cli-main.js). The package's `crd-yaml` bin, dist/cli.js, starts in
 * cli/launch.ts (bundled apart, small) and loads this when it is needed: in the main thread to run a
 * command (cli/main.ts), in a check worker to run its job (cli/job.ts, from dist/cli-job.js). Run from source (tsx), it is the
 * entry itself.
 */
import { isJobThread, runJob } from './cli/job';
import { launch } from './cli/launch';
import * as program from './cli/main';

export { runJob } from './cli/job';
export { printCheckReport, runCli } from './cli/main';

// Run from source, this file is the entry of the main thread and of check workers (dist/cli-job.js calls runJob).
if (typeof module !== 'undefined' && require.main === module) {
  if (isJobThread()) runJob();
  else launch(() => program, __filename);
}
