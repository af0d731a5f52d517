/**
 * The parts of Go's net/url that CRD validation depends on (url.Parse and url.ParseRequestURI): which
 * strings parse, the scheme/host/user/query/fragment they split into, and Go's error text. WHATWG `URL`
 * differs from Go on exactly the edge cases the webhook rules are about, hence this small parser.
 */

export interface GoURL {
  scheme: string;
  opaque: string;
  /** Present (possibly empty) when the authority had an `@`. */
  user?: string;
  host: string;
  path: string;
  rawQuery: string;
  fragment: string;
}

export type GoURLResult = { url: GoURL; error?: undefined } | { url?: undefined; error: string };

function hasCTL(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

function getScheme(raw: string): { scheme: string; rest: string } | { error: string } {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) continue;
    if ((c >= '0' && c <= '9') || c === '+' || c === '-' || c === '.') {
      if (i === 0) return { scheme: '', rest: raw };
      continue;
    }
    if (c === ':') {
      if (i === 0) return { error: 'missing protocol scheme' };
      return { scheme: raw.slice(0, i), rest: raw.slice(i + 1) };
    }
    return { scheme: '', rest: raw };
  }
  return { scheme: '', rest: raw };
}

/** url.unescape's EscapeError for the first malformed %-escape of s, as Go prints it; undefined when all are well-formed. */
function escapeError(s: string): string | undefined {
  for (let i = s.indexOf('%'); i >= 0; i = s.indexOf('%', i + 1)) {
    if (!/^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) return `invalid URL escape ${JSON.stringify(s.slice(i, i + 3))}`;
  }
  return undefined;
}

/** The ASCII bytes a host may hold unescaped (net/url's encoding table, encodeHost). */
const HOST_BYTE = /[A-Za-z0-9!"$&'()*+,\-.;<=>[\]_~:]/;

/** url.unescape(s, encodeHost): %-escapes only for non-ASCII bytes (and %25), no other ASCII outside the table. */
function unescapeHost(s: string): { host: string } | { error: string } {
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '%') {
      if (!/^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) return { error: `invalid URL escape "${s.slice(i, i + 3)}"` };
      if (Number.parseInt(s[i + 1], 16) < 8 && s.slice(i, i + 3) !== '%25') return { error: `invalid URL escape "${s.slice(i, i + 3)}"` };
      i += 2;
    } else if (c.charCodeAt(0) < 0x80 && !HOST_BYTE.test(c)) return { error: `invalid character ${JSON.stringify(c)} in host name` };
  }
  if (!s.includes('%')) return { host: s };
  const bytes = Buffer.from(
    s.replace(/%([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
    'latin1',
  );
  return { host: bytes.toString('utf8') };
}

/** net/url's parseHost (Go 1.26): ports, IP literals, strict colons for http(s), and the host's bytes. */
function parseHost(scheme: string, host: string): { host: string } | { error: string } {
  const open = host.lastIndexOf('[');
  if (open > 0) return { error: 'invalid IP-literal' };
  if (open === 0) {
    const i = host.lastIndexOf(']');
    if (i < 0) return { error: "missing ']' in host" };
    const colonPort = host.slice(i + 1);
    if (colonPort !== '' && !/^:[0-9]*$/.test(colonPort)) return { error: `invalid port "${colonPort}" after host` };
    return { host };
  }
  let i = host.indexOf(':');
  if (i >= 0) {
    // More than one colon: only http and https insist on the first one starting the port.
    if (scheme !== 'http' && scheme !== 'https') i = host.lastIndexOf(':');
    const colonPort = host.slice(i);
    if (!/^:[0-9]*$/.test(colonPort)) return { error: `invalid port "${colonPort}" after host` };
  }
  return unescapeHost(host);
}

const userinfoRe = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

function parse(raw: string, viaRequest: boolean): GoURLResult {
  if (hasCTL(raw)) return { error: 'net/url: invalid control character in URL' };
  if (raw === '' && viaRequest) return { error: 'empty url' };
  const url: GoURL = { scheme: '', opaque: '', host: '', path: '', rawQuery: '', fragment: '' };
  if (raw === '*') {
    url.path = '*';
    return { url };
  }
  const sch = getScheme(raw);
  if ('error' in sch) return { error: sch.error };
  url.scheme = sch.scheme.toLowerCase();
  let rest = sch.rest;
  if (rest.endsWith('?') && rest.split('?').length === 2) rest = rest.slice(0, -1);
  else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      url.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (url.scheme !== '') {
      url.opaque = rest;
      return { url };
    }
    if (viaRequest) return { error: 'invalid URI for request' };
    const seg = rest.split('/')[0];
    if (seg.includes(':')) return { error: 'first path segment in URL cannot contain colon' };
  }
  if ((url.scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const i = authority.indexOf('/');
    if (i >= 0) {
      rest = authority.slice(i);
      authority = authority.slice(0, i);
    }
    // parseAuthority: the host first, then the user info and its escapes.
    const at = authority.lastIndexOf('@');
    const h = parseHost(url.scheme.toLowerCase(), at >= 0 ? authority.slice(at + 1) : authority);
    if ('error' in h) return { error: h.error };
    url.host = h.host;
    if (at >= 0) {
      const userinfo = authority.slice(0, at);
      if (!userinfoRe.test(userinfo)) return { error: 'net/url: invalid userinfo' };
      const colon = userinfo.indexOf(':');
      const bad = colon < 0 ? escapeError(userinfo) : (escapeError(userinfo.slice(0, colon)) ?? escapeError(userinfo.slice(colon + 1)));
      if (bad) return { error: bad };
      url.user = userinfo;
    }
  }
  const bad = escapeError(rest);
  if (bad) return { error: bad };
  url.path = rest;
  return { url };
}

/** Go's url.Parse; the error is `parse "<raw>": <reason>` as Go prints it. */
export function goURLParse(raw: string): GoURLResult {
  const hash = raw.indexOf('#');
  const u = hash >= 0 ? raw.slice(0, hash) : raw;
  const frag = hash >= 0 ? raw.slice(hash + 1) : '';
  const r = parse(u, false);
  if (r.error !== undefined) return { error: `parse ${JSON.stringify(u)}: ${r.error}` };
  const bad = escapeError(frag);
  if (bad) return { error: `parse ${JSON.stringify(raw)}: ${bad}` };
  r.url.fragment = frag;
  return r;
}

/** Go's url.ParseRequestURI (no fragment splitting, absolute URI or absolute path only). */
export function goURLParseRequestURI(raw: string): GoURLResult {
  const r = parse(raw, true);
  if (r.error !== undefined) return { error: `parse ${JSON.stringify(raw)}: ${r.error}` };
  return r;
}
