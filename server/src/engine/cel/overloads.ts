/**
 * The function and operator declarations the CRD rule checker knows: cel-go's standard library plus
 * the extension and Kubernetes libraries of the API server's base environment (compatibility 1.36).
 * Written as signature strings and parsed once; only types matter here (evaluation is elsewhere).
 */
import { T, type CelType } from './types';

export interface Overload {
  /** Function name as cel-go names it (`_==_`, `size`, `sets.contains`). */
  name: string;
  /** Receiver-style call (`x.f(y)`). */
  member: boolean;
  params: CelType[];
  result: CelType;
}

const OPAQUE: Record<string, string> = {
  Quantity: 'kubernetes.Quantity',
  IP: 'net.IP',
  CIDR: 'net.CIDR',
  URL: 'kubernetes.URL',
  Semver: 'kubernetes.Semver',
  Format: 'kubernetes.NamedFormat',
};

/** Parse a type written like `list<A>`, `map<K, V>`, `optional<T>`, `Quantity`. */
export function parseTypeSpec(s: string): CelType {
  let i = 0;
  const ws = () => {
    while (s[i] === ' ') i++;
  };
  const ident = () => {
    ws();
    const m = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(s.slice(i));
    if (!m) throw new Error(`bad type spec ${s}`);
    i += m[0].length;
    return m[0];
  };
  const type = (): CelType => {
    const n = ident();
    ws();
    const args: CelType[] = [];
    if (s[i] === '<') {
      i++;
      args.push(type());
      ws();
      while (s[i] === ',') {
        i++;
        args.push(type());
        ws();
      }
      if (s[i] !== '>') throw new Error(`bad type spec ${s}`);
      i++;
    }
    switch (n) {
      case 'list':
        return T.list(args[0]);
      case 'map':
        return T.map(args[0], args[1]);
      case 'optional':
        return T.optional(args[0]);
      case 'type':
        return T.type(args[0] ?? null);
      case 'int':
      case 'uint':
      case 'double':
      case 'bool':
      case 'string':
      case 'bytes':
      case 'timestamp':
      case 'duration':
      case 'dyn':
        return { kind: n } as CelType;
      case 'null':
        return T.null;
      default:
        if (/^[A-Z]$/.test(n)) return T.param(n);
        if (OPAQUE[n]) return T.opaque(OPAQUE[n]);
        throw new Error(`unknown type ${n}`);
    }
  };
  return type();
}

const NUM = ['int', 'uint', 'double'];
const CMP_SAME = ['int', 'uint', 'double', 'string', 'bytes', 'bool', 'timestamp', 'duration'];

