/**
 * ObjectMeta coercion (apiextensions-apiserver pkg/apiserver/schema/objectmeta/coerce.go and
 * algorithm.go): the API server decodes the `metadata` of a resource root and of every embedded resource
 * into metav1.ObjectMeta and writes it back. That round trip drops unknown keys (case-sensitively:
 * `Name` is unknown), drops empty values of `omitempty` fields, normalises timestamps to RFC 3339 in UTC,
 * and fails on wrongly typed known fields with Go's encoding/json message. `apiVersion` and `kind` of
 * embedded resources must be strings.
 *
 * This is a separate step from pruning: pruneUnknownFields keeps `metadata` as it is.
 */
import { errorMessage, FieldPath, invalid, type FieldError } from '../field';
import { IntegralFloat } from '../json/lossless';
import { newStructural, toStructural } from '../schema/convert';
import { propertyOf, type Structural } from '../schema/model';
import type { JSONSchemaProps } from '../schema/types';
import { deepCopyJSON, hasOwn, isJSONObject, isTooDeep, setOwn } from '../json/values';
import type { PrunedField } from './algorithm';

export interface CoerceObjectMetaOptions {
  /** The value is a whole resource: its own apiVersion, kind and metadata are coerced too. */
  isResourceRoot: boolean;
  /**
   * Drop known fields of the wrong type instead of failing (Go's DropInvalidFields, used when reading
   * from storage). Requests (create, update) do not drop: the first bad field is an error.
   */
  dropInvalidFields?: boolean;
  /**
   * The result may share with the input what coercion leaves as it is, for a caller that changes neither
   * (PruneOptions.share): with no embedded resource below the root, only the root is copied.
   */
  share?: boolean;
}

export interface CoerceObjectMetaResult {
  /** The coerced copy (unchanged parts copied too); when `error` is set, the input as far as coerced. */
  object: unknown;
  /** The unknown metadata fields that were dropped (paths as `metadata.foo`, `spec.template.metadata.foo`). */
  pruned: PrunedField[];
  /** Go's first coercion error: `field.Invalid(<path>.metadata | .apiVersion | .kind, value, message)`. */
  error?: FieldError;
  /**
   * The error as the API server's decoder returns it: for the root's own metadata the bare decoding
   * message (Go decodes it with GetObjectMeta, no field path), otherwise errorMessage(error). A create
   * fails with `InternalError` at "" whose detail is `decoding failed: <errorText>`.
   */
  errorText?: string;
}

/**
 * objectmeta.Coerce on a copy: prune unknown fields inside `metadata` of the root (when isResourceRoot)
 * and of every x-kubernetes-embedded-resource, and check the types of apiVersion, kind and metadata.
 * Unlike Go at the root, a zero `creationTimestamp` is never written back as `null`. Never throws.
 */
export function coerceObjectMeta(obj: unknown, schema: JSONSchemaProps, opts: CoerceObjectMetaOptions): CoerceObjectMetaResult {
  const conv = newStructural(schema);
  if (conv.tooDeep) return { object: obj, pruned: [] };
  return coerceObjectMetaStructural(obj, conv.structural, opts);
}

/** coerceObjectMeta on an already converted structural schema. */
export function coerceObjectMetaStructural(obj: unknown, s: Structural | undefined, opts: CoerceObjectMetaOptions): CoerceObjectMetaResult {
  if (opts.isResourceRoot) {
    const base = s ?? toStructural({});
    if (base.xEmbeddedResource) s = base;
    else {
      s = embeddedRoots.get(base);
      if (!s) embeddedRoots.set(base, (s = { ...base, xEmbeddedResource: true }));
    }
  }
  const ctx: Ctx = { drop: opts.dropInvalidFields === true, pruned: [] };
  let object: unknown;
  try {
    // Coercion changes resource roots only (their apiVersion, kind and metadata, replaced or removed).
    object = opts.share && s && isJSONObject(obj) && !embeddedBelow(s) ? { ...obj } : deepCopyJSON(obj);
    coerce(FieldPath.root(), object, s, ctx);
  } catch (e) {
    // input nested too deeply to recurse through: returned as it is, not coerced
    if (isTooDeep(e)) return { object: obj, pruned: [] };
    throw e;
  }
  ctx.pruned.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const res: CoerceObjectMetaResult = { object, pruned: ctx.pruned };
  if (ctx.error) {
    res.error = ctx.error;
    res.errorText = ctx.errorText ?? errorMessage(ctx.error);
  }
  return res;
}

