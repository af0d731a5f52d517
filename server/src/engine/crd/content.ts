/**
 * The string-format checks of k8s.io/apimachinery pkg/util/validation that CRD validation uses, with
 * Go's messages ("must be no more than N characters"). The implementation is engine/objectmeta/names.ts,
 * shared with the metadata checks (api/validate/content, whose wording says "bytes").
 */
import { utilValidationChecks } from '../objectmeta/names';

/** validation.IsDNS1123Subdomain */
export const isDNS1123Subdomain = utilValidationChecks.isDNS1123Subdomain;
/** validation.IsDNS1035Label */
export const isDNS1035Label = utilValidationChecks.isDNS1035Label;

/** validation.IsValidPortNum */
export function isValidPortNum(port: number): string[] {
  if (1 <= port && port <= 65535) return [];
  return ['must be between 1 and 65535, inclusive'];
}
