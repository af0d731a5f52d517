/**
 * The Kubernetes CEL environment: cel-js configured as the API server's base environment
 * (k8s.io/apiserver/pkg/cel/environment/base.go) plus the Kubernetes and cel-go extension libraries.
 *
 * Why a factory: cel-js freezes an Environment once it is cloned, so we build one base environment per
 * compatibility version (expensive: hundreds of overloads) and hand out cheap clones that callers extend
 * with their own declarations (`self`, `oldSelf`, object types from the schema).
 */
import { Environment } from '@marcbachmann/cel-js';
import { installKubernetesLibraries } from './lib';

/** Kubernetes versions whose base environment we model; rules on CRD create compile at the min-compat version. */
export type CompatibilityVersion = '1.36' | '1.37';

/** The API server's DefaultCompatibilityVersion() for a 1.37 binary: new CRD rules compile here. */
export const DEFAULT_COMPATIBILITY_VERSION: CompatibilityVersion = '1.36';

export interface KubernetesEnvironmentOptions {
  /**
   * Which library set is visible. '1.36' = NewExpressions env of a 1.37 server (no `includes`);
   * '1.37' = StoredExpressions env (adds lists `includes`). Default DEFAULT_COMPATIBILITY_VERSION.
   */
  compatibilityVersion?: CompatibilityVersion;
  /** Accept undeclared identifiers as dyn (bare-expression evaluation); default false. */
  unlistedVariablesAreDyn?: boolean;
}

const bases = new Map<string, Environment>();

function baseEnvironment(version: CompatibilityVersion): Environment {
  let env = bases.get(version);
  if (!env) {
    env = new Environment({
      unlistedVariablesAreDyn: false,
      // base.go: HomogeneousAggregateLiterals + OptionalTypes (1.28).
      homogeneousAggregateLiterals: true,
      enableOptionalTypes: true,
      limits: { maxAstNodes: 100000, maxDepth: 250, maxListElements: 100000, maxMapEntries: 100000, maxCallArguments: 32 },
    });
    installKubernetesLibraries(env, { compatibilityVersion: version });
    bases.set(version, env);
  }
  return env;
}

/**
 * A fresh, extensible cel-js Environment with the Kubernetes base environment for the given compatibility
 * version: standard library, optionals, Kubernetes libraries (lists, regex, urls, quantity, ip, cidr,
 * format, semver) and cel-go extensions (strings v2, sets, lists v3, two-variable comprehensions).
 * Callers add variables/types with registerVariable/registerType on the returned clone; the shared base
 * stays untouched. Evaluate through `evaluateWithLimits` (./runtime) to get the cost/time guard.
 */
export function createKubernetesEnvironment(opts: KubernetesEnvironmentOptions = {}): Environment {
  const base = baseEnvironment(opts.compatibilityVersion ?? DEFAULT_COMPATIBILITY_VERSION);
  return base.clone({
    unlistedVariablesAreDyn: opts.unlistedVariablesAreDyn ?? false,
    homogeneousAggregateLiterals: true,
    enableOptionalTypes: true,
  });
}
