/**
 * The API server's side of a conversion webhook call (apiextensions-apiserver
 * pkg/apiserver/conversion/webhook_converter.go): which objects are sent, the ConversionReview request
 * (apiextensions.k8s.io/v1 or v1beta1, the first of the CRD's conversionReviewVersions it knows), and
 * the checks on the response with the API server's error messages, ending with the converted objects
 * as the server keeps them (metadata restored from the originals except labels and annotations).
 * No IO: the caller sends the request and passes the parsed response body.
 */
import { validateAnnotations, validateLabels } from '../objectmeta/objectmeta';
import { errorMessage, FieldPath, type FieldError } from '../field';
import { isJSONObject, deepCopyJSON } from '../json/values';
import { goQuote } from '../json/go';

/** One of the API server's messages about a webhook's answer. */
export interface ConversionReviewError {
  message: string;
  /** The object (index in the objects sent) the message is about, when it is about one. */
  index?: number;
}

/** The ConversionReview versions the API server speaks, in its order of preference per the CRD's list. */
export type ConversionReviewVersion = 'v1' | 'v1beta1';

/** A request to send, or the API server's reason for not sending one. */
export type ConversionReviewRequest = { review: Record<string, unknown>; reviewVersion: ConversionReviewVersion; error?: undefined } | { error: string; review?: undefined };

/** What the API server makes of a webhook's answer: the converted objects, or its error messages. */
export interface ConversionReviewOutcome {
  /** The converted objects (metadata restored), in request order; absent when the response as a whole is rejected. */
  objects?: unknown[];
  /**
   * The API server's error messages, with the index (in the objects sent) of the object a message is
   * about. The server stops at the first; here every object is checked, each message being what the
   * server would say if that object were the first wrong one.
   */
  errors: ConversionReviewError[];
}

/** schema.GroupVersionKind.String(): `group/version, Kind=kind` (`/v1, Kind=X` for the core group). */
export function formatGroupVersionKind(apiVersion: string, kind: string): string {
  const { group, version } = splitApiVersion(apiVersion);
  return `${group}/${version}, Kind=${kind}`;
}

function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/');
  return i < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

