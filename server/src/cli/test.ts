/**
 * `crd-yaml test PATHS`: runs the CRD rule test files (`*.crdtest.yaml`) under PATHS. One line per case
 * (`PASS`/`FAIL file: name`, the differences under a failure), then `N passed, M failed`; or JUnit XML.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseYamlDocuments, identifyObject } from '../yaml';
import { parseTestFile, TEST_FILE_SUFFIX, type TestFile } from '../crdtest/format';
import { crdForObject, describeOutcome, runTestCase, type CaseOutcome } from '../crdtest/run';
import { describeFsError, type InputFile } from './files';

export interface CaseReport {
  file: string;
  name: string;
  /** 1-based line of the case. */
  line: number;
  outcome: CaseOutcome;
}

export interface TestRunReport {
  cases: CaseReport[];
  /** Test files that could not be used at all (syntax, no crd, no tests), one line each. */
  fileProblems: string[];
}

/** The CRD documents of YAML text. */
function crdsOf(text: string): unknown[] {
  return parseYamlDocuments(text)
    .documents.map((d) => d.value)
    .filter((v) => identifyObject(v).kind === 'crd');
}

/** Whether a path names a test file. */
export function isTestFile(p: string): boolean {
  return TEST_FILE_SUFFIX.test(p);
}

/**
 * Runs every case of the test files. `crdFiles`: where group/kind references are looked up (--crd,
 * and the other YAML files found under PATHS). Paths in `crd:` are relative to the test file.
 */
export function runTestFiles(files: InputFile[], opts: { crdFiles: InputFile[]; cwd: string; kubernetesMinor?: number }): TestRunReport {
  const report: TestRunReport = { cases: [], fileProblems: [] };
  let known: unknown[] | undefined;
  const knownCrds = () => (known ??= opts.crdFiles.flatMap((f) => crdsOf(f.text)));
  for (const f of files) {
    const t: TestFile = parseTestFile(f.text);
    const line = (offset: number) => t.text.slice(0, offset).split('\n').length;
    for (const p of t.problems) report.fileProblems.push(`${f.path}:${line(p.range.start)}: ${p.message}`);
    let crds: unknown[] = [];
    let crdProblem: string | undefined;
    if (t.crd && 'path' in t.crd) {
      const file = path.resolve(opts.cwd, path.dirname(f.path), t.crd.path);
      try {
        crds = crdsOf(fs.readFileSync(file, 'utf8'));
        if (crds.length === 0) crdProblem = `no CustomResourceDefinition in ${t.crd.path}`;
      } catch (e) {
        crdProblem = `crd ${t.crd.path}: ${describeFsError(e)}`;
      }
    } else if (t.crd) {
      const { group, kind } = t.crd;
      crds = knownCrds().filter((c) => {
        const spec = (c as { spec?: { group?: unknown; names?: { kind?: unknown } } }).spec;
        return spec?.group === group && spec?.names?.kind === kind;
      });
      if (crds.length === 0) crdProblem = `no CRD for ${group}/${kind} found (give its file with --crd)`;
    }
    for (const c of t.cases) {
      const outcome: CaseOutcome =
        crdProblem && !c.problem ? { passed: false, errors: [], missing: [], unexpected: [], problem: crdProblem } : runTestCase(crdForObject(crds, c.object), c, { kubernetesMinor: opts.kubernetesMinor });
      report.cases.push({ file: f.path, name: c.name, line: line(c.nameRange.start), outcome });
    }
  }
  return report;
}

/** The text report: PASS/FAIL lines, the differences of failures indented, and the totals last. */
export function formatTestText(r: TestRunReport): string {
  let out = '';
  for (const c of r.cases) {
    out += `${c.outcome.passed ? 'PASS' : 'FAIL'} ${c.file}:${c.line}: ${c.name}\n`;
    if (!c.outcome.passed) for (const l of describeOutcome(c.outcome)) out += `    ${l}\n`;
  }
  const passed = r.cases.filter((c) => c.outcome.passed).length;
  out += `${passed} passed, ${r.cases.length - passed} failed\n`;
  return out;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 forbids these control characters; they are dropped.
const XML_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;
const xml = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!).replace(XML_FORBIDDEN, '');

/** JUnit XML: one testsuite per test file, one testcase per case, a failure element with the differences. */
export function formatTestJunit(r: TestRunReport): string {
  const byFile = new Map<string, CaseReport[]>();
  for (const c of r.cases) byFile.set(c.file, [...(byFile.get(c.file) ?? []), c]);
  const failures = r.cases.filter((c) => !c.outcome.passed).length;
  let out = `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="crd-yaml test" tests="${r.cases.length}" failures="${failures}">\n`;
  for (const [file, cases] of byFile) {
    const f = cases.filter((c) => !c.outcome.passed).length;
    out += `  <testsuite name="${xml(file)}" tests="${cases.length}" failures="${f}">\n`;
    for (const c of cases) {
      out += `    <testcase name="${xml(c.name)}" classname="${xml(file)}" file="${xml(file)}" line="${c.line}"`;
      if (c.outcome.passed) out += '/>\n';
      else {
        const lines = describeOutcome(c.outcome);
        out += `>\n      <failure message="${xml(lines[0] ?? 'failed')}">${xml(lines.join('\n'))}</failure>\n    </testcase>\n`;
      }
    }
    out += '  </testsuite>\n';
  }
  return out + '</testsuites>\n';
}
