/**
 * The handwritten validation of built-in kinds (engine/builtin/validation) against a real kube-apiserver:
 * every manifest of test/fixtures/builtin-validation is created with a server-side dry-run
 * (fieldValidation=Strict); the server's answer must be the one recorded in expected.json (UPDATE=1
 * rewrites it), and the engine's errors must be the server's causes, field for field.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, readFileSync } from 'node:fs';
import { handwrittenErrors } from '../../server/src/engine/builtin/validation';
import { EXPECTED, asCauses, loadCases, sortCauses, type Answer, type Cause } from '../fixtures/builtin-validation/cases';
import { skipWithoutKapi, startApiServer } from './kapi';

const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding']);

/** The collection a kind is created in (namespace `default` for namespaced kinds). */
function collection(apiVersion: string, kind: string): string {
  const plural = kind.toLowerCase() + (kind.endsWith('s') ? 'es' : 's');
  const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  return CLUSTER_SCOPED.has(kind) ? `${base}/${plural}` : `${base}/namespaces/default/${plural}`;
}

test('built-in manifests: the API server answers as recorded, and the engine gives its causes', { skip: skipWithoutKapi() }, async () => {
  const server = await startApiServer();
  try {
    const cases = loadCases();
    const answers: Answer[] = [];
    for (const c of cases) {
      const o = c.object as { apiVersion: string; kind: string };
      const r = await server.request('POST', `${collection(o.apiVersion, o.kind)}?dryRun=All&fieldValidation=Strict`, c.object);
      const causes: Cause[] = (r.body?.details?.causes ?? []).map((x: Cause) => ({ reason: x.reason, field: x.field, message: x.message }));
      answers.push({ note: c.note, status: r.status, causes: sortCauses(causes) });
    }
    if (process.env.UPDATE === '1') writeFileSync(EXPECTED, JSON.stringify(answers, null, 2) + '\n');
    const expected: Answer[] = JSON.parse(readFileSync(EXPECTED, 'utf8'));
    assert.deepEqual(answers, expected, 'the API server no longer answers as expected.json records (UPDATE=1 to rewrite it)');
    let agree = 0;
    const disagree: string[] = [];
    cases.forEach((c, i) => {
      const o = c.object as { apiVersion: string; kind: string };
      const mine = asCauses(handwrittenErrors(o.apiVersion, o.kind, c.object));
      if (JSON.stringify(mine) === JSON.stringify(answers[i].causes)) agree++;
      else disagree.push(`${c.note}:\n  server ${JSON.stringify(answers[i].causes)}\n  engine ${JSON.stringify(mine)}`);
    });
    assert.equal(disagree.length, 0, `${agree}/${cases.length} agree; differ:\n${disagree.join('\n')}`);
  } finally {
    server.stop();
  }
});
