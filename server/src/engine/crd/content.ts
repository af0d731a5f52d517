/**
 * String-format checks of k8s.io/apimachinery pkg/util/validation, returning Go's messages ("must be no
 * more than N characters"). Label keys and values follow api/validate/content, whose wording differs
 * ("bytes"). Both come from one implementation in engine/objectmeta/names.ts.
 */
export { isQualifiedName, isValidLabelValue, regexError } from '../objectmeta/names';
import { utilValidationChecks } from '../objectmeta/names';

/** Go's validation.MaxLenError ("characters"). */
export const maxLenError = utilValidationChecks.maxLenError;
/** validation.IsDNS1123Label */
export const isDNS1123Label = utilValidationChecks.isDNS1123Label;
/** validation.IsDNS1123Subdomain */
export const isDNS1123Subdomain = utilValidationChecks.isDNS1123Subdomain;
/** validation.IsDNS1035Label */
export const isDNS1035Label = utilValidationChecks.isDNS1035Label;

/** validation.IsValidPortNum */
export function isValidPortNum(port: number): string[] {
  if (1 <= port && port <= 65535) return [];
  return ['must be between 1 and 65535, inclusive'];
}
