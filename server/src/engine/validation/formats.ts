/**
 * The string formats of CRD schemas: which ones Kubernetes keeps (apiextensions-apiserver
 * pkg/apiserver/validation/formats.go), and the checks kube-openapi's strfmt.Default registry runs.
 *
 * The checks mirror the Go functions (net.ParseIP, net.ParseMAC, url.ParseRequestURI, time.Parse,
 * mail.ParseAddress, ...) closely enough for editor use; the regexes are our own constants, not user input.
 */
import { utf8Length } from '../json/go';

/**
 * String formats supported since 1.0 and 1.34 (the compatibility version of a 1.37 server is 1.36), as
 * written in schemas; the API server compares them without '-'.
 */
export const SUPPORTED_STRING_FORMAT_NAMES: readonly string[] = [
  'bsonobjectid',
  'uri',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'cidr',
  'mac',
  'uuid',
  'uuid3',
  'uuid4',
  'uuid5',
  'isbn',
  'isbn10',
  'isbn13',
  'creditcard',
  'ssn',
  'hexcolor',
  'rgbcolor',
  'byte',
  'password',
  'date',
  'duration',
  'date-time',
  'k8s-short-name',
  'k8s-long-name',
];
const SUPPORTED_STRING_FORMATS = new Set(SUPPORTED_STRING_FORMAT_NAMES.map(normalizeFormatName));

/** go-openapi's default name normalization: drop dashes. */
/** Whether a string format is one the API server knows (the others are stripped, and warned about on CRD writes). */
export function isSupportedStringFormat(format: string): boolean {
  return SUPPORTED_STRING_FORMATS.has(normalizeFormatName(format));
}

export function normalizeFormatName(name: string): string {
  return name.replace(/-/g, '');
}

/**
 * StripUnsupportedFormatsPostProcessorForVersion: the format that survives for a schema node with these
 * (converted) types; unsupported formats become "".
 */
export function effectiveFormat(format: string | undefined, types: string[]): string {
  if (!format) return '';
  const t = types.length === 1 ? types[0] : '';
  switch (t) {
    case '':
    case 'string':
      return isSupportedStringFormat(format) ? format : '';
    case 'integer':
      return format === 'int32' || format === 'int64' ? format : '';
    case 'number':
      return format === 'float' || format === 'double' ? format : '';
    default:
      return '';
  }
}

const HOSTNAME_RE = /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
const UUID_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID3_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID4_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const UUID5_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const CREDIT_CARD_RE = /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$/;
const ISBN10_RE = /^(?:[0-9]{9}X|[0-9]{10})$/;
const ISBN13_RE = /^(?:[0-9]{13})$/;
const HEXCOLOR_RE = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const RGB_PART = '\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*';
const RGBCOLOR_RE = new RegExp(`^rgb\\(${RGB_PART},${RGB_PART},${RGB_PART}\\)$`);
const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
const SSN_RE = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const DATETIME_TIME_RE = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/u;
const SHORT_NAME_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LONG_NAME_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function isHostname(s: string): boolean {
  if (!HOSTNAME_RE.test(s)) return false;
  if (utf8Length(s) > 255) return false;
  return s.split('.').every((p) => utf8Length(p) <= 63);
}

/** net.ParseIP (sloppy: IPv4 parts may have leading zeros, as k8s.io/utils/net.ParseIPSloppy). */
export function parseIP(s: string, sloppy: boolean): boolean {
  if (s.includes(':')) return parseIPv6(s, sloppy);
  return parseIPv4(s, sloppy);
}

function parseIPv4(s: string, sloppy: boolean): boolean {
  const parts = s.split('.');
  if (parts.length !== 4) return false;
  for (const p of parts) {
    if (!/^[0-9]{1,3}$/.test(p)) return false;
    if (!sloppy && p.length > 1 && p[0] === '0') return false;
    if (Number(p) > 255) return false;
  }
  return true;
}

