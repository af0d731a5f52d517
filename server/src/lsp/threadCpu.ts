/**
 * CPU time of the calling thread, for work bounds that hold on a loaded machine (wall-clock time grows
 * with the load; the CPU time a task takes does not). Linux reports each thread's time on CPU in
 * /proc/thread-self/schedstat (nanoseconds); elsewhere the process' CPU time stands in (an upper bound
 * of any one thread's).
 */
import { readFileSync } from 'node:fs';

let perThread = process.platform === 'linux';

/** Milliseconds this thread has run on a CPU. */
export function threadCpuMs(): number {
  if (perThread) {
    try {
      const s = readFileSync('/proc/thread-self/schedstat', 'latin1');
      return Number(s.slice(0, s.indexOf(' '))) / 1e6;
    } catch {
      perThread = false;
    }
  }
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
