/**
 * The CRD's metadata name rule: genericvalidation.NameIsDNSSubdomain, the one of engine/objectmeta.
 */
export { nameIsDNSSubdomain } from '../objectmeta/names';
