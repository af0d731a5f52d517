/**
 * The shared corpus (and the project's own, test/conformance/found) against the checked-in list of
 * expected failures: a case that fails and is not listed fails the test, and so does a listed case
 * that passes (the list may only shrink).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { needsShared } from '../shared';
import { listCaseFiles, loadCases, runCase, defaultSharedDir, PROJECT_CORPUS, readExpectedFailures } from './runner';

const shared = defaultSharedDir();
const expected = readExpectedFailures();
const files = listCaseFiles([path.join(shared, 'conformance'), PROJECT_CORPUS]);

// Without it (a fresh clone) only the project's own corpus runs.
test('the shared conformance corpus is present', { skip: needsShared('conformance') }, () => {
  assert.ok(fs.existsSync(path.join(shared, 'conformance')), `no corpus at ${shared}/conformance`);
  assert.ok(files.length >= 10, `expected the corpus files, found ${files.length}`);
});

for (const file of files) {
  test(`conformance ${path.basename(file)}`, () => {
    const unexpectedFailures: string[] = [];
    const unexpectedPasses: string[] = [];
    for (const c of loadCases(file)) {
      const r = runCase(c, { sharedDir: shared });
      if (!r.passed && !(c.id in expected)) unexpectedFailures.push(`${c.id}: actual ${JSON.stringify(r.actual, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}`.slice(0, 600));
      if (r.passed && c.id in expected) unexpectedPasses.push(c.id);
    }
    assert.deepEqual(unexpectedFailures, [], 'cases that fail and are not in expected-failures.json');
    assert.deepEqual(unexpectedPasses, [], 'cases in expected-failures.json that now pass: remove them');
  });
}