function specs(): string[] {
  const out: string[] = [];
  const add = (...xs: string[]) => out.push(...xs);
  add('_==_(A, A): bool', '_!=_(A, A): bool');
  for (const op of ['_<_', '_<=_', '_>_', '_>=_']) {
    for (const t of CMP_SAME) add(`${op}(${t}, ${t}): bool`);
    for (const a of NUM) for (const b of NUM) if (a !== b) add(`${op}(${a}, ${b}): bool`);
  }
  for (const t of ['int', 'uint', 'double']) {
    add(`_+_(${t}, ${t}): ${t}`, `_-_(${t}, ${t}): ${t}`, `_*_(${t}, ${t}): ${t}`, `_/_(${t}, ${t}): ${t}`);
  }
  add('_%_(int, int): int', '_%_(uint, uint): uint');
  add('_+_(string, string): string', '_+_(bytes, bytes): bytes', '_+_(list<A>, list<A>): list<A>');
  add('_+_(timestamp, duration): timestamp', '_+_(duration, timestamp): timestamp', '_+_(duration, duration): duration');
  add('_-_(timestamp, timestamp): duration', '_-_(timestamp, duration): timestamp', '_-_(duration, duration): duration');
  add('-_(int): int', '-_(double): double', '!_(bool): bool');
  add('_[_](list<A>, int): A', '_[_](map<K, V>, K): V');
  add('_[_](optional<list<A>>, int): optional<A>', '_[_](optional<map<K, V>>, K): optional<V>');
  add('_[?_](list<A>, int): optional<A>', '_[?_](map<K, V>, K): optional<V>', '_[?_](optional<list<A>>, int): optional<A>', '_[?_](optional<map<K, V>>, K): optional<V>');
  add('@in(A, list<A>): bool', '@in(K, map<K, V>): bool');
  add('_&&_(bool, bool): bool', '_||_(bool, bool): bool', '_?_:_(bool, A, A): A');
  for (const t of ['string', 'bytes', 'list<A>', 'map<K, V>']) add(`size(${t}): int`, `${t}.size(): int`);
  add('int(int): int', 'int(uint): int', 'int(double): int', 'int(string): int', 'int(timestamp): int', 'int(duration): int');
  add('uint(uint): uint', 'uint(int): uint', 'uint(double): uint', 'uint(string): uint');
  add('double(double): double', 'double(int): double', 'double(uint): double', 'double(string): double');
  for (const t of ['string', 'int', 'uint', 'double', 'bool', 'bytes', 'timestamp', 'duration']) add(`string(${t}): string`);
  add('bytes(bytes): bytes', 'bytes(string): bytes', 'bool(bool): bool', 'bool(string): bool');
  add('duration(duration): duration', 'duration(string): duration');
  add('timestamp(timestamp): timestamp', 'timestamp(string): timestamp', 'timestamp(int): timestamp');
  add('dyn(A): dyn', 'type(A): type<A>');
  add('string.contains(string): bool', 'string.startsWith(string): bool', 'string.endsWith(string): bool');
  add('string.matches(string): bool', 'matches(string, string): bool');
  for (const f of ['getFullYear', 'getMonth', 'getDayOfYear', 'getDayOfMonth', 'getDate', 'getDayOfWeek', 'getHours', 'getMinutes', 'getSeconds', 'getMilliseconds']) {
    add(`timestamp.${f}(): int`, `timestamp.${f}(string): int`);
  }
  for (const f of ['getHours', 'getMinutes', 'getSeconds', 'getMilliseconds']) add(`duration.${f}(): int`);
  // optional library
  add('optional.of(A): optional<A>', 'optional.ofNonZeroValue(A): optional<A>', 'optional.none(): optional<dyn>');
  add('optional<A>.hasValue(): bool', 'optional<A>.value(): A', 'optional<A>.or(optional<A>): optional<A>', 'optional<A>.orValue(A): A');
  add('list<A>.first(): optional<A>', 'list<A>.last(): optional<A>', 'optional.unwrap(list<optional<A>>): list<A>', 'list<optional<A>>.unwrapOpt(): list<A>');
  // Desugared optional literal entries (optionalsyntax.ts)
  add('__optElem(optional<A>): list<A>', '__optMap(map<K, V>, K, optional<V>): map<K, V>');
  // ext.Strings v2
  add('string.charAt(int): string', 'string.indexOf(string): int', 'string.indexOf(string, int): int');
  add('string.lastIndexOf(string): int', 'string.lastIndexOf(string, int): int', 'string.lowerAscii(): string', 'string.upperAscii(): string');
  add('string.replace(string, string): string', 'string.replace(string, string, int): string', 'string.split(string): list<string>');
  add('string.split(string, int): list<string>', 'string.substring(int): string', 'string.substring(int, int): string', 'string.trim(): string');
  add('list<string>.join(): string', 'list<string>.join(string): string', 'string.format(list<dyn>): string', 'strings.quote(string): string');
  // ext.Sets
  add('sets.contains(list<A>, list<A>): bool', 'sets.equivalent(list<A>, list<A>): bool', 'sets.intersects(list<A>, list<A>): bool');
  // ext.Lists v3
  add('lists.range(int): list<int>', 'list<A>.distinct(): list<A>', 'list<A>.reverse(): list<A>', 'list<A>.slice(int, int): list<A>');
  add('list<list<A>>.flatten(): list<A>', 'list<dyn>.flatten(int): list<dyn>', 'list<A>.sort(): list<A>');
  // Kubernetes lists
  add('list<A>.isSorted(): bool', 'list<A>.indexOf(A): int', 'list<A>.lastIndexOf(A): int');
  for (const t of ['int', 'uint', 'double', 'duration']) add(`list<${t}>.sum(): ${t}`);
  for (const t of ['int', 'uint', 'double', 'bool', 'duration', 'timestamp', 'string', 'bytes']) add(`list<${t}>.min(): ${t}`, `list<${t}>.max(): ${t}`);
  // Kubernetes regex
  add('string.find(string): string', 'string.findAll(string): list<string>', 'string.findAll(string, int): list<string>');
  // Kubernetes urls
  add('url(string): URL', 'isURL(string): bool');
  for (const f of ['getScheme', 'getHost', 'getHostname', 'getPort', 'getEscapedPath']) add(`URL.${f}(): string`);
  add('URL.getQuery(): map<string, list<string>>');
  // Kubernetes quantity
  add('quantity(string): Quantity', 'isQuantity(string): bool', 'sign(Quantity): int');
  add('Quantity.isGreaterThan(Quantity): bool', 'Quantity.isLessThan(Quantity): bool', 'Quantity.compareTo(Quantity): int');
  add('Quantity.asApproximateFloat(): double', 'Quantity.asInteger(): int', 'Quantity.isInteger(): bool');
  add('Quantity.add(Quantity): Quantity', 'Quantity.add(int): Quantity', 'Quantity.sub(Quantity): Quantity', 'Quantity.sub(int): Quantity');
  // Kubernetes IP / CIDR
  add('ip(string): IP', 'isIP(string): bool', 'ip.isCanonical(string): bool', 'string(IP): string', 'IP.family(): int');
  for (const f of ['isUnspecified', 'isLoopback', 'isLinkLocalMulticast', 'isLinkLocalUnicast', 'isGlobalUnicast']) add(`IP.${f}(): bool`);
  add('cidr(string): CIDR', 'isCIDR(string): bool', 'string(CIDR): string', 'CIDR.containsIP(string): bool', 'CIDR.containsIP(IP): bool');
  add('CIDR.containsCIDR(string): bool', 'CIDR.containsCIDR(CIDR): bool', 'CIDR.ip(): IP', 'CIDR.masked(): CIDR', 'CIDR.prefixLength(): int');
  // Kubernetes format
  add('format.named(string): optional<Format>', 'Format.validate(string): optional<list<string>>');
  for (const f of ['dns1123Label', 'dns1123Subdomain', 'dns1035Label', 'qualifiedName', 'dns1123LabelPrefix', 'dns1123SubdomainPrefix', 'dns1035LabelPrefix', 'labelValue', 'uri', 'uuid', 'byte', 'date', 'datetime']) {
    add(`format.${f}(): Format`);
  }
  // Kubernetes semver
  add('semver(string): Semver', 'semver(string, bool): Semver', 'isSemver(string): bool', 'isSemver(string, bool): bool');
  add('Semver.isGreaterThan(Semver): bool', 'Semver.isLessThan(Semver): bool', 'Semver.compareTo(Semver): int');
  add('Semver.major(): int', 'Semver.minor(): int', 'Semver.patch(): int');
  return out;
}

