/**
 * Validation of the defaults in a structural schema (apiextensions-apiserver
 * pkg/apiserver/schema/defaulting/validation.go ValidateDefaults), for CRD validation.
 *
 * The checks that belong to other packages (OpenAPI value validation, objectmeta.Validate, CEL) are
 * passed in as callbacks, so that this module depends only on the structural model, pruning and
 * ObjectMeta coercion.
 */
import { errorMessage, type FieldPath, internalError, invalid, type FieldError } from '../field';
import { memoAt, rebaseErrors } from '../field/memo';
import { pruneStructural } from '../pruning/algorithm';
import { coerceObjectMetaStructural } from '../pruning/objectmeta';
import { propertyOf, type Structural } from '../schema/model';
import { deepCopyJSON, deepEqualJSON, isJSONObject, isTooDeep } from '../json/values';

/** The schema node whose default is being checked: the structural node and the raw schema it came from. */
export interface DefaultSchemaNode {
  structural: Structural;
  /** The raw openAPIV3Schema node (JSONSchemaProps JSON) at the same place. */
  raw: unknown;
}

export interface DefaultValueValidators {
  /**
   * apiservervalidation.ValidateCustomResource(pth, value, NewSchemaValidatorFromOpenAPI(node)): the
   * OpenAPI value errors of `value` against the node's schema (only that subtree), paths under pth
   * (which ends in `.default`).
   */
  validateValue(pth: FieldPath, value: unknown, node: DefaultSchemaNode): FieldError[];
  /**
   * objectmeta.Validate(pth, obj, schema, isResourceRoot): TypeMeta/ObjectMeta errors of the root (when
   * isResourceRoot) and of embedded resources in obj, whose schema is `node`. pth is null for Go's nil
   * path (errors then print as `metadata.name`, `kind`). Optional: skipped when absent (Go reports e.g.
   * `<pth>.default.kind: Required value` for an embedded default without kind).
   */
  validateObjectMeta?(pth: FieldPath | null, obj: unknown, node: DefaultSchemaNode, isResourceRoot: boolean): FieldError[];
  /**
   * The CEL x-kubernetes-validations of the node (and below) on `value`, as cel.NewValidator(s,
   * isResourceRoot).Validate(pth, s, value, value) does; Go also checks the rules once more without an
   * old object (ratcheting: optionalOldSelf) when the first run passes. Optional: skipped when absent.
   */
  validateCEL?(pth: FieldPath, value: unknown, node: DefaultSchemaNode, isResourceRoot: boolean): FieldError[];
}

/** The pattern work the validators spend from one shared budget (RegexBudget), replayed for memoized subtrees. */
export interface WorkBudget {
  remaining: number;
  spent: number;
}

export interface ValidateDefaultsOptions {
  /** The schema is a resource's root schema (CRD validation passes true). */
  isResourceRoot: boolean;
  /** Defaults must not carry unknown fields (true on create; on update only if the old CRD had none). */
  requirePrunedDefaults: boolean;
  /**
   * The budget the validators spend from, when they share one: subtrees found in the active memo
   * (engine/field/memo.ts) are charged what they spent when computed.
   */
  budget?: WorkBudget;
}

/**
 * ValidateDefaults(pth, s, isResourceRoot, requirePrunedDefaults): every default must be pruned
 * ("must not have unknown fields"), coerce as ObjectMeta/TypeMeta where it is (or is inside) metadata,
 * pass objectmeta validation, the OpenAPI value validation of its own schema node, then its CEL rules.
 * Defaults below additionalProperties are not followed (CRD validation forbids them there).
 * `raw` is the openAPIV3Schema the structural schema was built from. Never throws.
 */
export function validateDefaults(pth: FieldPath, s: Structural | undefined, raw: unknown, opts: ValidateDefaultsOptions, validators: DefaultValueValidators): FieldError[] {
  if (opts.isResourceRoot) {
    const base: Structural = s ?? { description: '', type: '', title: '', nullable: false, xPreserveUnknownFields: false, xEmbeddedResource: false, xIntOrString: false };
    s = base.xEmbeddedResource ? base : { ...base, xEmbeddedResource: true };
  }
  if (!s) return [];
  const errs: FieldError[] = [];
  try {
    walk(pth, s, raw, { structural: s, raw }, [], false, opts.requirePrunedDefaults, validators, errs, opts.budget);
  } catch (e) {
    if (isTooDeep(e)) return [internalError(pth, 'the schema is nested too deeply to validate its defaults')];
    throw e;
  }
  return errs;
}

/** The path of a default inside its surrounding resource (Go's SurroundingObjectFunc as data). */
type Step = { child: string } | { index: true };

const TYPE_META = { apiVersion: 'validation/v1', kind: 'Validation' };

/** f(x) of Go's NewRootObjectFunc().WithTypeMeta(...).Child(...).Index()...: x wrapped up to its resource. */
function surroundingObject(steps: Step[], x: unknown): Record<string, unknown> | undefined {
  let v = x;
  for (let i = steps.length - 1; i >= 0; i--) {
    const st = steps[i];
    v = 'child' in st ? { [st.child]: v } : [v];
  }
  if (!isJSONObject(v)) return undefined;
  if (!('kind' in v)) v.kind = TYPE_META.kind;
  if (!('apiVersion' in v)) v.apiVersion = TYPE_META.apiVersion;
  return v;
}

/** utilerrors.Aggregate's Error(): one message, or `[a, b]` of the distinct messages. */
function aggregate(errs: FieldError[]): string {
  const msgs = [...new Set(errs.map(errorMessage))];
  return msgs.length === 1 ? msgs[0] : `[${msgs.join(', ')}]`;
}

