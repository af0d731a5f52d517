/**
 * The Kubernetes value-type libraries: quantity, IP, CIDR, URL, semver and format.
 */
import type { Environment } from '@marcbachmann/cel-js';

/** Registers the Kubernetes types and their functions. */
export function installKubernetesTypes(env: Environment): void {
  void env;
}
