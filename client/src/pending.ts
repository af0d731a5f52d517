/**
 * Which open files have a check pending "longer than a moment" (issue 28: a large CRD looked clean for
 * the seconds before its first diagnostics). A file is pending from the change the client sends until
 * the server publishes its diagnostics (the server drops a stale version's, so any that arrive are the
 * newest); the status bar says so only after `momentMs`, so that quick checks do not flicker. No vscode
 * import: the timer is injected (tests drive it).
 */
export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const NODE_TIMERS: Timers = { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as NodeJS.Timeout) };

export class PendingChecks {
  private readonly waiting = new Map<string, unknown>();
  private readonly shown = new Set<string>();

  constructor(
    private readonly onChange: () => void,
    private readonly momentMs = 600,
    private readonly timers: Timers = NODE_TIMERS,
  ) {}

  /** The client sent a file's text (open or change): its check is pending. */
  sent(uri: string): void {
    if (this.waiting.has(uri) || this.shown.has(uri)) return;
    this.waiting.set(
      uri,
      this.timers.set(() => {
        this.waiting.delete(uri);
        this.shown.add(uri);
        this.onChange();
      }, this.momentMs),
    );
  }

  /** Diagnostics arrived for the file, or it was closed: nothing pending. */
  settled(uri: string): void {
    const t = this.waiting.get(uri);
    if (t !== undefined) this.timers.clear(t);
    this.waiting.delete(uri);
    if (this.shown.delete(uri)) this.onChange();
  }

  /** The files pending longer than a moment, oldest first. */
  get overdue(): string[] {
    return [...this.shown];
  }

  dispose(): void {
    for (const t of this.waiting.values()) this.timers.clear(t);
    this.waiting.clear();
    this.shown.clear();
  }
}

/** The status bar text: the CRD count (a spinner while indexing) and, while a check is overdue, which file. */
export function statusText(crdCount: number | undefined, indexing: boolean, overdue: readonly string[], catalogCount = 0): string {
  // Catalog CRDs apart: `CRDs: 12 + 3 from catalog`.
  const count = crdCount === undefined ? '' : catalogCount > 0 ? `: ${crdCount - catalogCount} + ${catalogCount} from catalog` : `: ${crdCount}`;
  const base = `${indexing || crdCount === undefined ? '$(loading~spin)' : '$(symbol-class)'} CRDs${count}`;
  if (overdue.length === 0) return base;
  const name = (u: string) => decodeURIComponent(u.slice(u.lastIndexOf('/') + 1));
  return `${base} $(sync~spin) checking ${name(overdue[0])}${overdue.length > 1 ? ` +${overdue.length - 1}` : ''}...`;
}
