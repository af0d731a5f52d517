/**
 * The feature gates that change the handwritten checks ported here, as the API server of the target
 * Kubernetes version defaults them (pkg/features/kube_features.go's versioned specs: an older
 * `--kubernetes-version` is checked as that release, or a newer one emulating it, checks). Set for the
 * length of one object's checks (handwrittenErrors), read where the Go code asks the gate.
 */
import { NEWEST_KUBERNETES_MINOR } from '../../version';

export interface FeatureGates {
  /** RelaxedEnvironmentVariableValidation: beta (on) in 1.32, GA in 1.34; before, IsEnvVarName. */
  readonly relaxedEnvironmentVariableValidation: boolean;
  /** RelaxedServiceNameValidation: alpha (off) in 1.34, beta (on) in 1.36, GA in 1.37; before, DNS-1035. */
  readonly relaxedServiceNameValidation: boolean;
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

/** The last minor's gates: most runs check every object at one version. */
let last: { minor: number | undefined; gates: FeatureGates } = { minor: undefined, gates: current };

/** Sets the gates of a Kubernetes minor version for the checks that follow; gives the gates to restore after. */
export function setFeatureGates(kubernetesMinor: number | undefined): FeatureGates {
  const saved = current;
  if (kubernetesMinor !== last.minor) last = { minor: kubernetesMinor, gates: featureGatesAt(kubernetesMinor) };
  current = last.gates;
  return saved;
}

/** Restores the gates setFeatureGates replaced. */
export function restoreFeatureGates(saved: FeatureGates): void {
  current = saved;
}
