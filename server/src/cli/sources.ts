/**
 * The CLI's CRDs from outside the given paths: `--crd` URLs (fetched once into the cache, read from it
 * afterwards), `--cluster` (the CRDs of a kubeconfig context), and the `crds/` folder of each Helm chart
 * whose templates are checked. Also what each input is from its place in the repository (a chart
 * template, a kustomize patch) and which inputs `--exclude` leaves unchecked.
 */
import { promises as fs, statSync } from 'node:fs';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { openCluster, storedCrdManifest } from '../cluster';
import type { FileContext } from '../service';
import { NODE_FS, repositoryAround, repositoryRoleOf, type RepositoryFs } from '../workspace/repository';
import { globToRegExp } from '../workspace/scan';
import { defaultSourceCache, isUrl, urlSource } from '../workspace/sources';
import type { CliArgs } from './args';
import { STDIN, collectYamlFiles, type InputFile } from './files';

/** CRD files from URLs and a cluster (async: network). Problems are one line each. */
export async function remoteCrdFiles(args: CliArgs): Promise<{ files: InputFile[]; errors: string[] }> {
  const files: InputFile[] = [];
  const errors: string[] = [];
  for (const url of args.crdPaths.filter(isUrl)) {
    const r = await urlSource(url, { cacheDir: process.env.CRD_YAML_CACHE ?? defaultSourceCache(), allowNetwork: true });
    if (r.error || !r.file) errors.push(r.error ?? `${url}: not available`);
    else files.push({ path: url, text: await fs.readFile(r.file, 'utf8'), external: true });
  }
  if (args.cluster) {
    try {
      const client = await openCluster({ kubeconfig: args.kubeconfig, context: args.context, allowExec: true });
      const { crds, truncated } = await client.listCustomResourceDefinitions();
      if (truncated) errors.push(`cluster ${client.conn.context}: ${truncated}`);
      for (const crd of crds) {
        const name = String((crd.metadata as { name?: unknown } | undefined)?.name ?? '');
        files.push({ path: `cluster:${client.conn.context}/${name}`, text: stringify(storedCrdManifest(crd), { lineWidth: 0 }), external: true });
      }
    } catch (e) {
      errors.push(`--cluster: ${(e as Error).message}`);
    }
  }
  return { files, errors };
}

/** Whether a path (relative to cwd, `/`-separated) or one of its folders matches an --exclude glob. */
export function excludedBy(globs: string[], cwd: string): (file: string) => boolean {
  // `./chart/**` and `chart/` mean what `chart/**` and `chart` mean.
  const res = globs.map((g) => globToRegExp(g.replace(/^(\.\/)+/, '').replace(/\/+$/, '')));
  return (file) => {
    if (file === STDIN || res.length === 0) return false;
    const rel = path.relative(cwd, path.resolve(cwd, file)).split(path.sep).join('/');
    const parts = rel.split('/');
    for (let i = parts.length; i > 0; i--) {
      const p = parts.slice(0, i).join('/');
      if (res.some((r) => r.test(p))) return true;
    }
    return false;
  };
}

/**
 * What each input is from its place in the repository (workspace/repository.ts, as the editor finds it:
 * chart templates, kustomize patches and trees, test tools' files, vendored copies), and the crds/ folders
 * of the charts of the inputs.
 */
export function repositoryContexts(files: InputFile[], cwd: string): { contexts: Map<string, FileContext>; chartCrds: InputFile[]; errors: string[] } {
  const contexts = new Map<string, FileContext>();
  const charts = new Set<string>();
  const real = files.filter((f) => f.path !== STDIN);
  const abs = real.map((f) => path.resolve(cwd, f.path));
  // The folders in a folder (for the test definitions beside a file's folders) are those the inputs are
  // in: a test's folder holds its chainsaw-test.yaml; the files of a folder (a kuttl test case's steps)
  // are the inputs there. Nothing is listed again.
  const children = new Map<string, Set<string>>();
  const filesIn = new Map<string, string[]>();
  for (const f of abs) {
    const names = filesIn.get(path.dirname(f));
    if (names) names.push(path.basename(f));
    else filesIn.set(path.dirname(f), [path.basename(f)]);
    for (let d = path.dirname(f), up = path.dirname(d); up !== d; d = up, up = path.dirname(d)) {
      const set = children.get(up) ?? new Set<string>();
      if (set.has(path.basename(d))) break;
      children.set(up, set.add(path.basename(d)));
    }
  }
  // An input's text as the input gives it, when asked (a file beyond the kept texts is read again): all
  // texts at once were the whole input in memory (the 494 MB catalog ran its worker out of heap).
  const inputs = new Map(real.map((f, i) => [abs[i], f]));
  const rfs: RepositoryFs = { ...NODE_FS, read: (p) => inputs.get(p)?.text ?? NODE_FS.read(p), folders: (p) => [...(children.get(p) ?? [])], files: (p) => filesIn.get(p) ?? [] };
  const around = repositoryAround(abs, rfs);
  for (const f of real) {
    // The working directory is the CLI's workspace folder (vendored copies are judged below it).
    const { role, chart } = repositoryRoleOf(path.resolve(cwd, f.path), around, rfs, undefined, cwd);
    if (chart) charts.add(chart);
    if (Object.keys(role).length) contexts.set(f.path, role);
  }
  const given = new Set(real.map((f) => path.resolve(cwd, f.path)));
  const chartCrds: InputFile[] = [];
  const errors: string[] = [];
  for (const chart of charts) {
    const dir = path.join(chart, 'crds');
    try {
      if (!statSync(dir).isDirectory()) continue;
    } catch {
      continue;
    }
    const c = collectYamlFiles([path.relative(cwd, dir) || '.'], cwd);
    for (const f of c.files) if (!given.has(path.resolve(cwd, f.path))) chartCrds.push(f);
    errors.push(...c.inputErrors.filter((e) => !e.includes('no .yaml or .yml files')));
  }
  return { contexts, chartCrds, errors };
}