/** The root schema marked embedded, one per schema (not copied for every object coerced). */
const embeddedRoots = new WeakMap<Structural, Structural>();

const embedded = new WeakMap<Structural, boolean>();

/** Whether a node below s (a property, additionalProperties or items, at any depth) is an embedded resource. */
function embeddedBelow(s: Structural): boolean {
  let r = embedded.get(s);
  if (r !== undefined) return r;
  // A node met again while it is looked at (a cyclic schema) counts as embedded: the whole is copied.
  embedded.set(s, true);
  const at = (c: Structural | undefined) => c !== undefined && (c.xEmbeddedResource === true || embeddedBelow(c));
  r = at(s.items) || at(s.additionalProperties?.structural) || (s.properties !== undefined && Object.values(s.properties).some(at));
  embedded.set(s, r);
  return r;
}

interface Ctx {
  drop: boolean;
  pruned: PrunedField[];
  error?: FieldError;
  errorText?: string;
}

/** Go's coercer.coerce, in place on our own copy; stops at the first error. */
function coerce(pth: FieldPath, x: unknown, s: Structural | undefined, ctx: Ctx): void {
  if (!s || ctx.error) return;
  if (isJSONObject(x)) {
    // the API server decodes the root's metadata before anything else (customresource_handler.go apply)
    const keys = Object.keys(x);
    const at = pth.isRoot() && s.xEmbeddedResource ? keys.indexOf('metadata') : -1;
    if (at > 0) {
      keys.copyWithin(1, 0, at);
      keys[0] = 'metadata';
    }
    for (const k of keys) {
      if (ctx.error) return;
      const v = x[k];
      if (s.xEmbeddedResource) {
        if (k === 'apiVersion' || k === 'kind') {
          if (typeof v !== 'string') {
            if (ctx.drop) delete x[k];
            else return void (ctx.error = invalid(pth.child(k), v, 'must be a string'));
          }
        } else if (k === 'metadata') {
          const r = roundTripObjectMeta(v, pth.child('metadata'), ctx.drop);
          ctx.pruned.push(...r.unknown);
          if (r.error !== undefined) {
            if (!ctx.drop) {
              ctx.error = invalid(pth.child('metadata'), v, r.error);
              if (pth.isRoot()) ctx.errorText = r.error;
              return;
            }
          } else setOwn(x, k, r.value);
        }
      }
      const prop = propertyOf(s.properties, k);
      if (prop) coerce(pth.child(k), x[k], prop, ctx);
      else if (s.additionalProperties) coerce(pth.key(k), x[k], s.additionalProperties.structural, ctx);
    }
  } else if (Array.isArray(x)) {
    x.forEach((v, i) => coerce(pth.index(i), v, s.items, ctx));
  }
}

// ---- metav1.ObjectMeta as encoding/json sees it ----

type Kind =
  | { t: 'string'; omitempty: boolean; goType?: string }
  | { t: 'int64'; ptr: boolean }
  | { t: 'bool' }
  | { t: 'time'; ptr: boolean }
  | { t: 'mapString' }
  | { t: 'stringList' }
  | { t: 'raw' }
  | { t: 'structList'; struct: StructSpec };

interface StructSpec {
  /** Go type name as encoding/json prints it in errors (`v1.OwnerReference`). */
  goType: string;
  fields: Record<string, Kind>;
}

const S: Kind = { t: 'string', omitempty: true };
const S_REQUIRED: Kind = { t: 'string', omitempty: false };

const ownerReference: StructSpec = {
  goType: 'v1.OwnerReference',
  fields: { apiVersion: S_REQUIRED, kind: S_REQUIRED, name: S_REQUIRED, uid: { t: 'string', omitempty: false, goType: 'types.UID' }, controller: { t: 'bool' }, blockOwnerDeletion: { t: 'bool' } },
};

const managedFieldsEntry: StructSpec = {
  goType: 'v1.ManagedFieldsEntry',
  fields: { manager: S, operation: S, apiVersion: S, time: { t: 'time', ptr: true }, fieldsType: S, fieldsV1: { t: 'raw' }, subresource: S },
};

