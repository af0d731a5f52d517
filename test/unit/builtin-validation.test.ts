/**
 * engine/builtin/validation against the real kube-apiserver's recorded answers (expected.json, written
 * and re-checked by test/apiserver/builtin-validation.test.ts): every manifest gives exactly the server's
 * causes, field for field, without a server.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { handwrittenErrors, HANDWRITTEN_KINDS } from '../../server/src/engine/builtin/validation';
import { EXPECTED, asCauses, loadCases, type Answer } from '../fixtures/builtin-validation/cases';

const cases = loadCases();
const expected: Answer[] = JSON.parse(readFileSync(EXPECTED, 'utf8'));

test('the recorded answers are for these manifests', () => {
  assert.equal(expected.length, cases.length);
  cases.forEach((c, i) => assert.equal(expected[i].note, c.note));
  assert.ok(cases.length >= 60);
});

for (const [i, c] of cases.entries()) {
  test(`${c.note}: the API server's causes`, () => {
    const o = c.object as { apiVersion: string; kind: string };
    assert.ok(HANDWRITTEN_KINDS.includes(`${o.apiVersion}/${o.kind}`), `${o.apiVersion}/${o.kind} is judged`);
    assert.deepEqual(asCauses(handwrittenErrors(o.apiVersion, o.kind, c.object)), expected[i].causes);
  });
}

test('a status 201 has no causes and every 422 has some', () => {
  for (const a of expected) assert.equal(a.status === 201, a.causes.length === 0, a.note);
});

/** Every value below `v`, replaced in turn by `by`: the shapes schema validation would reject. */
function* mutations(v: unknown, by: unknown): Generator<unknown> {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      yield v.map((x, j) => (j === i ? by : x));
      for (const m of mutations(v[i], by)) yield v.map((x, j) => (j === i ? m : x));
    }
  } else if (v && typeof v === 'object') {
    for (const k of Object.keys(v)) {
      yield { ...v, [k]: by };
      for (const m of mutations((v as Record<string, unknown>)[k], by)) yield { ...v, [k]: m };
    }
  }
}

test('mistyped fields are read as Go zero values, never thrown on', () => {
  let n = 0;
  for (const c of cases.slice(0, 40)) {
    const o = c.object as { apiVersion: string; kind: string };
    for (const by of [null, 7, 'x', [], {}, true]) {
      for (const m of mutations(c.object, by)) {
        if (++n > 20000) break;
        const errs = handwrittenErrors(o.apiVersion, o.kind, m as Record<string, unknown>);
        assert.ok(Array.isArray(errs));
      }
    }
  }
  assert.ok(n > 1000, `${n} mutations`);
});

test('kinds and versions not judged give nothing', () => {
  assert.deepEqual(handwrittenErrors('apps/v1beta1', 'Deployment', { metadata: { name: 'Bad_Name' } }), []);
  assert.deepEqual(handwrittenErrors('example.com/v1', 'Widget', { metadata: { name: 'Bad_Name' } }), []);
  assert.notDeepEqual(handwrittenErrors('apps/v1', 'Deployment', { metadata: { name: 'Bad_Name' } }), []);
});