const rawChild = (raw: unknown, key: string): unknown => (isJSONObject(raw) ? raw[key] : undefined);

/** The defaults of a subtree and the pattern work their checks spent. */
interface SubtreeDefaults {
  errors: FieldError[];
  spent: number;
}

function walk(
  pth: FieldPath,
  s: Structural,
  raw: unknown,
  root: DefaultSchemaNode,
  steps: Step[],
  insideMeta: boolean,
  requirePruned: boolean,
  v: DefaultValueValidators,
  errs: FieldError[],
  budget: WorkBudget | undefined,
): void {
  // Outside resource metadata a subtree's answer depends on nothing above it but whether it is the
  // resource root: memoized per node. Metadata defaults are checked against their resource's schema.
  if (insideMeta || !isJSONObject(raw)) {
    walkNode(pth, s, raw, root, steps, insideMeta, requirePruned, v, errs, budget);
    return;
  }
  const isResourceRoot = s === root.structural;
  const spentBefore = budget?.spent ?? 0;
  let computed = false;
  const r = memoAt<SubtreeDefaults>(
    'defaulting.validateDefaults',
    raw,
    `${isResourceRoot ? 'r' : ''}${requirePruned ? 'p' : ''}`,
    pth,
    () => {
      computed = true;
      const out: FieldError[] = [];
      walkNode(pth, s, raw, root, steps, insideMeta, requirePruned, v, out, budget);
      return { errors: out, spent: (budget?.spent ?? 0) - spentBefore };
    },
    (val, from, to) => {
      const moved = rebaseErrors(val.errors, from, to);
      return moved && { errors: moved, spent: val.spent };
    },
  );
  if (!computed && budget) {
    budget.remaining -= r.spent;
    budget.spent += r.spent;
  }
  for (const e of r.errors) errs.push(e);
}

function walkNode(
  pth: FieldPath,
  s: Structural,
  raw: unknown,
  root: DefaultSchemaNode,
  steps: Step[],
  insideMeta: boolean,
  requirePruned: boolean,
  v: DefaultValueValidators,
  errs: FieldError[],
  budget: WorkBudget | undefined,
): void {
  const node: DefaultSchemaNode = { structural: s, raw };
  if (s.xEmbeddedResource) {
    insideMeta = false;
    steps = [];
    root = node;
  }
  const rootSchema = root.structural;
  const isResourceRoot = s === rootSchema;
  if (s.default !== undefined) {
    const dflt = s.default;
    const dpath = pth.child('default');
    if (insideMeta) {
      const obj = surroundingObject(steps, deepCopyJSON(dflt));
      if (obj) {
        const coerced = coerceObjectMetaStructural(obj, rootSchema, { isResourceRoot: true });
        const metaErrs = coerced.error ? [] : (v.validateObjectMeta?.(null, coerced.object, root, true) ?? []);
        let valueErrs: FieldError[] = [];
        if (coerced.error) errs.push(invalid(dpath, dflt, `must result in valid metadata: ${errorMessage(coerced.error)}`));
        else if (metaErrs.length > 0) errs.push(invalid(dpath, dflt, `must result in valid metadata: ${aggregate(metaErrs)}`));
        else if ((valueErrs = v.validateValue(dpath, dflt, node)).length > 0) errs.push(...valueErrs);
        else if (v.validateCEL) errs.push(...v.validateCEL(dpath, dflt, node, isResourceRoot));
      }
    } else {
      if (requirePruned) {
        const pruned = pruneStructural(dflt, s, { isResourceRoot: s.xEmbeddedResource }).object;
        if (!deepEqualJSON(pruned, dflt)) errs.push(invalid(dpath, dflt, 'must not have unknown fields'));
      }
      // Go coerces the default in place, so the later checks see the coerced value
      const coerced = coerceObjectMetaStructural(dflt, s, { isResourceRoot: s.xEmbeddedResource });
      const value = coerced.object;
      let later: FieldError[] = [];
      if (coerced.error) errs.push(rebase(coerced.error, dpath));
      else if ((later = v.validateObjectMeta?.(dpath, value, node, s.xEmbeddedResource) ?? []).length > 0) errs.push(...later);
      else if ((later = v.validateValue(dpath, value, node)).length > 0) errs.push(...later);
      else if (v.validateCEL) errs.push(...v.validateCEL(dpath, value, node, isResourceRoot));
    }
  }
  if (s.items) walk(pth.child('items'), s.items, rawChild(raw, 'items'), root, [...steps, { index: true }], insideMeta, requirePruned, v, errs, budget);
  const rawProps = rawChild(raw, 'properties');
  for (const k of Object.keys(s.properties ?? {})) {
    const sub = propertyOf(s.properties, k)!;
    const subInsideMeta = insideMeta || (s.xEmbeddedResource && (k === 'metadata' || k === 'apiVersion' || k === 'kind'));
    walk(pth.child('properties').key(k), sub, rawChild(rawProps, k), root, [...steps, { child: k }], subInsideMeta, requirePruned, v, errs, budget);
  }
}

/** A coercion error found on the default value alone, re-rooted under `<pth>.default` as Go's pth argument does. */
function rebase(e: FieldError, dpath: FieldPath): FieldError {
  const field = e.field === '' ? dpath.toString() : `${dpath.toString()}.${e.field}`;
  return { ...e, field, segments: [...dpath.segments(), ...(e.segments ?? [])] };
}
