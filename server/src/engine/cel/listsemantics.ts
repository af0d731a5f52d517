/**
 * Kubernetes list-type semantics in CEL (apiserver pkg/cel/common/values.go unstructuredSetList /
 * unstructuredMapList): `==` on set/map lists ignores order (map lists compare by key), `set + list`
 * is a union keeping left positions, `map + list` merges by key keeping left positions with right values.
 *
 * cel-js knows only plain lists, so rules whose operands (statically) involve such lists are rewritten
 * to call __k8sEquals / __k8sAdd, implemented here over values tagged by toCelValue. The same rewrite turns
 * has() on indexed operands (`has(self.l[0].x)`), which cel-js's macro rejects, into __k8sHas.
 */
import type { ASTNode } from '@marcbachmann/cel-js';
import type { CelType } from './types';
import { UNORDERED_LIST, MAP_KEYS, RAW_OBJECT, type RawObject } from './unstructured';
import { goDeepEqual } from '../validation/go-values';
import { children } from './checker';

export const EQUALS_FN = '__k8sEquals';
export const ADD_FN = '__k8sAdd';
/** has() on a selection whose operand is not a plain select chain (cel-js only accepts those). */
export const HAS_FN = '__k8sHas';

function isSelectChain(n: ASTNode): boolean {
  if (n.op === 'id') return true;
  if (n.op === '.') return isSelectChain((n.args as [ASTNode, string])[0]);
  return false;
}

function involvesUnordered(t: CelType | undefined, seen = new Set<unknown>()): boolean {
  if (!t || seen.has(t)) return false;
  seen.add(t);
  switch (t.kind) {
    case 'list':
      return !!t.listType || involvesUnordered(t.elem, seen);
    case 'map':
      return involvesUnordered(t.value, seen);
    case 'object':
      for (const f of t.decl.fields?.values() ?? []) if (involvesUnordered(f.type.cel, seen)) return true;
      return false;
    case 'opaque':
      return t.params.some((p) => involvesUnordered(p, seen));
    default:
      return false;
  }
}

/**
 * The rule source with list-type-sensitive `==`, `!=` and `+` replaced by helper calls, or undefined
 * when nothing needs it. typeOf gives the checked type of each sub-expression.
 */
export function rewriteListSemantics(src: string, ast: ASTNode, typeOf: (n: ASTNode) => CelType | undefined): string | undefined {
  let changed = false;
  const text = (n: ASTNode): string => {
    if (n.op === 'call' && n.args[0] === 'has' && n.args[1].length === 1) {
      const sel = n.args[1][0];
      if (sel.op === '.' && !isSelectChain(sel.args[0])) {
        changed = true;
        return `${HAS_FN}(${text(sel.args[0])}, ${JSON.stringify(sel.args[1])})`;
      }
    }
    if (n.op === 'rcall' && n.args[0] === 'sum' && n.args[2].length === 0) {
      // An empty list sums to the zero of its static element type (cel-js has no element type at run time).
      const t = typeOf(n.args[1]);
      const zero = t?.kind === 'list' ? ({ duration: "duration('0s')", double: '0.0', uint: '0u' } as Record<string, string>)[t.elem.kind] : undefined;
      if (zero) {
        changed = true;
        const recv = text(n.args[1]);
        return `((${recv}).size() == 0 ? ${zero} : (${recv}).sum())`;
      }
    }
    if (n.op === '==' || n.op === '!=' || n.op === '+') {
      const [a, b] = n.args as [ASTNode, ASTNode];
      const ta = typeOf(a);
      const tb = typeOf(b);
      // Also opaque-vs-null comparisons (`format.x().validate(s) == null`): legal in cel-go (legacy nullability), rejected by cel-js.
      const opaqueNull = (ta?.kind === 'opaque' && tb?.kind === 'null_type') || (tb?.kind === 'opaque' && ta?.kind === 'null_type');
      // Objects and maps from the schema compare as unstructuredMap.Equal does (nulls and unknown fields count).
      const objects = ta?.kind === 'object' || tb?.kind === 'object' || ta?.kind === 'map' || tb?.kind === 'map';
      const need = n.op === '+' ? ta?.kind === 'list' && !!ta.listType : involvesUnordered(ta) || involvesUnordered(tb) || opaqueNull || objects;
      if (need) {
        changed = true;
        const call = `${n.op === '+' ? ADD_FN : EQUALS_FN}(${text(a)}, ${text(b)})`;
        return n.op === '!=' ? `!${call}` : call;
      }
    }
    const kids = children(n).filter((k) => k.range && k.range.start >= n.range.start && k.range.end <= n.range.end).sort((x, y) => x.range.start - y.range.start);
    let out = '';
    let pos = n.range.start;
    for (const k of kids) {
      if (k.range.start < pos) continue;
      out += src.slice(pos, k.range.start) + text(k);
      pos = k.range.end;
    }
    return out + src.slice(pos, n.range.end);
  };
  const body = text(ast);
  if (!changed) return undefined;
  return src.slice(0, ast.range.start) + body + src.slice(ast.range.end);
}

