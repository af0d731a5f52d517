/**
 * The CEL peer suites (../shared/celspec: cel-spec's conformance tests, the Kubernetes CEL libraries'
 * test tables, targeted sweeps), each case answered by the real Kubernetes CEL environment: every case
 * must agree on the value or on the phase of the failure. The error text of failures is compared and
 * printed, not required (cel-go's ANTLR recovery wording is not reproduced everywhere).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { needsShared } from '../shared';
import { defaultCelspecDir, runSuite, SUITE_FILES } from './runner';

const dir = defaultCelspecDir();
const NO_SHARED = needsShared('celspec', 'cases');

for (const file of SUITE_FILES) {
  test(`CEL peer suite ${file}: value or failure phase as the Kubernetes CEL environment`, { skip: NO_SHARED }, (t) => {
    const s = runSuite(dir, file);
    t.diagnostic(`${file}: ${s.agree} of ${s.total} agree; error text ${s.sameText} of ${s.failures} failures`);
    assert.ok(s.total > 500, `expected the suite's cases, found ${s.total}`);
    const shown = s.disagreements.slice(0, 20).map((r) => `${r.id}: k8s ${JSON.stringify(r.expected)} engine ${JSON.stringify(r.actual)}`.slice(0, 500));
    assert.deepEqual(shown, [], `${s.disagreements.length} cases disagree`);
  });
}
