/**
 * The progress line of a long `crd-yaml check` on stderr: files checked of the total, and the file just
 * checked. On a terminal one line redrawn in place (and erased at the end, before the summary); elsewhere
 * (`--progress` into a log) a plain line now and then.
 */

/** Redraws at most this often on a terminal; a log gets a line at most every LOG_EVERY_MS. */
const REDRAW_MS = 100;
const LOG_EVERY_MS = 2000;

export class ProgressLine {
  private last = -Infinity;
  private drawn = false;

  /**
   * `terminal`: stderr is a terminal of that width (the line is redrawn in place and fits in it);
   * undefined: plain lines. `now` is the clock (a parameter for tests).
   */
  constructor(
    private readonly write: (s: string) => void,
    private readonly terminal: { columns: number } | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** `done` of `total` input files are checked, `file` the last one. */
  tick(done: number, total: number, file: string): void {
    const t = this.now();
    if (done < total && t - this.last < (this.terminal ? REDRAW_MS : LOG_EVERY_MS)) return;
    this.last = t;
    const head = `crd-yaml: checked ${done}/${total} files: `;
    if (!this.terminal) {
      this.write(head + file + '\n');
      return;
    }
    // The line must not wrap (\r returns to the start of the last row only): the path keeps its end.
    const room = this.terminal.columns - 1 - head.length;
    const fitted = file.length <= room ? file : room > 1 ? '…' + file.slice(file.length - room + 1) : '';
    this.write(`\r\x1b[K${head}${fitted}`);
    this.drawn = true;
  }

  /** Erases the line on a terminal (what follows starts on a clean row). */
  end(): void {
    if (this.drawn) this.write('\r\x1b[K');
    this.drawn = false;
  }
}