function parseOverload(spec: string): Overload {
  const m = /^(.*)\((.*)\): (.*)$/.exec(spec);
  if (!m) throw new Error(`bad overload ${spec}`);
  const head = m[1];
  const params = m[2].trim() === '' ? [] : splitTop(m[2]).map(parseTypeSpec);
  const result = parseTypeSpec(m[3]);
  // `Recv.name` when Recv starts with a type (lower-case primitives, generics or opaque names); otherwise a qualified global.
  const dot = head.lastIndexOf('.');
  if (dot > 0) {
    const recv = head.slice(0, dot);
    const name = head.slice(dot + 1);
    if (!/^(optional|sets|lists|strings|format|ip)$/.test(recv) || recv.includes('<')) {
      return { name, member: true, params: [parseTypeSpec(recv), ...params], result };
    }
    if (recv === 'format' || recv === 'optional' || recv === 'sets' || recv === 'lists' || recv === 'strings' || recv === 'ip') {
      return { name: head, member: false, params, result };
    }
  }
  return { name: head, member: false, params, result };
}

function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const c of s) {
    if (c === '<') depth++;
    if (c === '>') depth--;
    if (c === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

let table: Map<string, Overload[]> | undefined;
let storedTable: Map<string, Overload[]> | undefined;

/** What the StoredExpressions environment of a 1.37 server adds to the NewExpressions one. */
const STORED_ONLY = ['list<A>.includes(A): bool'];

/**
 * All overloads by function name (global and member forms together): of the NewExpressions environment
 * (rules a CRD create or update introduces), or with `stored` of the StoredExpressions one (rules the
 * stored CRD already had, which an update keeps compiling there).
 */
export function overloadTable(stored = false): Map<string, Overload[]> {
  if (stored) {
    if (!storedTable) {
      storedTable = new Map([...overloadTable()].map(([k, v]) => [k, [...v]]));
      for (const s of STORED_ONLY) {
        const o = parseOverload(s);
        storedTable.set(o.name, [...(storedTable.get(o.name) ?? []), o]);
      }
    }
    return storedTable;
  }
  if (table) return table;
  table = new Map();
  for (const s of specs()) {
    const o = parseOverload(s);
    const list = table.get(o.name) ?? [];
    list.push(o);
    table.set(o.name, list);
  }
  return table;
}
