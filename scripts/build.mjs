// Bundles the client, the language server (main thread and workers) and the CLI into dist/ with esbuild.
// dist/server.js starts dist/worker.js (beside it) twice: the check worker and the query worker.
import { build } from 'esbuild';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  minify: process.argv.includes('--minify'),
  logLevel: 'warning',
};

await Promise.all([
  build({ ...common, entryPoints: ['client/src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] }),
  build({ ...common, entryPoints: ['server/src/server.ts'], outfile: 'dist/server.js' }),
  build({ ...common, entryPoints: ['server/src/worker.ts'], outfile: 'dist/worker.js' }),
  build({ ...common, entryPoints: ['server/src/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } }),
]);
