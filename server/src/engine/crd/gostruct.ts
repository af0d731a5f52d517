/**
 * Internal (apiextensions) CRD values as the API server prints them in a bad value: the internal types
 * have no JSON tags, so json.Marshal writes Go field names in declaration order (`{"Name":"v1",...}`),
 * nil pointers and slices as null.
 */
import type { JSONSchemaProps } from '../schema/types';
import { internalValidationRule } from '../schema/cel/compile';
import type { CRDVersion } from './types';
import { GoStruct } from '../json/go';
import { isJSONObject } from '../json/values';

const ptr = (v: unknown) => (v === undefined ? null : v);
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const bool = (v: unknown) => v === true;

function orSchema(v: unknown): GoStruct | null {
  return isJSONObject(v) ? internalSchemaStruct(v as JSONSchemaProps) : null;
}

function schemaMap(v: unknown): Record<string, GoStruct> | null {
  if (!isJSONObject(v)) return null;
  const out: Record<string, GoStruct> = {};
  for (const [k, s] of Object.entries(v)) out[k] = internalSchemaStruct(isJSONObject(s) ? (s as JSONSchemaProps) : {});
  return out;
}

function schemaList(v: unknown): GoStruct[] | null {
  return Array.isArray(v) ? v.map((s) => internalSchemaStruct(isJSONObject(s) ? (s as JSONSchemaProps) : {})) : null;
}

/** JSONSchemaPropsOrBool: a bool allows (or not) anything; a schema allows what it describes. */
function orBool(v: unknown): GoStruct | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'boolean')
    return new GoStruct([
      ['Allows', v],
      ['Schema', null],
    ]);
  return new GoStruct([
    ['Allows', true],
    ['Schema', orSchema(v)],
  ]);
}

/** apiextensions.JSONSchemaProps as json.Marshal prints it. */
export function internalSchemaStruct(s: JSONSchemaProps): GoStruct {
  const items = s.items;
  const deps = isJSONObject(s.dependencies) ? s.dependencies : undefined;
  return new GoStruct([
    ['ID', str(s.id)],
    ['Schema', str(s.$schema)],
    ['Ref', ptr(s.$ref)],
    ['Description', str(s.description)],
    ['Type', str(s.type)],
    ['Nullable', bool(s.nullable)],
    ['Format', str(s.format)],
    ['Title', str(s.title)],
    ['Default', ptr(s.default)],
    ['Maximum', ptr(s.maximum)],
    ['ExclusiveMaximum', bool(s.exclusiveMaximum)],
    ['Minimum', ptr(s.minimum)],
    ['ExclusiveMinimum', bool(s.exclusiveMinimum)],
    ['MaxLength', ptr(s.maxLength)],
    ['MinLength', ptr(s.minLength)],
    ['Pattern', str(s.pattern)],
    ['MaxItems', ptr(s.maxItems)],
    ['MinItems', ptr(s.minItems)],
    ['UniqueItems', bool(s.uniqueItems)],
    ['MultipleOf', ptr(s.multipleOf)],
    ['Enum', ptr(s.enum)],
    ['MaxProperties', ptr(s.maxProperties)],
    ['MinProperties', ptr(s.minProperties)],
    ['Required', ptr(s.required)],
    [
      'Items',
      items === undefined || items === null
        ? null
        : Array.isArray(items)
          ? new GoStruct([
              ['Schema', null],
              ['JSONSchemas', schemaList(items)],
            ])
          : new GoStruct([
              ['Schema', orSchema(items)],
              ['JSONSchemas', null],
            ]),
    ],
    ['AllOf', schemaList(s.allOf)],
    ['OneOf', schemaList(s.oneOf)],
    ['AnyOf', schemaList(s.anyOf)],
    ['Not', orSchema(s.not)],
    ['Properties', schemaMap(s.properties)],
    ['AdditionalProperties', orBool(s.additionalProperties)],
    ['PatternProperties', schemaMap(s.patternProperties)],
    [
      'Dependencies',
      deps
        ? Object.fromEntries(
            Object.entries(deps).map(([k, d]) => [
              k,
              new GoStruct([
                ['Schema', Array.isArray(d) ? null : orSchema(d)],
                ['Property', Array.isArray(d) ? d : null],
              ]),
            ]),
          )
        : null,
    ],
    ['AdditionalItems', orBool(s.additionalItems)],
    ['Definitions', schemaMap(s.definitions)],
    [
      'ExternalDocs',
      isJSONObject(s.externalDocs)
        ? new GoStruct([
            ['Description', str(s.externalDocs.description)],
            ['URL', str(s.externalDocs.url)],
          ])
        : null,
    ],
    ['Example', ptr(s.example)],
    ['XPreserveUnknownFields', ptr(s['x-kubernetes-preserve-unknown-fields'])],
    ['XEmbeddedResource', bool(s['x-kubernetes-embedded-resource'])],
    ['XIntOrString', bool(s['x-kubernetes-int-or-string'])],
    ['XListMapKeys', ptr(s['x-kubernetes-list-map-keys'])],
    ['XListType', ptr(s['x-kubernetes-list-type'])],
    ['XMapType', ptr(s['x-kubernetes-map-type'])],
    ['XValidations', Array.isArray(s['x-kubernetes-validations']) ? s['x-kubernetes-validations'].map((r) => internalValidationRule(r)) : null],
  ]);
}

/** apiextensions.CustomResourceDefinitionVersion as json.Marshal prints it (after the v1 conversion). */
export function internalVersionStruct(v: CRDVersion): GoStruct {
  const sub = v.subresources;
  const scale = sub?.scale;
  return new GoStruct([
    ['Name', v.name],
    ['Served', v.served],
    ['Storage', v.storage],
    ['Deprecated', v.deprecated],
    ['DeprecationWarning', ptr(v.deprecationWarning)],
    ['Schema', v.schema ? new GoStruct([['OpenAPIV3Schema', v.schema.openAPIV3Schema ? internalSchemaStruct(v.schema.openAPIV3Schema) : null]]) : null],
    [
      'Subresources',
      sub
        ? new GoStruct([
            ['Status', sub.status ? new GoStruct([]) : null],
            [
              'Scale',
              scale
                ? new GoStruct([
                    ['SpecReplicasPath', scale.specReplicasPath],
                    ['StatusReplicasPath', scale.statusReplicasPath],
                    ['LabelSelectorPath', ptr(scale.labelSelectorPath)],
                  ])
                : null,
            ],
          ])
        : null,
    ],
    [
      'AdditionalPrinterColumns',
      v.additionalPrinterColumns.length === 0
        ? null
        : v.additionalPrinterColumns.map(
            (c) =>
              new GoStruct([
                ['Name', c.name],
                ['Type', c.type],
                ['Format', c.format],
                ['Description', c.description],
                ['Priority', c.priority],
                ['JSONPath', c.JSONPath],
              ]),
          ),
    ],
    ['SelectableFields', v.selectableFields.length === 0 ? null : v.selectableFields.map((f) => new GoStruct([['JSONPath', f.jsonPath]]))],
  ]);
}
