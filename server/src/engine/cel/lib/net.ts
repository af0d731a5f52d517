/**
 * Kubernetes IP and CIDR libraries (apiserver pkg/cel/library/ip.go, cidr.go): addresses parsed as
 * Go's netip.ParseAddr/ParsePrefix (no zones, no IPv4-mapped IPv6, no leading-zero octets), printed
 * canonically (RFC 5952), with Go's error texts.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { fail } from './errors';

/** An IP address: 4 or 16 bytes. */
export class IP {
  static celTypeName = 'net.IP';
  constructor(readonly bytes: Uint8Array) {}
  get family(): 4 | 6 {
    return this.bytes.length === 4 ? 4 : 6;
  }
  equals(o: IP): boolean {
    return this.bytes.length === o.bytes.length && this.bytes.every((b, i) => b === o.bytes[i]);
  }
  celString(): string {
    return formatIP(this.bytes);
  }
}

/** A CIDR prefix: the address as written (host bits kept) and the prefix length. */
export class CIDR {
  static celTypeName = 'net.CIDR';
  constructor(readonly ip: IP, readonly bits: number) {}
  equals(o: CIDR): boolean {
    return this.bits === o.bits && this.ip.equals(o.ip);
  }
  masked(): CIDR {
    const b = Uint8Array.from(this.ip.bytes);
    for (let i = 0; i < b.length * 8; i++) if (i >= this.bits) b[i >> 3] &= ~(0x80 >> (i & 7));
    return new CIDR(new IP(b), this.bits);
  }
  containsIP(ip: IP): boolean {
    if (ip.family !== this.ip.family) return false;
    for (let i = 0; i < this.bits; i++) {
      const m = 0x80 >> (i & 7);
      if ((ip.bytes[i >> 3] & m) !== (this.ip.bytes[i >> 3] & m)) return false;
    }
    return true;
  }
  containsCIDR(o: CIDR): boolean {
    return o.ip.family === this.ip.family && o.bits >= this.bits && this.containsIP(o.ip);
  }
  celString(): string {
    return `${formatIP(this.ip.bytes)}/${this.bits}`;
  }
}

function parseIPv4(s: string): Uint8Array | string {
  const out = new Uint8Array(4);
  const fields = s.split('.');
  if (fields.length > 4) return 'IPv4 address too long';
  if (fields.length < 4) return 'IPv4 address too short';
  for (let i = 0; i < 4; i++) {
    const f = fields[i];
    if (f === '') return 'IPv4 field must have at least one digit';
    if (!/^\d+$/.test(f)) return 'unexpected character';
    if (f.length > 1 && f[0] === '0') return 'IPv4 field has octet with leading zero';
    const v = Number(f);
    if (v > 255) return 'IPv4 field has value >255';
    out[i] = v;
  }
  return out;
}

function parseIPv6(s: string): Uint8Array | string {
  if (s.includes('%')) return 'IPv6 zone not allowed';
  const out = new Uint8Array(16);
  let ellipsis = -1;
  let i = 0;
  let rest = s;
  if (rest.startsWith('::')) {
    ellipsis = 0;
    rest = rest.slice(2);
    if (rest === '') return out;
  }
  while (rest.length) {
    const m = /^[0-9a-fA-F]{1,4}/.exec(rest);
    if (!m) {
      if (rest[0] === ':') return 'each colon-separated field must have at least one digit';
      return 'unexpected character';
    }
    if (m[0].length === 4 && /^[0-9a-fA-F]{5}/.test(rest)) return 'IPv6 field has value >=2^16';
    // Embedded IPv4 tail.
    if (rest[m[0].length] === '.') {
      if (ellipsis < 0 && i !== 12) return 'embedded IPv4 address must replace the final 2 fields of the address';
      if (i + 4 > 16) return 'too many hex fields to fit an embedded IPv4 at the end of the address';
      const v4 = parseIPv4(rest);
      if (typeof v4 === 'string') return v4;
      out.set(v4, i);
      i += 4;
      rest = '';
      break;
    }
    const v = parseInt(m[0], 16);
    if (i >= 16) return 'too many fields';
    out[i] = v >> 8;
    out[i + 1] = v & 0xff;
    i += 2;
    rest = rest.slice(m[0].length);
    if (rest === '') break;
    if (rest[0] !== ':') return 'unexpected character, want colon';
    if (rest.length === 1) return 'colon must be followed by more characters';
    rest = rest.slice(1);
    if (rest[0] === ':') {
      if (ellipsis >= 0) return 'multiple :: in address';
      ellipsis = i;
      rest = rest.slice(1);
      if (rest === '') break;
    }
    if (i === 16 && rest.length) return 'trailing garbage after address';
  }
  if (ellipsis < 0) {
    if (i !== 16) return 'address string too short';
  } else {
    const n = 16 - i;
    if (n < 2) return 'the :: must expand to at least one field of zeros';
    for (let j = i - 1; j >= ellipsis; j--) out[j + n] = out[j];
    for (let j = ellipsis; j < ellipsis + n; j++) out[j] = 0;
  }
  return out;
}

