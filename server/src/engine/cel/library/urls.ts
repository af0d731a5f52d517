/**
 * The Kubernetes URL library (apiserver pkg/cel/library/urls.go, always present) and its value:
 * the fields of Go's net/url (url.ParseRequestURI, json/gourl.ts).
 */
import { R, STRING_TRAVERSAL_COST_FACTOR } from '../cost/model';
import { k8sActualSize } from '../runtime/size';
import { fail, type OpaqueValue } from '../runtime/values';
import { goURLParse, goURLParseRequestURI } from '../../json/gourl';
import { fn, traversal, type Library } from './decls';
import { unitCost } from './cost';

/** A parsed URL (the net/url fields the library exposes). */
export class URLValue implements OpaqueValue {
  readonly celTypeName = 'kubernetes.URL';
  constructor(
    readonly scheme: string,
    readonly host: string,
    readonly path: string,
    readonly rawQuery: string,
    readonly opaque: string,
    /** The path as written (Go's RawPath), and the fragment as written. */
    readonly rawPath = '',
    readonly fragment = '',
  ) {}
  /** url.URL.EscapedPath(): the path as written when it is a valid encoding, else the path escaped. */
  escapedPath(): string {
    if (this.rawPath && validEncodedPath(this.rawPath)) return this.rawPath;
    return this.path === '*' ? '*' : escapedPath(this.path);
  }
  /** url.URL.String() (no user info: the library never prints it). */
  goString(): string {
    let s = this.scheme ? `${this.scheme}:` : '';
    if (this.opaque) s += this.opaque;
    else {
      if (this.host || this.scheme) s += `//${escapeHost(this.host)}`;
      s += this.escapedPath();
    }
    if (this.rawQuery) s += `?${this.rawQuery}`;
    return this.fragment ? `${s}#${this.fragment}` : s;
  }
  equals(o: OpaqueValue): boolean {
    return o instanceof URLValue && this.scheme === o.scheme && this.host === o.host && this.path === o.path && this.rawQuery === o.rawQuery && this.opaque === o.opaque;
  }
}

/** validEncoded(s, encodePath): only bytes a path may hold unescaped, and escapes. */
function validEncodedPath(s: string): boolean {
  return /^[A-Za-z0-9\-._~!$&'()*+,;=:@[\]%/]*$/.test(s);
}

/** escape(host, encodeHost): non-ASCII bytes and '%' escaped. */
function escapeHost(h: string): string {
  return h.replace(/[^A-Za-z0-9!"$&'()*+,\-.;<=>[\]_~:]/gu, (c) => encodeURIComponent(c));
}

function urlUnescape(s: string, query: boolean): string | undefined {
  try {
    return decodeURIComponent(query ? s.replace(/\+/g, ' ') : s);
  } catch {
    return undefined;
  }
}

/**
 * stringToUrl: url.ParseRequestURI checks the text, then url.Parse makes the value (ParseRequestURI
 * would keep a fragment in the path or query); the error is ParseRequestURI's (`parse "x": missing protocol scheme`).
 */
export function parseRequestURI(raw: string): URLValue | string {
  const r = goURLParseRequestURI(raw);
  if (r.error !== undefined) return r.error;
  const p = goURLParse(raw);
  if (p.error !== undefined) return p.error;
  return new URLValue(p.url.scheme, p.url.host, urlUnescape(p.url.path, false) ?? p.url.path, p.url.rawQuery, p.url.opaque, p.url.path, p.url.fragment);
}

export function hostname(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return host.slice(1, end);
  }
  const c = host.lastIndexOf(':');
  return c >= 0 ? host.slice(0, c) : host;
}

export function port(host: string): string {
  const start = host.startsWith('[') ? host.indexOf(']') + 1 : 0;
  const c = host.indexOf(':', start);
  return c >= 0 ? host.slice(c + 1) : '';
}

/** escape(path, encodePath): bytes outside net/url's path set percent-encoded (`*` and `!` included). */
export function escapedPath(p: string): string {
  return p.replace(/[^A-Za-z0-9\-._~$&+,/:;=@]/gu, (c) => [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''));
}

export function query(raw: string): Map<string, string[]> {
  const m = new Map<string, string[]>();
  if (raw === '') return m;
  for (const part of raw.split('&')) {
    if (part === '' || part.includes(';')) continue;
    const eq = part.indexOf('=');
    const k = urlUnescape(eq >= 0 ? part.slice(0, eq) : part, true);
    const v = urlUnescape(eq >= 0 ? part.slice(eq + 1) : '', true);
    if (k === undefined || v === undefined) continue;
    const l = m.get(k) ?? [];
    l.push(v);
    m.set(k, l);
  }
  return m;
}

function urlOrFail(s: string): URLValue {
  const u = parseRequestURI(s);
  if (typeof u === 'string') fail(`URL parse error during conversion from string: ${u}`);
  return u;
}

export const URLS: Library = {
  name: 'kubernetes.urls',
  since: 0,
  types: ['kubernetes.URL'],
  functions: [
    fn('url', 'parses an absolute URI or absolute path', [['string_to_url', 'url(string): URL', urlOrFail]], {
      estimate: (ctx, _id, _t, args) => {
        if (args.length !== 1) return undefined;
        const sz = ctx.sizeEstimate(args[0]);
        return { cost: R.factor(sz, STRING_TRAVERSAL_COST_FACTOR), resultSize: sz };
      },
      cost: (_id, args) => traversal(k8sActualSize(args[0])),
    }),
    fn('isURL', 'whether the string is a valid URL', [['is_url_string', 'isURL(string): bool', (s: string) => goURLParseRequestURI(s).error === undefined]]),
    fn('getScheme', 'the scheme ("https")', [['url_get_scheme', 'URL.getScheme(): string', (u: URLValue) => u.scheme]], unitCost),
    fn('getHost', 'the host with its port', [['url_get_host', 'URL.getHost(): string', (u: URLValue) => u.host]], unitCost),
    fn('getHostname', 'the host without its port', [['url_get_hostname', 'URL.getHostname(): string', (u: URLValue) => hostname(u.host)]], unitCost),
    fn('getPort', 'the port ("" when absent)', [['url_get_port', 'URL.getPort(): string', (u: URLValue) => port(u.host)]], unitCost),
    fn('getEscapedPath', 'the escaped path', [['url_get_escaped_path', 'URL.getEscapedPath(): string', (u: URLValue) => u.escapedPath()]], unitCost),
    fn('getQuery', 'the query parameters', [['url_get_query', 'URL.getQuery(): map<string, list<string>>', (u: URLValue) => new Map(query(u.rawQuery))]], unitCost),
  ],
};
