/**
 * What a file is from its place in a repository: a Helm chart template (under a chart's `templates/`
 * folder, i.e. with a `Chart.yaml` beside that folder), a file of a chart's `crds/` folder (a CRD source),
 * a kustomize patch (named by a kustomization of its folder or a folder above), a file of a kustomize
 * tree, a test tool's assertion or resource (testTools.ts). IO: existence checks and reads of
 * kustomizations and test definitions, through the given file system (so that the caller's read rules
 * apply).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isScaffoldCrdPatchName, KUSTOMIZATION_FILE_NAMES, PatchFiles } from './kustomize';
import { CHAINSAW_TEST_FILE_NAMES, KUTTL_SUITE_FILE_NAME, TestToolFiles } from './testTools';

/** The reads this module needs (the server passes checks of its readable roots). */
export interface RepositoryFs {
  isFile(p: string): boolean;
  read(p: string): string | undefined;
  /** The folders in a folder (names; none when it cannot be read). */
  folders(p: string): string[];
  /** The files in a folder (names; none when it cannot be read). */
  files(p: string): string[];
}

/** How many entries of one folder are looked at (test definitions beside a file's folders, a test case's steps). */
const MAX_ENTRIES = 1000;

function entriesIn(p: string, folders: boolean): string[] {
  try {
    return fs
      .readdirSync(p, { withFileTypes: true })
      .filter((e) => (folders ? e.isDirectory() : e.isFile()))
      .slice(0, MAX_ENTRIES)
      .map((e) => e.name);
  } catch {
    return [];
  }
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
  folders: (p) => entriesIn(p, true),
  files: (p) => entriesIn(p, false),
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
    folders: (p) => {
      const real = inside(p);
      return real === undefined ? [] : entriesIn(real, true);
    },
    files: (p) => {
      const real = inside(p);
      return real === undefined ? [] : entriesIn(real, false);
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

/** Calls `visit` once for each folder holding one of the files, and each folder above (up to `stopAt`). */
function foldersUp(files: string[], stopAt: string | undefined, visit: (dir: string) => void): void {
  const seen = new Set<string>();
  for (const f of files) {
    let dir = path.dirname(path.resolve(f));
    for (let i = 0; i < MAX_UP && !seen.has(dir); i++) {
      seen.add(dir);
      visit(dir);
      const up = path.dirname(dir);
      if (up === dir || (stopAt && !isInside(up, stopAt))) break;
      dir = up;
    }
  }
}

/**
 * The kustomizations of the folders holding the given files and the folders above them (up to `stopAt`,
 * when given): kustomize names patches relative to the kustomization, usually beside it or below.
 */
export function kustomizationsAround(files: string[], rfs: RepositoryFs = NODE_FS, stopAt?: string): PatchFiles {
  const patches = new PatchFiles();
  foldersUp(files, stopAt, (dir) => {
    for (const name of KUSTOMIZATION_FILE_NAMES) {
      const k = path.join(dir, name);
      if (!rfs.isFile(k)) continue;
      const text = rfs.read(k);
      if (text !== undefined) patches.set(k, text);
      break; // kustomize reads the first of its names that exists
    }
  });
  return patches;
}

/**
 * The test definitions (Chainsaw tests, kuttl suites) of the folders holding the given files, the folders
 * above them (up to `stopAt`) and the folders beside those: a test names its files relative to its folder
 * (`../shared/x.yaml` from a test folder beside `shared/`), and a kuttl suite's test folders are below
 * it. A file's role comes only from the definitions so found from its own folder (TestToolFiles.roleOf),
 * so the editor, which looks around one file, and the CLI, which looks around all, agree.
 */
export function testToolsAround(files: string[], rfs: RepositoryFs = NODE_FS, stopAt?: string): TestToolFiles {
  const inside = (p: string) => !stopAt || isInside(p, stopAt);
  const tests = new TestToolFiles({ read: (p) => (inside(p) && rfs.isFile(p) ? rfs.read(p) : undefined), files: (p) => (inside(p) ? rfs.files(p) : []) });
  const seen = new Set<string>();
  const look = (dir: string) => {
    if (seen.has(dir)) return;
    seen.add(dir);
    for (const name of CHAINSAW_TEST_FILE_NAMES) {
      const t = path.join(dir, name);
      const text = rfs.isFile(t) ? rfs.read(t) : undefined;
      if (text !== undefined) tests.addChainsawTest(t, text);
    }
  };
  foldersUp(files, stopAt, (dir) => {
    look(dir);
    for (const sub of rfs.folders(dir)) look(path.join(dir, sub));
    const k = path.join(dir, KUTTL_SUITE_FILE_NAME);
    const text = rfs.isFile(k) ? rfs.read(k) : undefined;
    if (text !== undefined) tests.addKuttlSuite(k, text);
  });
  return tests;
}

/** What the repository around some files says about them (repositoryAround). */
export interface RepositoryAround {
  patches: PatchFiles;
  tests: TestToolFiles;
}

/** The kustomizations and test definitions around the given files (see kustomizationsAround, testToolsAround). */
export function repositoryAround(files: string[], rfs: RepositoryFs = NODE_FS, stopAt?: string): RepositoryAround {
  return { patches: kustomizationsAround(files, rfs, stopAt), tests: testToolsAround(files, rfs, stopAt) };
}

/**
 * What a file is from its place in the repository, the same for the editor and the CLI (the service's
 * FileContext): a chart template, a kustomize patch (named by a kustomization, or a kubebuilder scaffold
 * patch in a kustomize tree), a file of a kustomize tree, a test tool's assertion or resource.
 */
export interface RepositoryRole {
  helmTemplate?: boolean;
  patch?: 'partial' | 'json6902';
  kustomize?: 'tree' | 'scaffoldPatch';
  testTool?: { tool: 'chainsaw' | 'kuttl'; role: 'assertion' | 'resource' };
  /** Why the file is a vendored copy (its CRDs get no authoring lints): vendoredReason. */
  vendored?: string;
}

/**
 * The role of one file, given what is around it (repositoryAround over it, or over all files of a run),
 * and the chart it is a template of.
 */
export function repositoryRoleOf(file: string, around: RepositoryAround, rfs: RepositoryFs = NODE_FS, stopAt?: string, root?: string): { role: RepositoryRole; chart?: string } {
  const role: RepositoryRole = {};
  const chart = helmChartOfTemplate(file, rfs, stopAt);
  if (chart) role.helmTemplate = true;
  const patch = around.patches.roleOf(file);
  if (patch) role.patch = patch;
  if (around.patches.inTree(file)) role.kustomize = isScaffoldCrdPatchName(file) ? 'scaffoldPatch' : 'tree';
  const test = around.tests.roleOf(file);
  if (test) {
    role.testTool = { tool: test.tool, role: test.role };
    // Chainsaw's `patch` operation sends a partial object.
    if (test.patch && !role.patch) role.patch = 'partial';
  }
  // `root`: the workspace folder (the CLI's working directory) the path is judged below.
  const vendored = root === undefined ? undefined : vendoredReason(file, root, rfs);
  if (vendored) role.vendored = vendored;
  return { role, chart };
}
