/**
 * Where the tests find the project's shared folder (conformance cases, real CRDs, the kube-apiserver
 * recipe): `../shared` beside the checkout, or `CRD_YAML_SHARED` when set. Never a path of one machine.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';

/** The checkout's root (this file is `test/shared.ts`). */
export const REPO_ROOT = path.resolve(__dirname, '..');

/** The shared folder. */
export function sharedDir(): string {
  return process.env.CRD_YAML_SHARED ? path.resolve(process.env.CRD_YAML_SHARED) : path.resolve(REPO_ROOT, '..', 'shared');
}

/** A path inside the shared folder. */
export function sharedPath(...parts: string[]): string {
  return path.join(sharedDir(), ...parts);
}

/**
 * For a test's `skip` option: `false` when the part of the shared folder it reads is there. Without it (a
 * fresh clone) the one line the runner prints: what is missing and how to get it. Where
 * CRD_YAML_REQUIRE_SHARED is set (CI, .ci/run: the folder is there) a missing part is an error instead,
 * so that CI never passes by skipping.
 */
export function needsShared(...parts: string[]): string | false {
  if (existsSync(sharedPath(...parts))) return false;
  const what = ['shared', ...parts].join('/');
  if (process.env.CRD_YAML_REQUIRE_SHARED) throw new Error(`${what} not found at ${sharedPath(...parts)}, and CRD_YAML_REQUIRE_SHARED is set (CI requires the shared folder)`);
  return `needs ${what} (the project's shared test data): not beside the checkout; set CRD_YAML_SHARED to its folder to run it`;
}

/** The YAML files below a folder (of the shared folder's CRDs, say), sorted, at any depth. */
export function yamlFilesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((e) => {
      const p = path.join(dir, e);
      return statSync(p).isDirectory() ? yamlFilesUnder(p) : /\.ya?ml$/.test(e) ? [p] : [];
    });
}
