/**
 * The order in which kubectl prefers a CRD's versions: API discovery lists a group's versions sorted by
 * Kubernetes version priority (apiextensions-apiserver customresource_discovery_controller.go,
 * sortGroupDiscoveryByKubeAwareVersion: GA > beta > alpha, then by number; other names last,
 * alphabetically), and the first one served is the preferred version kubectl uses when none is named.
 */
import { compareKubeAwareVersionStrings } from './versions';

/** The versions sorted by priority, highest first (a copy). */
export function byVersionPriority<T extends { name: string }>(versions: readonly T[]): T[] {
  return [...versions].sort((a, b) => compareKubeAwareVersionStrings(b.name, a.name));
}

/** The version kubectl uses when none is named: the served version of highest priority. */
export function preferredVersion<T extends { name: string; served: boolean }>(versions: readonly T[]): T | undefined {
  return byVersionPriority(versions.filter((v) => v.served))[0];
}
