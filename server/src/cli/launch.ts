/**
 * The main thread's entry of the `crd-yaml` bin (bundled to dist/cli-launch.js; dist/cli.js calls
 * `launch`): wires the process to runCliProcess (cli/jobs.ts), which loads the program only when the
 * main thread needs it.
 */
import { restoreExtraCaCerts } from '../net/http';
import { runCliProcess, type Program } from './jobs';
import * as path from 'node:path';

/** Runs the CLI on the process's arguments; `load` gives the program, `entry` is the script workers start. */
export function launch(load: () => Program, entry: string): void {
  // bin/crd-yaml kept NODE_EXTRA_CA_CERTS from Node's start-up: the processes this one starts get it back.
  restoreExtraCaCerts();
  if (process.argv[2] === 'lsp') return startLanguageServer(entry);
  // `crd-yaml check . | head` closes stdout early: stop quietly instead of dying with a stack trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      process.exit(2);
    });
  }
  void runCliProcess(
    process.argv.slice(2),
    {
      stdout: (s) => process.stdout.write(s),
      stdoutBytes: (b) => process.stdout.write(b),
      stderr: (s) => process.stderr.write(s),
      cwd: process.cwd(),
      ...(process.stderr.isTTY ? { terminal: { columns: process.stderr.columns || 80 } } : {}),
    },
    load,
    entry,
  ).then((code) => {
    process.exitCode = code;
  });
}

/**
 * `crd-yaml lsp [--stdio]`: the language server (server.ts, bundled to dist/server.js beside `entry`), for any
 * LSP client. It reads its transport from the process's arguments; stdio when none is given.
 */
function startLanguageServer(entry: string): void {
  const transports = ['--stdio', '--node-ipc', '--socket', '--pipe'];
  if (!process.argv.some((a) => transports.some((t) => a === t || a.startsWith(`${t}=`)))) process.argv.push('--stdio');
  // Extensionless: dist/server.js in the package, server/src/server.ts run from source (tsx).
  require(path.join(path.dirname(entry), 'server'));
}
