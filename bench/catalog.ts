/**
 * `npm run bench -- --only catalog-fetch`: `crd-yaml check` of one custom resource (in process, after warm-up)
 * whose CRD is a local file, beside the same check with the CRD from a catalog served on the loopback
 * interface: the first check (nothing cached: the request, the cache written, the input checked again)
 * and a cached one (read from the cache, no request). Goal: the cached one within 5 ms of the local one.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from '../server/src/cli/main';
import { CATALOG_CRDS, PUBLICATION, startCatalog } from '../test/catalogServer';

export interface CatalogRow {
  scenario: string;
  server: string;
  median: number;
  p95: number;
  extra: string;
}

export async function catalogBenchmark(report: (r: CatalogRow) => void, runs = 30): Promise<void> {
  const server = await startCatalog();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crd-yaml-bench-catalog-'));
  const cacheBefore = process.env.CRD_YAML_CACHE;
  try {
    fs.mkdirSync(path.join(dir, '.git'));
    fs.writeFileSync(path.join(dir, 'cr.yaml'), PUBLICATION);
    // Outside the checked folder, as the catalog's cached copy is: a CRD of another project (--crd).
    fs.copyFileSync(CATALOG_CRDS[0].file, path.join(dir, '..', `${path.basename(dir)}-crd.yaml`));
    const localArgs = ['check', '--catalog', 'off', '--format', 'json', '--crd', `../${path.basename(dir)}-crd.yaml`, 'cr.yaml'];
    const args = ['check', '--catalog', server.template, '--format', 'json', 'cr.yaml'];
    const once = async (a: string[]): Promise<{ ms: number; findings: number }> => {
      let out = '';
      const t0 = performance.now();
      await runCli(a, { stdout: (s) => (out += s), stderr: () => undefined, cwd: dir });
      return { ms: performance.now() - t0, findings: (JSON.parse(out) as { findings: unknown[] }).findings.length };
    };
    // The three cases in turn, each run: a loaded machine slows them alike. Warm-up runs first.
    const ms: Record<'local' | 'first' | 'cached', number[]> = { local: [], first: [], cached: [] };
    const findings = { local: 0, first: 0, cached: 0 };
    const asked = server.requests.length;
    for (let i = -5; i < runs; i++) {
      const results = {
        local: await once(localArgs),
        first: await (async () => {
          process.env.CRD_YAML_CACHE = path.join(dir, `cache-${i}`);
          return once(args);
        })(),
        cached: await (async () => {
          process.env.CRD_YAML_CACHE = path.join(dir, 'cache-cached');
          return once(args);
        })(),
      };
      for (const k of ['local', 'first', 'cached'] as const) {
        if (i >= 0) ms[k].push(results[k].ms);
        findings[k] = results[k].findings;
      }
    }
    const requests = server.requests.length - asked;
    const stat = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return { median: s[Math.floor(s.length / 2)], p95: s[Math.min(s.length - 1, Math.floor(s.length * 0.95))] };
    };
    const local = stat(ms.local);
    const row = (name: string, k: 'local' | 'first' | 'cached', extra: string) => {
      const r = stat(ms[k]);
      report({
        scenario: '(catalog) check of one CR',
        server: name,
        median: r.median,
        p95: r.p95,
        extra: `${findings[k]} findings${k === 'local' ? '' : `; +${(r.median - local.median).toFixed(1)} ms over the local CRD`}${extra}`,
      });
    };
    row('local CRD (--crd)', 'local', '');
    // One request per first run (a fresh cache each), one for the cached runs' cache (in the warm-up).
    row('catalog, first (loopback)', 'first', `; ${requests} requests in ${runs + 5} + ${runs + 5} runs`);
    row('catalog, cached', 'cached', ' (goal <= 5 ms)');
  } finally {
    if (cacheBefore === undefined) delete process.env.CRD_YAML_CACHE;
    else process.env.CRD_YAML_CACHE = cacheBefore;
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(`${dir}-crd.yaml`, { force: true });
  }
}
