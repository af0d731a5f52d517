/**
 * Baselines (IO): the object a custom resource or CRD updates, i.e. the same object (group, kind,
 * namespace, name) at a git revision or in a cluster. A finding that applies only on update (a
 * transition rule, a ratcheted error, a CRD change) is computed against it.
 *
 * - `crdYaml.baseline` / `--base REF` / `--base-cluster`: `git:HEAD` (default), `git:<ref>`, `cluster`, `none`.
 * - git: the file at the same path in the revision, read without running git (git.ts), so it is safe in an
 *   untrusted workspace. An object moved to another file has no baseline there (it is checked as new).
 * - A CRD from git has no status. What stands in (see storedStatusStandIn): the versions the file's own
 *   status.storedVersions lists, plus its storage version (the CRD was applied, so objects are stored in
 *   it), and an Established condition. A version that was storage only in an older revision is not known:
 *   the cluster baseline has the real list.
 * - cluster: the object as the kubeconfig's current context has it (read-only, cluster/ client).
 */
import * as path from 'node:path';
import { identifyObject, parseYamlFile } from '../yaml';
import { baselineKey, sameKey, storedStatusStandIn } from './key';
import { GitError, GitRepository } from './git';
import type { ClusterClient } from '../cluster';

export { GitError, GitRepository, findRepository } from './git';
export { baselineKey, sameKey, storedStatusStandIn, type BaselineKey } from './key';

export type BaselineSetting = { kind: 'git'; ref: string } | { kind: 'cluster' } | { kind: 'none' };

/** `git:HEAD`, `git:<ref>`, `cluster` or `none` (anything else is an error saying so). */
export function parseBaselineSetting(v: string | undefined): BaselineSetting | { error: string } {
  const s = (v ?? 'git:HEAD').trim();
  if (s === 'none') return { kind: 'none' };
  if (s === 'cluster') return { kind: 'cluster' };
  if (s.startsWith('git:') && s.length > 4) return { kind: 'git', ref: s.slice(4) };
  return { error: `baseline "${s}" is not git:<ref>, cluster or none` };
}

/** One baseline object and where it came from, for people (`HEAD`, `origin/main`, `the cluster`). */
export interface Baseline {
  object: Record<string, unknown>;
  label: string;
}

/** Baselines of the objects of one file, in document order (undefined: new, or not comparable). */
export interface FileBaselines {
  baselines: (Baseline | undefined)[];
  /** Why there are none (a bad revision, an unreadable repository, the cluster not answering). */
  problem?: string;
}

/** All the objects a file has at its baseline (what the language service is given). */
export interface BaselineObjects {
  label: string;
  objects: unknown[];
  problem?: string;
}

/** Where baselines come from. */
export interface BaselineSource {
  readonly label: string;
  forFile(file: string, objects: unknown[]): Promise<FileBaselines>;
  /** The baseline objects of the objects of a file (a git source gives all the file had). */
  objectsFor(file: string, objects: unknown[]): Promise<BaselineObjects>;
  close(): void;
}

/** Matches the objects of a file with the baseline file's objects by key. */
function match(objects: unknown[], baseObjects: unknown[], label: string, crdStatus: (o: Record<string, unknown>) => Record<string, unknown>): (Baseline | undefined)[] {
  const keyed = baseObjects.map((o) => ({ o, k: baselineKey(o) })).filter((x) => x.k);
  return objects.map((o) => {
    const k = baselineKey(o);
    const hit = k ? keyed.find((x) => sameKey(x.k!, k)) : undefined;
    if (!hit) return undefined;
    const obj = hit.o as Record<string, unknown>;
    return { object: identifyObject(obj).kind === 'crd' ? crdStatus(obj) : obj, label };
  });
}

/** Baselines from a git revision, read from the repository that holds each file. */
export class GitBaselineSource implements BaselineSource {
  private readonly repos = new Map<string, GitRepository | null>();
  readonly label: string;

  /** stopAt: the outermost folder searched for a repository (the workspace root). */
  constructor(
    readonly ref: string,
    private readonly stopAt?: string,
  ) {
    this.label = ref;
  }

  private repoFor(file: string): GitRepository | undefined {
    const dir = path.dirname(path.resolve(file));
    let r = this.repos.get(dir);
    if (r === undefined) {
      try {
        r = GitRepository.open(dir, this.stopAt) ?? null;
      } catch {
        r = null;
      }
      this.repos.set(dir, r);
    }
    return r ?? undefined;
  }

