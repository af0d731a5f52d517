/**
 * The Kubernetes value-type libraries: quantity, IP, CIDR, URL, semver and format.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { installFormats } from './formats';
import { installNet } from './net';
import { installQuantity } from './quantity';
import { installSemver } from './semver';
import { installURLs } from './urls';

/** Registers the Kubernetes types and their functions. */
export function installKubernetesTypes(env: Environment): void {
  installURLs(env);
  installQuantity(env);
  installNet(env);
  installFormats(env);
  installSemver(env);
}
