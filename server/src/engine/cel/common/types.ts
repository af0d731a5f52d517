/**
 * CEL types as the checker sees them (cel-go common/types, checker/format.go) and Kubernetes' DeclType
 * with its size facts for cost estimation (k8s.io/apiserver/pkg/cel types.go, escaping.go), and the uint
 * value and int64 bounds the parser's literals and the runtime share. A schema's
 * types are built from these in engine/schema/cel/model.ts.
 */
import type { JSONSchemaProps } from '../../schema/types';

/** A CEL type as the checker sees it (cel-go's *types.Type, reduced to what CRD rules need). */
export type CelType =
  | { kind: 'int' | 'uint' | 'double' | 'bool' | 'string' | 'bytes' | 'null_type' | 'timestamp' | 'duration' | 'dyn' | 'error' }
  | { kind: 'list'; elem: CelType; listType?: 'set' | 'map'; mapKeys?: string[] }
  | { kind: 'map'; key: CelType; value: CelType }
  | { kind: 'object'; name: string; decl: DeclType }
  | { kind: 'opaque'; name: string; params: CelType[] }
  | { kind: 'type'; param: CelType | null }
  | { kind: 'param'; name: string };

export const T = {
  int: { kind: 'int' } as CelType,
  uint: { kind: 'uint' } as CelType,
  double: { kind: 'double' } as CelType,
  bool: { kind: 'bool' } as CelType,
  string: { kind: 'string' } as CelType,
  bytes: { kind: 'bytes' } as CelType,
  null: { kind: 'null_type' } as CelType,
  timestamp: { kind: 'timestamp' } as CelType,
  duration: { kind: 'duration' } as CelType,
  dyn: { kind: 'dyn' } as CelType,
  error: { kind: 'error' } as CelType,
  list: (elem: CelType): CelType => ({ kind: 'list', elem }),
  map: (key: CelType, value: CelType): CelType => ({ kind: 'map', key, value }),
  opaque: (name: string, ...params: CelType[]): CelType => ({ kind: 'opaque', name, params }),
  optional: (t: CelType): CelType => ({ kind: 'opaque', name: 'optional_type', params: [t] }),
  type: (param: CelType | null): CelType => ({ kind: 'type', param }),
  param: (name: string): CelType => ({ kind: 'param', name }),
};

/** cel-go's FormatCELType: how types are printed in checker messages. */
export function formatCelType(t: CelType): string {
  switch (t.kind) {
    // checker/format.go prints the kinds, not the runtime type names (type(x) still says google.protobuf.*).
    case 'timestamp':
      return 'timestamp';
    case 'duration':
      return 'duration';
    case 'list':
      return `list(${formatCelType(t.elem)})`;
    case 'map':
      return `map(${formatCelType(t.key)}, ${formatCelType(t.value)})`;
    case 'object':
      return t.name;
    case 'opaque':
      return t.params.length ? `${t.name}(${t.params.map(formatCelType).join(', ')})` : t.name;
    case 'type':
      return t.param ? `type(${formatCelType(t.param)})` : 'type';
    case 'param':
      return t.name;
    case 'error':
      return '!error!';
    case 'null_type':
      return 'null';
    default:
      return t.kind;
  }
}

export interface DeclField {
  /** The escaped (CEL) name. */
  name: string;
  /** The property name in the JSON object. */
  jsonName: string;
  type: DeclType;
  required: boolean;
}

/** k8s DeclType: a CEL type plus the size facts used by cost estimation. */
export interface DeclType {
  cel: CelType;
  name: string;
  /** Declared object fields keyed by escaped name (objects only). */
  fields?: Map<string, DeclField>;
  elemType?: DeclType;
  keyType?: DeclType;
  maxElements: number;
  minSerializedSize: number;
  /** The schema node this type was built from (undefined for synthetic types). */
  schema?: JSONSchemaProps;
}

export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;

const RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

/**
 * Escape a property name into a CEL identifier (k8s cel.Escape); undefined when the name cannot be
 * accessed from CEL (leading digit, characters outside [a-zA-Z0-9_.\-/]).
 */
export function escapeName(ident: string): string | undefined {
  if (ident.length === 0 || (ident[0] >= '0' && ident[0] <= '9')) return undefined;
  if (RESERVED.has(ident)) return `__${ident}__`;
  if (!/^[a-zA-Z0-9_.\-/]*$/.test(ident)) return undefined;
  return ident.replace(/__|[-./]/g, (s) => (s === '__' ? '__underscores__' : s === '.' ? '__dot__' : s === '-' ? '__dash__' : '__slash__'));
}

const decls = new WeakMap<CelType, DeclType>();

/** Remembers the declaration a CEL type came from (declOf). */
export function register(d: DeclType): DeclType {
  decls.set(d.cel, d);
  return d;
}

/** The schema declaration a CEL type was made from, when it came from a schema (for editor features). */
export function declOf(t: CelType): DeclType | undefined {
  if (t.kind === 'object') return t.decl;
  return decls.get(t);
}

/** DeclType.MaybeAssignTypeName: names object types by their path from the rule's self type. */
export function assignTypeName(t: DeclType, name: string): DeclType {
  if (t.fields) {
    const n = t.name !== 'object' ? t.name : name;
    const fields = new Map<string, DeclField>();
    for (const [k, f] of t.fields) fields.set(k, { ...f, type: assignTypeName(f.type, `${n}.${k}`) });
    const decl: DeclType = { ...t, name: n, fields };
    decl.cel = { kind: 'object', name: n, decl };
    return decl;
  }
  if (t.cel.kind === 'map' && t.elemType) {
    const elem = assignTypeName(t.elemType, `${name}.@elem`);
    return register({ ...t, elemType: elem, cel: T.map(T.string, elem.cel) });
  }
  if (t.cel.kind === 'list' && t.elemType) {
    const elem = assignTypeName(t.elemType, `${name}.@idx`);
    return register({ ...t, elemType: elem, cel: { ...(t.cel as CelType & { kind: 'list' }), elem: elem.cel } });
  }
  return t;
}

/** maxCardinality: how often data of this minimum size could repeat in one request. */
export function maxCardinality(minSize: number): number {
  return Math.floor(MAX_REQUEST_SIZE_BYTES / (minSize + 1));
}

// The integer ranges and the uint value, shared by the parser (literals) and the runtime.
export const MAX_INT64 = 9223372036854775807n;
export const MIN_INT64 = -9223372036854775808n;
export const MAX_UINT64 = 18446744073709551615n;

/** A CEL uint. Instances are interned, so `===` and Map keys work. */
export class Uint {
  private static readonly cache = new Map<bigint, Uint>();
  private constructor(readonly value: bigint) {}
  static of(v: bigint): Uint {
    let u = Uint.cache.get(v);
    if (!u) {
      if (Uint.cache.size > 10000) Uint.cache.clear();
      u = new Uint(v);
      Uint.cache.set(v, u);
    }
    return u;
  }
  toString(): string {
    return this.value.toString();
  }
}
