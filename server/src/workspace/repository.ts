/**
 * What a file is from its place in a repository: a Helm chart template (under a chart's `templates/`
 * folder, i.e. with a `Chart.yaml` beside that folder), a file of a chart's `crds/` folder (a CRD source),
 * a kustomize patch (named by a kustomization of its folder or a folder above). IO: existence checks and
 * reads of kustomization files, through the given file system (so that the caller's read rules apply).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KUSTOMIZATION_FILE_NAMES, PatchFiles } from './kustomize';

/** The reads this module needs (the server passes checks of its readable roots). */
export interface RepositoryFs {
  isFile(p: string): boolean;
  read(p: string): string | undefined;
}

export const NODE_FS: RepositoryFs = {
  isFile: (p) => {
    try {
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  },
  read: (p) => {
    try {
      return fs.readFileSync(p, 'utf8');
    } catch {
      return undefined;
    }
  },
};

/**
 * The reads of a language server inside one workspace folder: a file counts only when its real path (links
 * resolved) is inside the folder's real path, as ReadableRoots (scan.ts) rules for the index; synchronous,
 * for the few small files (Chart.yaml, kustomizations) a document's context needs before it is checked.
 */
export function workspaceFs(folder: string): RepositoryFs {
  let root: string;
  try {
    root = fs.realpathSync(folder);
  } catch {
    root = path.resolve(folder);
  }
  const inside = (p: string): string | undefined => {
    try {
      const real = fs.realpathSync(p);
      return isInside(real, root) ? real : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    isFile: (p) => {
      const real = inside(p);
      return real !== undefined && NODE_FS.isFile(real);
    },
    read: (p) => {
      const real = inside(p);
      if (real === undefined) return undefined;
      try {
        // A kustomization is small; a huge file there is not one to read whole.
        return fs.statSync(real).size <= 1024 * 1024 ? fs.readFileSync(real, 'utf8') : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/** How many folders up a chart or kustomization is looked for. */
const MAX_UP = 32;

/** The chart folder of a file under `<chart>/templates/` (with `<chart>/Chart.yaml`), or undefined. */
export function helmChartOfTemplate(file: string, rfs: RepositoryFs = NODE_FS, stopAt?: string): string | undefined {
  let dir = path.dirname(path.resolve(file));
  for (let i = 0; i < MAX_UP; i++) {
    if (path.basename(dir) === 'templates' && rfs.isFile(path.join(path.dirname(dir), 'Chart.yaml'))) return path.dirname(dir);
    const up = path.dirname(dir);
    if (up === dir || (stopAt && !isInside(up, stopAt))) return undefined;
    dir = up;
  }
  return undefined;
}

/** Folders whose files are copies of other projects' (vendored), by name. */
const VENDOR_FOLDERS = new Set(['vendor', 'third_party', 'third-party', 'thirdparty', 'node_modules', 'upstream']);

/**
 * Why a file's CRDs are another project's copy rather than written here, from its place below `root` (the
 * workspace folder, the CLI's directory): a folder of vendored code (`vendor/`, `third_party/`, kubeflow's
 * `upstream/`), or a dependency chart (`<chart>/charts/<dependency>/`, with `<chart>/Chart.yaml`).
 * Undefined: nothing says so.
 */
export function vendoredReason(file: string, root: string, rfs: RepositoryFs = NODE_FS): string | undefined {
  const abs = path.resolve(file);
  if (!isInside(abs, root)) return undefined;
  const parts = path.relative(root, abs).split(path.sep).slice(0, -1);
  for (let i = 0; i < parts.length && i < MAX_UP; i++) {
    if (VENDOR_FOLDERS.has(parts[i])) return `it is under ${[...parts.slice(0, i + 1), ''].join('/')}`;
    if (parts[i] === 'charts' && i + 1 < parts.length && rfs.isFile(path.join(root, ...parts.slice(0, i), 'Chart.yaml'))) {
      return `it is in the dependency chart ${[...parts.slice(0, i + 2), ''].join('/')}`;
    }
  }
  return undefined;
}

/** Whether a path is a folder's or one of its descendants. */
export function isInside(p: string, dir: string): boolean {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The kustomizations of the folders holding the given files and the folders above them (up to `stopAt`,
 * when given): kustomize names patches relative to the kustomization, usually beside it or below.
 */
export function kustomizationsAround(files: string[], rfs: RepositoryFs = NODE_FS, stopAt?: string): PatchFiles {
  const patches = new PatchFiles();
  const seen = new Set<string>();
  for (const f of files) {
    let dir = path.dirname(path.resolve(f));
    for (let i = 0; i < MAX_UP && !seen.has(dir); i++) {
      seen.add(dir);
      for (const name of KUSTOMIZATION_FILE_NAMES) {
        const k = path.join(dir, name);
        if (!rfs.isFile(k)) continue;
        const text = rfs.read(k);
        if (text !== undefined) patches.set(k, text);
        break; // kustomize reads the first of its names that exists
      }
      const up = path.dirname(dir);
      if (up === dir || (stopAt && !isInside(up, stopAt))) break;
      dir = up;
    }
  }
  return patches;
}
