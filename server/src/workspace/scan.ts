/**
 * Finding the workspace's YAML files that may hold CRDs: a walk of the workspace folders filtered by
 * the `crdYaml.crdPaths` and `crdYaml.exclude` globs. Only this module reads the disk for the index.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

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

/** Converts a glob (`**`, `*`, `?`, `{a,b}`) to an anchored regular expression over `/`-separated paths. */
export function globToRegExp(glob: string): RegExp {
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
        re += '(?:' + glob.slice(i + 1, close).split(',').map(escape).join('|') + ')';
        i = close;
      } else re += '\\{';
    } else re += escape(c);
  }
  return new RegExp('^' + re + '$');
}

function escape(s: string): string {
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

/** Reads a file if it is small enough to index and may hold a CRD (a cheap text check first). */
export async function readCandidate(file: string): Promise<string | undefined> {
  try {
    const st = await fs.stat(file);
    if (!st.isFile() || st.size > MAX_FILE_BYTES) return undefined;
    const text = await fs.readFile(file, 'utf8');
    return text.includes('CustomResourceDefinition') ? text : undefined;
  } catch {
    return undefined;
  }
}
