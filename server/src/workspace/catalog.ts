/**
 * Whole CRDs from a public catalog (CustomResourceDefinition/catalog by default), by group and kind: the
 * CRD of a custom resource no local CRD defines is fetched on demand, one request per (group, kind), and
 * cached on disk with its validators (ETag, Last-Modified) so that a later run revalidates cheaply and
 * works offline from the cache; a kind the catalog does not have is cached too (a negative entry, a short
 * lifetime). Only the group and the kind leave the machine (in the URL), nothing of the files.
 *
 * `crd-yaml.lock` (at the repository root) pins what CI uses: per CRD, its URL, the catalog's tag and the
 * sha256 of its bytes. With a lock, a CRD's bytes are taken only when their hash is the locked one.
 */
import type * as Crypto from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parse, stringify } from 'yaml';
import { isBuiltinGroup } from '../engine';
import { getUrl } from '../net/http';

/** The public catalog's raw files: `definitions/<group>/<kind in lower case>.yaml`, tagged per Kubernetes release. */
export const DEFAULT_CATALOG = 'https://raw.githubusercontent.com/CustomResourceDefinition/catalog/{tag}/definitions/{group}/{kind}.yaml';

/**
 * The catalog's newest tag of each Kubernetes minor (its tags are `v1.36.4`, ...: the catalog as it was
 * built for that release), read from its repository; a minor without a tag here reads `main`.
 */
const NEWEST_TAGS: Record<number, string> = { 30: 'v1.30.14', 31: 'v1.31.14', 32: 'v1.32.13', 33: 'v1.33.13', 34: 'v1.34.11', 35: 'v1.35.8', 36: 'v1.36.4' };

/** The catalog tag for the Kubernetes minor checked as (undefined: the newest, `main`). */
export function catalogTag(kubernetesMinor?: number): string {
  return (kubernetesMinor !== undefined && NEWEST_TAGS[kubernetesMinor]) || 'main';
}

/** Where catalog CRDs come from: a URL template with {group}, {kind} (lower case) and {tag}. */
export interface CatalogConfig {
  template: string;
  tag: string;
}

/**
 * The catalog of a setting (`crdYaml.catalog`, `--catalog`): `off` (or an empty value) turns it off,
 * undefined is the default. An error for a template that is not an http(s) URL naming {group} and {kind}.
 */
export function catalogConfig(setting: string | undefined, kubernetesMinor?: number): CatalogConfig | undefined | { error: string } {
  const v = (setting ?? DEFAULT_CATALOG).trim();
  if (v === '' || v === 'off') return undefined;
  if (!/^https?:\/\//i.test(v)) return { error: `the catalog must be an http(s) URL template or "off", not "${v}"` };
  if (!v.includes('{group}') || !v.includes('{kind}')) return { error: `the catalog URL template must name {group} and {kind}: ${v}` };
  return { template: v, tag: catalogTag(kubernetesMinor) };
}

/**
 * A group and kind the catalog may be asked for: names as a CRD may spell them (nothing a URL would read
 * otherwise), never a Kubernetes built-in group (engine/discovery: its kinds have no CRD).
 */
export function catalogable(group: string, kind: string): boolean {
  return /^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/.test(group) && group.includes('.') && /^[A-Za-z][A-Za-z0-9]{0,62}$/.test(kind) && !isBuiltinGroup(group);
}

/** The URL of a group/kind's CRD in a catalog. */
export function catalogUrl(config: CatalogConfig, group: string, kind: string): string {
  return config.template.replaceAll('{group}', group).replaceAll('{kind}', kind.toLowerCase()).replaceAll('{tag}', config.tag);
}

export function sha256(text: string): string {
  return (require('node:crypto') as typeof Crypto).createHash('sha256').update(text).digest('hex');
}

/** A CRD pinned by crd-yaml.lock. */
export interface LockEntry {
  group: string;
  kind: string;
  url: string;
  tag: string;
  sha256: string;
}

export const LOCK_FILE = 'crd-yaml.lock';

/** The folder a lock file belongs in: the repository around `dir` (the nearest folder with `.git`), else `dir`. */
export function repositoryRootOf(dir: string): string {
  for (let d = path.resolve(dir), up = path.dirname(d); ; d = up, up = path.dirname(d)) {
    if (existsSync(path.join(d, '.git'))) return d;
    if (up === d) return path.resolve(dir);
  }
}

/** A lock file's entries by `group/kind`, or why it cannot be read. */
export function parseLock(text: string): Map<string, LockEntry> | { error: string } {
  let v: unknown;
  try {
    // Every scalar a string: a hash of digits only is not a number.
    v = parse(text, { schema: 'failsafe' });
  } catch (e) {
    return { error: `${LOCK_FILE} is not YAML: ${(e as Error).message.split('\n')[0]}` };
  }
  const list = (v as { catalog?: unknown } | null)?.catalog ?? [];
  if (!Array.isArray(list)) return { error: `${LOCK_FILE}: catalog must be a list` };
  const out = new Map<string, LockEntry>();
  for (const e of list) {
    const o = (e ?? {}) as Record<string, unknown>;
    const [group, kind, url, tag, hash] = [o.group, o.kind, o.url, o.tag, o.sha256];
    if (typeof group !== 'string' || typeof kind !== 'string' || typeof url !== 'string' || typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash)) {
      return { error: `${LOCK_FILE}: each entry needs group, kind, url, tag and a sha256 of 64 hex digits` };
    }
    out.set(`${group}/${kind}`, { group, kind, url, tag: typeof tag === 'string' ? tag : '', sha256: hash });
  }
  return out;
}

