/**
 * The feature gates that change the handwritten checks ported here, as the API server of the target
 * Kubernetes version defaults them (pkg/features/kube_features.go's versioned specs: an older
 * `--kubernetes-version` is checked as that release, or a newer one emulating it, checks). Set for the
 * length of one object's checks (handwrittenErrors), read where the Go code asks the gate.
 */
import { NEWEST_KUBERNETES_MINOR } from '../../version';

export interface FeatureGates {
  /** RelaxedEnvironmentVariableValidation: beta (on) in 1.32, GA in 1.34; before, IsEnvVarName. */
  relaxedEnvironmentVariableValidation: boolean;
  /** RelaxedServiceNameValidation: alpha (off) in 1.34, beta (on) in 1.36, GA in 1.37; before, DNS-1035. */
  relaxedServiceNameValidation: boolean;
}

/** The gates' defaults at a Kubernetes minor version (undefined: the newest). */
export function featureGatesAt(kubernetesMinor: number = NEWEST_KUBERNETES_MINOR): FeatureGates {
  return { relaxedEnvironmentVariableValidation: kubernetesMinor >= 32, relaxedServiceNameValidation: kubernetesMinor >= 36 };
}

let current = featureGatesAt();

/** The gates of the object being checked. */
export function featureGates(): FeatureGates {
  return current;
}

/** Runs fn with the gates of a Kubernetes minor version. */
export function withFeatureGates<T>(kubernetesMinor: number | undefined, fn: () => T): T {
  const saved = current;
  current = featureGatesAt(kubernetesMinor);
  try {
    return fn();
  } finally {
    current = saved;
  }
}
