/**
 * `crd-yaml test PATHS`: runs the CRD rule test files (`*.crdtest.yaml`) under PATHS through the language
 * service, as the editor does. One line per case (`PASS`/`FAIL file: name`, the differences under a
 * failure), then `N passed, M failed`; or JUnit XML.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseTestFile, TEST_FILE_SUFFIX } from '../crdtest/format';
import { describeOutcome, type CaseOutcome } from '../crdtest/run';
import { LanguageService } from '../service';
import { readOnlyTextDocument } from '../service';
import { catalogable, type Catalog } from '../workspace/catalog';
import { crdKey } from '../workspace/crdIndex';
import { askCatalog } from './catalog';
import { uriOfInput } from './check';
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
  /** Catalog CRDs crd-yaml.lock refused (input errors, as for check), and what else the catalog said once. */
  catalogErrors: string[];
  catalogNotes: string[];
}

/** Whether a path names a test file. */
export function isTestFile(p: string): boolean {
  return TEST_FILE_SUFFIX.test(p);
}

/**
 * Runs every case of the test files through the language service, as the editor's Run lenses do
 * (service/crdTests.ts: the same CRD lookup, the same Kubernetes version). `crdFiles`: where group/kind
 * references are looked up (--crd, and the other YAML files found under PATHS). A `crd:` path is relative
 * to the test file; a file that is not among them is read from disk. A `crd: group/Kind` none of them
 * defines is asked of the `catalog` (cli/catalog.ts), as check asks it for a custom resource's kind.
 */
export function runTestFiles(files: InputFile[], opts: { crdFiles: InputFile[]; cwd: string; kubernetesMinor?: number; catalog?: Catalog }): TestRunReport | Promise<TestRunReport> {
  const report: TestRunReport = { cases: [], fileProblems: [], catalogErrors: [], catalogNotes: [] };
  const service = new LanguageService({ kubernetesMinor: opts.kubernetesMinor }, { batch: true });
  const indexed = new Set<string>();
  for (const f of opts.crdFiles) {
    const uri = uriOfInput(f.path, opts.cwd);
    service.indexDiskFile(uri, f.text, 'disk');
    indexed.add(uri);
  }
  const tests = files.map((f) => ({ f, t: parseTestFile(f.text) }));
  const wanted = new Map<string, { group: string; kind: string }>();
  for (const { t } of tests)
    if (t.crd && !('path' in t.crd) && !service.index.lookup(t.crd.group, t.crd.kind) && catalogable(t.crd.group, t.crd.kind)) wanted.set(crdKey(t.crd.group, t.crd.kind), { group: t.crd.group, kind: t.crd.kind });
  // Answered at once when the catalog has nothing to give.
  if (!opts.catalog || !wanted.size) return run();
  return askCatalog(opts.catalog, [...wanted.values()]).then((r) => {
    for (const a of r.answers) {
      if (a.found) service.indexCatalogCrd(uriOfInput(a.file, opts.cwd), a.text, { url: a.url, tag: a.tag });
      // A case of a kind the catalog lacks, or the lock refused, says so (service/crdTests.ts).
      else if ('notFound' in a) service.setCatalogAnswer(a.group, a.kind, { notFound: true });
      else if (a.mismatch) service.setCatalogAnswer(a.group, a.kind, { refused: a.mismatch, detail: a.error });
    }
    report.catalogErrors.push(...r.errors);
    report.catalogNotes.push(...r.notes);
    return run();
  });

  function run(): TestRunReport {
    for (const { f, t } of tests) {
      const line = (offset: number) => t.text.slice(0, offset).split('\n').length;
      for (const p of t.problems) report.fileProblems.push(`${f.path}:${line(p.range.start)}: ${p.message}`);
      // A `crd:` file the CLI cannot read: said with the reason, as for any input.
      let unreadable: string | undefined;
      if (t.crd && 'path' in t.crd) {
        const file = path.resolve(opts.cwd, path.dirname(f.path), t.crd.path);
        const uri = pathToFileURL(file).href;
        if (!indexed.has(uri)) {
          try {
            service.indexDiskFile(uri, fs.readFileSync(file, 'utf8'), 'disk');
            indexed.add(uri);
          } catch (e) {
            unreadable = `crd ${t.crd.path}: ${describeFsError(e)}`;
          }
        }
      }
      const uri = uriOfInput(f.path, opts.cwd);
      const td = readOnlyTextDocument(uri, 'yaml', 1, f.text);
      service.update(td);
      if (!unreadable) service.runTests(td);
      const outcomes = service.testRunOf(uri)?.outcomes;
      for (const c of t.cases) {
        const problem = c.problem ?? unreadable ?? 'not run';
        const outcome: CaseOutcome = outcomes?.get(c.index) ?? { passed: false, errors: [], missing: [], unexpected: [], problem };
        report.cases.push({ file: f.path, name: c.name, line: line(c.nameRange.start), outcome });
      }
      service.close(uri);
    }
    return report;
  }
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