const objectMeta: StructSpec = {
  goType: 'v1.ObjectMeta',
  fields: {
    name: S,
    generateName: S,
    namespace: S,
    selfLink: S,
    uid: { t: 'string', omitempty: true, goType: 'types.UID' },
    resourceVersion: S,
    generation: { t: 'int64', ptr: false },
    creationTimestamp: { t: 'time', ptr: false },
    deletionTimestamp: { t: 'time', ptr: true },
    deletionGracePeriodSeconds: { t: 'int64', ptr: true },
    labels: { t: 'mapString' },
    annotations: { t: 'mapString' },
    ownerReferences: { t: 'structList', struct: ownerReference },
    finalizers: { t: 'stringList' },
    managedFields: { t: 'structList', struct: managedFieldsEntry },
  },
};

const goTypeOf = (k: Kind): string => {
  switch (k.t) {
    case 'string':
      return k.goType ?? 'string';
    case 'int64':
      return 'int64';
    case 'bool':
      return 'bool';
    case 'time':
      return 'string';
    case 'mapString':
      return 'map[string]string';
    case 'stringList':
      return '[]string';
    case 'raw':
      return 'v1.FieldsV1';
    case 'structList':
      return `[]${k.struct.goType}`;
  }
};

/** encoding/json's name for the JSON kind of a value in UnmarshalTypeError. */
function jsonKind(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number' || typeof v === 'bigint' || v instanceof IntegralFloat) return 'number';
  return 'object';
}

/**
 * A decoding error. encoding/json keeps the first type mismatch and decodes on ("saved"), but an error
 * from a custom unmarshaler (metav1.Time) stops decoding at once and wins ("fatal").
 */
class DecodeError extends Error {
  constructor(
    message: string,
    readonly fatal = false,
  ) {
    super(message);
  }
}

interface DecodeState {
  saved?: DecodeError;
}

/** Keep the first type mismatch, as encoding/json's saveError does; the field decodes to nothing. */
function save(st: DecodeState, e: DecodeError): undefined {
  st.saved ??= e;
  return undefined;
}

interface RoundTrip {
  value?: Record<string, unknown>;
  error?: string;
  unknown: PrunedField[];
}

/**
 * GetObjectMeta + SetObjectMeta: decode metadata into ObjectMeta and encode it back. With dropInvalid,
 * fields that fail to decode are dropped one by one (Go's best-effort path).
 */
function roundTripObjectMeta(v: unknown, metaPath: FieldPath, dropInvalid: boolean): RoundTrip {
  const unknown: PrunedField[] = [];
  if (v === null) return { value: {}, unknown };
  if (!isJSONObject(v)) {
    const msg = `json: cannot unmarshal ${jsonKind(v)} into Go value of type v1.ObjectMeta`;
    // Go's best-effort path gives up on a non-object and keeps it as it is
    return dropInvalid ? { error: `invalid metadata: expected object, got ${goKind(v)}`, unknown } : { error: msg, unknown };
  }
  const out: Record<string, unknown> = {};
  let firstSaved: DecodeError | undefined;
  // One decoding state for the fields, cleared for each (a field's first type mismatch is its own).
  const st: DecodeState = {};
  // Go marshals the map with sorted keys, so errors are met in sort order
  for (const k of sortedKeys(v)) {
    const kind = hasOwn(objectMeta.fields, k) ? objectMeta.fields[k] : undefined;
    if (!kind) {
      unknown.push(prunedAt(metaPath.child(k)));
      continue;
    }
    st.saved = undefined;
    let enc: unknown;
    try {
      enc = decodeField(v[k], kind, 'ObjectMeta', FIELD_STACKS[k], metaPath, k, unknown, st);
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      if (!dropInvalid) return { error: e.message, unknown };
      continue;
    }
    if (st.saved) {
      firstSaved ??= st.saved;
      continue;
    }
    if (enc !== undefined) setOwn(out, k, enc);
  }
  if (firstSaved && !dropInvalid) return { error: firstSaved.message, unknown };
  return { value: out, unknown };
}

/**
 * Object.keys(o) in sort order (Go marshals maps with sorted keys): in place by insertion for the few keys
 * metadata and its maps have (Array.prototype.sort allocates its work buffers, about 1 kB, for any array).
 */
