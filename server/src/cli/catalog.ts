/**
 * The CLI's catalog CRDs (workspace/catalog.ts): `check` checks its inputs, asks the catalog for the
 * group/kinds no local CRD defined (one request each, a few at a time), and checks again only the inputs
 * that had such objects, now with the CRDs found; `lock` writes crd-yaml.lock from the same answers.
 */
import { promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { crdKey } from '../workspace/crdIndex';
import { Catalog, catalogable, catalogConfig, formatLock, LOCK_FILE, parseLock, repositoryRootOf, type CatalogEntry, type LockEntry } from '../workspace/catalog';
import { defaultSourceCache } from '../workspace/sources';
import type { CliArgs } from './args';
import { checkFiles, type CheckOptions, type CheckReport, type InputReport } from './check';
import type { InputFile } from './files';

/** Where catalog answers are cached: beside the --crd URLs' copies ($CRD_YAML_CACHE/catalog, ~/.cache/crd-yaml/catalog). */
export function catalogCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CRD_YAML_CACHE ? path.join(env.CRD_YAML_CACHE, 'catalog') : path.join(path.dirname(defaultSourceCache(env)), 'catalog');
}

/** The catalog the arguments ask for (undefined: off), with the repository's lock file unless `ignoreLock`. */
export function catalogOf(args: Pick<CliArgs, 'catalog' | 'kubernetesMinor'>, cwd: string, ignoreLock = false): { catalog?: Catalog; lockFile: string } | { error: string } {
  const lockFile = path.join(repositoryRootOf(cwd), LOCK_FILE);
  const config = catalogConfig(args.catalog ?? process.env.CRD_YAML_CATALOG, args.kubernetesMinor);
  if (config && 'error' in config) return { error: `--catalog: ${config.error}` };
  if (!config) return { lockFile };
  let lock: Map<string, LockEntry> | undefined;
  if (!ignoreLock) {
    let text: string | undefined;
    try {
      text = readFileSync(lockFile, 'utf8');
    } catch {
      // no lock file: the catalog as it is now
    }
    if (text !== undefined) {
      const l = parseLock(text);
      if ('error' in l) return { error: `${path.relative(cwd, lockFile) || LOCK_FILE}: ${l.error}` };
      lock = l;
    }
  }
  return { catalog: new Catalog({ config, cacheDir: catalogCacheDir(), allowNetwork: true, lock }), lockFile };
}

/** A found catalog CRD as a --crd file (outside the inputs; its own problems are not reported). */
function crdFileOf(e: Extract<CatalogEntry, { found: true }>): InputFile {
  return { path: e.file, text: e.text, external: true, catalog: { url: e.url, tag: e.tag } };
}

/** The group/kinds to ask the catalog for, from each input's report. */
function wantedOf(reports: Iterable<InputReport>): Array<{ group: string; kind: string }> {
  const keys = new Map<string, { group: string; kind: string }>();
  for (const r of reports) {
    for (const k of r.noCrd ?? []) {
      const i = k.lastIndexOf('/');
      const group = k.slice(0, i);
      const kind = k.slice(i + 1);
      if (catalogable(group, kind)) keys.set(k, { group, kind });
    }
  }
  return [...keys.values()];
}

/**
 * checkFiles with the catalog's CRDs: the inputs whose objects no local CRD defines are checked again
 * with the CRDs the catalog has for them (the others' reports are taken as they are). `errors`: CRDs
 * the lock refused, a catalog not reachable (once).
 */
export async function checkWithCatalog(files: InputFile[], opts: CheckOptions, catalog: Catalog): Promise<{ report: CheckReport; errors: string[]; notes: string[] }> {
  const reports = new Map<string, InputReport>();
  const first = checkFiles(files, {
    ...opts,
    onInput: (file, r, total) => {
      reports.set(file, r);
      // An input the catalog may change is told once it is final.
      if (!r.noCrd?.length) opts.onInput?.(file, r, total);
    },
  });
  const wanted = wantedOf(reports.values());
  const tell = (r: CheckReport, recheck: Set<string>) => {
    if (!opts.onInput) return r;
    for (const [file, ir] of reports) if (ir.noCrd?.length && !recheck.has(file)) opts.onInput(file, ir, files.length);
    return r;
  };
  if (!wanted.length) return { report: tell(first, new Set()), errors: [], notes: [] };
  const { found, errors, notes, unreachable } = await askCatalog(catalog, wanted);
  const state = unreachable ? 'unreachable' : 'asked';
  if (!found.length) return { report: { ...tell(first, new Set()), catalog: state }, errors, notes };
  const foundKeys = new Set(found.map((a) => crdKey(a.group, a.kind)));
  const done = new Map<string, InputReport>(opts.done ?? []);
  const recheck = new Set<string>();
  for (const [file, r] of reports) {
    if (r.noCrd?.some((k) => foundKeys.has(k))) recheck.add(file);
    else done.set(file, r);
  }
  tell(first, recheck);
  const report = checkFiles(files, { ...opts, crdFiles: [...(opts.crdFiles ?? []), ...found.map(crdFileOf)], done });
  for (const a of found) report.paths.set(a.file, a.file);
  return { report: { ...report, catalog: state }, errors, notes };
}

