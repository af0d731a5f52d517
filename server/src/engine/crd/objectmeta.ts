/**
 * The CRD's metadata name rule. ObjectMeta itself is validated by engine/objectmeta; the name function
 * here keeps util/validation's wording ("characters"), which genericvalidation.NameIsDNSSubdomain uses.
 */
import { isDNS1123Subdomain } from './content';

/** genericvalidation.NameIsDNSSubdomain */
export function nameIsDNSSubdomain(name: string, prefix: boolean): string[] {
  // maskTrailingDash: a generateName may end in '-' since a suffix follows.
  if (prefix && name.length > 1 && name.endsWith('-')) name = name.slice(0, -2) + 'a';
  return isDNS1123Subdomain(name);
}
