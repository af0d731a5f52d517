/**
 * Webhook client config checks (k8s.io/apiserver pkg/util/webhook ValidateWebhookURL and
 * ValidateWebhookService), used by CRD conversion webhooks.
 */
import { type FieldPath, invalid, required, type FieldError } from '../field';
import { isDNS1123Subdomain, isValidPortNum } from './content';
import { goURLParse } from '../json/gourl';

const FORM = '; desired format: https://host[/path]';

/** webhook.ValidateWebhookURL */
export function validateWebhookURL(fldPath: FieldPath, url: string, forceHttps: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const r = goURLParse(url);
  if (r.error !== undefined) {
    errs.push(required(fldPath, 'url must be a valid URL: ' + r.error + FORM));
    return errs;
  }
  const u = r.url;
  if (forceHttps && u.scheme !== 'https') errs.push(invalid(fldPath, u.scheme, "'https' is the only allowed URL scheme" + FORM));
  if (u.host.length === 0) errs.push(invalid(fldPath, u.host, 'host must be specified' + FORM));
  if (u.user !== undefined) errs.push(invalid(fldPath, u.user, 'user information is not permitted in the URL'));
  if (u.fragment.length !== 0) errs.push(invalid(fldPath, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery.length !== 0) errs.push(invalid(fldPath, u.rawQuery, 'query parameters are not permitted in the URL'));
  return errs;
}

/** webhook.ValidateWebhookService */
export function validateWebhookService(fldPath: FieldPath, namespace: string, name: string, path: string | undefined, port: number): FieldError[] {
  const errs: FieldError[] = [];
  if (name.length === 0) errs.push(required(fldPath.child('name'), ''));
  if (namespace.length === 0) errs.push(required(fldPath.child('namespace'), ''));
  const portErrs = isValidPortNum(port);
  if (portErrs.length) errs.push(invalid(fldPath.child('port'), port, 'port is not valid: ' + portErrs.join(', ')));
  if (path === undefined) return errs;
  if (path === '/' || path.length === 0) return errs;
  if (path === '//') {
    errs.push(invalid(fldPath.child('path'), path, 'segment[0] may not be empty'));
    return errs;
  }
  if (!path.startsWith('/')) errs.push(invalid(fldPath.child('path'), path, "must start with a '/'"));
  let toCheck = path.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (step.length === 0) {
      errs.push(invalid(fldPath.child('path'), path, `segment[${i}] may not be empty`));
      return;
    }
    for (const f of isDNS1123Subdomain(step)) errs.push(invalid(fldPath.child('path'), path, `segment[${i}]: ${f}`));
  });
  return errs;
}
