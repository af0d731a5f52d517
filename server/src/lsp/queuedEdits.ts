/**
 * Knowing which edits have been read from the wire but not yet applied, so that a check of a document
 * that a queued edit is about to change is skipped (its text is already stale): keystrokes that arrive
 * while the server is busy are coalesced into one check of the latest text.
 */
import type { DataCallback, Disposable, Message, MessageReader } from 'vscode-languageserver/node';

/** The latest document versions seen on the wire, by URI. */
export class QueuedEdits {
  private readonly latest = new Map<string, number>();

  /** Records an incoming message (didOpen/didChange carry a version). */
  observe(m: Message): void {
    const msg = m as { method?: string; params?: { textDocument?: { uri?: string; version?: number } } };
    if (msg.method !== 'textDocument/didChange' && msg.method !== 'textDocument/didOpen') return;
    const td = msg.params?.textDocument;
    if (td?.uri && typeof td.version === 'number') this.latest.set(td.uri, td.version);
  }

  /** Whether an edit newer than `version` is waiting to be applied to the document. */
  isStale(uri: string, version: number): boolean {
    const v = this.latest.get(uri);
    return v !== undefined && v > version;
  }

  forget(uri: string): void {
    this.latest.delete(uri);
  }
}

/** A reader that shows each message to `observe` as soon as it is read, before it is queued for handling. */
export function observeIncoming(inner: MessageReader, observe: (m: Message) => void): MessageReader {
  return {
    onError: inner.onError,
    onClose: inner.onClose,
    onPartialMessage: inner.onPartialMessage,
    listen(cb: DataCallback): Disposable {
      return inner.listen((m) => {
        try {
          observe(m);
        } catch {
          // Observation is an optimisation only.
        }
        cb(m);
      });
    },
    dispose: () => inner.dispose(),
  };
}
