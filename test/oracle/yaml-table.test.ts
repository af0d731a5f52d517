/**
 * The YAML table (yaml-table.ts) read by kubectl's code (the Go program yamlconv over sigs.k8s.io/yaml)
 * and by the YAML layer: the same documents with the same Go types, or both refusing the text, with
 * kubectl's exact error where the layer names one. Skipped without Go, like the rest of the oracle tier.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { goAvailable } from './oracle';
import { SCALARS, STRUCTURES, randomRows, type YamlRow } from './yaml-table';
import { ensureYamlconv, goReadings, layerReading } from './yamlconv';

const SKIP = goAvailable() ? false : 'the oracle tier did not run: `go` is not on PATH';

const TABLE: YamlRow[] = [...SCALARS.map((s) => ({ yaml: `v: ${s}\n` })), ...STRUCTURES];

test('the YAML table has at least 50 scalars and agrees with sigs.k8s.io/yaml row for row', { skip: SKIP, timeout: 10 * 60_000 }, () => {
  assert.ok(SCALARS.length >= 50, `${SCALARS.length} scalars`);
  assert.deepEqual(disagreements(TABLE), []);
});

test('seeded random scalars and documents agree with sigs.k8s.io/yaml', { skip: SKIP, timeout: 10 * 60_000 }, () => {
  const rows = randomRows(20261124, 1500, 500);
  assert.deepEqual(disagreements(rows), []);
});

/** The rows on which the YAML layer and kubectl's code read differently, described. */
function disagreements(ROWS: YamlRow[]): string[] {
  const bin = ensureYamlconv();
  const go = goReadings(ROWS, bin);
  assert.equal(go.length, ROWS.length);
  const disagreements: string[] = [];
  ROWS.forEach((row, i) => {
    const g = go[i];
    const ours = layerReading(row);
    const why: string[] = [];
    if (JSON.stringify(g.docs) !== JSON.stringify(ours.docs)) why.push(`documents: kubectl ${JSON.stringify(g.docs)}, layer ${JSON.stringify(ours.docs)}`);
    if ((g.error === undefined) !== (ours.error === undefined)) why.push(`error: kubectl ${g.error ?? 'none'}, layer ${ours.error ?? 'none'}`);
    else if (g.error !== undefined && ours.errors[0].some((e) => !e.startsWith('(')) && !ours.errors[0].includes(g.error)) {
      why.push(`kubectl's error ${JSON.stringify(g.error)} is not among the layer's ${JSON.stringify(ours.errors[0])}`);
    }
    if (why.length) disagreements.push(`${JSON.stringify(row.yaml)}${row.stream ? ' (stream)' : ''}: ${why.join('; ')}`);
  });
  return disagreements;
}