function parseIPv6(s: string, sloppy: boolean): boolean {
  let groups = 0;
  let ellipsis = false;
  let rest = s;
  if (rest.startsWith('::')) {
    ellipsis = true;
    rest = rest.slice(2);
    if (rest === '') return true;
  }
  while (rest.length > 0) {
    const m = /^[0-9a-fA-F]{1,4}/.exec(rest);
    // An embedded IPv4 address in the last 32 bits.
    if (rest.includes('.') && !rest.includes(':')) {
      if (!parseIPv4(rest, sloppy)) return false;
      groups += 2;
      rest = '';
      break;
    }
    if (!m) return false;
    groups++;
    rest = rest.slice(m[0].length);
    if (rest.length === 0) break;
    if (rest[0] !== ':') return false;
    if (rest.startsWith('::')) {
      if (ellipsis) return false;
      ellipsis = true;
      rest = rest.slice(2);
      if (rest === '') break;
    } else {
      rest = rest.slice(1);
      if (rest === '') return false;
    }
    if (groups > 8) return false;
  }
  return ellipsis ? groups < 8 : groups === 8;
}

function isCIDR(s: string): boolean {
  const i = s.indexOf('/');
  if (i < 0) return false;
  const ip = s.slice(0, i);
  const mask = s.slice(i + 1);
  if (!parseIP(ip, true)) return false;
  if (!/^[0-9]+$/.test(mask)) return false;
  const bits = ip.includes(':') ? 128 : 32;
  return Number(mask) <= bits;
}

/**
 * net.ParseMAC (Go 1.26): 6, 8 or 20 octets as `00:00:5e:00:53:01`, `00-00-5e-00-53-01`, `0000.5e00.5301`
 * or bare hex `00005e005301`.
 */
function isMAC(s: string): boolean {
  if (s.length < 12) return false;
  const valid = (n: number) => n === 6 || n === 8 || n === 20;
  const hex2 = (i: number) => /^[0-9a-fA-F]{2}$/.test(s.slice(i, i + 2));
  if (s[2] === ':' || s[2] === '-') {
    if ((s.length + 1) % 3 !== 0) return false;
    const n = (s.length + 1) / 3;
    if (!valid(n)) return false;
    for (let i = 0; i < n; i++) {
      if (!hex2(3 * i)) return false;
      if (i < n - 1 && s[3 * i + 2] !== s[2]) return false;
    }
    return true;
  }
  if (s[4] === '.') {
    if ((s.length + 1) % 5 !== 0) return false;
    const n = (2 * (s.length + 1)) / 5;
    if (!valid(n)) return false;
    for (let i = 0; i < n / 2; i++) {
      if (!hex2(5 * i) || !hex2(5 * i + 2)) return false;
      if (i < n / 2 - 1 && s[5 * i + 4] !== '.') return false;
    }
    return true;
  }
  if (s.length % 2 !== 0 || !valid(s.length / 2)) return false;
  return /^[0-9a-fA-F]+$/.test(s);
}

function isISBN(s: string, version: 10 | 13): boolean {
  const sanitized = s.replace(/[\s-]+/g, '');
  if (version === 10) {
    if (!ISBN10_RE.test(sanitized)) return false;
    let sum = 0;
    for (let i = 0; i < 9; i++) sum += (i + 1) * (sanitized.charCodeAt(i) - 48);
    sum += sanitized[9] === 'X' ? 100 : 10 * (sanitized.charCodeAt(9) - 48);
    return sum % 11 === 0;
  }
  if (!ISBN13_RE.test(sanitized)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * (sanitized.charCodeAt(i) - 48);
  return sanitized.charCodeAt(12) - 48 - ((10 - (sum % 10)) % 10) === 0;
}

function isCreditCard(s: string): boolean {
  const sanitized = s.replace(/[^0-9]+/g, '');
  if (!CREDIT_CARD_RE.test(sanitized)) return false;
  let sum = 0;
  let dbl = false;
  for (let i = sanitized.length - 1; i >= 0; i--) {
    let d = sanitized.charCodeAt(i) - 48;
    if (dbl) {
      d *= 2;
      sum += d >= 10 ? (d % 10) + 1 : d;
    } else sum += d;
    dbl = !dbl;
  }
  return sum % 10 === 0;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** time.Parse("2006-01-02", s) succeeds. */
export function isDate(s: string): boolean {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(s);
  if (!m) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const max = mo === 2 && leap ? 29 : DAYS_IN_MONTH[mo - 1];
  return d <= max;
}

function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0])) return false;
  const m = DATETIME_TIME_RE.exec(parts[1]);
  if (!m) return false;
  return m[1] <= '23' && m[2] <= '59' && m[3] <= '59';
}

