/**
 * Knowing which edits have been read from the wire but not yet applied, so that a check of a document
 * that a queued edit is about to change is skipped (its text is already stale): keystrokes that arrive
 * while a check runs are coalesced into one check of the latest text. The latest versions live in shared
 * memory (one slot per open document) that the check worker reads before and after each check.
 */
import type { DataCallback, Disposable, Message, MessageReader, MessageStrategy } from 'vscode-languageserver/node';

/** Slots of the shared latest-version array (open documents beyond this are never skipped as stale). */
export const VERSION_SLOTS = 4096;

/** The latest document versions seen on the wire, by URI, mirrored in a shared Int32Array by slot. */
export class QueuedEdits {
  /** Latest versions by slot, shared with the check worker. */
  readonly shared = new Int32Array(new SharedArrayBuffer(4 * VERSION_SLOTS));
  private readonly latest = new Map<string, number>();
  /** didChange notifications read from the wire and not yet handled, by URI. */
  private readonly unhandled = new Map<string, number>();
  /** Messages read from the wire, and messages whose handling started (`strategy`). */
  private read = 0;
  private started = 0;

  /**
   * The connection's message strategy: counts each message as its handling starts, so that `backlog` says
   * whether messages read from the wire wait in the connection's queue.
   */
  readonly strategy: MessageStrategy = {
    handleMessage: (m, next) => {
      if (!isCancel(m)) this.started++;
      return next(m);
    },
  };

  /**
   * Whether messages read from the wire wait to be handled. Exact for a client that keeps to the protocol
   * (a cancellation is consumed when read, so neither side counts it; a request repeating a waiting
   * request's id replaces it unhandled, and the count then stays high: callers bound how long they wait).
   */
  get backlog(): boolean {
    return this.read > this.started;
  }
  private readonly slots = new Map<string, number>();
  private readonly free: number[] = [];
  private next = 0;

  /** Records an incoming message (didOpen/didChange carry a version). */
  observe(m: Message): void {
    if (!isCancel(m)) this.read++;
    const msg = m as { method?: string; id?: unknown; params?: { textDocument?: { uri?: string; version?: number } } };
    if (msg.method !== 'textDocument/didChange' && msg.method !== 'textDocument/didOpen') return;
    const td = msg.params?.textDocument;
    // Every didChange notification reaches its handler, which calls `handled` (lsp/server.ts).
    if (msg.method === 'textDocument/didChange' && msg.id === undefined && typeof td?.uri === 'string') this.unhandled.set(td.uri, (this.unhandled.get(td.uri) ?? 0) + 1);
    // An open starts the document's versions afresh: a version recorded before it (a stray didChange of a
    // document not open, a document opened again) must not make its texts look stale.
    if (msg.method === 'textDocument/didOpen' && typeof td?.uri === 'string') this.forget(td.uri);
    if (typeof td?.uri === 'string' && typeof td.version === 'number' && Number.isInteger(td.version)) this.record(td.uri, td.version);
  }

  /** Records a version (newer than any seen wins). */
  record(uri: string, version: number): void {
    const before = this.latest.get(uri);
    if (before !== undefined && before >= version) return;
    this.latest.set(uri, version);
    const slot = this.slotOf(uri);
    if (slot !== undefined) Atomics.store(this.shared, slot, Math.min(version, 0x7fffffff));
  }

  /** The document's slot in the shared array (allocated on first use), or undefined when all are taken. */
  slotOf(uri: string): number | undefined {
    let s = this.slots.get(uri);
    if (s === undefined) {
      s = this.free.pop() ?? (this.next < VERSION_SLOTS ? this.next++ : undefined);
      if (s === undefined) return undefined;
      this.slots.set(uri, s);
      Atomics.store(this.shared, s, this.latest.get(uri) ?? 0);
    }
    return s;
  }

  /** A didChange notification of the document has been handled; the number still waiting. */
  handled(uri: unknown): number {
    if (typeof uri !== 'string') return 0;
    const n = (this.unhandled.get(uri) ?? 0) - 1;
    if (n > 0) this.unhandled.set(uri, n);
    else this.unhandled.delete(uri);
    return Math.max(n, 0);
  }

  /** Whether didChange notifications of the document have been read and not yet handled. */
  hasUnhandled(uri: string): boolean {
    return this.unhandled.has(uri);
  }

  /** Whether an edit newer than `version` is waiting to be applied to the document. */
  isStale(uri: string, version: number): boolean {
    const v = this.latest.get(uri);
    return v !== undefined && v > version;
  }

  forget(uri: string): void {
    this.latest.delete(uri);
    const s = this.slots.get(uri);
    if (s !== undefined) {
      this.slots.delete(uri);
      Atomics.store(this.shared, s, 0);
      this.free.push(s);
    }
  }
}

function isCancel(m: Message): boolean {
  return (m as { method?: unknown }).method === '$/cancelRequest';
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
