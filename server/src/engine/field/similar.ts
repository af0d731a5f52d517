/**
 * Names close to a misspelled one ("did you mean"): edit distance with transpositions (optimal string
 * alignment), case-insensitive, bounded so that unrelated names are not offered.
 */

/** The optimal string alignment distance (insertions, deletions, substitutions, adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  let prev2: number[] = [];
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const cur = [i];
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1);
      cur.push(d);
    }
    prev2 = prev;
    prev = cur;
  }
  return prev[n];
}

/** Names longer than this are not compared (the distance is quadratic in the length). */
const MAX_NAME = 128;

/**
 * The few candidates closest to `name`, best first: at most `max`, each within a `1/share` of the
 * longer name's length (a third unless said; at least one edit), never `name` itself.
 */
export function closestNames(name: string, candidates: Iterable<string>, max = 3, share = 3): string[] {
  if (name.length === 0 || name.length > MAX_NAME) return [];
  const lower = name.toLowerCase();
  const scored: Array<{ c: string; d: number }> = [];
  for (const c of candidates) {
    if (c === name || c.length > MAX_NAME) continue;
    const d = editDistance(lower, c.toLowerCase());
    if (d <= Math.max(1, Math.floor(Math.max(name.length, c.length) / share))) scored.push({ c, d });
  }
  scored.sort((x, y) => x.d - y.d || (x.c < y.c ? -1 : x.c > y.c ? 1 : 0));
  return scored.slice(0, max).map((s) => s.c);
}

/** The value among `values` closest to `bad` (any distance), compared as strings. */
export function closestValue(bad: unknown, values: readonly unknown[]): unknown {
  const b = String(bad).toLowerCase();
  let best: unknown;
  let bestD = Infinity;
  for (const v of values) {
    const d = editDistance(b, String(v).toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = v;
    }
  }
  return best;
}
