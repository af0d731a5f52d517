/**
 * The compatibility categories of a CRD change, each with a stable code (crdify's validation names
 * where crdify has one), what it means, and a default severity. A category is `breaking` when objects
 * the old CRD accepted can be rejected by the new one (or lose data), `client` when stored objects stay
 * valid but clients and users relying on the old API can break.
 */

export type CompatSeverity = 'error' | 'warning' | 'information' | 'off';

export interface CompatCategory {
  code: string;
  /** One line for people: what changed. */
  title: string;
  kind: 'breaking' | 'client';
  defaultSeverity: Exclude<CompatSeverity, 'off'>;
}

const list: CompatCategory[] = [
  { code: 'storedVersionRemoval', title: 'a version still stored in etcd was removed', kind: 'breaking', defaultSeverity: 'error' },
  { code: 'servedVersionRemoval', title: 'a served version was removed or is no longer served', kind: 'client', defaultSeverity: 'warning' },
  { code: 'scope', title: 'the scope changed', kind: 'breaking', defaultSeverity: 'error' },
  { code: 'existingFieldRemoval', title: 'a field was removed', kind: 'breaking', defaultSeverity: 'warning' },
  { code: 'type', title: 'the type of a field changed', kind: 'breaking', defaultSeverity: 'error' },
  { code: 'enum', title: 'allowed enum values were removed (or an enum was added)', kind: 'breaking', defaultSeverity: 'error' },
  { code: 'required', title: 'a field became required', kind: 'breaking', defaultSeverity: 'error' },
  { code: 'maximum', title: 'maximum added or lowered', kind: 'breaking', defaultSeverity: 'error' },
  { code: 'minimum', title: 'minimum added or raised', kind: 'breaking', defaultSeverity: 'error' },
  { code: 'maxLength', title: 'maxLength added or lowered', kind: 'breaking', defaultSeverity: 'error' },
  { code: 'minLength', title: 'minLength added or raised', kind: 'breaking', defaultSeverity: 'error' },
  { code: 'maxItems', title: 'maxItems added or lowered', kind: 'breaking', defaultSeverity: 'error' },
  { code: 'minItems', title: 'minItems added or raised', kind: 'breaking', defaultSeverity: 'error' },
  { code: 'maxProperties', title: 'maxProperties added or lowered', kind: 'breaking', defaultSeverity: 'error' },
  { code: 'minProperties', title: 'minProperties added or raised', kind: 'breaking', defaultSeverity: 'error' },
  { code: 'pattern', title: 'a pattern was added or changed', kind: 'breaking', defaultSeverity: 'error' },
  { code: 'format', title: 'a format was added or changed', kind: 'breaking', defaultSeverity: 'warning' },
  { code: 'listType', title: 'x-kubernetes-list-type changed', kind: 'breaking', defaultSeverity: 'error' },
  { code: 'listMapKeys', title: 'x-kubernetes-list-map-keys changed', kind: 'breaking', defaultSeverity: 'error' },
  { code: 'validationRule', title: 'a CEL validation rule was added or changed', kind: 'breaking', defaultSeverity: 'warning' },
  { code: 'default', title: 'a default was added, changed or removed', kind: 'client', defaultSeverity: 'information' },
  { code: 'preserveUnknownFields', title: 'unknown fields are no longer preserved (they are pruned on the next write)', kind: 'breaking', defaultSeverity: 'warning' },
];

/** Every category, by code. */
export const COMPAT_CATEGORIES: ReadonlyMap<string, CompatCategory> = new Map(list.map((c) => [c.code, c]));