/** schema.GroupVersion.String() of a parsed apiVersion (the group is dropped when empty). */
function groupVersionString(apiVersion: string): string {
  const { group, version } = splitApiVersion(apiVersion);
  return group === '' ? version : `${group}/${version}`;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** getObjectsToConvert: the objects whose apiVersion differs from the desired one (the others stay as they are). */
export function objectsToConvert(objects: readonly unknown[], desiredAPIVersion: string): unknown[] {
  return objects.filter((o) => !isJSONObject(o) || str(o.apiVersion) !== desiredAPIVersion);
}

/** createConversionReviewObjects: the review in the first of the CRD's conversionReviewVersions the server knows. */
export function conversionReviewRequest(conversionReviewVersions: readonly string[], objects: readonly unknown[], desiredAPIVersion: string, uid: string): ConversionReviewRequest {
  for (const v of conversionReviewVersions) {
    if (v !== 'v1' && v !== 'v1beta1') continue;
    return {
      reviewVersion: v,
      review: { kind: 'ConversionReview', apiVersion: `apiextensions.k8s.io/${v}`, request: { uid, desiredAPIVersion, objects: objects.map((o) => deepCopyJSON(o)) } },
    };
  }
  return { error: 'no supported conversion review versions' };
}

/** What the checks need to know about the request that was sent. */
export interface SentConversionReview {
  reviewVersion: ConversionReviewVersion;
  uid: string;
  desiredAPIVersion: string;
  /** The objects sent, in order. */
  objects: readonly unknown[];
  /**
   * `apiVersion` and `kind` of what the server converts, printed in its messages: the object for a single
   * object, the list (`<Kind>List`) when several are converted together.
   */
  inApiVersion: string;
  inKind: string;
  /** Several objects sent together, as for a list: the per-object messages name the index. */
  isList: boolean;
}

/** Go's %T of a decoded JSON value. */
function goTypeName(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number' || typeof v === 'bigint') return Number.isInteger(Number(v)) ? 'int64' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** The apimachinery decoder's complaint about a body without apiVersion or kind. */
function missingTypeMeta(o: Record<string, unknown>, body: string): string | undefined {
  if (str(o.kind) === '') return `Object 'Kind' is missing in '${body}'`;
  if (str(o.apiVersion) === '') return `Object 'apiVersion' is missing in '${body}'`;
  return undefined;
}

/**
 * Checks a webhook's response as the API server does (getConvertedObjectsFromResponse, the object
 * count, then per object: decodable, groupVersion, kind, validateConvertedObject, restoreObjectMeta).
 * `body` is the response body as text (for the decoder's messages); `response` its parsed value.
 */
export function checkConversionReviewResponse(sent: SentConversionReview, response: unknown, body: string): ConversionReviewOutcome {
  const gvk = formatGroupVersionKind(sent.inApiVersion, sent.inKind);
  const failed = (msg: string): ConversionReviewOutcome => ({ errors: [{ message: `conversion webhook for ${gvk} failed: ${msg}` }] });
  if (!isJSONObject(response)) return failed(`the response is not a JSON object: ${oneLine(body)}`);
  const missing = missingTypeMeta(response, oneLine(body));
  if (missing) return failed(missing);
  const expectedGVK = formatGroupVersionKind(`apiextensions.k8s.io/${sent.reviewVersion}`, 'ConversionReview');
  if (sent.reviewVersion === 'v1') {
    const got = formatGroupVersionKind(str(response.apiVersion), str(response.kind));
    if (got !== expectedGVK) return failed(`expected webhook response of ${expectedGVK}, got ${got}`);
  }
  const r = response.response;
  if (r === undefined || r === null) return failed('no response provided');
  if (!isJSONObject(r)) return failed(`decoding the ConversionReview: response must be an object, not ${goTypeName(r)}`);
  // v1beta1 processing did not verify the uid: the API server skips it for compatibility.
  if (sent.reviewVersion === 'v1' && str(r.uid) !== sent.uid) return failed(`expected response.uid=${goQuote(sent.uid)}, got ${goQuote(str(r.uid))}`);
  const result = isJSONObject(r.result) ? r.result : {};
  if (result.status !== 'Success') {
    if (str(result.message).length > 0) return failed(str(result.message));
    return failed(`response.result.status was '${str(result.status)}', not 'Success'`);
  }
  const converted = Array.isArray(r.convertedObjects) ? r.convertedObjects : [];
  if (converted.length !== sent.objects.length) {
    return { errors: [{ message: `conversion webhook for ${gvk} returned ${converted.length} objects, expected ${sent.objects.length}` }] };
  }

  const allErrors: ConversionReviewError[] = [];
  const objects: unknown[] = [];
  const desiredGV = groupVersionString(sent.desiredAPIVersion);
  converted.forEach((out, i) => {
    const fail = (message: string) => allErrors.push({ message, index: i });
    const original = isJSONObject(sent.objects[i]) ? (sent.objects[i] as Record<string, unknown>) : {};
    const invalidObject = (msg: string) =>
      sent.isList ? `conversion webhook for ${gvk} returned invalid converted object at index ${i}: ${msg}` : `conversion webhook for ${gvk} returned invalid object at index 0: ${msg}`;
    if (!isJSONObject(out)) {
      fail(
        sent.isList ? invalidObject(`json: cannot unmarshal ${goTypeName(out)} into Go value of type map[string]interface {}`) : `json: cannot unmarshal ${goTypeName(out)} into Go value of type map[string]interface {}`,
      );
      return;
    }
    const missingMeta = missingTypeMeta(out, JSON.stringify(out));
    if (missingMeta) {
      fail(sent.isList ? invalidObject(missingMeta) : missingMeta);
      return;
    }
    const gotGV = groupVersionString(str(out.apiVersion));
    if (gotGV !== desiredGV) {
      fail(invalidObject(`invalid groupVersion (expected ${desiredGV}, received ${gotGV})`));
      return;
    }
    if (str(out.kind) !== str(original.kind)) {
      fail(invalidObject(`invalid kind (expected ${str(original.kind)}, received ${str(out.kind)})`));
      return;
    }
    const mismatch = validateConvertedObject(original, out);
    if (mismatch) {
      fail(sent.isList ? invalidObject(mismatch) : `conversion webhook for ${gvk} returned invalid object: ${mismatch}`);
      return;
    }
    const restored = restoreObjectMeta(original, out);
    if ('error' in restored) {
      fail(sent.isList ? `conversion webhook for ${gvk} returned invalid metadata in object at index ${i}: ${restored.error}` : `conversion webhook for ${gvk} returned invalid metadata: ${restored.error}`);
      return;
    }
    objects.push(restored.object);
  });
  return allErrors.length ? { errors: allErrors } : { objects, errors: allErrors };
}

function metaString(o: Record<string, unknown>, field: string): string {
  return isJSONObject(o.metadata) ? str(o.metadata[field]) : '';
}

/** validateConvertedObject: kind, name, namespace and uid must not change. */
function validateConvertedObject(original: Record<string, unknown>, out: Record<string, unknown>): string | undefined {
  if (str(original.kind) !== str(out.kind)) return `must have the same kind: ${str(original.kind)} != ${str(out.kind)}`;
  for (const [field, what] of [
    ['name', 'name'],
    ['namespace', 'namespace'],
    ['uid', 'UID'],
  ] as const) {
    const e = metaString(original, field);
    const a = metaString(out, field);
    if (e !== a) return `must have the same ${what}: ${e} != ${a}`;
  }
  return undefined;
}

/** restoreObjectMeta: the original's metadata, with the labels and annotations of the response (validated when changed). */
function restoreObjectMeta(original: Record<string, unknown>, out: Record<string, unknown>): { object: Record<string, unknown> } | { error: string } {
  if (!('metadata' in out)) return { error: 'missing metadata in converted object' };
  const responseMeta = out.metadata;
  if (!isJSONObject(responseMeta)) return { error: `invalid metadata of type ${goTypeName(responseMeta)} in converted object` };
  const object = deepCopyJSON(out);
  const meta: Record<string, unknown> = 'metadata' in original && isJSONObject(original.metadata) ? deepCopyJSON(original.metadata) : {};
  object.metadata = meta;
  for (const fld of ['labels', 'annotations'] as const) {
    const v = responseMeta[fld];
    if (v === undefined || v === null) {
      delete meta[fld];
      continue;
    }
    if (!isJSONObject(v)) return { error: `invalid metadata.${fld} of type ${goTypeName(v)} in converted object` };
    const before = meta[fld];
    if (before !== undefined && before !== null && !isJSONObject(before)) return { error: `invalid metadata.${fld} of type ${goTypeName(before)} in original object` };
    const originalField = isJSONObject(before) ? before : {};
    let changed = Object.keys(originalField).length !== Object.keys(v).length;
    for (const [k, x] of Object.entries(v)) {
      if (typeof x !== 'string') return { error: `metadata.${fld}[${k}] must be a string, but is ${goTypeName(x)} in converted object` };
      if (originalField[k] !== x) changed = true;
    }
    if (changed) {
      // Go names the annotations path `metadata.annotation` here.
      const errs = fld === 'labels' ? validateLabels(v, FieldPath.root('metadata', 'labels')) : validateAnnotations(v, FieldPath.root('metadata', 'annotation'));
      if (errs.length) return { error: aggregate(errs) };
    }
    meta[fld] = v;
  }
  return { object };
}

/** utilerrors.Aggregate.Error(): one message alone, several in brackets, duplicates once. */
function aggregate(errs: FieldError[]): string {
  const msgs = [...new Set(errs.map(errorMessage))];
  return msgs.length === 1 ? msgs[0] : `[${msgs.join(', ')}]`;
}

function oneLine(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 200 ? `${t.slice(0, 200)}...` : t;
}