function sortedKeys(o: object): string[] {
  const keys = Object.keys(o);
  if (keys.length > 32) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i];
    let j = i - 1;
    while (j >= 0 && keys[j] > k) {
      keys[j + 1] = keys[j];
      j--;
    }
    keys[j + 1] = k;
  }
  return keys;
}

function goKind(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  if (typeof v === 'number' && !Number.isInteger(v)) return 'float64';
  if (v instanceof IntegralFloat) return 'float64';
  return 'int64';
}

function prunedAt(p: FieldPath): PrunedField {
  return { path: p.toString(), segments: p.segments(), reason: 'unknown field' };
}

function typeError(v: unknown, kind: Kind | string, struct: string, stack: string[], value?: string): DecodeError {
  const goType = typeof kind === 'string' ? kind : goTypeOf(kind);
  return new DecodeError(`json: cannot unmarshal ${value ?? jsonKind(v)} into Go struct field ${struct}.${stack.join('.')} of type ${goType}`);
}

/** Each ObjectMeta field's decoding stack (its name alone), made once: errors name it, nothing changes it. */
const FIELD_STACKS: Record<string, string[]> = Object.fromEntries(Object.keys(objectMeta.fields).map((k) => [k, [k]]));

/**
 * Decode one field (`key` of the value at `parent`) and return its re-encoded value, or undefined when
 * omitted (omitempty / nil).
 */
function decodeField(v: unknown, kind: Kind, struct: string, stack: string[], parent: FieldPath, key: string | number, unknown: PrunedField[], st: DecodeState): unknown {
  switch (kind.t) {
    case 'string':
      if (v === null) return kind.omitempty ? undefined : '';
      if (typeof v !== 'string') return save(st, typeError(v, kind, struct, stack));
      return v === '' && kind.omitempty ? undefined : v;
    case 'int64': {
      if (v === null) return undefined;
      const n = v instanceof IntegralFloat ? v.value : v;
      if (typeof n === 'bigint') {
        if (n < -(2n ** 63n) || n >= 2n ** 63n) return save(st, typeError(v, kind, struct, stack, `number ${n}`));
        return n === 0n && !kind.ptr ? undefined : n;
      }
      if (typeof n !== 'number') return save(st, typeError(v, kind, struct, stack));
      if (!Number.isInteger(n)) return save(st, typeError(v, kind, struct, stack, `number ${n}`));
      return n === 0 && !kind.ptr ? undefined : n;
    }
    case 'bool':
      if (v === null) return undefined;
      if (typeof v !== 'boolean') return save(st, typeError(v, kind, struct, stack));
      return v;
    case 'time': {
      if (v === null) return undefined;
      // metav1.Time's own UnmarshalJSON fails: that error stops decoding
      if (typeof v !== 'string') throw new DecodeError(typeError(v, kind, struct, stack).message, true);
      return formatRFC3339(v);
    }
    case 'mapString': {
      if (v === null) return undefined;
      if (!isJSONObject(v)) return save(st, typeError(v, kind, struct, stack));
      const out: Record<string, unknown> = {};
      for (const k of sortedKeys(v)) {
        const e = v[k];
        if (e !== null && typeof e !== 'string') return save(st, typeError(e, 'string', struct, stack));
        setOwn(out, k, e ?? '');
      }
      return Object.keys(out).length ? out : undefined;
    }
    case 'stringList': {
      if (v === null) return undefined;
      if (!Array.isArray(v)) return save(st, typeError(v, kind, struct, stack));
      const out = v.map((e) => {
        if (e !== null && typeof e !== 'string') return save(st, typeError(e, 'string', struct, stack));
        return e ?? '';
      });
      return out.length ? out : undefined;
    }
    case 'raw':
      return v === null ? undefined : deepCopyJSON(v);
    case 'structList': {
      if (v === null) return undefined;
      if (!Array.isArray(v)) return save(st, typeError(v, kind, struct, stack));
      const path = typeof key === 'number' ? parent.index(key) : parent.child(key);
      const out = v.map((e, i) => {
        if (e !== null && !isJSONObject(e)) return save(st, typeError(e, kind.struct.goType, struct, stack));
        const src = e ?? {};
        const enc: Record<string, unknown> = {};
        const structName = kind.struct.goType.replace(/^v1\./, '');
        for (const k of Object.keys(kind.struct.fields)) {
          if (!hasOwn(src, k)) {
            const fk = kind.struct.fields[k];
            if (fk.t === 'string' && !fk.omitempty) setOwn(enc, k, '');
            continue;
          }
          const r = decodeField(src[k], kind.struct.fields[k], structName, [...stack, k], path.index(i), k, unknown, st);
          if (r !== undefined) setOwn(enc, k, r);
        }
        for (const k of Object.keys(src)) if (!hasOwn(kind.struct.fields, k)) unknown.push(prunedAt(path.index(i).child(k)));
        return enc;
      });
      return out.length ? out : undefined;
    }
  }
}

