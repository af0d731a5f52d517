/**
 * Maps each conformance `op` onto the engine entry point that owns it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { FieldError } from '../../server/src/engine/field';
import type { JSONSchemaProps } from '../../server/src/engine/schema/types';
import { validateStructuralSchema } from '../../server/src/engine/schema/structural';
import { pruneUnknownFields } from '../../server/src/engine/pruning/algorithm';
import { defaultCustomResource } from '../../server/src/engine/defaulting/algorithm';
import { validateCustomResourceValue } from '../../server/src/engine/customresource/value';
import { validateCustomResource } from '../../server/src/engine/customresource/strategy';
import { validateCustomResourceDefinition } from '../../server/src/engine/crd/validation';
import { validateCustomResourceDefinitionUpdate } from '../../server/src/engine/crd/update';
import { compileSchemaValidations } from '../../server/src/engine/schema/cel/compile';
import { evaluateConformanceCost, evaluateConformanceExpression } from '../cel/conformance';
import type { ConformanceCase, RunContext } from './runner';

export interface OpOutput {
  errors?: FieldError[];
  object?: unknown;
  value?: unknown;
  error?: string;
}

const crdFileCache = new Map<string, unknown>();

/** The CustomResourceDefinition document of a published CRD file (FORMAT.md "Extension: crdFile"). */
export function loadCrdFile(sharedDir: string, rel: string): unknown {
  const file = path.resolve(sharedDir, rel);
  let crd = crdFileCache.get(file);
  if (crd === undefined) {
    const docs = parseAllDocuments(fs.readFileSync(file, 'utf8'));
    const list = Array.isArray(docs) ? docs : [docs];
    crd = list.map((d) => d.toJS({ maxAliasCount: -1 })).find((o) => o && o.kind === 'CustomResourceDefinition');
    if (!crd) throw new Error(`${rel}: no CustomResourceDefinition document`);
    crdFileCache.set(file, crd);
  }
  return structuredClone(crd);
}

export function runOp(c: ConformanceCase, ctx: RunContext): OpOutput {
  const isResourceRoot = c.isResourceRoot ?? true;
  const crd = c.crd ?? (c.crdFile ? loadCrdFile(ctx.sharedDir, c.crdFile) : undefined);
  switch (c.op) {
    case 'structural':
      return { errors: validateStructuralSchema(c.schema as JSONSchemaProps) };
    case 'prune':
      return { object: pruneUnknownFields(c.object, c.schema as JSONSchemaProps, { isResourceRoot }).object };
    case 'default':
      return { object: defaultCustomResource(c.object, c.schema as JSONSchemaProps, { isResourceRoot }).object };
    case 'validate':
      if (crd !== undefined) {
        return { errors: validateCustomResource(crd, c.object, { version: c.version, oldObject: c.oldObject }).errors };
      }
      return {
        errors: validateCustomResourceValue(c.object, c.schema as JSONSchemaProps, {
          isResourceRoot,
          oldObject: c.oldObject,
        }),
      };
    case 'crd':
      if (c.oldCrd !== undefined) return { errors: validateCustomResourceDefinitionUpdate(crd, c.oldCrd) };
      return { errors: validateCustomResourceDefinition(crd) };
    case 'cel-compile':
      // compatibilityVersion (project extension): a 1.37 server whose new-expression environment is at that version.
      return { errors: compileSchemaValidations(c.schema as JSONSchemaProps, c.compatibilityVersion ? { compatibilityMinor: Number(c.compatibilityVersion.split('.')[1]) } : {}) };
    case 'cel-eval':
      return evaluateConformanceExpression(c.expr ?? '', c.vars ?? {});
    case 'cel-cost':
      // Project extension (test/conformance/found): estimated and runtime cost of a rule, as the oracle's cel-cost.
      return evaluateConformanceCost(c.schema as JSONSchemaProps, c.expr ?? '', c.object, c.isResourceRoot ?? true);
    default:
      throw new Error(`unknown op ${c.op}`);
  }
}
