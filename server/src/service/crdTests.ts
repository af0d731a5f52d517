/**
 * CRD rule test files (`*.crdtest.yaml`, crdtest/) in the editor: a CodeLens to run each case and the whole
 * file, the failures of the last run as findings on their cases, and the file's own problems. Inside a
 * case's `object` and `oldObject`, completion and hover work as in a custom resource (testObjectAt).
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeLens } from 'vscode-languageserver-types';
import type { PathSegment } from '../engine';
import { parseTestFile, TEST_FILE_SUFFIX, type TestFile } from '../crdtest/format';
import { crdForObject, describeOutcome, runTestCase, type CaseOutcome } from '../crdtest/run';
import type { ServiceContext } from './context';
import type { Finding } from './finding';
import { valueAt } from './kube';
import { engineTarget } from './engineCalls';
import { crdKey } from '../workspace/crdIndex';

/** The command a Run lens invokes: arguments `[uri]` (the whole file) or `[uri, caseIndex]`. */
export const RUN_TESTS_COMMAND = 'crdYaml.runTests';

/** The last run of a test file's cases, valid while its text is the same. */
export interface TestRun {
  text: string;
  outcomes: Map<number, CaseOutcome>;
}

/** Whether a document is a CRD rule test file (by its name). */
export function isTestFile(uri: string): boolean {
  return TEST_FILE_SUFFIX.test(uri.split(/[?#]/)[0]);
}

/** Inside a test case's object or oldObject: that object and the path within it. */
export function testObjectAt(uri: string, value: unknown, segs: PathSegment[]): { object: Record<string, unknown> | undefined; segments: PathSegment[] } | undefined {
  if (!isTestFile(uri) || segs.length < 3) return undefined;
  const [a, b, c] = segs;
  if (a.kind !== 'field' || a.name !== 'tests' || b.kind !== 'index' || c.kind !== 'field' || (c.name !== 'object' && c.name !== 'oldObject')) return undefined;
  const o = valueAt(value, segs.slice(0, 3));
  return { object: o && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>) : undefined, segments: segs.slice(3) };
}

/** The group/kind a test file's `crd:` names (undefined: a path, or none). */
export function testCrdKind(text: string): { group: string; kind: string } | undefined {
  const crd = parseTestFile(text).crd;
  return crd && !('path' in crd) ? { group: crd.group, kind: crd.kind } : undefined;
}

/** The CRDs a test file names: by path (relative to the file, among the indexed CRDs) or by group/kind. */
function crdsOf(ctx: ServiceContext, uri: string, t: TestFile): { crds: unknown[]; problem?: string } {
  if (!t.crd) return { crds: [], problem: 'the file names no CRD' };
  if ('path' in t.crd) {
    let target: string;
    try {
      target = new URL(t.crd.path, uri).href;
    } catch {
      return { crds: [], problem: `crd ${t.crd.path}: not a path` };
    }
    const crds = ctx.index
      .all()
      .filter((c) => c.uri === target)
      .map((c) => c.crd);
    return crds.length ? { crds } : { crds, problem: `crd ${t.crd.path}: no CustomResourceDefinition known there (is the file in the workspace?)` };
  }
  const c = ctx.index.lookup(t.crd.group, t.crd.kind);
  if (c) return { crds: [c.crd] };
  // What the catalog answered (coverage.ts says the same of an object of that kind).
  const answer = ctx.catalog.get(crdKey(t.crd.group, t.crd.kind));
  if (answer && 'refused' in answer) return { crds: [], problem: `crd ${t.crd.group}/${t.crd.kind}: ${answer.refused}` };
  return { crds: [], problem: `no known CRD defines ${t.crd.group}/${t.crd.kind}${answer ? ' (not in the catalog either)' : ''}` };
}

/** Runs the cases of a test file (all, or one) and remembers their outcomes. */
export function runTests(ctx: ServiceContext, td: TextDocument, index?: number): { passed: number; failed: number } {
  const text = td.getText();
  const t = parseTestFile(text);
  const { crds, problem } = crdsOf(ctx, td.uri, t);
  const prev = ctx.testRuns.get(td.uri);
  const outcomes = prev && prev.text === text ? prev.outcomes : new Map<number, CaseOutcome>();
  let passed = 0;
  let failed = 0;
  for (const c of t.cases) {
    if (index !== undefined && c.index !== index) continue;
    // The case's own problem first (it is the more precise), then the file's CRD.
    const o: CaseOutcome = problem && !c.problem ? { passed: false, errors: [], missing: [], unexpected: [], problem } : runTestCase(crdForObject(crds, c.object), c, engineTarget(ctx));
    outcomes.set(c.index, o);
    if (o.passed) passed++;
    else failed++;
  }
  ctx.testRuns.set(td.uri, { text, outcomes });
  return { passed, failed };
}

/** The test file's problems, and the failures of its last run (while the text is unchanged). */
export function testFindings(ctx: ServiceContext, td: TextDocument): Finding[] {
  const text = td.getText();
  const t = parseTestFile(text);
  const range = (r: { start: number; end: number }) => ({ start: td.positionAt(r.start), end: td.positionAt(r.end) });
  const out: Finding[] = t.problems.map((p) => ({ range: range(p.range), severity: 'error', code: 'TestFile', message: p.message, document: 'other' }));
  const run = ctx.testRuns.get(td.uri);
  if (!run || run.text !== text) return out;
  for (const c of t.cases) {
    const o = run.outcomes.get(c.index);
    if (!o || o.passed) continue;
    const lines = describeOutcome(o);
    out.push({ range: range(c.nameRange), severity: 'error', code: 'TestFailed', message: `test failed: ${lines[0] ?? ''}`, document: 'other', notes: lines.slice(1) });
  }
  return out;
}

/** A Run lens over the file and over each case, titled with the case's last outcome. */
export function testLenses(ctx: ServiceContext, td: TextDocument): CodeLens[] {
  const text = td.getText();
  const t = parseTestFile(text);
  if (t.cases.length === 0) return [];
  const run = ctx.testRuns.get(td.uri);
  const fresh = run && run.text === text ? run.outcomes : undefined;
  const pos = (o: number) => td.positionAt(o);
  const top = t.doc?.rangeOfPath('tests', 'key');
  const lenses: CodeLens[] = [];
  const n = t.cases.length;
  const failedAll = fresh ? t.cases.filter((c) => fresh.get(c.index) && !fresh.get(c.index)!.passed).length : 0;
  const ranAll = fresh ? t.cases.filter((c) => fresh.has(c.index)).length : 0;
  lenses.push({
    range: { start: pos(top?.start ?? 0), end: pos(top?.end ?? 0) },
    command: { title: ranAll === n ? `Run ${n} tests (last run: ${n - failedAll} passed, ${failedAll} failed)` : `Run ${n} tests`, command: RUN_TESTS_COMMAND, arguments: [td.uri] },
  });
  for (const c of t.cases) {
    const o = fresh?.get(c.index);
    const title = o ? (o.passed ? 'Run (passed)' : 'Run (failed)') : 'Run';
    lenses.push({ range: { start: pos(c.nameRange.start), end: pos(c.nameRange.end) }, command: { title, command: RUN_TESTS_COMMAND, arguments: [td.uri, c.index] } });
  }
  return lenses;
}
