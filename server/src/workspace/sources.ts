/**
 * CRDs that live outside the workspace: configured folders and http(s) URLs (`crdYaml.crdSources`,
 * CLI `--crd`), and the CRD files shipped by the Go modules a `go.mod` requires (`crdYaml.goModules`),
 * found in the local module cache. A URL is fetched once into a cache folder and read from there ever
 * after (offline); nothing is fetched when the caller says the network may not be used (an untrusted
 * workspace). Every walk is bounded and never follows symbolic links.
 */
import type * as Crypto from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { getUrl } from '../net/http';

/** A URL of CRD YAML (http or https). */
export function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** The default cache folder of fetched sources (`$XDG_CACHE_HOME/crd-yaml/crd-sources`). */
export function defaultSourceCache(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'crd-yaml', 'crd-sources');
}

/** The file a URL is cached in: a hash of the URL plus its last path segment, for people browsing the folder. */
export function cacheFileOf(url: string, cacheDir: string): string {
  const hash = (require('node:crypto') as typeof Crypto).createHash('sha256').update(url).digest('hex').slice(0, 16);
  let name = '';
  try {
    name = path.posix
      .basename(new URL(url).pathname)
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .slice(0, 80);
  } catch {
    // not a URL: the hash alone
  }
  return path.join(cacheDir, `${hash}-${name || 'source'}${/\.ya?ml$/i.test(name) ? '' : '.yaml'}`);
}

/** A GitHub page URL of a file (`/blob/`) to the raw file, which is what people copy from the browser. */
export function rawUrl(url: string): string {
  const m = /^https:\/\/github\.com\/([^/]+)\/([^/]+)\/blob\/(.+)$/.exec(url);
  return m ? `https://raw.githubusercontent.com/${m[1]}/${m[2]}/${m[3]}` : url;
}

export interface UrlSourceOptions {
  cacheDir: string;
  /** False in an untrusted workspace: only what is already cached is used. */
  allowNetwork: boolean;
  timeoutMs?: number;
  maxBytes?: number;
}

/** Where a URL source's YAML is, or why it is not available. */
export interface UrlSource {
  url: string;
  file?: string;
  /** Fetched by this call (false: read from the cache). */
  fetched?: boolean;
  error?: string;
}

const MAX_URL_BYTES = 64 * 1024 * 1024;

/** The cached copy of a URL, fetched first if it is not cached yet (and the network may be used). */
export async function urlSource(url: string, opts: UrlSourceOptions): Promise<UrlSource> {
  const file = cacheFileOf(url, opts.cacheDir);
  try {
    await fs.access(file);
    return { url, file, fetched: false };
  } catch {
    // not cached yet
  }
  if (!opts.allowNetwork) return { url, error: `${url} is not fetched in an untrusted workspace (and not cached yet)` };
  const maxBytes = opts.maxBytes ?? MAX_URL_BYTES;
  const r = await getUrl(rawUrl(url), { timeoutMs: opts.timeoutMs ?? 60_000, maxBytes });
  if ('tooLarge' in r) return { url, error: `${url} is larger than ${maxBytes / 1024 / 1024} MiB` };
  if ('error' in r) return { url, error: `could not download ${url}: ${r.error}` };
  if (r.status < 200 || r.status > 299) return { url, error: `could not download ${url}: HTTP ${r.status} ${r.statusText}`.trim() };
  const text = r.body.toString('utf8');
  if (/^\s*<(!doctype|html)/i.test(text)) return { url, error: `${url} is an HTML page, not YAML (use the raw file's URL)` };
  await fs.mkdir(opts.cacheDir, { recursive: true });
  // Written under a temporary name and renamed: a half-written file is never read as the cached copy.
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, text);
  await fs.rename(tmp, file);
  return { url, file, fetched: true };
}

/** Bounds of a walk of a source folder. */
export interface WalkBudget {
  /** Directory entries still allowed. */
  entries: number;
  /** Set when the budget ran out. */
  cut?: boolean;
}

const SKIP = new Set(['node_modules', '.git', 'vendor', 'testdata']);

/** The YAML files under a folder (symbolic links not followed, hidden folders skipped), within the budget. */
export async function yamlFilesUnder(dir: string, budget: WalkBudget): Promise<string[]> {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop()!;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(d, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? 1 : -1));
    for (const e of entries) {
      if (--budget.entries < 0) {
        budget.cut = true;
        return out.sort();
      }
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (!SKIP.has(e.name) && !e.name.startsWith('.')) stack.push(p);
      } else if (e.isFile() && /\.ya?ml$/i.test(e.name)) out.push(p);
    }
  }
  return out.sort();
}

