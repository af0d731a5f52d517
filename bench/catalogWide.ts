/**
 * Every CRD file of a snapshot of the public CRD catalog, read as a catalog CRD is read (cli/catalog.ts:
 * an `--crd` file outside the inputs), with one custom resource of its kind checked against it: how many
 * load, how many are refused and why, and the time and peak memory of the run (issue 25).
 *
 *   node --import tsx bench/catalogWide.ts CATALOG/definitions [--limit N]
 *
 * Not a test (the snapshot is not part of the repository): run it once, under nice, on a checkout of
 * CustomResourceDefinition/catalog.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkFiles } from '../server/src/cli/check';
import { isJSONObject } from '../server/src/engine/json/values';
import { parseYamlDocuments } from '../server/src/yaml';

const root = process.argv[2];
if (!root) throw new Error('usage: bench/catalogWide.ts CATALOG/definitions [--limit N]');
const limitAt = process.argv.indexOf('--limit');
const limit = limitAt > 0 ? Number(process.argv[limitAt + 1]) : Infinity;

const files: string[] = [];
for (const g of fs.readdirSync(root).sort()) {
  const d = path.join(root, g);
  if (!fs.statSync(d).isDirectory()) continue;
  for (const f of fs.readdirSync(d).sort()) if (f.endsWith('.yaml')) files.push(path.join(d, f));
}

const counts = new Map<string, number>();
const examples = new Map<string, string[]>();
const count = (why: string, file: string) => {
  counts.set(why, (counts.get(why) ?? 0) + 1);
  const l = examples.get(why) ?? [];
  if (l.length < 3) examples.set(why, [...l, path.relative(root, file)]);
};
let bytes = 0;
let findings = 0;
const t0 = process.hrtime.bigint();
const cpu0 = process.cpuUsage();
for (const file of files.slice(0, limit)) {
  const text = fs.readFileSync(file, 'utf8');
  bytes += Buffer.byteLength(text);
  // The CRDs of the file, by the YAML layer's own reading (bounded: budget.ts).
  let crds: Record<string, unknown>[];
  try {
    crds = parseYamlDocuments(text)
      .documents.map((d) => d.value)
      .filter((v): v is Record<string, unknown> => isJSONObject(v) && v.kind === 'CustomResourceDefinition');
  } catch (e) {
    count(`crashed reading: ${(e as Error).message.split('\n')[0]}`, file);
    continue;
  }
  if (!crds.length) {
    count('not a CRD (no CustomResourceDefinition document)', file);
    continue;
  }
  const crd = crds[0];
  const spec = isJSONObject(crd.spec) ? crd.spec : {};
  const names = isJSONObject(spec.names) ? spec.names : {};
  const versions = Array.isArray(spec.versions) ? spec.versions.filter(isJSONObject) : [];
  const version = String(versions.find((v) => v.served !== false)?.name ?? spec.version ?? '');
  const v1beta1 = crd.apiVersion === 'apiextensions.k8s.io/v1beta1';
  if (crds.length > 1) count('(several CRDs in the file)', file);
  if (v1beta1) count('(apiextensions.k8s.io/v1beta1: read through the conversion)', file);
  const cr = `apiVersion: ${spec.group}/${version}\nkind: ${names.kind}\nmetadata:\n  name: probe\n`;
  try {
    const r = checkFiles([{ path: 'probe.yaml', text: cr }], { crdFiles: [{ path: file, text, external: true, catalog: { url: file, tag: 'main' } }], cwd: path.dirname(file) });
    findings += r.findings.length;
    const c = r.coverage;
    if (c.checked.customResource === 1) count(v1beta1 ? 'loaded (v1beta1)' : 'loaded', file);
    else {
      const why = Object.entries(c.notChecked).find(([, n]) => n > 0)?.[0] ?? (c.checked.unservedKind ? 'unservedKind' : 'unknown');
      const said = r.findings.find((f) => f.code === 'NoKindMatch' || f.code === 'CRDUnreadable' || f.code === 'NotChecked');
      count(`refused: ${why}${said ? ` (${said.code}: ${said.message.slice(0, 80)})` : ''}`, file);
    }
  } catch (e) {
    count(`crashed checking: ${(e as Error).message.split('\n')[0]}`, file);
  }
}
const wall = Number(process.hrtime.bigint() - t0) / 1e9;
const cpu = process.cpuUsage(cpu0);
console.log(
  `${Math.min(files.length, limit)} files, ${(bytes / 1048576).toFixed(0)} MB, ${wall.toFixed(1)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB, ${findings} findings on the probes`,
);
for (const [why, n] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`${String(n).padStart(6)}  ${why}  e.g. ${examples.get(why)?.join(', ')}`);
