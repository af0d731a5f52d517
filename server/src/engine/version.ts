/**
 * The Kubernetes version the engine checks as (`--kubernetes-version`, `crdYaml.kubernetesVersion`): an
 * API server of minor 1.30 to 1.37 with its default feature gates.
 *
 * What the version changes:
 * - CEL (engine/cel/library/index.ts): the libraries of the base environment (apiserver
 *   pkg/cel/environment/base.go of that release) and the compatibility version new rules are checked
 *   at (DefaultCompatibilityVersion: 1.29 for 1.30, V-1 from 1.31 on);
 * - the feature gates that change CRD and custom resource validation, with their defaults in that
 *   release (kube_features.go's versioned specs for the apiextensions gates):
 *   - CRDValidationRatcheting: beta on from 1.30, GA 1.33 (on in every modelled version);
 *   - CustomResourceFieldSelectors: alpha off in 1.30 (CRD strategy's dropDisabledFields drops
 *     `selectableFields` on create, and on update unless the stored CRD uses them), beta on 1.31, GA 1.32;
 *   - CRDObservedGenerationTracking (beta off from 1.35) only touches CRD status, never validation.
 *   DeclarativeValidationBeta (on from 1.36) switches ObjectMeta validation to its declarative twin,
 *   meant to give the same errors; the engine follows the hand-written rules for every version.
 *
 * An API server with `--emulated-version=1.X` behaves as 1.X for all of these (checked against
 * kube-apiserver 1.37 emulating 1.34 in test/apiserver/version.test.ts).
 */

/** A Kubernetes minor version (37 for 1.37). */
export type KubernetesMinor = number;

/** The oldest and newest modelled minors. */
export const OLDEST_KUBERNETES_MINOR: KubernetesMinor = 30;
export const NEWEST_KUBERNETES_MINOR: KubernetesMinor = 37;

/** The modelled minor for an option (undefined: the newest; out of range: clamped). */
export function kubernetesMinor(minor: KubernetesMinor | undefined): KubernetesMinor {
  if (minor === undefined || !Number.isFinite(minor)) return NEWEST_KUBERNETES_MINOR;
  return Math.min(NEWEST_KUBERNETES_MINOR, Math.max(OLDEST_KUBERNETES_MINOR, Math.trunc(minor)));
}

/**
 * `1.30`, `v1.30` or `1.30.2` as a modelled minor; undefined for anything else (not a 1.x version, or
 * outside 1.30 .. 1.37).
 */
export function parseKubernetesVersion(text: string): KubernetesMinor | undefined {
  const m = /^v?1\.(\d{1,3})(?:\.\d+)?$/.exec(text.trim());
  if (!m) return undefined;
  const minor = Number(m[1]);
  return minor >= OLDEST_KUBERNETES_MINOR && minor <= NEWEST_KUBERNETES_MINOR ? minor : undefined;
}

/** `1.37` */
export function formatKubernetesVersion(minor: KubernetesMinor): string {
  return `1.${minor}`;
}

/** The supported versions, oldest first (`1.30`, ..., `1.37`). */
export function supportedKubernetesVersions(): string[] {
  const out: string[] = [];
  for (let m = OLDEST_KUBERNETES_MINOR; m <= NEWEST_KUBERNETES_MINOR; m++) out.push(formatKubernetesVersion(m));
  return out;
}

/**
 * The Kubernetes API server a check follows, in one shape for every engine entry point (CRD create and
 * update, custom resource create and update, conversion checks): its minor, and its compatibility version
 * for new CEL rules where that is not the minor's default. Its feature gates follow from the minor
 * (featureGates below).
 */
export interface KubernetesTarget {
  /** The API server's minor (1.30 .. 1.37 as 30 .. 37); undefined: the newest. */
  kubernetesMinor?: KubernetesMinor;
  /**
   * The API server's compatibility version for new CEL rules, when not the default of its minor (1.X-1,
   * 1.29 for 1.30): a server started with `--min-compatibility-version`, or emulating an older version
   * (a 1.37 binary floors it at 1.34).
   */
  compatibilityMinor?: KubernetesMinor;
}

/** The feature gates that change CRD or custom resource validation, as their defaults are in a release. */
export interface FeatureGates {
  CRDValidationRatcheting: boolean;
  CustomResourceFieldSelectors: boolean;
}

/** The default feature gates of an API server of this minor. */
export function featureGates(minor: KubernetesMinor | undefined): FeatureGates {
  const m = kubernetesMinor(minor);
  return { CRDValidationRatcheting: m >= 30, CustomResourceFieldSelectors: m >= 31 };
}
