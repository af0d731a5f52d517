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

/** Notes a check cut short at the path in progress. */
export function noteNotChecked(detail: string): void {
  currentRun().notChecked.push({ name: spellName(), segments: spellSegments(), detail });
}

/** How many checks were cut short so far in this run (junctors compare before and after a branch). */
export function notCheckedCount(): number {
  return run ? run.notChecked.length : 0;
}

/**
 * Runs fn as the validation call in progress, its value at the root (restoring the outer call and its path:
 * a default may be validated inside).
 */
export function inRun<T>(state: Run, fn: () => T): T {
  const outer = run;
  const outerBase = base;
  const outerDepth = depth;
  const outerProbing = probing;
  run = state;
  base = depth;
  probing = false;
  try {
    return fn();
  } finally {
    run = outer;
    base = outerBase;
    depth = outerDepth;
    probing = outerProbing;
  }
}

/** Whether the call in progress keeps formats as written (see validateAgainstSchema). */
export function formatsAsWritten(): boolean {
  return run?.formatsAsWritten === true;
}

/**
 * How a step of a value path is spelled by kube-openapi: properties `a.b` (no dot at the root);
 * additionalProperties and patternProperties keys, required fields and dependencies always with a dot
 * (`.key` at the root); items `a[0]`.
 */
export type Step = 'prop' | 'dotField' | 'dotKey' | 'index';

// The path of the value in progress. The walk is synchronous and depth first, so the path is a stack the
// validators push and pop: nothing is allocated per value visited, and the path is spelled only for an
// error or a check cut short (most values pass).
const steps: Step[] = [];
const keys: Array<string | number> = [];
let depth = 0;
let base = 0;

/** Steps into a child value (or names one for an error); leave() steps back. */
export function enter(step: Step, key: string | number): void {
  steps[depth] = step;
  keys[depth] = key;
  depth++;
}

export function leave(): void {
  depth--;
}

/** Whether the value in progress is the root of the call. */
export function atRoot(): boolean {
  return depth === base;
}

// In a probe, errors are made without their path (see probe).
let probing = false;

/**
 * Runs a junctor's branch as a probe: a branch whose errors nobody reads, only whether there are any
 * (kube-openapi drops those of a oneOf's branches after one passed, and those of a not's schema). Its
 * errors are made without their path, the costly part of an error; checks cut short still note theirs
 * (they are reported).
 */
export function probe(fn: () => Result): Result {
  const outer = probing;
  probing = true;
  try {
    return fn();
  } finally {
    probing = outer;
  }
}

/** The path in progress as an error names it (err.Name; `""` at the root, and in a probe). */
export function pathName(): string {
  return probing ? '' : spellName();
}

/** The path in progress as an error's field segments (undefined at the root, and in a probe). */
export function pathSegments(): PathSegment[] | undefined {
  return probing ? undefined : spellSegments();
}

/** The path in progress as kube-openapi spells it. */
function spellName(): string {
  let name = '';
  for (let i = base; i < depth; i++) {
    const step = steps[i];
    if (step === 'index') name += `[${keys[i]}]`;
    else name = step === 'prop' && name === '' ? String(keys[i]) : `${name}.${keys[i]}`;
  }
  return name;
}

function spellSegments(): PathSegment[] | undefined {
  if (depth === base) return undefined;
  const out: PathSegment[] = [];
  for (let i = base; i < depth; i++) {
    const step = steps[i];
    if (step === 'index') out.push({ kind: 'index', index: keys[i] as number });
    else if (step === 'dotKey') out.push({ kind: 'key', key: keys[i] as string });
    else out.push({ kind: 'field', name: keys[i] as string });
  }
  return out;
}

export function merge(into: Result, other: Result | undefined): void {
  if (!other) return;
  // Indexed: it runs for every node of every value, before it is optimized too (no iterator per call).
  for (let i = 0; i < other.errors.length; i++) into.errors.push(other.errors[i]);
  into.matchCount += other.matchCount;
}

export function patternTooLarge(size: number): string {
  return `pattern too large to check here (a program of about ${size} instructions)`;
}
