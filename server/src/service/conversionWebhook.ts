/**
 * Checking a conversion webhook the user runs, as the API server would use it: the custom resources of
 * one CRD are sent in a ConversionReview (the CRD's conversionReviewVersions decide v1 or v1beta1), the
 * answer gets the API server's checks (engine/crd/conversionreview.ts), and each converted object is
 * then created at the target version (pruned, defaulted, validated by that version's schema). The HTTP
 * call is the caller's (`post`): this module does no IO. Used by `crd-yaml convert` and the editor command.
 */
import type { FieldError } from '../engine/field';
import { checkConversionReviewResponse, conversionReviewRequest, formatGroupVersionKind, objectsToConvert, type SentConversionReview } from '../engine/crd/conversionreview';
import { isJSONObject } from '../engine/crd/json';
import { migrateToV1 } from '../engine/crd/migrate';
import { validateCustomResource } from '../engine/customresource/strategy';
import { parseJSONLossless, stringifyJSONLossless } from '../engine/json/lossless';
import type { WebhookAnswer } from '../net/webhook';

/** A message about the check, and the object (index in the input list) it is about, when one. */
export interface ConversionCheckError {
  message: string;
  object?: number;
}

/** One converted object and what the API server says when it is created at the target version. */
export interface ConvertedObject {
  /** Index of the object in the input list. */
  source: number;
  /** The converted object (metadata restored as the API server restores it). */
  object: unknown;
  /** The object after the create path at the target version (pruned, defaulted). */
  created: unknown;
  errors: FieldError[];
  warnings: FieldError[];
}

export interface ConversionCheckResult {
  /** `group/version` the objects were converted to (empty when `to` was not understood). */
  desiredAPIVersion: string;
  reviewVersion?: 'v1' | 'v1beta1';
  /** Input indexes of the objects sent (the others already had the desired apiVersion). */
  sent: number[];
  /** Problems with the request or the answer: the API server's messages where it has one. */
  errors: ConversionCheckError[];
  /** Present when the webhook's answer passed every check. */
  converted?: ConvertedObject[];
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * Sends `objects` (custom resources of the CRD) to the webhook through `post` and checks the answer.
 * `to` is a version name (`v1`) or an apiVersion (`example.com/v1`); `uid` identifies the request.
 */
export async function checkConversionWebhook(
  crdInput: unknown,
  objects: readonly unknown[],
  to: string,
  uid: string,
  post: (body: string) => Promise<WebhookAnswer>,
): Promise<ConversionCheckResult> {
  // A v1beta1 CRD is read as the API server would hold it.
  const crd = migrateToV1(crdInput)?.crd ?? crdInput;
  const spec = isJSONObject(crd) && isJSONObject(crd.spec) ? crd.spec : {};
  const group = str(spec.group);
  const versions = Array.isArray(spec.versions) ? spec.versions.filter(isJSONObject).map((v) => str(v.name)) : [];
  const desiredAPIVersion = to.includes('/') ? to : group ? `${group}/${to}` : to;
  const result: ConversionCheckResult = { desiredAPIVersion, sent: [], errors: [] };
  const validGV = (apiVersion: string) => versions.some((v) => `${group}/${v}` === apiVersion);

  // crConverter.ConvertToVersion: both sides must be versions of the CRD.
  if (!validGV(desiredAPIVersion)) {
    result.errors.push({ message: `request to convert CR to an invalid group/version: ${desiredAPIVersion}` });
    return result;
  }
  const conv = isJSONObject(spec.conversion) ? spec.conversion : {};
  if (str(conv.strategy) !== 'Webhook') {
    result.errors.push({
      message: `the CustomResourceDefinition's conversion strategy is ${str(conv.strategy) || 'None'}: the API server converts by changing apiVersion only and calls no webhook (set spec.conversion.strategy: Webhook)`,
    });
    return result;
  }
  const toSend = objectsToConvert(objects, desiredAPIVersion);
  result.sent = toSend.map((o) => objects.indexOf(o));
  const isList = toSend.length > 1;
  toSend.forEach((o, i) => {
    const apiVersion = isJSONObject(o) ? str(o.apiVersion) : '';
    if (validGV(apiVersion)) return;
    result.errors.push({
      message: isList ? `request to convert CR list failed, list index ${i} has invalid group/version: ${apiVersion}` : `request to convert CR from an invalid group/version: ${apiVersion}`,
      object: result.sent[i],
    });
  });
  if (result.errors.length) return result;
  if (toSend.length === 0) {
    result.converted = [];
    return result;
  }

  const webhook = isJSONObject(conv.webhook) ? conv.webhook : {};
  const reviewVersions = Array.isArray(webhook.conversionReviewVersions) ? webhook.conversionReviewVersions.map(str) : [];
  const request = conversionReviewRequest(reviewVersions, toSend, desiredAPIVersion, uid);
  if (request.error !== undefined) {
    result.errors.push({ message: request.error });
    return result;
  }
  result.reviewVersion = request.reviewVersion;
  const first = isJSONObject(toSend[0]) ? toSend[0] : {};
  const kind = str(first.kind);
  const sent: SentConversionReview = {
    reviewVersion: request.reviewVersion,
    uid,
    desiredAPIVersion,
    objects: toSend,
    inApiVersion: str(first.apiVersion),
    inKind: isList ? `${kind}List` : kind,
    isList,
  };
  const gvk = formatGroupVersionKind(sent.inApiVersion, sent.inKind);
  const answer = await post(stringifyJSONLossless(request.review));
  if ('error' in answer) {
    result.errors.push({ message: `conversion webhook for ${gvk} failed: ${answer.error}` });
    return result;
  }
  if (answer.status < 200 || answer.status > 299) {
    result.errors.push({ message: `conversion webhook for ${gvk} failed: ${httpStatusError(answer.status, answer.body)}` });
    return result;
  }
  let parsed: unknown;
  try {
    parsed = parseJSONLossless(answer.body, { markIntegralFloats: true });
  } catch (e) {
    result.errors.push({ message: `conversion webhook for ${gvk} failed: ${(e as Error).message}` });
    return result;
  }
  const outcome = checkConversionReviewResponse(sent, parsed, answer.body);
  result.errors.push(...outcome.errors.map((e) => ({ message: e.message, ...(e.index !== undefined ? { object: result.sent[e.index] } : {}) })));
  if (!outcome.objects) return result;
  result.converted = outcome.objects.map((object, i) => {
    const created = validateCustomResource(crd, object);
    return { source: result.sent[i], object, created: created.object, errors: created.errors, warnings: created.warnings };
  });
  return result;
}

/** client-go's words for an HTTP error status without a Status body (rest.Request.transformResponse). */
function httpStatusError(status: number, body: string): string {
  try {
    const s = JSON.parse(body);
    if (isJSONObject(s) && s.kind === 'Status' && typeof s.message === 'string') return s.message;
  } catch {
    // not a Status: fall through
  }
  const text = body.trim();
  switch (status) {
    case 400:
      return 'the server rejected our request for an unknown reason' + (text ? ` (post ${text})` : '');
    case 401:
      return 'Unauthorized';
    case 403:
      return 'Forbidden';
    case 404:
      return 'the server could not find the requested resource';
    default:
      return text ? `an error on the server ("${text}") has prevented the request from succeeding` : `the server responded with the status code ${status} but did not return more information`;
  }
}
