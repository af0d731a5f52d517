/**
 * Which code actions a client can run (main thread: no service code). The VS Code extension's commands
 * (supplying CRDs, opening its settings: service/fixes/supplyCrds.ts) exist only there; another client is
 * offered the actions whose command the server runs itself (SERVER_COMMANDS), or that have none. The
 * extension is the client that says whether its workspace is trusted (initializationOptions.trusted,
 * always sent).
 */
import type { CodeAction } from 'vscode-languageserver/node';
import { SERVER_COMMANDS } from './protocol';

/** Whether the client is the VS Code extension, from its initializationOptions. */
export function isExtensionClient(initializationOptions: { trusted?: unknown } | undefined): boolean {
  return initializationOptions?.trusted !== undefined;
}

/** A code action answer with only the actions the client can run. */
export function actionsForClient<T>(answer: T, extensionClient: boolean): T {
  if (extensionClient || !Array.isArray(answer)) return answer;
  const own = new Set<string>(SERVER_COMMANDS);
  return (answer as CodeAction[]).filter((a) => !a.command || own.has(a.command.command)) as T;
}
