/**
 * The conversion webhook call: POSTing a ConversionReview to a conversion webhook the user runs and named
 * explicitly (`crd-yaml convert --webhook URL`, or the editor command). Nothing here
 * reads the CRD's own webhook settings: a CRD's service reference points into a cluster, not here.
 * Bounded: one request, a time limit (the API server's webhook timeout, 30 s) and a response size limit.
 */
import { collectBody, httpFor, trustedCa } from './http';

/** What came back: the HTTP answer, or why there was none, worded as Go's HTTP client words it. */
export type WebhookAnswer = { status: number; body: string } | { error: string };

export interface PostOptions {
  /** PEM certificates to trust for an https URL (the CRD's caBundle, decoded, or a --ca-bundle file). */
  ca?: string;
  /** Milliseconds before the request is abandoned (default 30 000, the API server's webhook timeout). */
  timeoutMs?: number;
  /** Largest response body read (default 64 MiB). */
  maxBytes?: number;
}

/** POSTs a JSON body; never rejects. */
export function postJson(url: string, body: string, opts: PostOptions = {}): Promise<WebhookAnswer> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return Promise.resolve({ error: `parse "${url}": invalid URL` });
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return Promise.resolve({ error: `Post "${url}": unsupported protocol scheme "${u.protocol.replace(/:$/, '')}"` });
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const maxBytes = opts.maxBytes ?? 64 << 20;
  return new Promise((resolve) => {
    let settled = false;
    const done = (a: WebhookAnswer) => {
      if (!settled) {
        settled = true;
        resolve(a);
      }
    };
    const req = httpFor(u.protocol).request(
      u,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Content-Length': Buffer.byteLength(body) },
        ...(u.protocol === 'https:' ? { ca: trustedCa(opts.ca) } : {}),
        timeout: timeoutMs,
      },
      (res) => {
        collectBody(
          res,
          maxBytes,
          (b) => done({ status: res.statusCode ?? 0, body: b.toString('utf8') }),
          () => {
            req.destroy();
            done({ error: `Post "${url}": the response is larger than ${maxBytes} bytes` });
          },
        );
        res.on('error', (e) => done({ error: `Post "${url}": ${e.message}` }));
      },
    );
    req.on('timeout', () => {
      req.destroy();
      done({ error: `Post "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)` });
    });
    req.on('error', (e: NodeJS.ErrnoException) => done({ error: `Post "${url}": ${describeNetError(e, u)}` }));
    req.end(body);
  });
}

/** Node's network errors in the words of Go's net/http client, where they have a counterpart. */
function describeNetError(e: NodeJS.ErrnoException, u: URL): string {
  const host = `${u.hostname.replace(/^\[|\]$/g, '')}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
  switch (e.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${host}: connect: connection refused`;
    case 'ENOTFOUND':
      return `dial tcp: lookup ${u.hostname}: no such host`;
    case 'ECONNRESET':
      return 'EOF';
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `tls: failed to verify certificate: x509: certificate is not valid for ${u.hostname}`;
    default:
      return e.message;
  }
}
