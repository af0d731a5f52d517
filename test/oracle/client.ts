/**
 * A long-running oracle process: cases are written as JSON lines, answers read back in order. Used by
 * the differential tests, which ask many small questions (generation, then minimisation).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as readline from 'node:readline';
import { parseJSONLossless } from '../../server/src/engine/json/lossless';
import type { OracleAnswer } from './oracle';

export class OracleProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: ((a: OracleAnswer) => void)[] = [];
  private failed: Error | undefined;

  constructor(bin: string, sharedDir: string) {
    this.child = spawn(bin, ['--shared', sharedDir], { stdio: ['pipe', 'pipe', 'pipe'] });
    const rl = readline.createInterface({ input: this.child.stdout });
    rl.on('line', (line) => {
      const w = this.waiting.shift();
      if (w) w(parseJSONLossless(line, { markIntegralFloats: true }) as OracleAnswer);
    });
    let stderr = '';
    this.child.stderr.on('data', (d) => (stderr += String(d)));
    this.child.on('exit', (code) => {
      this.failed = new Error(`oracle exited (${code}): ${stderr}`);
      for (const w of this.waiting.splice(0)) w({ id: '', oracleError: this.failed.message });
    });
  }

  /** Answers for the given case lines (JSON text, one case each, no newlines inside), in order. */
  ask(lines: string[]): Promise<OracleAnswer[]> {
    if (this.failed) return Promise.reject(this.failed);
    const out = lines.map(
      (l) =>
        new Promise<OracleAnswer>((resolve) => {
          this.waiting.push(resolve);
          this.child.stdin.write(l + '\n');
        }),
    );
    return Promise.all(out);
  }

  close(): void {
    this.child.stdin.end();
  }
}
