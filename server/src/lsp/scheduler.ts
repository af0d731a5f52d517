/**
 * Diagnostics scheduling: the edited document first, documents depending on a changed CRD after; one
 * document per event-loop turn, so a newer edit (or a request) gets in between and work on a stale text
 * is never started (each run reads the document's latest text).
 */

export class DiagnosticsScheduler {
  private readonly urgent = new Set<string>();
  private readonly later = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;

  constructor(
    private readonly run: (uri: string, urgent: boolean) => void,
    /** Delay before checking after an edit (`crdYaml.diagnosticsDelayMs`, 0 = next turn). */
    public delayMs = 0,
  ) {}

  /** Queues a document; `urgent` for the document the user is editing. */
  schedule(uri: string, urgent: boolean): void {
    if (urgent) {
      this.later.delete(uri);
      this.urgent.add(uri);
    } else if (!this.urgent.has(uri)) this.later.add(uri);
    this.kick(urgent && this.delayMs > 0);
  }

  /** Drops a document from the queue (closed). */
  cancel(uri: string): void {
    this.urgent.delete(uri);
    this.later.delete(uri);
  }

  private kick(delayed: boolean): void {
    if (delayed) {
      // A new keystroke restarts the delay (only when a delay is configured).
      if (this.timer) clearTimeout(this.timer);
      if (this.immediate) {
        clearImmediate(this.immediate);
        this.immediate = null;
      }
      this.timer = setTimeout(() => {
        this.timer = null;
        this.step();
      }, this.delayMs);
      return;
    }
    if (this.timer || this.immediate) return;
    this.immediate = setImmediate(() => {
      this.immediate = null;
      this.step();
    });
  }

  private step(): void {
    const next = this.urgent.values().next();
    let uri: string | undefined;
    let urgent = false;
    if (!next.done) {
      uri = next.value;
      urgent = true;
      this.urgent.delete(uri);
    } else {
      const n = this.later.values().next();
      if (!n.done) {
        uri = n.value;
        this.later.delete(uri);
      }
    }
    if (uri === undefined) return;
    try {
      this.run(uri, urgent);
    } finally {
      if (this.urgent.size || this.later.size) this.kick(false);
    }
  }
}