const GO_DURATION_UNITS = new Set(['ns', 'us', '\u00b5s', '\u03bcs', 'ms', 's', 'm', 'h']);

/** time.ParseDuration succeeds (syntax and units; overflow is not modelled). */
function isGoDuration(input: string): boolean {
  let s = input;
  if (s[0] === '-' || s[0] === '+') s = s.slice(1);
  if (s === '0') return true;
  if (s === '') return false;
  while (s !== '') {
    if (!(s[0] === '.' || (s[0] >= '0' && s[0] <= '9'))) return false;
    const m = /^([0-9]*)(\.([0-9]*))?/.exec(s)!;
    if (m[1] === '' && (m[3] ?? '') === '') return false;
    s = s.slice(m[0].length);
    let i = 0;
    while (i < s.length && s[i] !== '.' && !(s[i] >= '0' && s[i] <= '9')) i++;
    const unit = s.slice(0, i);
    if (!GO_DURATION_UNITS.has(unit)) return false;
    s = s.slice(i);
  }
  return true;
}

const TIME_UNITS = [
  ['ns', 'nano'],
  ['us', 'µs', 'micro'],
  ['ms', 'milli'],
  ['s', 'sec'],
  ['m', 'min'],
  ['h', 'hr', 'hour'],
  ['d', 'day'],
  ['w', 'wk', 'week'],
];

/** strfmt.ParseDuration: Go's durations, or any text with "<digits> <unit>" pieces in a known unit. */
function isDuration(s: string): boolean {
  if (isGoDuration(s)) return true;
  let ok = false;
  for (const m of s.matchAll(/((\d+)\s*([A-Za-zµ]+))/g)) {
    if (m[2].length > 18 && BigInt(m[2]) > 2n ** 63n - 1n) return false; // strconv.Atoi overflow
    const unit = m[3].trim().toLowerCase();
    for (const variants of TIME_UNITS) {
      const last = variants.length - 1;
      variants.forEach((v, i) => {
        if ((i === last && unit.startsWith(v)) || v.toLowerCase() === unit) ok = true;
      });
    }
  }
  return ok;
}

/** net/mail.ParseAddress succeeds with a non-empty address (common forms: addr-spec, or "Name <addr-spec>"). */
function isEmail(s: string): boolean {
  let addr = s.trim();
  const angle = /^(?:"(?:[^"\\]|\\.)*"|[^<>"]*)\s*<([^<>]*)>$/.exec(addr);
  if (angle) addr = angle[1];
  const at = addr.lastIndexOf('@');
  if (at <= 0 || at === addr.length - 1) return false;
  const local = addr.slice(0, at);
  const domain = addr.slice(at + 1);
  const atom = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~\\-\\u0080-\\uFFFF]+";
  const localOk = new RegExp(`^(${atom}(\\.${atom})*|"([^"\\\\]|\\\\.)*")$`, 'u').test(local);
  const domainOk = new RegExp(`^(${atom}(\\.${atom})*|\\[[^\\[\\]\\\\]*\\])$`, 'u').test(domain);
  return localOk && domainOk;
}

