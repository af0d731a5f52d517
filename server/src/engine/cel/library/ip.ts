/**
 * The Kubernetes IP library (apiserver pkg/cel/library/ip.go, 1.30) and its value: an address
 * parsed as Go's netip.ParseAddr, without zones or IPv4-mapped IPv6 addresses.
 */
import { R, STRING_TRAVERSAL_COST_FACTOR, fixed } from '../cost/model';
import { goQuote } from '../../json/go';
import { k8sActualSize } from '../runtime/size';
import { fail, type OpaqueValue } from '../runtime/values';
import type { CIDR } from './cidr';
import { fn, traversal, type Library } from './decls';
import { parseCost, unitCost } from './cost';

/** An IP address: 4 or 16 bytes. */
export class IP implements OpaqueValue {
  readonly celTypeName = 'net.IP';
  constructor(readonly bytes: Uint8Array) {}
  get family(): 4 | 6 {
    return this.bytes.length === 4 ? 4 : 6;
  }
  equals(o: OpaqueValue): boolean {
    return o instanceof IP && this.bytes.length === o.bytes.length && this.bytes.every((b, i) => b === o.bytes[i]);
  }
  toCelString(): string {
    return formatIP(this.bytes);
  }
  goString(): string {
    return formatIP(this.bytes);
  }
  size(): number {
    return this.bytes.length;
  }
}

/** A netip parseAddrError: the message and the rest of the input it stopped at. */
interface AddrError {
  msg: string;
  at?: string;
}

/** netip's parseIPv4Fields over s (the whole input, or the IPv4 tail of an IPv6 address). */
function parseIPv4Fields(s: string): Uint8Array | AddrError {
  const out = new Uint8Array(4);
  let val = 0;
  let pos = 0;
  let digits = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c >= '0' && c <= '9') {
      if (digits === 1 && val === 0) return { msg: 'IPv4 field has octet with leading zero' };
      val = val * 10 + (c.charCodeAt(0) - 48);
      digits++;
      if (val > 255) return { msg: 'IPv4 field has value >255' };
    } else if (c === '.') {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') return { msg: 'IPv4 field must have at least one digit', at: s.slice(i) };
      if (pos === 3) return { msg: 'IPv4 address too long' };
      out[pos++] = val;
      val = 0;
      digits = 0;
    } else return { msg: 'unexpected character', at: s.slice(i) };
  }
  if (pos < 3) return { msg: 'IPv4 address too short' };
  out[3] = val;
  return out;
}

/** netip's parseIPv6 of the address without its zone. */
function parseIPv6(addr: string): Uint8Array | AddrError {
  const ip = new Uint8Array(16);
  let ellipsis = -1;
  let s = addr;
  if (s.startsWith('::')) {
    ellipsis = 0;
    s = s.slice(2);
    if (s === '') return ip;
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const d = Number.parseInt(s[off], 16);
      if (!/[0-9a-fA-F]/.test(s[off])) break;
      acc = acc * 16 + d;
      if (off > 3) return { msg: 'each group must have 4 or less digits', at: s };
      if (acc > 0xffff) return { msg: 'IPv6 field has value >=2^16', at: s };
    }
    if (off === 0) return { msg: 'each colon-separated field must have at least one digit', at: s };
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12) return { msg: 'embedded IPv4 address must replace the final 2 fields of the address', at: s };
      if (i + 4 > 16) return { msg: 'too many hex fields to fit an embedded IPv4 at the end of the address', at: s };
      const v4 = parseIPv4Fields(s);
      if (!(v4 instanceof Uint8Array)) return v4;
      ip.set(v4, i);
      s = '';
      i += 4;
      break;
    }
    ip[i] = acc >> 8;
    ip[i + 1] = acc & 0xff;
    i += 2;
    s = s.slice(off);
    if (s === '') break;
    if (s[0] !== ':') return { msg: 'unexpected character, want colon', at: s };
    if (s.length === 1) return { msg: 'colon must be followed by more characters', at: s };
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) return { msg: 'multiple :: in address', at: s };
      ellipsis = i;
      s = s.slice(1);
      if (s === '') break;
    }
  }
  if (s !== '') return { msg: 'trailing garbage after address', at: s };
  if (i < 16) {
    if (ellipsis < 0) return { msg: 'address string too short' };
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j];
    ip.fill(0, ellipsis, ellipsis + n);
  } else if (ellipsis >= 0) return { msg: 'the :: must expand to at least one field of zeros' };
  return ip;
}

/** Go's netip.ParseAddr: the bytes and zone, or Go's error text (`ParseAddr("x"): msg (at "rest")`). */
export function netipParseAddr(s: string): { bytes: Uint8Array; zone: string } | string {
  const fail = (e: AddrError) => `ParseAddr(${goQuote(s)}): ${e.msg}${e.at ? ` (at ${goQuote(e.at)})` : ''}`;
  // The first '.', ':' or '%' decides what the text was meant to be.
  const kind = /[.:%]/.exec(s)?.[0];
  if (kind === '.') {
    const r = parseIPv4Fields(s);
    return r instanceof Uint8Array ? { bytes: r, zone: '' } : fail(r);
  }
  if (kind === '%') return fail({ msg: 'missing IPv6 address' });
  if (kind !== ':') return fail({ msg: 'unable to parse IP' });
  const pct = s.indexOf('%');
  const zone = pct >= 0 ? s.slice(pct + 1) : '';
  if (pct >= 0 && zone === '') return fail({ msg: 'zone must be a non-empty string' });
  const r = parseIPv6(pct >= 0 ? s.slice(0, pct) : s);
  return r instanceof Uint8Array ? { bytes: r, zone } : fail(r);
}

