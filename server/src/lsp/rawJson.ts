/**
 * Notification params a worker has already serialized (a check's diagnostics: thousands of them for a large
 * file). The main thread forwards the JSON text as it came: no structured clone of an object graph, no
 * garbage, no second JSON.stringify on the thread that answers hovers. The stdio transport's encoder
 * (`rawJsonEncoder`) writes the text into the message; any other transport (node-ipc serializes with
 * JSON.stringify itself) gets the value back through `toJSON`.
 */
import type { Message } from 'vscode-languageserver/node';

export class RawJson {
  constructor(readonly json: string) {}
  toJSON(): unknown {
    return JSON.parse(this.json);
  }
}

/** vscode-jsonrpc's application/json encoder, writing a notification's RawJson params as they are. */
export const rawJsonEncoder = {
  name: 'application/json',
  encode(msg: Message, options: { charset: BufferEncoding }): Promise<Uint8Array> {
    try {
      const m = msg as { method?: string; id?: unknown; params?: unknown };
      const text =
        m.params instanceof RawJson && m.id === undefined && typeof m.method === 'string' ? `{"jsonrpc":"2.0","method":${JSON.stringify(m.method)},"params":${m.params.json}}` : JSON.stringify(msg, undefined, 0);
      return Promise.resolve(Buffer.from(text, options.charset));
    } catch (e) {
      return Promise.reject(e);
    }
  },
};