/**
 * `crd-yaml lock`: the catalog CRDs the inputs use, pinned (URL, tag, sha256) in crd-yaml.lock. A locked
 * CRD still in use keeps its entry unless `update`. Returns the lines to print and the exit code.
 */
export async function writeLock(files: InputFile[], opts: CheckOptions, args: Pick<CliArgs, 'catalog' | 'kubernetesMinor' | 'update'>, cwd: string): Promise<{ lines: string[]; code: number }> {
  const locked = catalogOf(args, cwd);
  if ('error' in locked) return { lines: [locked.error], code: 2 };
  // The answers of the catalog as it is now (update), or as locked for what the lock holds.
  const fresh = catalogOf(args, cwd, true);
  if ('error' in fresh || !fresh.catalog || !locked.catalog) return { lines: ['the catalog is off (--catalog off or CRD_YAML_CATALOG=off): nothing to lock'], code: 2 };
  const reports: InputReport[] = [];
  checkFiles(files, { ...opts, onInput: (_f, r) => void reports.push(r) });
  const wanted = wantedOf(reports);
  const catalog = args.update ? fresh.catalog : locked.catalog;
  const answers = await catalog.lookupAll(wanted);
  const lines: string[] = [];
  const entries: LockEntry[] = [];
  let failed = 0;
  for (const a of answers) {
    if (a.found) entries.push({ group: a.group, kind: a.kind, url: a.url, tag: a.tag, sha256: a.sha256 });
    else if ('error' in a) {
      failed++;
      lines.push(a.error);
    }
  }
  const missing = answers.filter((a) => !a.found && 'notFound' in a).length;
  const rel = path.relative(cwd, locked.lockFile) || LOCK_FILE;
  if (failed) {
    lines.push(`${rel} not written: ${failed} catalog ${failed === 1 ? 'CRD' : 'CRDs'} could not be read`);
    return { lines, code: 2 };
  }
  await fs.writeFile(locked.lockFile, formatLock(entries));
  lines.push(`${rel}: ${entries.length} catalog ${entries.length === 1 ? 'CRD' : 'CRDs'}${missing ? ` (${missing} ${missing === 1 ? 'kind' : 'kinds'} not in the catalog)` : ''}`);
  return { lines, code: 0 };
}

/** The catalog CRDs of the inputs' objects no local CRD defines (for preview: a check of the inputs first). */
export async function catalogCrdFiles(files: InputFile[], opts: CheckOptions, catalog: Catalog): Promise<{ crdFiles: InputFile[]; errors: string[]; notes: string[] }> {
  const reports: InputReport[] = [];
  checkFiles(files, { ...opts, onInput: (_f, r) => void reports.push(r) });
  const { found, errors, notes } = await askCatalog(catalog, wantedOf(reports));
  return { crdFiles: found.map(crdFileOf), errors, notes };
}

/**
 * The catalog's answers: the CRDs found, the ones the lock refused (errors), and why others could not
 * be read (one note: offline is said once).
 */
export async function askCatalog(
  catalog: Catalog,
  wanted: Array<{ group: string; kind: string }>,
): Promise<{ found: Array<Extract<CatalogEntry, { found: true }>>; errors: string[]; notes: string[]; unreachable: boolean; answers: CatalogEntry[] }> {
  const answers = wanted.length ? await catalog.lookupAll(wanted) : [];
  const failed = answers.flatMap((a) => (!a.found && 'error' in a ? [a] : []));
  const unreachable = failed.find((a) => !a.mismatch);
  const found = answers.filter((a): a is Extract<CatalogEntry, { found: true }> => a.found);
  const notes = unreachable ? [unreachable.error] : [];
  // With a lock file, a CRD it does not pin moves with the catalog: said, so that CI pins it.
  const lock = catalog.opts.lock;
  if (lock) for (const a of found) if (!lock.has(crdKey(a.group, a.kind))) notes.push(`catalog CRD ${a.kind}.${a.group} is not in ${LOCK_FILE} (crd-yaml lock adds it)`);
  return { found, errors: failed.filter((a) => a.mismatch).map((a) => a.error), notes, unreachable: !!unreachable, answers };
}
