/**
 * Which Go packages define CRDs (IO): a package whose files declare `+groupName=` or
 * `+kubebuilder:object:root=true` holds kubebuilder API types; its module is the nearest go.mod above it.
 * The CLI notes them in its one search of the folders given (cli/files.ts), the editor per open file.
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

/** The files that declare an API package: groupversion_info.go, doc.go, register.go, *_types.go. */
export const API_FILE = /^(?:groupversion_info|doc|register|[A-Za-z0-9_]+_types)\.go$/;

/** The go/packages pattern of a package folder inside a module (`./api/v1`). */
export function packagePattern(moduleDir: string, pkgDir: string): string {
  const rel = path.relative(moduleDir, pkgDir).split(path.sep).join('/');
  return rel ? `./${rel}` : '.';
}
