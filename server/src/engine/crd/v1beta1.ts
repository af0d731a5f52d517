/**
 * The API server's own conversion of an apiextensions.k8s.io/v1beta1 CustomResourceDefinition to v1:
 * v1beta1 defaulting (apiextensions/v1beta1/defaults.go), v1beta1 -> internal (v1beta1/conversion.go and
 * the generated field mapping), internal -> v1 (v1/conversion.go). It is expressed as edits of the
 * written document (see edits.ts) so that the YAML keeps its comments and key order; the result equals
 * the API server's v1 object up to the defaults both versions share (names.singular, names.listKind,
 * conversion strategy None, service port 443), which are left unwritten. The Go oracle checks this.
 */
import { FieldPath, type PathSegment } from '../field';
import type { DocumentEdit, JSONPathKeys } from './edits';
import { visitSchema } from './warnings';
import { isJSONObject } from '../json/values';

/** One change the migration made or could not make, at a field of the v1 result. */
export interface MigrationNote {
  /** The field path in the v1 CRD, as the API server prints paths (`spec.versions[0].schema`). */
  path: string;
  message: string;
  /**
   * `conversion`: what the API server's v1beta1 -> v1 conversion does; `required`: an edit v1 needs that
   * the server cannot make by itself (added here); `manual`: what v1 still rejects and needs a person.
   */
  kind: 'conversion' | 'required' | 'manual';
}

/** The conversion as edits of the v1beta1 document, with a note per change. */
export interface V1beta1Conversion {
  edits: DocumentEdit[];
  notes: MigrationNote[];
}

/** Whether a parsed document is an apiextensions.k8s.io/v1beta1 CustomResourceDefinition. */
export function isV1beta1CustomResourceDefinition(doc: unknown): doc is Record<string, unknown> {
  return isJSONObject(doc) && doc.apiVersion === 'apiextensions.k8s.io/v1beta1' && doc.kind === 'CustomResourceDefinition';
}

/** Fields the internal -> v1 conversion copies from the top level of the spec into every version. */
const HOISTED: readonly { top: string; perVersion: string }[] = [
  { top: 'validation', perVersion: 'schema' },
  { top: 'subresources', perVersion: 'subresources' },
  { top: 'additionalPrinterColumns', perVersion: 'additionalPrinterColumns' },
  { top: 'selectableFields', perVersion: 'selectableFields' },
];

/**
 * The v1beta1 -> v1 conversion of `doc` as edits. `preserveUnknownFields` is written as the v1 object
 * has it (true unless the document says false: v1beta1's default), which v1 then rejects; the migration
 * replaces it with the schema extension.
 */