/** netip.ParseAddr plus the Kubernetes restrictions; bytes or an error text. */
export function parseAddr(s: string): Uint8Array | string {
  let r: Uint8Array | string;
  if (s === '') return `ParseAddr(""): unable to parse IP`;
  if (s.includes(':')) r = parseIPv6(s);
  else if (s.includes('.')) r = parseIPv4(s);
  else r = 'unable to parse IP';
  if (typeof r === 'string') return `ParseAddr(${JSON.stringify(s)}): ${r}`;
  if (r.length === 16 && r.slice(0, 10).every((b) => b === 0) && r[10] === 0xff && r[11] === 0xff) {
    return 'IPv4-mapped IPv6 address is not allowed';
  }
  return r;
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
  return words.slice(0, bestStart).map(hex).join(':') + '::' + words.slice(bestStart + bestLen).map(hex).join(':');
}

function ipOrFail(s: string): IP {
  const r = parseAddr(s);
  if (typeof r === 'string') fail(`IP Address ${JSON.stringify(s)} parse error during conversion from string: ${r}`);
  return new IP(r);
}

/** netip.ParsePrefix plus the Kubernetes restrictions; a CIDR or an error text. */
export function parsePrefix(s: string): CIDR | string {
  const slash = s.lastIndexOf('/');
  if (slash < 0) return `netip.ParsePrefix(${JSON.stringify(s)}): no '/'`;
  const addr = parseAddr(s.slice(0, slash));
  if (typeof addr === 'string') return `netip.ParsePrefix(${JSON.stringify(s)}): ${addr}`;
  const bitsStr = s.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bitsStr) || (bitsStr.length > 1 && bitsStr[0] === '0')) return `netip.ParsePrefix(${JSON.stringify(s)}): bad bits after slash: ${JSON.stringify(bitsStr)}`;
  const bits = Number(bitsStr);
  if (bits > addr.length * 8) return `netip.ParsePrefix(${JSON.stringify(s)}): prefix length out of range`;
  return new CIDR(new IP(addr), bits);
}

function cidrOrFail(s: string): CIDR {
  const r = parsePrefix(s);
  if (typeof r === 'string') fail(`network address parse error during conversion from string: ${r}`);
  return r;
}

function isPrivate(b: Uint8Array): boolean {
  return b.length === 4 ? b[0] === 10 || (b[0] === 172 && (b[1] & 0xf0) === 16) || (b[0] === 192 && b[1] === 168) : (b[0] & 0xfe) === 0xfc;
}
void isPrivate;

class IPNamespace {}

/** `net` namespace so the type names `net.IP` / `net.CIDR` resolve as values. */
class NetNamespace {
  constructor(readonly IP: unknown, readonly CIDR: unknown) {}
}

