/**
 * A read-only Kubernetes API client: GET requests with the kubeconfig's TLS settings and credentials
 * (client certificates, bearer tokens and token files, basic auth, exec plugins), the list of
 * apiextensions.k8s.io/v1 CustomResourceDefinitions (paged), and one object by apiVersion/kind/name
 * (its resource found by discovery). Every request has a time limit and a size limit.
 */
import { promises as fs } from 'node:fs';
import type * as Https from 'node:https';
import { collectBody, httpFor, trustedCa } from '../net/http';
import { execCredential, forgetExecCredential } from './exec';
import type { ClusterConnection } from './kubeconfig';

/** A failed request, said for people (`401 Unauthorized: ...`), with the HTTP status when there was one. */
export class ClusterError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface ClusterClientOptions {
  /** Whether exec credential plugins may run (never in an untrusted workspace). */
  allowExec: boolean;
  /** Per request (default 30 s). */
  timeoutMs?: number;
  /** Largest response body (default 256 MiB). */
  maxBytes?: number;
}

/** The CRDs of a cluster. */
export interface ClusterCrds {
  crds: Record<string, unknown>[];
  /** Why the list may be incomplete (a size bound), if it may. */
  truncated?: string;
}

/** A reference to one object, as written in a manifest. */
export interface ObjectReference {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
}

const PAGE = 50;
const MAX_TOTAL_BYTES = 512 * 1024 * 1024;

export class ClusterClient {
  private readonly discovery = new Map<string, Promise<{ name: string; kind: string; namespaced: boolean }[]>>();

  constructor(
    readonly conn: ClusterConnection,
    private readonly opts: ClusterClientOptions,
  ) {}

  /** GET a path (e.g. `/version`); JSON in, JSON out. 404 answers undefined; other failures throw ClusterError. */
  async get(path: string): Promise<unknown> {
    const r = await this.request(path, false);
    return r.status === 404 ? undefined : r.body;
  }