/**
 * metav1.Time: Go's time.Parse(time.RFC3339, s) (its error messages too), re-encoded as UTC RFC 3339
 * with second precision, as metav1.Time marshals.
 */
function formatRFC3339(avalue: string): string {
  const LAYOUT = '2006-01-02T15:04:05Z07:00';
  const q = (x: string) => JSON.stringify(x);
  const cannot = (elem: string, layoutElem: string) => new DecodeError(`parsing time ${q(avalue)} as ${q(LAYOUT)}: cannot parse ${q(elem)} as ${q(layoutElem)}`, true);
  const outOfRange = (what: string) => new DecodeError(`parsing time ${q(avalue)}: ${what} out of range`, true);
  const isDigit = (x: string, i: number) => i < x.length && x[i] >= '0' && x[i] <= '9';
  let value = avalue;
  // getnum: one or two digits (exactly two when fixed)
  const getnum = (fixed: boolean, layoutElem: string): number => {
    if (!isDigit(value, 0)) throw cannot(value, layoutElem);
    if (!isDigit(value, 1)) {
      if (fixed) throw cannot(value, layoutElem);
      const n = +value[0];
      value = value.slice(1);
      return n;
    }
    const n = +value.slice(0, 2);
    value = value.slice(2);
    return n;
  };
  const lit = (c: string) => {
    if (value[0] !== c) throw cannot(value, c);
    value = value.slice(1);
  };
  if (value.length < 4 || !isDigit(value, 0) || !/^\d{4}/.test(value)) throw cannot(value, '2006');
  const year = +value.slice(0, 4);
  value = value.slice(4);
  lit('-');
  const month = getnum(true, '01');
  if (month < 1 || month > 12) throw outOfRange('month');
  lit('-');
  const day = getnum(true, '02');
  lit('T');
  const hour = getnum(false, '15');
  if (hour >= 24) throw outOfRange('hour');
  lit(':');
  const min = getnum(true, '04');
  if (min >= 60) throw outOfRange('minute');
  lit(':');
  const sec = getnum(true, '05');
  if (sec >= 60) throw outOfRange('second');
  if (value.length >= 2 && (value[0] === '.' || value[0] === ',') && isDigit(value, 1)) {
    let n = 2;
    while (isDigit(value, n)) n++;
    value = value.slice(n);
  }
  let offsetMin = 0;
  if (value[0] === 'Z') value = value.slice(1);
  else {
    const hold = value;
    if (value.length < 6 || value[3] !== ':' || (value[0] !== '+' && value[0] !== '-') || !/^\d\d$/.test(value.slice(1, 3)) || !/^\d\d$/.test(value.slice(4, 6))) {
      throw cannot(hold, 'Z07:00');
    }
    const hr = +value.slice(1, 3);
    const mm = +value.slice(4, 6);
    if (hr > 24) throw outOfRange('time zone offset hour');
    if (mm > 60) throw outOfRange('time zone offset minute');
    offsetMin = (value[0] === '-' ? -1 : 1) * (hr * 60 + mm);
    value = value.slice(6);
  }
  if (value.length > 0) throw new DecodeError(`parsing time ${q(avalue)}: extra text: ${q(value)}`, true);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const daysIn = month === 2 ? (leap ? 29 : 28) : new Date(Date.UTC(2001, month, 0)).getUTCDate();
  if (day < 1 || day > daysIn) throw new DecodeError(`parsing time ${q(avalue)}: day out of range`, true);
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, min - offsetMin, sec, 0);
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
