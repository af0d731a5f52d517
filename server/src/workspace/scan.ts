/**
 * Finding the workspace's YAML files that may hold CRDs: a walk of the workspace folders filtered by
 * the `crdYaml.crdPaths` and `crdYaml.exclude` globs. Only this module reads the disk for the index, and
 * only inside the ReadableRoots: symbolic links are never followed by the walk, and a file reached by
 * name is read only when its real path is inside a root.
 */
import { constants as fsConstants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { compileRE2 } from '../engine';

export interface ScanSettings {
  /** Globs (relative to a workspace folder, or absolute) of files to index. */
  crdPaths: string[];
  /** Globs of files and folders to skip. */
  exclude: string[];
}

export const DEFAULT_SCAN_SETTINGS: ScanSettings = {
  crdPaths: ['**/*.yaml', '**/*.yml'],
  exclude: ['**/node_modules/**', '**/.git/**'],
};

/** Limits that keep a huge workspace from stalling the server. */
const MAX_FILES = 20000;
const MAX_FILE_BYTES = 16 * 1024 * 1024;

/** A compiled glob. */
export interface Glob {
  test(path: string): boolean;
}

/**
 * Converts a glob (`**`, `*`, `?`, `{a,b}`) to an anchored regular expression over `/`-separated paths,
 * matched by RE2: globs come from workspace settings (a cloned repository's), and a chain of `**`
 * segments as a backtracking RegExp takes exponential time on a deep path.
 */
export function globToRegExp(glob: string): Glob {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (glob[i + 1] === '*') {
        // `**/` matches zero or more folders; a trailing `**` matches everything below.
        if (glob[i + 2] === '/') {
          re += '(?:.*/)?';
          i += 2;
        } else {
          re += '.*';
          i += 1;
        }
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') {
      const close = glob.indexOf('}', i);
      if (close > i) {
        re +=
          '(?:' +
          glob
            .slice(i + 1, close)
            .split(',')
            .map(escape)
            .join('|') +
          ')';
        i = close;
      } else re += '\\{';
    } else re += escapeRegExp(c);
  }
  const c = compileRE2('^' + re + '$');
  return c.ok ? { test: (p: string) => c.re.test(p) } : { test: () => false };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.+^${}()|[\]\\*?]/g, '\\$&');
}

/** Whether a path (relative to its workspace folder, `/`-separated) is selected by the settings. */
export function isIndexedPath(rel: string, settings: ScanSettings): boolean {
  const inc = settings.crdPaths.map(globToRegExp);
  const exc = settings.exclude.map(globToRegExp);
  return inc.some((r) => r.test(rel)) && !exc.some((r) => r.test(rel) || r.test(rel + '/'));
}

/** Lists the files to index under the workspace folders (absolute paths). */
export async function listIndexedFiles(folders: string[], settings: ScanSettings): Promise<string[]> {
  const inc = settings.crdPaths.map((g) => ({ abs: path.isAbsolute(g), re: globToRegExp(g.split(path.sep).join('/')) }));
  const exc = settings.exclude.map(globToRegExp);
  const out: string[] = [];
  const excluded = (rel: string) => exc.some((r) => r.test(rel) || r.test(rel + '/'));
  async function walk(root: string, dir: string): Promise<void> {
    if (out.length >= MAX_FILES) return;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const abs = path.join(dir, e.name);
      const rel = path.relative(root, abs).split(path.sep).join('/');
      if (excluded(rel)) continue;
      if (e.isDirectory()) await walk(root, abs);
      else if (e.isFile()) {
        const posixAbs = abs.split(path.sep).join('/');
        if (inc.some((g) => g.re.test(g.abs ? posixAbs : rel))) out.push(abs);
        if (out.length >= MAX_FILES) return;
      }
    }
  }
  for (const f of folders) await walk(f, f);
  return [...new Set(out)];
}

/**
 * Which files the server may read: those whose real path (every symbolic link resolved) lies inside one
 * of the roots, the workspace folders and configured CRD sources. Every read of the server goes through
 * `readCandidate`, which asks this first, so that a link in the workspace to a file elsewhere (closing
 * that document, a file-change event for it) never reads outside.
 */
export class ReadableRoots {
  private roots: string[] = [];
  private real: Promise<string[]> = Promise.resolve([]);

  constructor(roots: string[] = []) {
    this.set(roots);
  }

  /** Replaces the roots (absolute paths; resolved to real paths once). */
  set(roots: string[]): void {
    this.roots = [...roots];
    this.real = Promise.all(this.roots.map((r) => fs.realpath(r).catch(() => path.resolve(r))));
  }

  /** Adds roots (e.g. a configured CRD source outside the workspace). */
  add(...roots: string[]): void {
    this.set([...this.roots, ...roots]);
  }

  /** The real path of `file` when it lies inside a root; undefined otherwise (or when it does not exist). */
  async resolve(file: string): Promise<string | undefined> {
    let real: string;
    try {
      real = await fs.realpath(file);
    } catch {
      return undefined;
    }
    const roots = await this.real;
    return roots.some((r) => isInside(real, r)) ? real : undefined;
  }
}

function isInside(file: string, root: string): boolean {
  const rel = path.relative(root, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Opening the resolved path must not follow a link swapped in since (no such flag on Windows). */
const NOFOLLOW = fsConstants.O_NOFOLLOW ?? 0;

/**
 * Reads a file if it may be read (inside the roots, symlinks resolved), is small enough to index and may
 * hold a CRD (a cheap text check first).
 */
export async function readCandidate(file: string, roots: ReadableRoots): Promise<string | undefined> {
  const real = await roots.resolve(file);
  if (real === undefined) return undefined;
  let h: import('node:fs/promises').FileHandle | undefined;
  try {
    h = await fs.open(real, fsConstants.O_RDONLY | NOFOLLOW);
    const st = await h.stat();
    if (!st.isFile() || st.size > MAX_FILE_BYTES) return undefined;
    const text = await h.readFile('utf8');
    return text.includes('CustomResourceDefinition') ? text : undefined;
  } catch {
    return undefined;
  } finally {
    await h?.close().catch(() => undefined);
  }
}