/** url.ParseRequestURI succeeds: an absolute URI, or an absolute path. */
function isRequestURI(s: string): boolean {
  if (s === '') return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return false;
  }
  if (s === '*') return true;
  let scheme = '';
  let rest = s;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) break;
      continue;
    }
    if (c === ':') {
      if (i === 0) return false; // missing protocol scheme
      scheme = s.slice(0, i);
      rest = s.slice(i + 1);
    }
    break;
  }
  const q = rest.indexOf('?');
  if (!(rest.endsWith('?') && q === rest.length - 1) && q >= 0) rest = rest.slice(0, q);
  else if (rest.endsWith('?')) rest = rest.slice(0, -1);
  if (!rest.startsWith('/')) return scheme !== '';
  if (scheme !== '' && rest.startsWith('//')) {
    let authority = rest.slice(2);
    const slash = authority.indexOf('/');
    let path = '';
    if (slash >= 0) {
      path = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    if (!validAuthority(authority)) return false;
    return validEscapes(path);
  }
  return validEscapes(rest);
}

function validEscapes(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '%') {
      if (!/^[0-9a-fA-F]{2}$/.test(s.slice(i + 1, i + 3))) return false;
      i += 2;
    }
  }
  return true;
}

function validAuthority(authority: string): boolean {
  const at = authority.lastIndexOf('@');
  let host = authority;
  if (at >= 0) {
    const userinfo = authority.slice(0, at);
    if (!/^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(userinfo) || !validEscapes(userinfo)) return false;
    host = authority.slice(at + 1);
  }
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    if (end < 0) return false;
    const port = host.slice(end + 1);
    if (port !== '' && !/^:[0-9]*$/.test(port)) return false;
    return true;
  }
  const colon = host.lastIndexOf(':');
  if (colon >= 0 && !/^:[0-9]*$/.test(host.slice(colon))) return false;
  const name = colon >= 0 ? host.slice(0, colon) : host;
  if (!validEscapes(name)) return false;
  return /^[A-Za-z0-9\-._~!$&'()*+,;=%"<>[\]{}^`|\u0080-\uFFFF]*$/u.test(name);
}

type FormatCheck = (s: string) => boolean;

const REGISTRY: Record<string, FormatCheck> = {
  bsonobjectid: (s) => /^[0-9a-fA-F]{24}$/.test(s),
  uri: isRequestURI,
  email: isEmail,
  hostname: isHostname,
  ipv4: (s) => parseIP(s, true) && s.includes('.'),
  ipv6: (s) => parseIP(s, false) && s.includes(':'),
  cidr: isCIDR,
  mac: isMAC,
  uuid: (s) => UUID_RE.test(s),
  uuid3: (s) => UUID3_RE.test(s),
  uuid4: (s) => UUID4_RE.test(s),
  uuid5: (s) => UUID5_RE.test(s),
  isbn: (s) => isISBN(s, 10) || isISBN(s, 13),
  isbn10: (s) => isISBN(s, 10),
  isbn13: (s) => isISBN(s, 13),
  creditcard: isCreditCard,
  ssn: (s) => s.length === 11 && SSN_RE.test(s),
  hexcolor: (s) => HEXCOLOR_RE.test(s),
  rgbcolor: (s) => RGBCOLOR_RE.test(s),
  byte: (s) => BASE64_RE.test(s),
  password: () => true,
  date: isDate,
  duration: isDuration,
  datetime: isDateTime,
  k8sshortname: (s) => s.length <= 63 && SHORT_NAME_RE.test(s),
  k8slongname: (s) => s.length <= 253 && LONG_NAME_RE.test(s),
};

/** The strfmt.Default check for a format name, or undefined when the registry does not know it. */
export function formatChecker(format: string): FormatCheck | undefined {
  if (!format) return undefined;
  return REGISTRY[normalizeFormatName(format)];
}
