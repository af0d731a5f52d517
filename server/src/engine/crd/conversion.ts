/**
 * What the REST handler does to a v1 CRD before validating it on create: v1 defaulting
 * (apiextensions/v1/defaults.go), strategy.PrepareForCreate (status reset, storedVersions) and the
 * v1 -> internal conversion (apiextensions/v1/conversion.go). The conversion hoists per-version schema,
 * subresources, printer columns and selectable fields that are identical in every version to the
 * top-level internal fields, which is why errors are reported at `spec.validation...` for such CRDs.
 */
import type { V1CustomResourceDefinition } from './decode';
import { semanticDeepEqual } from './json';
import type { CRDSpec, CustomResourceConversion, CustomResourceDefinition } from './types';

/** SetDefaults_CustomResourceDefinitionSpec (names.singular, names.listKind, conversion). */
export function setV1Defaults(crd: V1CustomResourceDefinition): void {
  const names = crd.spec.names;
  if (names.singular.length === 0) names.singular = names.kind.toLowerCase();
  if (names.listKind.length === 0 && names.kind.length > 0) names.listKind = names.kind + 'List';
  if (!crd.spec.conversion) crd.spec.conversion = { strategy: 'None' };
  // ServiceReference.port is defaulted to 443 while decoding.
}

/** The internal CRD: defaulted, status as PrepareForCreate leaves it, per-version fields hoisted. */
export function convertToInternal(v1: V1CustomResourceDefinition): CustomResourceDefinition {
  setV1Defaults(v1);
  const src = v1.spec;
  const versions = src.versions.map((v) => ({ ...v }));
  const spec: CRDSpec = {
    group: src.group,
    names: src.names,
    scope: src.scope,
    version: '',
    versions,
    additionalPrinterColumns: [],
    selectableFields: [],
  };
  // v1's preserveUnknownFields is a plain bool: the internal pointer is always set.
  spec.preserveUnknownFields = src.preserveUnknownFields ?? false;
  if (src.conversion) {
    const c: CustomResourceConversion = { strategy: src.conversion.strategy, conversionReviewVersions: [] };
    if (src.conversion.webhook) {
      c.conversionReviewVersions = src.conversion.webhook.conversionReviewVersions;
      if (src.conversion.webhook.clientConfig) c.webhookClientConfig = src.conversion.webhook.clientConfig;
    }
    spec.conversion = c;
  }

  if (versions.length > 0) {
    spec.version = versions[0].name;
    const first = versions[0];
    const same = (get: (v: (typeof versions)[number]) => unknown) => versions.every((v) => semanticDeepEqual(get(v), get(first)));
    const subresourcesIdentical = same((v) => v.subresources);
    const validationIdentical = same((v) => v.schema);
    const columnsIdentical = same((v) => v.additionalPrinterColumns);
    const selectableIdentical = same((v) => v.selectableFields);
    if (subresourcesIdentical && first.subresources) spec.subresources = first.subresources;
    if (validationIdentical && first.schema) spec.validation = first.schema;
    if (columnsIdentical) spec.additionalPrinterColumns = first.additionalPrinterColumns;
    if (selectableIdentical) spec.selectableFields = first.selectableFields;
    for (const v of versions) {
      if (subresourcesIdentical) delete v.subresources;
      if (validationIdentical) delete v.schema;
      if (columnsIdentical) v.additionalPrinterColumns = [];
      if (selectableIdentical) v.selectableFields = [];
    }
  }

  // PrepareForCreate: status is reset; the first storage version is the only stored version.
  const storedVersions: string[] = [];
  const storage = src.versions.find((v) => v.storage);
  if (storage) storedVersions.push(storage.name);

  return { metadata: v1.metadata, spec, status: { storedVersions } };
}
