/**
 * A small seeded PRNG (mulberry32), so that every differential-test run can be replayed from its seed.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }

  /** Picks by weight: [[weight, value], ...]. */
  weighted<T>(xs: readonly (readonly [number, T])[]): T {
    const total = xs.reduce((s, [w]) => s + w, 0);
    let r = this.next() * total;
    for (const [w, v] of xs) {
      if ((r -= w) < 0) return v;
    }
    return xs[xs.length - 1][1];
  }

  /** A random subset, order kept. */
  subset<T>(xs: readonly T[], p = 0.5): T[] {
    return xs.filter(() => this.chance(p));
  }
}
