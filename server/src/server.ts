/**
 * Language server entry point: `node dist/server.js --stdio` (any LSP client) or `--node-ipc` (the VS Code
 * client); the transport is chosen from the command line by vscode-languageserver.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './lsp/server';

const connection = createConnection(ProposedFeatures.all);
// A bug must cost one answer, not the session.
process.on('uncaughtException', (e) => connection.console.error(`uncaught: ${e.stack ?? e}`));
process.on('unhandledRejection', (e) => connection.console.error(`unhandled rejection: ${e instanceof Error ? e.stack : String(e)}`));
startServer(connection);
