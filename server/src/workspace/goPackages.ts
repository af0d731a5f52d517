/**
 * Which Go packages define CRDs (IO): a package whose files declare `+groupName=` or
 * `+kubebuilder:object:root=true` holds kubebuilder API types; its module is the nearest go.mod above it.
 * Walks are bounded (entries) and skip vendor/, testdata/, node_modules and hidden folders, as `go` does.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A Go file that makes a package an API package (the markers controller-gen starts from). */
export function declaresApiTypes(text: string): boolean {
  return /^[ \t]*\/\/[ \t]*\+(?:groupName=|kubebuilder:object:root=true)/m.test(text);
}

/** The nearest folder at or above `dir` with a go.mod (not above `stopAt` when given). */
export function moduleRootOf(dir: string, stopAt?: string): string | undefined {
  let d = path.resolve(dir);
  for (;;) {
    if (fs.existsSync(path.join(d, 'go.mod'))) return d;
    const up = path.dirname(d);
    if (up === d || (stopAt && d === path.resolve(stopAt))) return undefined;
    d = up;
  }
}

const SKIP = new Set(['vendor', 'testdata', 'node_modules']);

/** The files that declare an API package: groupversion_info.go, doc.go, register.go, *_types.go. */
const API_FILE = /^(?:groupversion_info|doc|register|[A-Za-z0-9_]+_types)\.go$/;

/** The API packages (folders) under `root` (or `root` itself), at most `budget.entries` directory entries read. */
export function findApiPackages(root: string, budget: { entries: number } = { entries: 100_000 }): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (depth > 20 || budget.entries <= 0) return;
    let ents: fs.Dirent[];
    try {
      ents = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    budget.entries -= ents.length;
    let api = false;
    for (const e of ents) {
      // Where kubebuilder and code-generator put these markers: not every Go file of a repository is read.
      if (api || !e.isFile() || !API_FILE.test(e.name)) continue;
      try {
        api = declaresApiTypes(fs.readFileSync(path.join(dir, e.name), 'utf8'));
      } catch {
        // Unreadable: not counted.
      }
    }
    if (api) out.push(dir);
    for (const e of ents) if (e.isDirectory() && !SKIP.has(e.name) && !e.name.startsWith('.') && !e.name.startsWith('_')) walk(path.join(dir, e.name), depth + 1);
  };
  try {
    if (fs.statSync(root).isDirectory()) walk(root, 0);
  } catch {
    // Not a folder.
  }
  return out;
}

/** The go/packages pattern of a package folder inside a module (`./api/v1`). */
export function packagePattern(moduleDir: string, pkgDir: string): string {
  const rel = path.relative(moduleDir, pkgDir).split(path.sep).join('/');
  return rel ? `./${rel}` : '.';
}
