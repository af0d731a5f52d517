/**
 * A one-shot check (the CLI) indexes CRD files it can read again: their texts and values are held only
 * while in use, within CACHE_BUDGETS.heldCrdChars, and read again, the same, when used after being dropped.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LanguageService } from '../../server/src/service/languageService';
import { CACHE_BUDGETS } from '../../server/src/service/caches';
import { needsShared, sharedPath } from '../shared';

const NO_SHARED = needsShared('realworld', 'crds', 'argo-workflows');
const ARGO = sharedPath('realworld', 'crds', 'argo-workflows');
const FILES = ['argoproj.io_workflows.yaml', 'argoproj.io_workflowtemplates.yaml', 'argoproj.io_cronworkflows.yaml'];

test('held CRDs: dropped past the budget, least recently read first, and read again the same', { skip: NO_SHARED }, () => {
  const svc = new LanguageService({}, { batch: true });
  const reads = new Map<string, number>();
  const texts = new Map(FILES.map((f) => [f, readFileSync(join(ARGO, f), 'utf8')]));
  // Each file is larger than half the budget: holding two is over it.
  for (const t of texts.values()) assert.ok(t.length > CACHE_BUDGETS.heldCrdChars / 2);
  for (const f of FILES) {
    svc.indexDiskFile(`file:///argo/${f}`, texts.get(f), 'disk', () => {
      reads.set(f, (reads.get(f) ?? 0) + 1);
      return texts.get(f)!;
    });
  }
  // Indexing read names only: no text was asked for again.
  assert.equal(reads.size, 0);
  const kinds = ['Workflow', 'WorkflowTemplate', 'CronWorkflow'];
  const first = kinds.map((k) => JSON.stringify(svc.index.lookup('argoproj.io', k)!.crd));
  assert.deepEqual([...reads.values()], [1, 1, 1]);
  // The last read is still held.
  assert.equal(JSON.stringify(svc.index.lookup('argoproj.io', 'CronWorkflow')!.crd), first[2]);
  assert.equal(reads.get(FILES[2]), 1);
  // The first was dropped; reading it again gives the same CRD.
  assert.equal(JSON.stringify(svc.index.lookup('argoproj.io', 'Workflow')!.crd), first[0]);
  assert.equal(reads.get(FILES[0]), 2);
});

test('held CRDs: without a way to read again (the editor), nothing is dropped', { skip: NO_SHARED }, () => {
  const svc = new LanguageService({}, { batch: true });
  for (const f of FILES) svc.indexDiskFile(`file:///argo/${f}`, readFileSync(join(ARGO, f), 'utf8'));
  const values = ['Workflow', 'WorkflowTemplate', 'CronWorkflow'].map((k) => svc.index.lookup('argoproj.io', k)!.crd);
  // The same objects when asked again: kept, not parsed again.
  assert.equal(svc.index.lookup('argoproj.io', 'Workflow')!.crd, values[0]);
});
