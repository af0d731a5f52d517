/**
 * Kubernetes URL library (apiserver pkg/cel/library/urls.go): url() accepts what Go's
 * url.ParseRequestURI accepts (absolute URI or absolute path), then re-parses as url.Parse does
 * (so a #fragment is dropped). Accessors follow net/url.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { fail } from './errors';

/** A parsed URL (the net/url fields the library exposes). */
export class URLValue {
  static celTypeName = 'kubernetes.URL';
  constructor(
    readonly scheme: string,
    readonly host: string,
    readonly path: string,
    readonly rawQuery: string,
    readonly opaque: string,
  ) {}
  equals(o: URLValue): boolean {
    return this.scheme === o.scheme && this.host === o.host && this.path === o.path && this.rawQuery === o.rawQuery && this.opaque === o.opaque;
  }
}

function unescape(s: string, query: boolean): string | undefined {
  try {
    return decodeURIComponent(query ? s.replace(/\+/g, ' ') : s);
  } catch {
    return undefined;
  }
}

function validHost(host: string): boolean {
  // host[:port]; IPv6 literals in brackets; the port must be digits.
  let h = host;
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    if (end < 0) return false;
    const rest = h.slice(end + 1);
    return rest === '' || /^:\d*$/.test(rest);
  }
  const colon = h.lastIndexOf(':');
  if (colon >= 0) {
    const port = h.slice(colon + 1);
    if (!/^\d*$/.test(port)) return false;
    h = h.slice(0, colon);
  }
  return !/[\s<>"{}|\\^`]/.test(h) && !h.includes(':');
}

/** Go's url.ParseRequestURI followed by url.Parse; undefined when invalid. */
export function parseURL(raw: string): URLValue | undefined {
  if (raw === '' || /[\x00-\x1f\x7f]/.test(raw)) return undefined;
  let rest = raw;
  let scheme = '';
  const sm = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(rest);
  if (sm) {
    scheme = sm[1].toLowerCase();
    rest = rest.slice(sm[0].length);
  } else if (/^[^/?#]*:/.test(rest)) return undefined;
  if (!scheme && !rest.startsWith('/')) return undefined;
  // url.Parse drops the fragment.
  const hash = rest.indexOf('#');
  if (hash >= 0) rest = rest.slice(0, hash);
  let rawQuery = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    rawQuery = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  if (scheme && !rest.startsWith('/')) {
    // Opaque URL (e.g. "https::/x" or "mailto:a@b").
    return new URLValue(scheme, '', '', rawQuery, rest);
  }
  let host = '';
  if (rest.startsWith('//') && (scheme || true)) {
    const after = rest.slice(2);
    const slash = after.indexOf('/');
    let authority = slash >= 0 ? after.slice(0, slash) : after;
    rest = slash >= 0 ? after.slice(slash) : '';
    const at = authority.lastIndexOf('@');
    if (at >= 0) authority = authority.slice(at + 1);
    if (!validHost(authority)) return undefined;
    host = authority;
  }
  const path = unescape(rest, false);
  if (path === undefined) return undefined;
  return new URLValue(scheme, host, path, rawQuery, '');
}

function hostname(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return host.slice(1, end);
  }
  const c = host.lastIndexOf(':');
  return c >= 0 ? host.slice(0, c) : host;
}

function port(host: string): string {
  const start = host.startsWith('[') ? host.indexOf(']') + 1 : 0;
  const c = host.indexOf(':', start);
  return c >= 0 ? host.slice(c + 1) : '';
}

/** Go's url.PathEscape-style EscapedPath for an unescaped path. */
function escapedPath(p: string): string {
  return p.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/]/g, (c) => encodeURIComponent(c));
}

function query(raw: string): Map<string, string[]> {
  const m = new Map<string, string[]>();
  if (raw === '') return m;
  for (const part of raw.split('&')) {
    if (part === '' || part.includes(';')) continue;
    const eq = part.indexOf('=');
    const k = unescape(eq >= 0 ? part.slice(0, eq) : part, true);
    const v = unescape(eq >= 0 ? part.slice(eq + 1) : '', true);
    if (k === undefined || v === undefined) continue;
    const l = m.get(k) ?? [];
    l.push(v);
    m.set(k, l);
  }
  return m;
}

/** Registers the URL library. */
export function installURLs(env: Environment): void {
  const f = (sig: string, h: (...a: never[]) => unknown) => env.registerFunction(sig, h as (...a: unknown[]) => unknown);
  const U = 'kubernetes.URL';
  env.registerType(U, URLValue);
  env.registerOperator(`${U} == ${U}`, (a: URLValue, b: URLValue) => a.equals(b));
  f(`url(string): ${U}`, (s: string) => {
    const u = parseURL(s);
    if (!u) fail(`URL parse error during conversion from string: parse ${JSON.stringify(s)}: invalid URI for request`);
    return u;
  });
  f(`isURL(string): bool`, (s: string) => parseURL(s) !== undefined);
  f(`${U}.getScheme(): string`, (u: URLValue) => u.scheme);
  f(`${U}.getHost(): string`, (u: URLValue) => u.host);
  f(`${U}.getHostname(): string`, (u: URLValue) => hostname(u.host));
  f(`${U}.getPort(): string`, (u: URLValue) => port(u.host));
  f(`${U}.getEscapedPath(): string`, (u: URLValue) => escapedPath(u.path));
  f(`${U}.getQuery(): map<string, list<string>>`, (u: URLValue) => query(u.rawQuery));
}
