/**
 * Node's HTTP stack, loaded on first use: `node:https` pulls in TLS, sockets and streams, and a one-shot
 * check that never calls a webhook or a cluster should not pay for them at start-up.
 */
import type * as Http from 'node:http';

/** `node:https` for an https: URL, `node:http` otherwise (their `request` functions take the same arguments). */
export function httpFor(protocol: string): typeof Http {
  return protocol === 'https:' ? require('node:https') : require('node:http');
}
