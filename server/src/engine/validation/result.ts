/**
 * kube-openapi's Result (validate/result.go) and value paths as it spells them, and the state of the
 * validation call in progress: the pattern work budget and the checks bounds cut short.
 */
import type { PathSegment } from '../field';
import { RegexBudget } from '../regex/re2';
import type { OpenAPIError } from './kube-openapi-errors';

/** A kube-openapi Result: errors plus the MatchCount used to pick the best failing anyOf/oneOf branch. */
export interface Result {
  errors: OpenAPIError[];
  matchCount: number;
}

/**
 * A check a bound cut short (a pattern too large to compile or too expensive to match here): not an
 * error, and the value counts as passing it (a false error is worse than a missed one).
 */
export interface NotChecked {
  /** The kube-openapi path string, as in OpenAPIError.name. */
  name: string;
  segments?: PathSegment[];
  detail: string;
}

/**
 * The state of one validateAgainstSchema call: the pattern work budget of the object, and the checks
 * bounds cut short. The compiled validators are shared closures, so the call in progress is held here
 * (validation is synchronous and not re-entered).
 */
export interface Run {
  budget: RegexBudget;
  notChecked: NotChecked[];
  /** Formats as written, not stripped (see validateAgainstSchema). */
  formatsAsWritten?: boolean;
}

let run: Run | null = null;

export function currentRun(): Run {
  run ??= { budget: new RegexBudget(), notChecked: [] };
  return run;
}

export function noteNotChecked(path: ValuePath | null, detail: string): void {
  currentRun().notChecked.push({ name: nameOf(path), segments: segsOf(path), detail });
}

/** How many checks were cut short so far in this run (junctors compare before and after a branch). */
export function notCheckedCount(): number {
  return run ? run.notChecked.length : 0;
}

/** Runs fn as the validation call in progress (restoring the outer one: a default may be validated inside). */
export function inRun<T>(state: Run, fn: () => T): T {
  const outer = run;
  run = state;
  try {
    return fn();
  } finally {
    run = outer;
  }
}

/** Whether the call in progress keeps formats as written (see validateAgainstSchema). */
export function formatsAsWritten(): boolean {
  return run?.formatsAsWritten === true;
}

/**
 * A value path as kube-openapi spells it: properties `a.b` (no dot at the root), additionalProperties
 * keys and required fields always with a dot (`.key` at the root), items `a[0]`.
 */
export class ValuePath {
  private nameCache: string | undefined;
  constructor(
    readonly parent: ValuePath | null,
    readonly seg: PathSegment,
    readonly mode: 'prop' | 'dot' | 'index',
  ) {}

  get name(): string {
    if (this.nameCache === undefined) {
      const p = this.parent ? this.parent.name : '';
      const s = this.seg;
      if (this.mode === 'index') this.nameCache = `${p}[${(s as { index: number }).index}]`;
      else {
        const n = s.kind === 'field' ? s.name : (s as { key: string }).key;
        this.nameCache = this.mode === 'prop' && p === '' ? n : `${p}.${n}`;
      }
    }
    return this.nameCache;
  }

  segments(): PathSegment[] {
    const out: PathSegment[] = [];
    for (let p: ValuePath | null = this; p; p = p.parent) out.push(p.seg);
    return out.reverse();
  }
}

export const nameOf = (p: ValuePath | null) => (p ? p.name : '');

export const segsOf = (p: ValuePath | null) => (p ? p.segments() : undefined);

export function merge(into: Result, other: Result | undefined): void {
  if (!other) return;
  // Indexed: it runs for every node of every value, before it is optimized too (no iterator per call).
  for (let i = 0; i < other.errors.length; i++) into.errors.push(other.errors[i]);
  into.matchCount += other.matchCount;
}

export function patternTooLarge(size: number): string {
  return `pattern too large to check here (a program of about ${size} instructions)`;
}
