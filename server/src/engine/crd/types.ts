/**
 * The internal (apiextensions, unversioned) CustomResourceDefinition as ValidateCustomResourceDefinition
 * sees it after decoding, v1 defaulting and v1->internal conversion. Optional fields model Go pointers.
 */
import type { JSONSchemaProps } from '../schema/types';

export interface CRDNames {
  plural: string;
  singular: string;
  kind: string;
  listKind: string;
  shortNames: string[];
  categories: string[];
}

export interface ColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
  /** `jsonPath` in v1, `JSONPath` in the internal type (and in error paths). */
  JSONPath: string;
}

export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface Subresources {
  status?: Record<string, unknown>;
  scale?: ScaleSubresource;
}

export interface SelectableField {
  jsonPath: string;
}

export interface CustomResourceValidation {
  openAPIV3Schema?: JSONSchemaProps;
}

export interface CRDVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated: boolean;
  deprecationWarning?: string;
  schema?: CustomResourceValidation;
  subresources?: Subresources;
  additionalPrinterColumns: ColumnDefinition[];
  selectableFields: SelectableField[];
}

export interface ServiceReference {
  namespace: string;
  name: string;
  path?: string;
  port: number;
}

export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  caBundle: string;
}

export interface CustomResourceConversion {
  strategy: string;
  webhookClientConfig?: WebhookClientConfig;
  conversionReviewVersions: string[];
}

export interface CRDSpec {
  group: string;
  names: CRDNames;
  scope: string;
  /** Internal only: a copy of versions[0].name. */
  version: string;
  versions: CRDVersion[];
  validation?: CustomResourceValidation;
  subresources?: Subresources;
  additionalPrinterColumns: ColumnDefinition[];
  selectableFields: SelectableField[];
  conversion?: CustomResourceConversion;
  preserveUnknownFields?: boolean;
}

export interface ObjectMeta {
  name: string;
  generateName: string;
  namespace: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  finalizers: string[];
  /** The metadata as the API server decodes it (known fields only), for ObjectMeta validation. */
  decoded: Record<string, unknown>;
}

export interface CustomResourceDefinition {
  metadata: ObjectMeta;
  spec: CRDSpec;
  status: { storedVersions: string[] };
}
