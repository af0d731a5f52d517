/**
 * CRD rule test files (`*.crdtest.yaml`): which CRD, and cases of objects (with an old object for an
 * update) and what the API server should answer. Parsing never fails: what is wrong with the file is a
 * problem at its place, and the rest of the cases still run.
 *
 * ```yaml
 * crd: ../config/crd/widgets.yaml      # a path (relative to this file), or group/kind of a known CRD
 * tests:
 *   - name: replicas within bounds
 *     object: {apiVersion: example.com/v1, kind: Widget, metadata: {name: a}, spec: {replicas: 3}}
 *     expect: valid
 *   - name: cannot scale down
 *     oldObject: {...}
 *     object: {...}
 *     expect:
 *       errors:
 *         - {type: FieldValueInvalid, field: spec.replicas, message: must not decrease}
 * ```
 */
import { parseYamlDocuments, type YamlDocument } from '../yaml';

/** A file is a test file by its name. */
export const TEST_FILE_SUFFIX = /\.crdtest\.ya?ml$/i;

/** An absolute range in the test file's text. */
export interface TextRange {
  start: number;
  end: number;
}

/** One expected error: each key optional; `message` is a substring of the API server's message. */
export interface ExpectedError {
  type?: string;
  field?: string;
  message?: string;
}

export interface TestCase {
  name: string;
  index: number;
  /** The case's `- name:` line and whole item, for CodeLens and diagnostics. */
  nameRange: TextRange;
  range: TextRange;
  object: unknown;
  /** Present for an update. */
  oldObject?: unknown;
  /** `valid`, or the errors (each to match a distinct actual error; no other error may occur). */
  expect: 'valid' | ExpectedError[];
  /** What is wrong with the case itself (it then fails without running). */
  problem?: string;
  /** Where in the case its object and old object are (for completion and hover from the CRD's schema). */
  objectRange?: TextRange;
  oldObjectRange?: TextRange;
}

/** Where the CRD comes from. */
export type CrdReference = { path: string; range: TextRange } | { group: string; kind: string; range: TextRange };

export interface TestFile {
  text: string;
  crd?: CrdReference;
  cases: TestCase[];
  /** Problems of the file as a whole (no `crd`, no `tests`, YAML syntax), at their place. */
  problems: { message: string; range: TextRange }[];
  /** The parsed document, for positions of paths (`tests[0].object.spec`). */
  doc?: YamlDocument;
}

const ERROR_KEYS = ['type', 'field', 'message'];
const CASE_KEYS = ['name', 'object', 'oldObject', 'expect'];

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Parses a test file's text (YAML as kubectl reads it). */
export function parseTestFile(text: string): TestFile {
  const file = parseYamlDocuments(text);
  const out: TestFile = { text, cases: [], problems: [] };
  for (const e of file.errors) if (e.severity === 'error') out.problems.push({ message: e.message, range: { start: e.start, end: e.end } });
  const doc = file.documents.find((d) => d.value !== null && d.value !== undefined);
  const whole = { start: 0, end: Math.min(text.length, Math.max(0, text.indexOf('\n') < 0 ? text.length : text.indexOf('\n'))) };
  if (!doc || !isMap(doc.value)) {
    if (out.problems.length === 0) out.problems.push({ message: 'a CRD test file is a mapping with `crd` and `tests`', range: whole });
    return out;
  }
  out.doc = doc;
  const root = doc.value;
  const at = (p: string, target: 'key' | 'value' = 'value'): TextRange => {
    const r = doc.rangeOfPath(p, target);
    return { start: r.start, end: r.end };
  };
  if (typeof root.crd === 'string' && root.crd.trim() !== '') {
    const ref = root.crd.trim();
    const range = at('crd');
    // group/kind (`gateway.networking.k8s.io/HTTPRoute`): a dotted group and a capitalised kind, no file extension.
    const gk = /^([a-z0-9.-]+\.[a-z0-9.-]+)\/([A-Z][A-Za-z0-9]*)$/.exec(ref);
    out.crd = gk && !/\.ya?ml$/i.test(ref) ? { group: gk[1], kind: gk[2], range } : { path: ref, range };
  } else {
    out.problems.push({ message: '`crd` names the CRD: a path relative to this file, or group/kind of a known CRD', range: root.crd === undefined ? whole : at('crd') });
  }
  if (!Array.isArray(root.tests)) {
    out.problems.push({ message: '`tests` is a list of cases (name, object, optional oldObject, expect)', range: root.tests === undefined ? whole : at('tests') });
    return out;
  }
  root.tests.forEach((t, i) => {
    const base = `tests[${i}]`;
    const range = at(base);
    const c: TestCase = {
      name: isMap(t) && typeof t.name === 'string' && t.name.trim() ? t.name.trim() : `case ${i + 1}`,
      index: i,
      nameRange: isMap(t) && t.name !== undefined ? at(`${base}.name`) : range,
      range,
      object: isMap(t) ? t.object : undefined,
      expect: 'valid',
    };
    const problem = (m: string) => (c.problem ??= m);
    if (!isMap(t)) {
      problem('a case is a mapping with name, object, optional oldObject, and expect');
      out.cases.push(c);
      return;
    }
    for (const k of Object.keys(t)) if (!CASE_KEYS.includes(k)) problem(`unknown key \`${k}\` (a case has ${CASE_KEYS.join(', ')})`);
    if (t.object === undefined) problem('the case has no `object`');
    else c.objectRange = at(`${base}.object`);
    if (t.oldObject !== undefined) {
      c.oldObject = t.oldObject;
      c.oldObjectRange = at(`${base}.oldObject`);
    }
    const e = t.expect;
    if (e === 'valid') c.expect = 'valid';
    else if (isMap(e) && Array.isArray(e.errors) && Object.keys(e).every((k) => k === 'errors')) {
      const errs: ExpectedError[] = [];
      e.errors.forEach((x) => {
        if (!isMap(x) || Object.keys(x).some((k) => !ERROR_KEYS.includes(k)) || Object.values(x).some((v) => typeof v !== 'string')) {
          problem('each expected error is a mapping of strings: type, field, message (each optional)');
          return;
        }
        errs.push({ ...(x.type !== undefined ? { type: x.type as string } : {}), ...(x.field !== undefined ? { field: x.field as string } : {}), ...(x.message !== undefined ? { message: x.message as string } : {}) });
      });
      if (errs.length === 0 && !c.problem) problem('`expect.errors` lists no errors: write `expect: valid`');
      c.expect = errs;
    } else problem('`expect` is `valid` or `{errors: [...]}`');
    out.cases.push(c);
  });
  return out;
}