type Eq = (a: unknown, b: unknown) => boolean;

function tagOf(v: unknown): string | undefined {
  return Array.isArray(v) ? ((v as unknown as Record<symbol, string>)[UNORDERED_LIST] as string | undefined) : undefined;
}
function keysOf(v: unknown): string[] | undefined {
  return Array.isArray(v) ? ((v as unknown as Record<symbol, string[]>)[MAP_KEYS] as string[] | undefined) : undefined;
}


function mapGet(m: unknown, k: string): unknown {
  return m instanceof Map ? m.get(k) : undefined;
}

function sameKeys(a: unknown, b: unknown, keys: string[], eq: Eq): boolean {
  return keys.every((k) => {
    const x = mapGet(a, k);
    const y = mapGet(b, k);
    if (x === undefined || y === undefined) return x === y;
    return eq(x, y);
  });
}

/** Equality with Kubernetes list-type semantics, recursively; base handles scalars. */
export function k8sEquals(a: unknown, b: unknown, base: Eq): boolean {
  const eq: Eq = (x, y) => k8sEquals(x, y, base);
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    const t = tagOf(a) ?? tagOf(b);
    if (t === 'set') return a.every((x) => b.some((y) => eq(x, y))) && b.every((y) => a.some((x) => eq(x, y)));
    if (t === 'map') {
      const keys = keysOf(a) ?? keysOf(b) ?? [];
      return a.every((x) => {
        const y = b.find((e) => sameKeys(x, e, keys, eq));
        return y !== undefined && eq(x, y);
      });
    }
    return a.every((x, i) => eq(x, b[i]));
  }
  if (a instanceof Map && b instanceof Map) {
    const ra = (a as unknown as Record<symbol, RawObject | undefined>)[RAW_OBJECT];
    const rb = (b as unknown as Record<symbol, RawObject | undefined>)[RAW_OBJECT];
    if (ra && rb) return unstructuredMapEquals(a, ra, b, rb, eq);
    if (a.size !== b.size) return false;
    for (const [k, v] of a) {
      if (!b.has(k)) return false;
      if (!eq(v, b.get(k))) return false;
    }
    return true;
  }
  return base(a, b);
}

/**
 * unstructuredMap.Equal: sizes of the JSON objects (null and unknown fields included), known fields by
 * their CEL values (absent or null on both sides is equal), unknown fields deep-equal only when the
 * other object has them too.
 */
function unstructuredMapEquals(a: Map<unknown, unknown>, ra: RawObject, b: Map<unknown, unknown>, rb: RawObject, eq: Eq): boolean {
  const keys = Object.keys(ra.value);
  if (keys.length !== Object.keys(rb.value).length) return false;
  for (const k of keys) {
    if (ra.known(k)) {
      const mk = ra.mapKey(k);
      const va = ra.value[k] === null ? undefined : a.get(mk);
      const vb = Object.prototype.hasOwnProperty.call(rb.value, k) && rb.value[k] !== null ? b.get(mk) : undefined;
      if ((va === undefined) !== (vb === undefined)) return false;
      if (va !== undefined && !eq(va, vb)) return false;
    } else if (Object.prototype.hasOwnProperty.call(rb.value, k) && !goDeepEqual(ra.value[k], rb.value[k])) return false;
  }
  return true;
}

/** `+` with Kubernetes list-type semantics on the left operand. */
export function k8sAdd(a: unknown, b: unknown, base: Eq): unknown {
  if (!Array.isArray(a) || !Array.isArray(b)) throw new Error('no such overload');
  const t = tagOf(a);
  const eq: Eq = (x, y) => k8sEquals(x, y, base);
  let out: unknown[];
  if (t === 'set') {
    out = [...a];
    for (const y of b) if (!out.some((x) => eq(x, y))) out.push(y);
  } else if (t === 'map') {
    const keys = keysOf(a) ?? [];
    out = [...a];
    for (const y of b) {
      const i = out.findIndex((x) => sameKeys(x, y, keys, eq));
      if (i >= 0) out[i] = y;
      else out.push(y);
    }
  } else {
    out = [...a, ...b];
  }
  if (t) (out as unknown as Record<symbol, unknown>)[UNORDERED_LIST] = t;
  const k = keysOf(a);
  if (k) (out as unknown as Record<symbol, unknown>)[MAP_KEYS] = k;
  return out;
}

/** has(x.f) on an evaluated operand: presence of field f in a map/object value. */
export function k8sHas(x: unknown, field: string): boolean {
  if (x instanceof Map) return x.has(field);
  if (x !== null && typeof x === 'object' && !Array.isArray(x)) return Object.prototype.hasOwnProperty.call(x, field);
  throw new Error(`no such overload`);
}