export function convertV1beta1ToV1(doc: Record<string, unknown>): V1beta1Conversion {
  const edits: DocumentEdit[] = [{ op: 'set', path: ['apiVersion'], value: 'apiextensions.k8s.io/v1' }];
  const notes: MigrationNote[] = [];
  const note = (path: string, message: string) => notes.push({ path, message, kind: 'conversion' });
  const spec = doc.spec;
  if (!isJSONObject(spec)) return { edits, notes };

  // SetDefaults_CustomResourceDefinitionSpec: the deprecated `version` stands for one served, stored version.
  let versions = Array.isArray(spec.versions) ? spec.versions : [];
  if (versions.length === 0 && typeof spec.version === 'string' && spec.version !== '') {
    versions = [{ name: spec.version, served: true, storage: true }];
    edits.push({ op: 'set', path: ['spec', 'versions'], value: versions, before: 'version' });
    note('spec.versions', `spec.version "${spec.version}" became spec.versions[0] (served, storage)`);
  } else if ('version' in spec) {
    note('spec.version', 'removed: v1 takes the versions from spec.versions only');
  }
  if ('version' in spec) edits.push({ op: 'remove', path: ['spec', 'version'] });
  if (typeof spec.scope !== 'string' || spec.scope === '') {
    edits.push({ op: 'set', path: ['spec', 'scope'], value: 'Namespaced', before: 'versions' });
    note('spec.scope', "set to Namespaced, v1beta1's default (v1 requires it)");
  }

  // JSONPath is spelled jsonPath in v1 columns.
  const renameColumns = (at: JSONPathKeys, cols: unknown) => {
    if (!Array.isArray(cols)) return;
    cols.forEach((c, j) => {
      if (isJSONObject(c) && 'JSONPath' in c) edits.push({ op: 'rename', path: [...at, j, 'JSONPath'], to: 'jsonPath' });
    });
  };
  renameColumns(['spec', 'additionalPrinterColumns'], spec.additionalPrinterColumns);
  versions.forEach((v, i) => {
    if (isJSONObject(v)) renameColumns(['spec', 'versions', i, 'additionalPrinterColumns'], v.additionalPrinterColumns);
  });

  // Convert_apiextensions_CustomResourceDefinitionSpec_To_v1: a top-level field (hoisted in internal)
  // is set on every version; v1 has no top-level one.
  for (const { top, perVersion } of HOISTED) {
    if (!(top in spec)) continue;
    const value = spec[top];
    if (value === null || value === undefined) {
      edits.push({ op: 'remove', path: ['spec', top] });
      continue;
    }
    // Copies first (they read the top-level value), the move last, so the first version keeps the comments.
    for (let i = versions.length - 1; i >= 0; i--) {
      const v = versions[i];
      if (isJSONObject(v) && v[perVersion] !== undefined && v[perVersion] !== null) {
        notes.push({ path: `spec.versions[${i}].${perVersion}`, message: `replaced by spec.${top}: v1beta1 does not allow both (the API server keeps the top-level one)`, kind: 'manual' });
      }
      edits.push({ op: i === 0 ? 'move' : 'copy', from: ['spec', top], path: ['spec', 'versions', i, perVersion] });
    }
    if (versions.length === 0) edits.push({ op: 'remove', path: ['spec', top] });
    note(versions.length === 1 ? `spec.versions[0].${perVersion}` : `spec.versions[*].${perVersion}`, `spec.${top} moved into ${versions.length === 1 ? 'the version' : 'every version'} (v1 has no top-level ${top})`);
  }

  // Convert_apiextensions_CustomResourceConversion_To_v1: the webhook settings move under conversion.webhook.
  const conv = spec.conversion;
  if (isJSONObject(conv)) {
    const reviewVersions = conv.conversionReviewVersions;
    const defaulted = conv.strategy === 'Webhook' && (!Array.isArray(reviewVersions) || reviewVersions.length === 0);
    const hasClientConfig = conv.webhookClientConfig !== undefined && conv.webhookClientConfig !== null;
    if (hasClientConfig || defaulted || Array.isArray(reviewVersions)) {
      const webhook: Record<string, unknown> = {};
      edits.push({ op: 'set', path: ['spec', 'conversion', 'webhook'], value: webhook, before: hasClientConfig ? 'webhookClientConfig' : 'conversionReviewVersions' });
      if (hasClientConfig) edits.push({ op: 'move', from: ['spec', 'conversion', 'webhookClientConfig'], path: ['spec', 'conversion', 'webhook', 'clientConfig'] });
      if (defaulted) {
        edits.push({ op: 'remove', path: ['spec', 'conversion', 'conversionReviewVersions'] });
        edits.push({ op: 'set', path: ['spec', 'conversion', 'webhook', 'conversionReviewVersions'], value: ['v1beta1'] });
        note('spec.conversion.webhook.conversionReviewVersions', "set to [v1beta1], v1beta1's default (v1 requires the list)");
      } else if (Array.isArray(reviewVersions)) {
        edits.push({ op: 'move', from: ['spec', 'conversion', 'conversionReviewVersions'], path: ['spec', 'conversion', 'webhook', 'conversionReviewVersions'] });
      }
      note('spec.conversion.webhook', 'webhookClientConfig and conversionReviewVersions moved under conversion.webhook (clientConfig)');
    }
    for (const k of ['webhookClientConfig', 'conversionReviewVersions']) if (conv[k] === null) edits.push({ op: 'remove', path: ['spec', 'conversion', k] });
  }

  // v1beta1 defaults preserveUnknownFields to true; v1 to false.
  if (spec.preserveUnknownFields === undefined || spec.preserveUnknownFields === null) {
    edits.push({ op: 'set', path: ['spec', 'preserveUnknownFields'], value: true });
  }

  // Convert_apiextensions_JSONSchemaProps_To_v1: a `default: null` or `example: null` is dropped.
  const dropNulls = (schema: unknown, at: FieldPath) =>
    visitSchema(schema, at, (node, p) => {
      for (const k of ['default', 'example'] as const) {
        if (node[k] !== null) continue;
        edits.push({ op: 'remove', path: [...keysOf(p), k] });
        note(p.child(k).toString(), `${k}: null dropped, as the API server drops it`);
      }
    });
  if (isJSONObject(spec.validation)) dropNulls(spec.validation.openAPIV3Schema, FieldPath.root('spec', 'validation', 'openAPIV3Schema'));
  versions.forEach((v, i) => {
    if (isJSONObject(v) && isJSONObject(v.schema)) dropNulls(v.schema.openAPIV3Schema, FieldPath.root('spec', 'versions').index(i).child('schema', 'openAPIV3Schema'));
  });
  return { edits, notes };
}

/** The JSON keys of a field path (fields and map keys are keys, indexes are indexes). */
export function keysOf(p: FieldPath | readonly PathSegment[]): (string | number)[] {
  const segs = Array.isArray(p) ? p : (p as FieldPath).segments();
  return segs.map((s) => (s.kind === 'field' ? s.name : s.kind === 'key' ? s.key : s.index));
}
