/**
 * Running CRD rule test cases through the engine: a case without an old object is a create, with one an
 * update (ratcheting, transition rules), exactly as the API server's strategy validates them.
 */
import type { KubernetesTarget } from '../engine';
import { errorMessage, type FieldError } from '../engine';
import { validateCustomResource } from '../engine';
import { identifyObject } from '../yaml';
import type { ExpectedError, TestCase } from './format';

export interface CaseOutcome {
  passed: boolean;
  /** The API server's errors (warnings left out). */
  errors: FieldError[];
  /** Expected errors that no distinct actual error matched. */
  missing: ExpectedError[];
  /** Actual errors that no expectation matched. */
  unexpected: FieldError[];
  /** Why the case could not run (its own problem, or no CRD for its object). */
  problem?: string;
}

const normType = (t: string) =>
  t
    .toLowerCase()
    .replace(/^fieldvalue/, '')
    .replace(/\s+value$/, '');

/** Whether an actual error satisfies an expectation (each given key must hold). */
export function errorMatches(e: FieldError, x: ExpectedError): boolean {
  if (x.type !== undefined && normType(x.type) !== normType(e.type)) return false;
  if (x.field !== undefined && x.field.replace(/^\./, '') !== e.field) return false;
  if (x.message !== undefined && !errorMessage(e).includes(x.message)) return false;
  return true;
}

/** A maximum matching of expectations to distinct actual errors (augmenting paths; sizes are small). */
function matchErrors(expected: ExpectedError[], actual: FieldError[]): (number | undefined)[] {
  const owner: (number | undefined)[] = actual.map(() => undefined);
  const tryAssign = (i: number, seen: boolean[]): boolean => {
    for (let j = 0; j < actual.length; j++) {
      if (seen[j] || !errorMatches(actual[j], expected[i])) continue;
      seen[j] = true;
      if (owner[j] === undefined || tryAssign(owner[j]!, seen)) {
        owner[j] = i;
        return true;
      }
    }
    return false;
  };
  for (let i = 0; i < expected.length; i++)
    tryAssign(
      i,
      actual.map(() => false),
    );
  return owner;
}

/** The CRD of a list that serves an object's group and kind (the only one, when there is one). */
export function crdForObject(crds: unknown[], obj: unknown): unknown {
  if (crds.length === 1) return crds[0];
  const id = identifyObject(obj);
  return crds.find((c) => {
    const spec = (c as { spec?: { group?: unknown; names?: { kind?: unknown } } }).spec;
    return spec?.group === id.group && spec?.names?.kind === id.objectKind;
  });
}

/** Runs one case against its CRD. */
export function runTestCase(crd: unknown, c: TestCase, target: KubernetesTarget = {}): CaseOutcome {
  if (c.problem) return { passed: false, errors: [], missing: [], unexpected: [], problem: c.problem };
  if (crd === undefined) return { passed: false, errors: [], missing: [], unexpected: [], problem: 'no CRD for this object (its apiVersion group and kind)' };
  const res = validateCustomResource(crd, c.object, c.oldObject !== undefined ? { ...target, oldObject: c.oldObject } : target);
  const errors = res.errors.filter((e) => (e.severity ?? 'error') === 'error');
  const expected = c.expect === 'valid' ? [] : c.expect;
  const owner = matchErrors(expected, errors);
  const matched = new Set(owner.filter((o): o is number => o !== undefined));
  const missing = expected.filter((_, i) => !matched.has(i));
  const unexpected = errors.filter((_, j) => owner[j] === undefined);
  return { passed: missing.length === 0 && unexpected.length === 0, errors, missing, unexpected };
}

/** One line per expectation or error, for people (`missing FieldValueInvalid spec.x "msg"`, `got spec.x: ...`). */
export function describeOutcome(o: CaseOutcome): string[] {
  if (o.problem) return [o.problem];
  const lines: string[] = [];
  for (const m of o.missing) lines.push(`expected, not reported: ${[m.type, m.field, m.message !== undefined ? JSON.stringify(m.message) : undefined].filter((x) => x !== undefined).join(' ') || '(any error)'}`);
  for (const e of o.unexpected) lines.push(`reported, not expected: ${errorMessage(e)} [${e.type}]`);
  if (o.errors.length === 0 && o.missing.length > 0) lines.push('the object is valid');
  return lines;
}