/** The 0-based line of a group/kind's entry in a lock file's text (its `group:` line), if there. */
export function lockEntryLine(text: string, group: string, kind: string): number | undefined {
  const lines = text.split('\n');
  const is = (line: string | undefined, key: string, value: string) => line !== undefined && new RegExp(`^[\\s-]*${key}:\\s*["']?${value.replace(/[.]/g, '\\.')}["']?\\s*$`).test(line);
  for (let i = 0; i < lines.length; i++) if (is(lines[i], 'group', group) && (is(lines[i + 1], 'kind', kind) || is(lines[i - 1], 'kind', kind))) return i;
  return undefined;
}

export function formatLock(entries: LockEntry[]): string {
  const sorted = [...entries].sort((a, b) => a.group.localeCompare(b.group) || a.kind.localeCompare(b.kind));
  const header = `# The catalog CRDs this repository's custom resources are checked against (crd-yaml lock writes it,\n# crd-yaml lock --update refreshes it). crd-yaml check and the editor use these bytes only.\n`;
  return header + stringify({ catalog: sorted.map((e) => ({ group: e.group, kind: e.kind, url: e.url, tag: e.tag, sha256: e.sha256 })) }, { lineWidth: 0 });
}

/** What the catalog answered for a group/kind. */
export type CatalogEntry = {
  group: string;
  kind: string;
  url: string;
  tag: string;
} & (
  | { found: true; file: string; text: string; sha256: string }
  /** Not in the catalog (silent: the object is counted as not checked). */
  | { found: false; notFound: true }
  /** Not available (offline and not cached, untrusted; refused by the lock: `mismatch`, why in the CR file's terms). */
  | { found: false; error: string; mismatch?: string }
);

export interface CatalogOptions {
  config: CatalogConfig;
  /** The folder of cached answers. */
  cacheDir: string;
  /** False in an untrusted workspace: only what is cached is used. */
  allowNetwork: boolean;
  /** crd-yaml.lock's entries: the bytes used must have these hashes. */
  lock?: Map<string, LockEntry>;
  /** How long an answer is used without asking again (a found CRD; a not-found one: `notFoundMaxAgeMs`). */
  maxAgeMs?: number;
  notFoundMaxAgeMs?: number;
  timeoutMs?: number;
  /** Requests at once. */
  concurrency?: number;
}

/** A cached answer's record, beside the CRD's bytes. */
interface CacheMeta {
  url: string;
  status: 'found' | 'notFound';
  checkedAt: number;
  etag?: string;
  lastModified?: string;
  sha256?: string;
}

/** The most a catalog CRD may weigh (the public catalog's largest is 2.9 MB). */
const MAX_CRD_BYTES = 16 * 1024 * 1024;