/** Registers the IP and CIDR libraries. */
export function installNet(env: Environment): void {
  const f = (sig: string, h: (...a: never[]) => unknown) => env.registerFunction(sig, h as (...a: unknown[]) => unknown);
  const I = 'net.IP';
  const C = 'net.CIDR';
  env.registerType(I, IP);
  env.registerType(C, CIDR);
  env.registerType('IPNamespace', IPNamespace);
  env.registerConstant('ip', 'IPNamespace', new IPNamespace());
  env.registerOperator(`${I} == ${I}`, (a: IP, b: IP) => a.equals(b));
  env.registerOperator(`${C} == ${C}`, (a: CIDR, b: CIDR) => a.equals(b));
  f(`ip(string): ${I}`, (s: string) => ipOrFail(s));
  f(`isIP(string): bool`, (s: string) => typeof parseAddr(s) !== 'string');
  f(`IPNamespace.isCanonical(string): bool`, (_n: unknown, s: string) => formatIP(ipOrFail(s).bytes) === s);
  f(`string__k8s(${I}): string`, (v: IP) => v.celString());
  f(`string__k8s(${C}): string`, (v: CIDR) => v.celString());
  f(`${I}.family(): int`, (v: IP) => BigInt(v.family));
  f(`${I}.isUnspecified(): bool`, (v: IP) => v.bytes.every((b) => b === 0));
  f(`${I}.isLoopback(): bool`, (v: IP) => (v.family === 4 ? v.bytes[0] === 127 : v.bytes.slice(0, 15).every((b) => b === 0) && v.bytes[15] === 1));
  f(`${I}.isLinkLocalMulticast(): bool`, (v: IP) =>
    v.family === 4 ? v.bytes[0] === 224 && v.bytes[1] === 0 && v.bytes[2] === 0 : v.bytes[0] === 0xff && (v.bytes[1] & 0x0f) === 0x02);
  f(`${I}.isLinkLocalUnicast(): bool`, (v: IP) =>
    v.family === 4 ? v.bytes[0] === 169 && v.bytes[1] === 254 : v.bytes[0] === 0xfe && (v.bytes[1] & 0xc0) === 0x80);
  f(`${I}.isGlobalUnicast(): bool`, (v: IP) => {
    const b = v.bytes;
    if (v.family === 4) {
      if (b.every((x) => x === 255)) return false;
      if (b.every((x) => x === 0) || b[0] === 127 || (b[0] === 169 && b[1] === 254) || b[0] >= 224) return false;
      return true;
    }
    if (b.every((x) => x === 0) || (b.slice(0, 15).every((x) => x === 0) && b[15] === 1)) return false;
    if (b[0] === 0xff || (b[0] === 0xfe && (b[1] & 0xc0) === 0x80)) return false;
    return true;
  });
  f(`cidr(string): ${C}`, (s: string) => cidrOrFail(s));
  f(`isCIDR(string): bool`, (s: string) => typeof parsePrefix(s) !== 'string');
  f(`${C}.containsIP(${I}): bool`, (c: CIDR, ip: IP) => c.containsIP(ip));
  f(`${C}.containsIP(string): bool`, (c: CIDR, s: string) => {
    const r = parseAddr(s);
    if (typeof r === 'string') fail('no such overload');
    return c.containsIP(new IP(r));
  });
  f(`${C}.containsCIDR(${C}): bool`, (c: CIDR, o: CIDR) => c.containsCIDR(o));
  f(`${C}.containsCIDR(string): bool`, (c: CIDR, s: string) => c.containsCIDR(cidrOrFail(s)));
  f(`${C}.ip(): ${I}`, (c: CIDR) => c.ip);
  f(`${C}.masked(): ${C}`, (c: CIDR) => c.masked());
  f(`${C}.prefixLength(): int`, (c: CIDR) => BigInt(c.bits));
  // type(ip(...)) returns cel-js' Type object for net.IP, compared by identity: expose those same objects.
  const ipType = env.evaluate("type(ip('0.0.0.0'))");
  const cidrType = env.evaluate("type(cidr('0.0.0.0/0'))");
  env.registerType('NetNamespace', { ctor: NetNamespace, fields: { IP: 'type', CIDR: 'type' } });
  env.registerConstant('net', 'NetNamespace', new NetNamespace(ipType, cidrType));
}
