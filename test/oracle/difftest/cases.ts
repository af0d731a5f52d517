/**
 * Builds differential-test cases (in the conformance format) from generated schemas and instances.
 */
import type { JSONSchemaProps } from '../../../server/src/engine/schema/types';
import { genSchema, genValid, mutate, structuredCloneJson } from './generate';
import type { Random } from './random';
import { genCustomResourceDefinitionUpdate, genCustomResourceUpdate } from './updates';
import { genCelCostCase } from './celcost';

export type GenCase = Record<string, unknown> & { id: string; op: string };

const GROUP = 'example.com';

/** A single-version v1 CRD around a root schema. */
export function wrapCRD(schema: JSONSchemaProps, opts: { status?: boolean; scope?: string } = {}): Record<string, unknown> {
  const version: Record<string, unknown> = { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } };
  if (opts.status) version.subresources = { status: {} };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${GROUP}` },
    spec: {
      group: GROUP,
      scope: opts.scope ?? 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [version],
    },
  };
}

/** The root schema of a CR: spec (and sometimes status) under an object root. */
function genRootSchema(r: Random, rules: boolean): JSONSchemaProps {
  const spec = genSchema(r, { depth: 3, rules, defaults: true }, 'object');
  const root: JSONSchemaProps = { type: 'object', properties: { spec } };
  if (r.chance(0.3)) root.properties!.status = genSchema(r, { depth: 2, rules, defaults: false }, 'object');
  if (rules && r.chance(0.2)) root['x-kubernetes-validations'] = [{ rule: r.pick(['has(self.spec)', "self.metadata.name.startsWith('w')", 'self.spec == oldSelf.spec']) }];
  return root;
}

/** Makes a schema non-structural in one of the ways users do. */
function breakStructure(r: Random, s: JSONSchemaProps): JSONSchemaProps {
  const props = Object.values(s.properties ?? {});
  const target = props.length ? r.pick(props) : s;
  switch (r.int(0, 5)) {
    case 0:
      delete target.type;
      break;
    case 1:
      target.anyOf = [{ properties: { q: { type: 'string' } } }];
      break;
    case 2:
      target.allOf = [{ type: 'string', default: 'x' }];
      break;
    case 3:
      target.not = { description: 'd', nullable: true };
      break;
    case 4:
      target.pattern = '(?=x)';
      break;
    default:
      s.additionalProperties = r.chance(0.5) ? false : { type: 'string' };
  }
  return s;
}

/** One random case of a random op. */
export function genCase(r: Random, n: number): GenCase {
  const op = r.weighted([
    [1, 'structural'],
    [1.5, 'prune'],
    [1.5, 'default'],
    [2.5, 'validate'],
    [1, 'crd'],
    [1.5, 'validate-crd'],
    [1, 'cel-compile'],
    // Updates (with the oldObject cases above, about 40% of all cases).
    [2.5, 'validate-update'],
    [2, 'crd-update'],
    // CEL-heavy: estimates and runtime costs over large lists, maps and strings (celcost.ts).
    [1.5, 'cel-heavy'],
  ] as const);
  const id = `difftest/${op}-${n}`;
  switch (op) {
    case 'cel-heavy':
      return genCelCostCase(r, `difftest/cel-heavy-${n}`);
    case 'structural': {
      const schema = genSchema(r, { depth: 3, rules: false, defaults: false }, 'object');
      return { id, op, schema: r.chance(0.6) ? breakStructure(r, schema) : schema };
    }
    case 'prune':
    case 'default': {
      const isResourceRoot = r.chance(0.3);
      const schema = isResourceRoot ? genRootSchema(r, false) : genSchema(r, { depth: 3, rules: false, defaults: op === 'default' }, 'object');
      const obj = genValid(r, schema) as Record<string, unknown>;
      if (isResourceRoot) Object.assign(obj, { apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name: 'w', unknown: 1 } });
      return { id, op, schema, object: mutate(r, obj, schema), isResourceRoot };
    }
    case 'validate': {
      const schema = genSchema(r, { depth: 3, rules: true, defaults: false }, 'object');
      const valid = genValid(r, schema);
      const c: GenCase = { id, op, schema, object: mutate(r, structuredCloneJson(valid), schema), isResourceRoot: false };
      if (r.chance(0.3)) c.oldObject = r.chance(0.5) ? valid : mutate(r, structuredCloneJson(valid), schema);
      return c;
    }
    case 'crd': {
      const schema = genRootSchema(r, true);
      if (r.chance(0.2)) breakStructure(r, schema.properties!.spec);
      return { id, op, crd: wrapCRD(schema, { status: r.chance(0.3) }) };
    }
    case 'validate-crd': {
      const schema = genRootSchema(r, true);
      const obj = genValid(r, schema) as Record<string, unknown>;
      Object.assign(obj, { apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name: r.pick(['w', 'w1', 'Bad_Name']) } });
      const c: GenCase = { id, op: 'validate', crd: wrapCRD(schema, { status: r.chance(0.5), scope: r.pick(['Namespaced', 'Cluster']) }), version: 'v1' };
      // Mostly leave apiVersion/kind/metadata alone: a malformed one is refused before validation.
      const meta = { apiVersion: obj.apiVersion, kind: obj.kind, metadata: obj.metadata };
      if (r.chance(0.8)) {
        const body = structuredCloneJson(obj);
        if (r.chance(0.85)) for (const k of Object.keys(meta)) delete body[k];
        c.object = { ...structuredCloneJson(meta), ...(mutate(r, body, schema) as Record<string, unknown>) };
      } else c.object = obj;
      if (r.chance(0.25)) c.oldObject = obj;
      return c;
    }
    case 'validate-update':
      return genCustomResourceUpdate(r, id);
    case 'crd-update':
      return genCustomResourceDefinitionUpdate(r, id);
    default: {
      // The root of a cel-compile schema is a resource root (as in a CRD), where kind/apiVersion/
      // metadata are fixed by the API server: leave them out rather than generate invalid CRDs.
      const schema = genSchema(r, { depth: 3, rules: true, defaults: false }, 'object');
      for (const k of ['kind', 'apiVersion', 'metadata']) delete schema.properties?.[k];
      if (schema.required) schema.required = schema.required.filter((k) => k !== 'kind');
      return { id, op: 'cel-compile', schema };
    }
  }
}