  /** The file's text at the revision: undefined when it did not exist there. Throws GitError. */
  textAt(file: string): { text: string | undefined; commit: string } | undefined {
    const repo = this.repoFor(file);
    if (!repo) return undefined;
    const commit = repo.resolveCommit(this.ref);
    const rel = path.relative(repo.layout.workTree, path.resolve(file)).split(path.sep).join('/');
    if (rel.startsWith('..')) return undefined;
    const blob = repo.readFile(commit, rel);
    return { text: blob?.toString('utf8'), commit };
  }

  /** Every object the file has at the revision (CRDs with the stored-status stand-in). */
  objectsAt(file: string): BaselineObjects {
    try {
      const at = this.textAt(file);
      // Not in a repository: nothing to compare with, and nothing worth saying on every file.
      if (!at) return { label: this.label, objects: [] };
      if (at.text === undefined) return { label: this.label, objects: [] };
      const objects = valuesOf(at.text);
      return { label: this.label, objects: objects.map((o) => (identifyObject(o).kind === 'crd' ? storedStatusStandIn(o as Record<string, unknown>) : o)) };
    } catch (e) {
      // A repository without commits yet has no HEAD: nothing to compare with either.
      if (this.ref === 'HEAD' && e instanceof GitError && /revision "HEAD" not found/.test(e.message)) return { label: this.label, objects: [] };
      return { label: this.label, objects: [], problem: e instanceof GitError ? e.message : `reading ${this.ref}: ${e instanceof Error ? e.message : String(e)}` };
    }
  }

  async objectsFor(file: string): Promise<BaselineObjects> {
    return this.objectsAt(file);
  }

  async forFile(file: string, objects: unknown[]): Promise<FileBaselines> {
    try {
      const at = this.textAt(file);
      if (!at) return { baselines: objects.map(() => undefined) };
      if (at.text === undefined) return { baselines: objects.map(() => undefined) };
      const base = valuesOf(at.text);
      return { baselines: match(objects, base, this.label, storedStatusStandIn) };
    } catch (e) {
      return { baselines: objects.map(() => undefined), problem: e instanceof GitError ? e.message : `reading ${this.ref}: ${e instanceof Error ? e.message : String(e)}` };
    }
  }

  close(): void {
    for (const r of this.repos.values()) r?.close();
    this.repos.clear();
  }
}

/**
 * The objects of a file at a revision: only their values are compared, so generated block YAML is read
 * by the fast reader (yaml/block.ts: a 3 MB CRD in a tenth of its full parse, which opening it waits for).
 */
function valuesOf(text: string): unknown[] {
  return parseYamlFile(text, undefined, { lazy: true }).documents.map((d) => d.value);
}

/** Baselines from a cluster: each object fetched by its key (read-only). */
export class ClusterBaselineSource implements BaselineSource {
  readonly label: string;
  private readonly cache = new Map<string, Promise<Record<string, unknown> | undefined>>();

  constructor(private readonly client: ClusterClient) {
    this.label = `the cluster (context ${client.conn.context})`;
  }

  async forFile(_file: string, objects: unknown[]): Promise<FileBaselines> {
    let problem: string | undefined;
    const baselines = await Promise.all(
      objects.map(async (o) => {
        const k = baselineKey(o);
        const apiVersion = (o as Record<string, unknown> | undefined)?.apiVersion;
        if (!k || typeof apiVersion !== 'string') return undefined;
        const id = `${apiVersion}/${k.kind}/${k.namespace}/${k.name}`;
        let p = this.cache.get(id);
        if (!p) {
          p = this.client.getObject({ apiVersion, kind: k.kind, name: k.name, ...(k.namespace ? { namespace: k.namespace } : {}) });
          this.cache.set(id, p);
        }
        try {
          const obj = await p;
          return obj ? { object: obj, label: this.label } : undefined;
        } catch (e) {
          problem ??= e instanceof Error ? e.message : String(e);
          return undefined;
        }
      }),
    );
    return { baselines, problem };
  }

  async objectsFor(file: string, objects: unknown[]): Promise<BaselineObjects> {
    const r = await this.forFile(file, objects);
    return { label: this.label, objects: r.baselines.filter((b): b is Baseline => !!b).map((b) => b.object), ...(r.problem ? { problem: r.problem } : {}) };
  }

  close(): void {
    this.cache.clear();
  }
}
