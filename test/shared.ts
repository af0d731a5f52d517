/**
 * Where the tests find the project's shared folder (conformance cases, real CRDs, the kube-apiserver
 * recipe): `../shared` beside the checkout, or `CRD_YAML_SHARED` when set. Never a path of one machine.
 */
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
