/**
 * The Kubernetes CIDR library (apiserver pkg/cel/library/cidr.go, 1.30) and its value: a prefix
 * parsed as Go's netip.ParsePrefix.
 */
import { R, STRING_TRAVERSAL_COST_FACTOR, fixed, type EstimateNode, type EstimatorContext } from '../cost/model';
import { k8sActualSize } from '../runtime/size';
import { fail, type OpaqueValue, type Val } from '../runtime/values';
import { fn, traversal, type Library } from './decls';
import { parseCost, unitCost } from './cost';
import { IP, formatIP, is4In6, netipParseAddr, parseAddr } from './ip';

/** A CIDR prefix: the address as written (host bits kept) and the prefix length. */
export class CIDR implements OpaqueValue {
  readonly celTypeName = 'net.CIDR';
  constructor(
    readonly ip: IP,
    readonly bits: number,
  ) {}
  equals(o: OpaqueValue): boolean {
    return o instanceof CIDR && this.bits === o.bits && this.ip.equals(o.ip);
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
  toCelString(): string {
    return `${formatIP(this.ip.bytes)}/${this.bits}`;
  }
  goString(): string {
    return this.toCelString();
  }
  size(): number {
    return Math.ceil(this.bits / 8);
  }
}

/** Go's netip.ParsePrefix: a CIDR, or Go's error text (`netip.ParsePrefix("x"): ...`). */
function netipParsePrefix(s: string): CIDR | string {
  const err = (msg: string) => `netip.ParsePrefix(${JSON.stringify(s)}): ${msg}`;
  const slash = s.lastIndexOf('/');
  if (slash < 0) return err("no '/'");
  const a = netipParseAddr(s.slice(0, slash));
  if (typeof a === 'string') return err(a);
  if (a.zone !== '') return err('IPv6 zones cannot be present in a prefix');
  const bitsStr = s.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bitsStr) || (bitsStr.length > 1 && bitsStr[0] === '0')) return err(`bad bits after slash: ${JSON.stringify(bitsStr)}`);
  const bits = Number(bitsStr);
  if (bits > a.bytes.length * 8) return err('prefix length out of range');
  return new CIDR(new IP(a.bytes), bits);
}

/** library/cidr.go parseCIDR: netip.ParsePrefix without IPv4-mapped IPv6 addresses; a CIDR or the error. */
export function parsePrefix(s: string): CIDR | string {
  const r = netipParsePrefix(s);
  if (typeof r === 'string') return `network address parse error during conversion from string: ${r}`;
  if (is4In6(r.ip.bytes)) return `IPv4-mapped IPv6 address ${JSON.stringify(s)} is not allowed`;
  return r;
}

/** stringToCIDR: its error wraps parseCIDR's in the same prefix again, as Go does. */
export function cidrOrFail(s: string): CIDR {
  const r = parsePrefix(s);
  if (typeof r === 'string') fail(`network address parse error during conversion from string: ${r}`);
  return r;
}

function containsCost(kind: 'ip' | 'cidr') {
  return {
    estimate: (ctx: EstimatorContext, id: string, _t: EstimateNode | undefined, args: EstimateNode[]) => {
      if (args.length < 1) return undefined;
      const sz = { min: 4, max: 16 };
      let c = R.factor(R.add(sz, sz), STRING_TRAVERSAL_COST_FACTOR);
      if (kind === 'cidr') c = R.add(R.add(c, R.factor(sz, STRING_TRAVERSAL_COST_FACTOR)), fixed(1));
      if (id === `cidr_contains_${kind}_string`) c = R.add(c, R.factor(ctx.sizeEstimate(args[0]), STRING_TRAVERSAL_COST_FACTOR));
      return { cost: c };
    },
    cost: (id: string, args: Val[]) => {
      if (args.length < 2) return undefined;
      const cidrSize = k8sActualSize(args[0]);
      let c = traversal(cidrSize + cidrSize);
      if (kind === 'cidr') c += traversal(cidrSize) + 1;
      if (id === `cidr_contains_${kind}_string`) c += traversal(k8sActualSize(args[1]));
      return c;
    },
  };
}

export const CIDR_LIB: Library = {
  name: 'kubernetes.net.cidr',
  since: 30,
  types: ['net.CIDR'],
  functions: [
    fn('cidr', 'parses a CIDR ("10.0.0.0/8")', [['string_to_cidr', 'cidr(string): CIDR', cidrOrFail]], parseCost),
    fn('isCIDR', 'whether the string is a valid CIDR', [['is_cidr', 'isCIDR(string): bool', (s: string) => typeof parsePrefix(s) !== 'string']], parseCost),
    fn('string', 'the CIDR as a string', [['cidr_to_string', 'string(CIDR): string', (v: CIDR) => v.toCelString()]]),
    fn(
      'containsIP',
      'whether the CIDR contains the address',
      [
        [
          'cidr_contains_ip_string',
          'CIDR.containsIP(string): bool',
          (c: CIDR, s: string) => {
            const r = parseAddr(s);
            return typeof r === 'string' ? fail('no such overload') : c.containsIP(new IP(r));
          },
        ],
        ['cidr_contains_ip_ip', 'CIDR.containsIP(IP): bool', (c: CIDR, ip: IP) => c.containsIP(ip)],
      ],
      containsCost('ip'),
    ),
    fn(
      'containsCIDR',
      'whether the CIDR contains the other CIDR',
      [
        ['cidr_contains_cidr_string', 'CIDR.containsCIDR(string): bool', (c: CIDR, s: string) => c.containsCIDR(cidrOrFail(s))],
        ['cidr_contains_cidr', 'CIDR.containsCIDR(CIDR): bool', (c: CIDR, o: CIDR) => c.containsCIDR(o)],
      ],
      containsCost('cidr'),
    ),
    fn('masked', 'the CIDR with the host bits cleared', [['cidr_masked', 'CIDR.masked(): CIDR', (c: CIDR) => c.masked()]], unitCost),
    fn('prefixLength', 'the prefix length in bits', [['cidr_prefix_length', 'CIDR.prefixLength(): int', (c: CIDR) => BigInt(c.bits)]], unitCost),
  ],
};