/** A module a go.mod requires. */
export interface GoRequirement {
  module: string;
  version: string;
  indirect: boolean;
}

/** The requirements of a go.mod text, with `replace` directives to other module versions applied. */
export function parseGoMod(text: string): GoRequirement[] {
  const reqs: GoRequirement[] = [];
  const replaces = new Map<string, { module: string; version: string }>();
  const lines = text.split(/\r?\n/);
  let block: string | undefined;
  for (const raw of lines) {
    const indirect = /\/\/\s*indirect\b/.test(raw);
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (!line) continue;
    if (block) {
      if (line === ')') {
        block = undefined;
        continue;
      }
      handle(block, line, indirect);
      continue;
    }
    const m = /^(require|replace)\s*(\()?\s*(.*)$/.exec(line);
    if (!m) continue;
    if (m[2]) block = m[1];
    else handle(m[1], m[3], indirect);
  }
  function handle(kind: string, rest: string, indirect: boolean): void {
    const parts = rest.split(/\s+/).map(unquote);
    if (kind === 'require' && parts.length >= 2) reqs.push({ module: parts[0], version: parts[1], indirect });
    if (kind === 'replace') {
      const arrow = parts.indexOf('=>');
      if (arrow < 0) return;
      const target = parts.slice(arrow + 1);
      // A local folder replacement is not in the module cache (it is part of the workspace, or elsewhere on disk).
      if (target.length === 2) replaces.set(parts[0], { module: target[0], version: target[1] });
    }
  }
  return reqs.map((r) => {
    const to = replaces.get(r.module);
    return to ? { ...r, module: to.module, version: to.version } : r;
  });
}

function unquote(s: string): string {
  return s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1) : s;
}

/** The module cache folder as the go command finds it: $GOMODCACHE, else the first $GOPATH entry's pkg/mod, else ~/go/pkg/mod. */
export function goModCache(env: NodeJS.ProcessEnv = process.env): string {
  if (env.GOMODCACHE) return env.GOMODCACHE;
  const gopath = (env.GOPATH ?? '').split(path.delimiter).find((p) => p !== '');
  return path.join(gopath || path.join(os.homedir(), 'go'), 'pkg', 'mod');
}

/** A module path or version as stored in the cache (golang.org/x/mod/module.EscapePath: uppercase as `!` + lowercase). */
export function escapeModulePath(p: string): string {
  return p.replace(/[A-Z]/g, (c) => '!' + c.toLowerCase());
}

/** A module of go.mod found in the module cache, with its CRD files. */
export interface GoModuleCrds {
  module: string;
  version: string;
  dir: string;
  files: string[];
}

/**
 * The CRD files shipped by the modules a go.mod requires, from the module cache (nothing is downloaded:
 * a module not in the cache is reported as missing, `go mod download` fetches it). A file counts when
 * it is YAML and mentions `CustomResourceDefinition`.
 */
export async function goModuleCrds(goModText: string, opts: { modCache?: string; budget?: WalkBudget } = {}): Promise<{ modules: GoModuleCrds[]; missing: string[]; cut: boolean }> {
  const cache = opts.modCache ?? goModCache();
  const budget = opts.budget ?? { entries: 200_000 };
  const modules: GoModuleCrds[] = [];
  const missing: string[] = [];
  for (const r of parseGoMod(goModText)) {
    const dir = path.join(cache, `${escapeModulePath(r.module)}@${escapeModulePath(r.version)}`);
    try {
      if (!(await fs.stat(dir)).isDirectory()) throw new Error();
    } catch {
      missing.push(`${r.module}@${r.version}`);
      continue;
    }
    const files: string[] = [];
    for (const f of await yamlFilesUnder(dir, budget)) {
      if (await mentionsCrd(f)) files.push(f);
    }
    if (files.length) modules.push({ module: r.module, version: r.version, dir, files });
    if (budget.cut) break;
  }
  return { modules, missing, cut: !!budget.cut };
}

/** Whether a file's first bytes (or all of a small file) mention a CRD; big files are read in part. */
async function mentionsCrd(file: string): Promise<boolean> {
  let h: import('node:fs/promises').FileHandle | undefined;
  try {
    h = await fs.open(file, 'r');
    const buf = Buffer.alloc(64 * 1024);
    const { bytesRead } = await h.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead).toString('utf8').includes('CustomResourceDefinition');
  } catch {
    return false;
  } finally {
    await h?.close().catch(() => undefined);
  }
}
