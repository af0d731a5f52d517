/**
 * apiextensions-apiserver pkg/apiserver/schema/objectmeta: TypeMeta and ObjectMeta of embedded resources
 * (x-kubernetes-embedded-resource), and their coercion (unknown metadata fields dropped).
 */
import { invalid, required, type FieldPath, type FieldError } from '../field';
import type { JSONSchemaProps } from '../schema/types';
import { decodeObjectMeta, validateObjectMeta } from './objectmeta';
import { isDNS1035Label, isPathSegmentName, parseGroupVersion } from './names';
import { isJSONObject } from '../json/values';
import { markedBelow } from '../schema/marked';

/**
 * objectmeta.Validate: every embedded resource below obj (and obj itself when isResourceRoot) needs
 * apiVersion and kind, and valid metadata (names checked as path segments).
 */
export function validateEmbeddedResources(pth: FieldPath, obj: unknown, s: JSONSchemaProps | undefined, isResourceRoot: boolean): FieldError[] {
  let schema = s;
  if (isResourceRoot) schema = { ...(s ?? {}), 'x-kubernetes-embedded-resource': true };
  return validate(pth, obj, schema);
}

function validate(pth: FieldPath, x: unknown, s: JSONSchemaProps | undefined): FieldError[] {
  // Nothing to look at where no embedded resource can be below.
  if (!s || !markedBelow(s, 'embeddedResource')) return [];
  const errs: FieldError[] = [];
  if (Array.isArray(x)) {
    const items = isJSONObject(s.items) ? (s.items as JSONSchemaProps) : undefined;
    if (items) x.forEach((v, i) => errs.push(...validate(pth.index(i), v, items)));
  } else if (isJSONObject(x)) {
    if (s['x-kubernetes-embedded-resource'] === true) errs.push(...validateEmbeddedResource(pth, x));
    const props = isJSONObject(s.properties) ? (s.properties as Record<string, JSONSchemaProps>) : {};
    const ap = isJSONObject(s.additionalProperties) ? (s.additionalProperties as JSONSchemaProps) : undefined;
    for (const [k, v] of Object.entries(x)) {
      if (Object.hasOwn(props, k)) errs.push(...validate(pth.child(k), v, props[k]));
      else if (ap) errs.push(...validate(pth.key(k), v, ap));
    }
  }
  return errs;
}

function validateEmbeddedResource(pth: FieldPath, x: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  if (!('apiVersion' in x)) errs.push(required(pth.child('apiVersion'), ''));
  if (!('kind' in x)) errs.push(required(pth.child('kind'), ''));
  for (const [k, v] of Object.entries(x)) {
    if (k === 'apiVersion') {
      if (typeof v !== 'string') errs.push(invalid(pth.child('apiVersion'), v, 'must be a string'));
      else if (v.length === 0) errs.push(invalid(pth.child('apiVersion'), v, 'must not be empty'));
      else {
        const gv = parseGroupVersion(v);
        if (gv.error) errs.push(invalid(pth.child('apiVersion'), v, gv.error));
      }
    } else if (k === 'kind') {
      if (typeof v !== 'string') errs.push(invalid(pth.child('kind'), v, 'must be a string'));
      else if (v.length === 0) errs.push(invalid(pth.child('kind'), v, 'must not be empty'));
      else {
        const msgs = isDNS1035Label(v.toLowerCase());
        if (msgs.length) errs.push(invalid(pth.child('kind'), v, 'may have mixed case, but should otherwise match: ' + msgs.join(',')));
      }
    } else if (k === 'metadata') {
      const d = decodeObjectMeta(v);
      if (d.error !== undefined) errs.push(invalid(pth.child('metadata'), v, d.error));
      else {
        const meta = { ...d.meta! };
        if (typeof meta.name !== 'string' || meta.name.length === 0) meta.name = 'fakename';
        const requiresNamespace = typeof meta.namespace === 'string' && meta.namespace.length > 0;
        errs.push(...validateObjectMeta(meta, requiresNamespace, isPathSegmentName, pth.child('metadata')));
      }
    }
  }
  return errs;
}

/**
 * objectmeta.Coerce (not at the root): in each embedded resource, apiVersion and kind must be strings,
 * and metadata is decoded into ObjectMeta and written back (unknown fields dropped). Changes obj in place;
 * returns the first error, as Go does.
 */
export function coerceEmbeddedResources(pth: FieldPath, x: unknown, s: JSONSchemaProps | undefined): FieldError | undefined {
  if (!s) return undefined;
  if (Array.isArray(x)) {
    const items = isJSONObject(s.items) ? (s.items as JSONSchemaProps) : undefined;
    for (let i = 0; i < x.length; i++) {
      const e = coerceEmbeddedResources(pth.index(i), x[i], items);
      if (e) return e;
    }
    return undefined;
  }
  if (!isJSONObject(x)) return undefined;
  const props = isJSONObject(s.properties) ? (s.properties as Record<string, JSONSchemaProps>) : {};
  const ap = isJSONObject(s.additionalProperties) ? (s.additionalProperties as JSONSchemaProps) : undefined;
  for (const k of Object.keys(x)) {
    const v = x[k];
    if (s['x-kubernetes-embedded-resource'] === true) {
      if ((k === 'apiVersion' || k === 'kind') && typeof v !== 'string') return invalid(pth.child(k), v, 'must be a string');
      if (k === 'metadata') {
        const d = decodeObjectMeta(v);
        if (d.error !== undefined) return invalid(pth.child('metadata'), v, d.error);
        x.metadata = d.meta;
      }
    }
    if (Object.hasOwn(props, k)) {
      const e = coerceEmbeddedResources(pth.child(k), x[k], props[k]);
      if (e) return e;
    } else if (ap) {
      const e = coerceEmbeddedResources(pth.key(k), x[k], ap);
      if (e) return e;
    }
  }
  return undefined;
}