/** Fetches on demand, caches, revalidates; one answer per group/kind for the catalog's life. */
export class Catalog {
  private readonly answers = new Map<string, Promise<CatalogEntry>>();
  /** Set at the first network failure: the catalog is not asked again by this process (offline). */
  private unreachable: string | undefined;
  /** Requests made (for tests and the bench: nothing is fetched in bulk). */
  requests = 0;

  constructor(readonly opts: CatalogOptions) {}

  /** The catalog's answer for group/kind (fetched once; later calls share it). */
  lookup(group: string, kind: string): Promise<CatalogEntry> {
    const key = `${group}/${kind}`;
    let a = this.answers.get(key);
    if (!a) {
      a = this.answer(group, kind);
      this.answers.set(key, a);
    }
    return a;
  }

  /** Answers for many group/kinds, a few requests at a time. */
  async lookupAll(keys: Array<{ group: string; kind: string }>): Promise<CatalogEntry[]> {
    const out: CatalogEntry[] = new Array(keys.length);
    let next = 0;
    const worker = async () => {
      while (next < keys.length) {
        const i = next++;
        out[i] = await this.lookup(keys[i].group, keys[i].kind);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.opts.concurrency ?? 4, keys.length) }, worker));
    return out;
  }

  /** Where an answer for a URL is cached: `<group>/<kind>-<hash of the URL>.yaml` (and `.json`, its record). */
  cacheFileOf(group: string, kind: string, url: string): string {
    return path.join(this.opts.cacheDir, group, `${kind.toLowerCase()}-${sha256(url).slice(0, 12)}.yaml`);
  }

  private async answer(group: string, kind: string): Promise<CatalogEntry> {
    const locked = this.opts.lock?.get(`${group}/${kind}`);
    const url = locked?.url ?? catalogUrl(this.opts.config, group, kind);
    const tag = locked?.tag ?? this.opts.config.tag;
    const base = { group, kind, url, tag };
    const file = this.cacheFileOf(group, kind, url);
    const meta = await readMeta(file);
    const cachedText = meta?.status === 'found' ? await fs.readFile(file, 'utf8').catch(() => undefined) : undefined;
    // The cached bytes' hash is in their record (a 2.9 MB CRD takes milliseconds to hash); the lock hashes them again.
    const found = (text: string, hash = sha256(text)): CatalogEntry => ({ ...base, found: true, file, text, sha256: hash });
    if (locked) {
      // The locked bytes: from the cache when they are there, else fetched; never other bytes.
      if (cachedText !== undefined && sha256(cachedText) === locked.sha256) return found(cachedText, locked.sha256);
      const r = await this.fetch(url, undefined);
      if ('error' in r) return { ...base, found: false, error: r.error };
      if (r.status === 'notFound') {
        return {
          ...base,
          found: false,
          error: `${group}/${kind}: ${url} is not found (HTTP 404), but ${LOCK_FILE} locks it`,
          mismatch: `${LOCK_FILE} pins its CRD, but the catalog no longer has it (crd-yaml lock --update drops it)`,
        };
      }
      const got = sha256(r.text!);
      if (got !== locked.sha256) {
        const mismatch = `its CRD in the catalog is not the one ${LOCK_FILE} pins (another sha256; crd-yaml lock --update takes the new one)`;
        return { ...base, found: false, mismatch, error: `catalog CRD ${kind}.${group}: ${url} has sha256 ${got}, ${LOCK_FILE} locks ${locked.sha256} (crd-yaml lock --update takes the new one)` };
      }
      await this.store(file, { url, status: 'found', checkedAt: Date.now(), ...r.validators, sha256: got }, r.text);
      return found(r.text!, got);
    }
    const age = meta ? Date.now() - meta.checkedAt : Infinity;
    const fromCache = (): CatalogEntry | undefined => {
      if (meta?.status === 'notFound') return { ...base, found: false, notFound: true };
      return cachedText !== undefined ? found(cachedText, meta?.sha256) : undefined;
    };
    const fresh = meta && age >= 0 && age < (meta.status === 'found' ? (this.opts.maxAgeMs ?? 3600_000) : (this.opts.notFoundMaxAgeMs ?? 3600_000));
    if (fresh) {
      const c = fromCache();
      if (c) return c;
    }
    const r = await this.fetch(url, meta?.status === 'found' && cachedText !== undefined ? meta : undefined);
    // Offline, a server error: what was cached, however old.
    if ('error' in r) return fromCache() ?? { ...base, found: false, error: r.error };
    if (r.status === 'notModified') {
      await this.store(file, { ...meta!, checkedAt: Date.now() }, undefined);
      return fromCache() ?? { ...base, found: false, error: `${url}: not modified, but not cached` };
    }
    if (r.status === 'notFound') {
      await this.store(file, { url, status: 'notFound', checkedAt: Date.now() }, undefined);
      return { ...base, found: false, notFound: true };
    }
    await this.store(file, { url, status: 'found', checkedAt: Date.now(), ...r.validators, sha256: sha256(r.text!) }, r.text);
    return found(r.text!);
  }

  /** One GET (conditional when `validators` are given). */
  private async fetch(url: string, validators: CacheMeta | undefined): Promise<{ error: string } | { status: 'found' | 'notFound' | 'notModified'; text?: string; validators?: Pick<CacheMeta, 'etag' | 'lastModified'> }> {
    if (!this.opts.allowNetwork) return { error: `${url} is not fetched in an untrusted workspace (and not cached)` };
    if (this.unreachable) return { error: this.unreachable };
    const headers: Record<string, string> = {};
    if (validators?.etag) headers['If-None-Match'] = validators.etag;
    if (validators?.lastModified) headers['If-Modified-Since'] = validators.lastModified;
    this.requests++;
    const r = await getUrl(url, { timeoutMs: this.opts.timeoutMs ?? 20_000, maxBytes: MAX_CRD_BYTES, headers });
    if ('tooLarge' in r) return { error: `${url} is larger than ${MAX_CRD_BYTES / 1024 / 1024} MiB` };
    if ('error' in r) {
      this.unreachable = `the catalog is not reachable (${url}: ${r.error})`;
      return { error: this.unreachable };
    }
    if (r.status === 304) return { status: 'notModified' };
    // A missing file: 404 (GitHub's raw files answer 400 for a malformed path, 403 for a forbidden one).
    if (r.status === 404 || r.status === 400 || r.status === 410) return { status: 'notFound' };
    if (r.status < 200 || r.status > 299) return { error: `could not download ${url}: HTTP ${r.status} ${r.statusText}`.trim() };
    const text = r.body.toString('utf8');
    if (/^\s*<(!doctype|html)/i.test(text)) return { error: `${url} is an HTML page, not YAML` };
    const one = (h: string | string[] | undefined) => (Array.isArray(h) ? h[0] : h);
    const etag = one(r.headers.etag);
    const lastModified = one(r.headers['last-modified']);
    return { status: 'found', text, validators: { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) } };
  }

  /** Writes an answer (the bytes under a temporary name, renamed: a half-written file is never read). */
  private async store(file: string, meta: CacheMeta, text: string | undefined): Promise<void> {
    try {
      await fs.mkdir(path.dirname(file), { recursive: true });
      if (text !== undefined) {
        const tmp = `${file}.${process.pid}.tmp`;
        await fs.writeFile(tmp, text, { mode: 0o444 });
        await fs.rename(tmp, file);
      }
      const tmp = `${file}.${process.pid}.json.tmp`;
      await fs.writeFile(tmp, JSON.stringify(meta));
      await fs.rename(tmp, `${file.slice(0, -'.yaml'.length)}.json`);
    } catch {
      // A cache that cannot be written: answered all the same, asked again next time.
    }
  }
}

async function readMeta(file: string): Promise<CacheMeta | undefined> {
  try {
    const m = JSON.parse(await fs.readFile(`${file.slice(0, -'.yaml'.length)}.json`, 'utf8')) as CacheMeta;
    return typeof m.checkedAt === 'number' && (m.status === 'found' || m.status === 'notFound') ? m : undefined;
  } catch {
    return undefined;
  }
}
