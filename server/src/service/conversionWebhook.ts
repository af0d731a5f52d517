/**
 * Checking a conversion webhook the user runs, as the API server would use it: the custom resources of
 * one CRD are sent in a ConversionReview (the CRD's conversionReviewVersions decide v1 or v1beta1), the
 * answer gets the API server's checks (engine/crd/conversionreview.ts), and each converted object is
 * then created at the target version (pruned, defaulted, validated by that version's schema). The HTTP
 * call is the caller's (`post`): this module does no IO. Used by `crd-yaml convert` and the editor command
 * (checkDocumentConversion: the custom resources of one file).
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Position, Range } from 'vscode-languageserver-types';
import { errorMessage, type FieldError } from '../engine';
import { checkConversionReviewResponse, conversionReviewRequest, formatGroupVersionKind, objectsToConvert, type SentConversionReview } from '../engine';
import { migrateToV1 } from '../engine';
import { validateCustomResource } from '../engine';
import { parseJSONLossless, stringifyJSONLossless } from '../engine';
import type { WebhookAnswer } from '../net/webhook';
import type { ServiceContext } from './context';
import { headRange } from './findings';
import { engineTarget } from './engineCalls';
import type { KubernetesTarget } from '../engine';
import { resolveCr, roleOf } from './kube';
import { toPlain } from './preview';
import { yamlText } from '../yaml';
import type { YamlDocument, YamlFile } from '../yaml/file';
import { isJSONObject } from '../engine';

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
 * The HTTP call, the caller's: POST the review body; `crdCa` is the CRD's caBundle as PEM (to trust
 * unless the user gave another).
 */
export type PostReview = (body: string, crdCa: string | undefined) => Promise<WebhookAnswer>;

/** The CRD's spec.conversion.webhook.clientConfig.caBundle (base64 PEM), decoded; undefined when it has none. */
export function conversionCaBundle(crd: unknown): string | undefined {
  const v1 = migrateToV1(crd)?.crd ?? crd;
  const spec = isJSONObject(v1) && isJSONObject(v1.spec) ? v1.spec : {};
  const conv = isJSONObject(spec.conversion) ? spec.conversion : {};
  const webhook = isJSONObject(conv.webhook) ? conv.webhook : {};
  const cc = isJSONObject(webhook.clientConfig) ? webhook.clientConfig : {};
  if (typeof cc.caBundle !== 'string' || cc.caBundle.trim() === '') return undefined;
  const pem = Buffer.from(cc.caBundle, 'base64').toString('utf8');
  return pem.includes('-----BEGIN') ? pem : undefined;
}

/**
 * Sends `objects` (custom resources of the CRD) to the webhook through `post` and checks the answer.
 * `to` is a version name (`v1`) or an apiVersion (`example.com/v1`); `uid` identifies the request.
 */
export async function checkConversionWebhook(crdInput: unknown, objects: readonly unknown[], to: string, uid: string, post: PostReview, target: KubernetesTarget = {}): Promise<ConversionCheckResult> {
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
  const answer = await post(stringifyJSONLossless(request.review), conversionCaBundle(crd));
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
    const created = validateCustomResource(crd, object, target);
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

/** A webhook check of the custom resources of one file, in editor terms. */
export interface DocumentConversionCheck {
  /** The CRD the objects belong to (metadata.name). */
  crd: string;
  result: ConversionCheckResult;
  /** Per message, the range of the object it is about (or of the first object sent). */
  messages: Array<{ message: string; severity: 'error' | 'warning'; range: Range }>;
  /** The converted objects as YAML, with what the API server says of each at the target version in comments. */
  yaml: string;
}

/**
 * Sends the custom resources of the file that belong to the CRD of the object at `pos` (the first custom
 * resource of a known CRD when `pos` is in none) to the webhook. Undefined when the file has none.
 */
export async function checkDocumentConversion(ctx: ServiceContext, td: TextDocument, file: YamlFile, pos: Position, to: string, uid: string, post: PostReview): Promise<DocumentConversionCheck | undefined> {
  const crs = file.documents
    .map((doc) => ({ doc, role: roleOf(doc.value) }))
    .filter((x): x is { doc: YamlDocument; role: Extract<ReturnType<typeof roleOf>, { role: 'cr' }> } => x.role.role === 'cr' && !x.doc.errors.some((s) => s.severity === 'error'))
    .map((x) => ({ ...x, crd: resolveCr(ctx.index, x.role)?.crd }))
    .filter((x) => x.crd && !x.crd.broken);
  const at = file.documentAt(td.offsetAt(pos));
  const crd = (crs.find((x) => x.doc === at) ?? crs[0])?.crd;
  if (!crd) return undefined;
  const mine = crs.filter((x) => x.crd === crd);
  const result = await checkConversionWebhook(
    crd.crd,
    mine.map((x) => x.doc.value),
    to,
    uid,
    post,
    engineTarget(ctx),
  );
  const rangeOf = (i: number | undefined) => headRange(td, mine[i ?? result.sent[0] ?? 0].doc);
  const messages: DocumentConversionCheck['messages'] = result.errors.map((e) => ({ message: e.message, severity: 'error', range: rangeOf(e.object) }));
  const parts: string[] = [];
  for (const c of result.converted ?? []) {
    const lines = [`# ${mine[c.source].role.kind} ${nameOf(c.object)} converted to ${result.desiredAPIVersion}`];
    for (const e of c.errors) {
      messages.push({ message: `after conversion to ${result.desiredAPIVersion}: ${errorMessage(e)}`, severity: 'error', range: rangeOf(c.source) });
      lines.push(`# error: ${errorMessage(e).replace(/\s*\n\s*/g, ' ')}`);
    }
    for (const w of c.warnings) {
      messages.push({ message: `after conversion to ${result.desiredAPIVersion}: ${errorMessage(w)}`, severity: 'warning', range: rangeOf(c.source) });
      lines.push(`# warning: ${errorMessage(w).replace(/\s*\n\s*/g, ' ')}`);
    }
    lines.push(yamlText(toPlain(c.object)).trimEnd());
    parts.push(lines.join('\n') + '\n');
  }
  const header = result.errors.map((e) => `# error: ${e.message}`).join('\n');
  const yaml = (header ? header + '\n' : '') + (parts.length ? parts.join('---\n') : result.errors.length ? '' : `# nothing to convert: every object is already ${result.desiredAPIVersion}\n`);
  return { crd: crd.name, result, messages, yaml };
}

function nameOf(o: unknown): string {
  return isJSONObject(o) && isJSONObject(o.metadata) ? str(o.metadata.name) : '';
}
