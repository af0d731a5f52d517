/**
 * Language server entry point: `node dist/server.js --stdio` (any LSP client) or `--node-ipc` (the VS Code
 * client); other transports (`--socket`, `--pipe`) are picked by vscode-languageserver from the command line.
 */
import {
  createConnection,
  IPCMessageReader,
  IPCMessageWriter,
  ProposedFeatures,
  StreamMessageReader,
  StreamMessageWriter,
  type Connection,
  type Message,
  type MessageReader,
  type MessageWriter,
} from 'vscode-languageserver/node';
import { startServer } from './lsp/server';
import { observeIncoming, QueuedEdits } from './lsp/queuedEdits';
import { rawJsonEncoder } from './lsp/rawJson';

const queued = new QueuedEdits();

function transport(): [MessageReader, MessageWriter] | undefined {
  if (process.argv.includes('--stdio')) return [new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout, { charset: 'utf-8', contentTypeEncoder: rawJsonEncoder })];
  if (process.argv.includes('--node-ipc')) return [new IPCMessageReader(process), new IPCMessageWriter(process)];
  return undefined;
}

const t = transport();
const connection: Connection = t
  ? createConnection(
      ProposedFeatures.all,
      observeIncoming(t[0], (m: Message) => queued.observe(m)),
      t[1],
      { messageStrategy: queued.strategy },
    )
  : createConnection(ProposedFeatures.all);
// A bug must cost one answer, not the session.
process.on('uncaughtException', (e) => connection.console.error(`uncaught: ${e.stack ?? e}`));
process.on('unhandledRejection', (e) => connection.console.error(`unhandled rejection: ${e instanceof Error ? e.stack : String(e)}`));
startServer(connection, { queued });
