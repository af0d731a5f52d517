/**
 * Node's HTTP stack, loaded on first use: `node:https` pulls in TLS, sockets and streams, and a one-shot
 * check that never calls a webhook or a cluster should not pay for them at start-up.
 *
 * Also the trust of https requests where the `crd-yaml` launcher (bin/crd-yaml) kept NODE_EXTRA_CA_CERTS
 * from Node: Node 20 reads and parses its whole CA store plus that file when the process starts (about
 * 50 ms), for a check that almost never opens a TLS connection. The launcher moves the file's name to
 * CRD_YAML_EXTRA_CA_CERTS; the program gives it back to the processes it starts (`restoreExtraCaCerts`)
 * and trusts the file's certificates in its own requests (`trustedCa`), as Node would have.
 */
import type * as Http from 'node:http';
import type * as Https from 'node:https';
import type * as Tls from 'node:tls';

/** `node:https` for an https: URL, `node:http` otherwise (their `request` functions take the same arguments). */
export function httpFor(protocol: string): typeof Http {
  return protocol === 'https:' ? require('node:https') : require('node:http');
}

/** Where bin/crd-yaml puts NODE_EXTRA_CA_CERTS's value; set in a process whose Node did not read that file. */
export const MOVED_EXTRA_CA_CERTS = 'CRD_YAML_EXTRA_CA_CERTS';

/**
 * At the CLI's start: NODE_EXTRA_CA_CERTS back in the environment the processes it starts inherit (exec
 * credential plugins), which does not change this process's TLS. MOVED_EXTRA_CA_CERTS stays (check
 * workers read it too) only where Node did not read the file itself: a process started with both (a
 * crd-yaml's child running `node dist/cli.js`) has the certificates already.
 */
export function restoreExtraCaCerts(env: NodeJS.ProcessEnv = process.env): void {
  const moved = env[MOVED_EXTRA_CA_CERTS];
  if (moved === undefined) return;
  if (env.NODE_EXTRA_CA_CERTS) delete env[MOVED_EXTRA_CA_CERTS];
  else if (moved) env.NODE_EXTRA_CA_CERTS = moved;
}

/** The moved file's certificates, read at the first request that needs them (undefined: none to add). */
let extraCerts: string[] | undefined | null = null;

/**
 * The `ca` option of an https request. Its own certificates (a kubeconfig's certificate-authority, a
 * webhook's caBundle) are used alone, as Node uses them: they replace its roots and NODE_EXTRA_CA_CERTS's
 * certificates. Without them, undefined (Node's default roots), or, where the launcher kept
 * NODE_EXTRA_CA_CERTS from Node, the bundled roots plus that file's certificates: Node's default store.
 */
export function trustedCa<T extends string | Buffer | Array<string | Buffer>>(own: T | undefined): T | string[] | undefined {
  if (own !== undefined && own.length > 0) return own;
  if (extraCerts === null) extraCerts = readExtraCerts(process.env[MOVED_EXTRA_CA_CERTS]);
  if (!extraCerts) return undefined;
  const tls = require('node:tls') as typeof Tls & { getCACertificates?: (type: string) => string[] };
  // Node 22.15+ says which roots its default store holds (bundled, or the system's with --use-system-ca).
  const roots = tls.getCACertificates ? tls.getCACertificates('default') : tls.rootCertificates;
  return [...roots, ...extraCerts];
}

/**
 * The certificates of a NODE_EXTRA_CA_CERTS file, read as Node reads it (crypto_context.cc
 * AddCertsFromFile): the PEM CERTIFICATE blocks in order, other blocks and text skipped; a file that cannot
 * be read or a block that does not parse ends the reading with Node's warning on stderr, once, and the
 * certificates before it are still trusted.
 */
function readExtraCerts(file: string | undefined): string[] | undefined {
  if (!file) return undefined;
  const warn = (why: string) => process.stderr.write(`Warning: Ignoring extra certs from \`${file}\`, load failed: ${why}\n`);
  let text: string;
  try {
    text = (require('node:fs') as typeof import('node:fs')).readFileSync(file, 'latin1');
  } catch (e) {
    // `ENOENT: no such file or directory, open '/x'` -> `no such file or directory`, the system's words.
    warn((e as Error).message.replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, ''));
    return undefined;
  }
  const { X509Certificate } = require('node:crypto') as typeof import('node:crypto');
  const certs: string[] = [];
  for (const m of text.matchAll(/-----BEGIN (X509 )?CERTIFICATE-----[^-]*-----END \1?CERTIFICATE-----/g)) {
    try {
      certs.push(new X509Certificate(m[0]).toString());
    } catch (e) {
      warn((e as Error).message);
      break;
    }
  }
  return certs.length ? certs : undefined;
}