  /** Every apiextensions.k8s.io/v1 CustomResourceDefinition of the cluster, page by page. */
  async listCustomResourceDefinitions(): Promise<ClusterCrds> {
    const crds: Record<string, unknown>[] = [];
    let cont = '';
    let total = 0;
    for (let page = 0; page < 10_000; page++) {
      const q = `limit=${PAGE}${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`;
      const r = await this.request(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions?${q}`, false);
      if (r.status === 404) throw new ClusterError(`${this.conn.server} does not serve apiextensions.k8s.io/v1 (Kubernetes before 1.16?)`, 404);
      const body = r.body as { items?: unknown[]; metadata?: { continue?: string } };
      for (const it of body.items ?? []) if (it && typeof it === 'object') crds.push({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', ...(it as object) });
      total += r.bytes;
      cont = body.metadata?.continue ?? '';
      if (!cont) return { crds };
      if (total > MAX_TOTAL_BYTES) return { crds, truncated: `stopped after ${crds.length} CRDs: more than ${MAX_TOTAL_BYTES / 1024 / 1024} MiB` };
    }
    return { crds, truncated: 'too many pages' };
  }

  /** The resource (plural name, scope) serving a kind in a group version, by discovery; undefined when none does. */
  async resourceFor(apiVersion: string, kind: string): Promise<{ name: string; namespaced: boolean } | undefined> {
    let list = this.discovery.get(apiVersion);
    if (!list) {
      const p = (async () => {
        const path = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
        const r = (await this.get(path)) as { resources?: { name: string; kind: string; namespaced: boolean }[] } | undefined;
        // Subresources (`deployments/scale`) are not objects.
        return (r?.resources ?? []).filter((x) => typeof x.name === 'string' && !x.name.includes('/'));
      })();
      this.discovery.set(apiVersion, p);
      p.catch(() => this.discovery.delete(apiVersion));
      list = p;
    }
    const hit = (await list).find((x) => x.kind === kind);
    return hit && { name: hit.name, namespaced: hit.namespaced };
  }

  /**
   * One object as the cluster has it (undefined when it does not exist). A namespaced object without a
   * namespace is looked up in the context's namespace, else `default`, as kubectl does.
   */
  async getObject(ref: ObjectReference): Promise<Record<string, unknown> | undefined> {
    const res = await this.resourceFor(ref.apiVersion, ref.kind);
    if (!res) throw new ClusterError(`the cluster serves no kind ${ref.kind} in ${ref.apiVersion}`, 404);
    const prefix = ref.apiVersion.includes('/') ? `/apis/${ref.apiVersion}` : `/api/${ref.apiVersion}`;
    const ns = res.namespaced ? `/namespaces/${encodeURIComponent(ref.namespace ?? this.conn.namespace ?? 'default')}` : '';
    return (await this.get(`${prefix}${ns}/${res.name}/${encodeURIComponent(ref.name)}`)) as Record<string, unknown> | undefined;
  }

  private async request(path: string, retried: boolean): Promise<{ status: number; body: unknown; bytes: number }> {
    const conn = this.conn;
    if (conn.proxyUrl) throw new ClusterError(`cluster "${conn.cluster}" uses proxy-url ${conn.proxyUrl}, which crd-yaml does not support`);
    const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': 'crd-yaml' };
    let cert = conn.clientCertificate;
    let key = conn.clientKey;
    if (conn.token) headers.Authorization = `Bearer ${conn.token}`;
    else if (conn.tokenFile) {
      try {
        headers.Authorization = `Bearer ${(await fs.readFile(conn.tokenFile, 'utf8')).trim()}`;
      } catch (e) {
        throw new ClusterError(`cannot read tokenFile ${conn.tokenFile} of user "${conn.user}": ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
    } else if (conn.username && conn.password) headers.Authorization = `Basic ${Buffer.from(`${conn.username}:${conn.password}`).toString('base64')}`;
    if (conn.exec && !headers.Authorization && !cert) {
      if (!this.opts.allowExec) throw new ClusterError(`user "${conn.user}" authenticates with the exec plugin "${conn.exec.command}", which is not run in an untrusted workspace`);
      const cred = await execCredential(conn);
      if (cred.token) headers.Authorization = `Bearer ${cred.token}`;
      cert = cred.clientCertificate ?? cert;
      key = cred.clientKey ?? key;
    }
    let url: URL;
    try {
      url = new URL(conn.server + path);
    } catch {
      throw new ClusterError(`cluster "${conn.cluster}" has an invalid server URL: ${conn.server}`);
    }
    const r = await this.send(url, headers, cert, key);
    if (r.status === 401 && conn.exec && !retried) {
      // An expired credential: run the plugin again once.
      forgetExecCredential(conn);
      return this.request(path, true);
    }
    if (r.status === 404 || (r.status >= 200 && r.status < 300)) {
      if (r.status === 404) return { status: 404, body: undefined, bytes: r.bytes };
      try {
        return { status: r.status, body: JSON.parse(r.text), bytes: r.bytes };
      } catch {
        throw new ClusterError(`${url.origin}${url.pathname} did not answer JSON`, r.status);
      }
    }
    throw new ClusterError(statusMessage(r.status, r.text, conn, url), r.status);
  }

  private send(url: URL, headers: Record<string, string>, cert?: Buffer, key?: Buffer): Promise<{ status: number; text: string; bytes: number }> {
    const conn = this.conn;
    const timeout = this.opts.timeoutMs ?? 30_000;
    const maxBytes = this.opts.maxBytes ?? 256 * 1024 * 1024;
    return new Promise((resolve, reject) => {
      const options: Https.RequestOptions = { method: 'GET', headers, timeout };
      if (url.protocol === 'https:') {
        options.ca = trustedCa(conn.ca);
        options.cert = cert;
        options.key = key;
        options.rejectUnauthorized = !conn.insecureSkipTlsVerify;
        if (conn.tlsServerName) options.servername = conn.tlsServerName;
      } else if (url.protocol !== 'http:') {
        reject(new ClusterError(`cluster "${conn.cluster}": unsupported server URL scheme ${url.protocol}`));
        return;
      }
      const req = httpFor(url.protocol).request(url, options, (res) => {
        collectBody(
          res,
          maxBytes,
          (b) => resolve({ status: res.statusCode ?? 0, text: b.toString('utf8'), bytes: b.length }),
          () => req.destroy(new ClusterError(`the answer of ${url.pathname} is larger than ${Math.round(maxBytes / 1024 / 1024)} MiB`)),
        );
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new ClusterError(`${url.origin} did not answer within ${timeout / 1000} s`)));
      req.on('error', (e: NodeJS.ErrnoException) => reject(e instanceof ClusterError ? e : new ClusterError(connectMessage(e, conn))));
      req.end();
    });
  }
}

function connectMessage(e: NodeJS.ErrnoException, conn: ClusterConnection): string {
  const code = e.code ?? '';
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || code === 'ETIMEDOUT') return `cannot reach ${conn.server} (context "${conn.context}"): ${code}`;
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code)) {
    return `the certificate of ${conn.server} was not accepted (${code}): check certificate-authority of cluster "${conn.cluster}" in the ${conn.source}`;
  }
  return `request to ${conn.server} failed: ${e.message}`;
}

function statusMessage(status: number, text: string, conn: ClusterConnection, url: URL): string {
  let detail = '';
  try {
    detail = String((JSON.parse(text) as { message?: unknown }).message ?? '');
  } catch {
    detail = text.slice(0, 200);
  }
  const who = conn.user ? `user "${conn.user}"` : 'the anonymous user';
  if (status === 401) return `401 Unauthorized: ${conn.server} did not accept the credentials of ${who} (context "${conn.context}")`;
  if (status === 403) return `403 Forbidden: ${who} may not GET ${url.pathname}${detail ? `: ${detail}` : ''}`;
  return `${status} from ${conn.server}${url.pathname}${detail ? `: ${detail}` : ''}`;
}