export function is4In6(b: Uint8Array): boolean {
  return b.length === 16 && b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;
}

/** library/ip.go parseIPAddr: netip.ParseAddr without zones or IPv4-mapped IPv6 addresses; bytes or the error. */
export function parseAddr(s: string): Uint8Array | string {
  const r = netipParseAddr(s);
  if (typeof r === 'string') return `IP Address ${JSON.stringify(s)} parse error during conversion from string: ${r}`;
  if (r.zone !== '') return `IP address ${JSON.stringify(s)} with zone value is not allowed`;
  if (is4In6(r.bytes)) return `IPv4-mapped IPv6 address ${JSON.stringify(s)} is not allowed`;
  return r.bytes;
}

/** Canonical text of an address (dotted IPv4, RFC 5952 IPv6). */
export function formatIP(b: Uint8Array): string {
  if (b.length === 4) return Array.from(b).join('.');
  const words: number[] = [];
  for (let i = 0; i < 16; i += 2) words.push((b[i] << 8) | b[i + 1]);
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (w: number) => w.toString(16);
  if (bestStart < 0) return words.map(hex).join(':');
  return (
    words.slice(0, bestStart).map(hex).join(':') +
    '::' +
    words
      .slice(bestStart + bestLen)
      .map(hex)
      .join(':')
  );
}

export function ipOrFail(s: string): IP {
  const r = parseAddr(s);
  if (typeof r === 'string') fail(r);
  return new IP(r);
}

export const IP_LIB: Library = {
  name: 'kubernetes.net.ip',
  since: 30,
  types: ['net.IP'],
  functions: [
    fn(
      'ip',
      'parses an IPv4 or IPv6 address; of a CIDR: its address',
      [
        ['string_to_ip', 'ip(string): IP', ipOrFail],
        ['cidr_ip', 'CIDR.ip(): IP', (c: CIDR) => c.ip],
      ],
      {
        estimate: (ctx, id, _t, args) => (id === 'cidr_ip' ? { cost: fixed(1) } : args.length >= 1 ? { cost: R.factor(ctx.sizeEstimate(args[0]), STRING_TRAVERSAL_COST_FACTOR) } : undefined),
        cost: (id, args) => (id === 'cidr_ip' ? 1 : traversal(k8sActualSize(args[0]))),
      },
    ),
    fn('isIP', 'whether the string is a valid IP address', [['is_ip', 'isIP(string): bool', (s: string) => typeof parseAddr(s) !== 'string']], parseCost),
    fn('ip.isCanonical', 'whether the IP address is written in canonical form', [['ip_is_canonical', 'ip.isCanonical(string): bool', (s: string) => formatIP(ipOrFail(s).bytes) === s]], {
      estimate: (ctx, _id, _t, args) => (args.length >= 1 ? { cost: R.factor(ctx.sizeEstimate(args[0]), 2 * STRING_TRAVERSAL_COST_FACTOR) } : undefined),
      cost: (_id, args) => Math.ceil(k8sActualSize(args[0]) * 2 * STRING_TRAVERSAL_COST_FACTOR),
    }),
    fn('string', 'the address as a string', [['ip_to_string', 'string(IP): string', (v: IP) => v.toCelString()]]),
    fn('family', 'the IP family: 4 or 6', [['ip_family', 'IP.family(): int', (v: IP) => BigInt(v.family)]], unitCost),
    fn('isUnspecified', 'whether the address is 0.0.0.0 or ::', [['ip_is_unspecified', 'IP.isUnspecified(): bool', (v: IP) => v.bytes.every((b) => b === 0)]], unitCost),
    fn(
      'isLoopback',
      'whether the address is a loopback address',
      [['ip_is_loopback', 'IP.isLoopback(): bool', (v: IP) => (v.family === 4 ? v.bytes[0] === 127 : v.bytes.slice(0, 15).every((b) => b === 0) && v.bytes[15] === 1)]],
      unitCost,
    ),
    fn(
      'isLinkLocalMulticast',
      'whether the address is a link-local multicast address',
      [['ip_is_link_local_multicast', 'IP.isLinkLocalMulticast(): bool', (v: IP) => (v.family === 4 ? v.bytes[0] === 224 && v.bytes[1] === 0 && v.bytes[2] === 0 : v.bytes[0] === 0xff && (v.bytes[1] & 0x0f) === 0x02)]],
      unitCost,
    ),
    fn(
      'isLinkLocalUnicast',
      'whether the address is a link-local unicast address',
      [['ip_is_link_local_unicast', 'IP.isLinkLocalUnicast(): bool', (v: IP) => (v.family === 4 ? v.bytes[0] === 169 && v.bytes[1] === 254 : v.bytes[0] === 0xfe && (v.bytes[1] & 0xc0) === 0x80)]],
      unitCost,
    ),
    fn(
      'isGlobalUnicast',
      'whether the address is a global unicast address',
      [
        [
          'ip_is_global_unicast',
          'IP.isGlobalUnicast(): bool',
          (v: IP) => {
            const b = v.bytes;
            if (v.family === 4) {
              if (b.every((x) => x === 255)) return false;
              return !(b.every((x) => x === 0) || b[0] === 127 || (b[0] === 169 && b[1] === 254) || b[0] >= 224);
            }
            if (b.every((x) => x === 0) || (b.slice(0, 15).every((x) => x === 0) && b[15] === 1)) return false;
            return !(b[0] === 0xff || (b[0] === 0xfe && (b[1] & 0xc0) === 0x80));
          },
        ],
      ],
      unitCost,
    ),
  ],
};