/**
 * Collects a response's body, bounded: `onBody` with the whole of it, or `onTooLarge` (once, and nothing
 * more is kept) as soon as it grows past `maxBytes`. The one reader of bodies for every request we make.
 */
export function collectBody(res: Http.IncomingMessage, maxBytes: number, onBody: (body: Buffer) => void, onTooLarge: () => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  res.on('data', (c: Buffer) => {
    if (over) return;
    size += c.length;
    if (size > maxBytes) {
      over = true;
      onTooLarge();
    } else chunks.push(c);
  });
  res.on('end', () => {
    if (!over) onBody(Buffer.concat(chunks));
  });
}

/** Node's network errors in words, with the code where the words are ours (`host not found (offline?)`). */
export function describeNetworkError(e: NodeJS.ErrnoException): string {
  switch (e.code) {
    case 'ENOTFOUND':
      return 'host not found (offline?)';
    case 'EAI_AGAIN':
      return 'host name lookup failed (offline?)';
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
      return 'network unreachable (offline?)';
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset by the server';
    case 'ETIMEDOUT':
      return 'connection timed out';
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'CERT_HAS_EXPIRED':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `the server's certificate is not trusted (${e.code}; NODE_EXTRA_CA_CERTS adds a CA)`;
    default:
      return e.code ?? e.message;
  }
}

/** A GET's answer: the response after redirects, or why there is none (in words: describeNetworkError). */
export type GetAnswer = { status: number; statusText: string; body: Buffer; headers: Http.IncomingHttpHeaders } | { error: string } | { tooLarge: true };

/**
 * GETs a URL as `fetch` would for a file download (redirects followed, up to 20), with a time limit on the
 * whole exchange and a size limit, trusting what `trustedCa` says; `headers` go with each request (a
 * conditional GET's validators). Never rejects.
 */
export function getUrl(url: string, opts: { timeoutMs: number; maxBytes: number; headers?: Record<string, string> }): Promise<GetAnswer> {
  return new Promise((resolve) => {
    let settled = false;
    let req: Http.ClientRequest | undefined;
    // `abort`: the request is given up (time, size), not answered.
    const done = (a: GetAnswer, abort = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (abort) req?.destroy();
      resolve(a);
    };
    const timer = setTimeout(() => done({ error: 'timed out' }, true), opts.timeoutMs);
    const get = (target: string, redirects: number) => {
      let u: URL;
      try {
        u = new URL(target);
      } catch {
        done({ error: `invalid URL ${target}` });
        return;
      }
      if (u.protocol !== 'http:' && u.protocol !== 'https:') {
        done({ error: `unsupported protocol ${u.protocol}` });
        return;
      }
      const options: Https.RequestOptions = { ...(u.protocol === 'https:' ? { ca: trustedCa(undefined) } : {}), ...(opts.headers ? { headers: opts.headers } : {}) };
      req = httpFor(u.protocol).get(u, options, (res) => {
        const status = res.statusCode ?? 0;
        if ([301, 302, 303, 307, 308].includes(status) && res.headers.location) {
          res.resume();
          if (redirects >= 20) done({ error: 'redirect count exceeded' });
          else get(new URL(res.headers.location, u).href, redirects + 1);
          return;
        }
        if (Number(res.headers['content-length'] ?? 0) > opts.maxBytes) {
          done({ tooLarge: true }, true);
          return;
        }
        collectBody(
          res,
          opts.maxBytes,
          (body) => done({ status, statusText: res.statusMessage ?? '', body, headers: res.headers }),
          () => done({ tooLarge: true }, true),
        );
        res.on('error', (e: NodeJS.ErrnoException) => done({ error: describeNetworkError(e) }));
      });
      req.on('error', (e: NodeJS.ErrnoException) => done({ error: describeNetworkError(e) }));
    };
    get(url, 0);
  });
}
