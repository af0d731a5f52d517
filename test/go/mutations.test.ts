/**
 * The Go tier's mutation gate (issue 26): at least 200 mistakes injected into the kubebuilder types of
 * gateway-api, jobset and kueue (test/go/mutations.ts), at least 95 % of their findings on the marker line
 * that caused them and the rest on the field. Skipped with a line when go is not installed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chooseVersion, crdgenSourceDir, defaultCacheDir, GoGenerator, supportedVersions } from '../../server/src/workspace/goGenerator';
import { moduleCopy, PROJECTS, runProject, summary, type Outcome } from './mutations';

const hasGo = spawnSync('go', ['version']).status === 0;
const skip = hasGo ? false : 'go is not on PATH: the Go mutation run did not run';
if (skip) console.log(`# ${skip}`);

test('mutations of gateway-api, jobset and kueue types: >= 200, >= 95 % on the marker line, none missed', { skip }, async () => {
  const cacheDir = process.env.CRD_YAML_CACHE ?? defaultCacheDir();
  let bin = process.env.CRD_YAML_CRDGEN;
  if (!bin) {
    const src = crdgenSourceDir();
    const version = src && chooseVersion(supportedVersions(src), undefined);
    assert.ok(version, 'go/crdgen/versions holds the controller-tools versions');
    const b = await new GoGenerator({ cacheDir }).build(version);
    assert.ok(b.ok, b.ok ? '' : b.problem.message);
    bin = b.bin;
  }
  const generator = new GoGenerator({ cacheDir, bin });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'crd-yaml-mutations-'));
  const all: Outcome[] = [];
  try {
    for (const p of PROJECTS) all.push(...(await runProject(generator, moduleCopy(p.module, p.version, work), p.api, 16)));
  } finally {
    generator.dispose();
    fs.rmSync(work, { recursive: true, force: true });
  }
  console.log(summary(all));
  const missed = all.filter((o) => o.where === 'missed');
  assert.ok(all.length >= 200, `${all.length} mutations`);
  assert.deepEqual(
    missed.map((o) => `${o.mutation.kind} ${o.mutation.file}:${o.mutation.line + 1} ${o.found ?? ''}`),
    [],
  );
  assert.ok(all.filter((o) => o.where === 'marker').length >= 0.95 * all.length, summary(all));
});
