/**
 * Generators for differential tests: random but realistic CRD schemas (value keywords, list/map types,
 * int-or-string, embedded resources, preserve-unknown-fields, defaults, CEL rules from a grammar of the
 * common rule shapes), valid instances of them, and mutations that make instances nearly fit.
 */
import { IntegralFloat } from '../../../server/src/engine/json/lossless';
import type { JSONSchemaProps, ValidationRule } from '../../../server/src/engine/schema/types';
import type { Random } from './random';

type Json = unknown;
type Obj = Record<string, Json>;

const PROP_NAMES = ['a', 'b', 'c', 'name', 'port', 'x-y', 'd.e', 'kind', 'if', 'in', 'x__y', 'items'];
const MAP_KEYS = ['k1', 'k2', 'a.b', 'x'];

/** Patterns with a value that matches and one that does not. */
const PATTERNS: [string, string, string][] = [
  ['^[a-z]+$', 'abc', 'Abc'],
  ['^[0-9]{1,3}$', '42', '1234'],
  ['abc|xyz', 'xyz', 'q'],
  ['^(?:[a-z0-9]([-a-z0-9]*[a-z0-9])?)$', 'my-name', '-bad'],
  ['^/', '/p', 'p'],
];

/** Formats with a valid and an invalid value. */
const STRING_FORMATS: [string, string, string][] = [
  ['date-time', '2024-01-02T03:04:05Z', 'yesterday'],
  ['date', '2024-01-02', '2024-13-40'],
  ['uuid', '123e4567-e89b-12d3-a456-426614174000', '123'],
  ['ipv4', '10.0.0.1', '10.0.0.256'],
  ['hostname', 'a.example.com', '-x-'],
  ['byte', 'aGVsbG8=', '%%%'],
  ['duration', '1h2m', 'forever'],
  ['cidr', '10.0.0.0/8', '10.0.0.0'],
  ['uri', 'https://example.com/x', '::'],
  ['email', 'a@example.com', 'nope'],
  ['int32', 'x', 'y'],
  ['unknown-format', 'x', 'y'],
];

function escapeCEL(name: string): string | undefined {
  if (!/^[a-zA-Z_][a-zA-Z0-9_.\-/]*$/.test(name)) return undefined;
  let s = name.replace(/__/g, '__underscores__').replace(/\./g, '__dot__').replace(/-/g, '__dash__').replace(/\//g, '__slash__');
  if (['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while'].includes(s)) {
    s = `__${s}__`;
  }
  return s;
}

export interface GenOptions {
  depth: number;
  /** Allow CEL rules. */
  rules: boolean;
  /** Allow defaults. */
  defaults: boolean;
}

/** A random schema of the given kind (or any), structural by construction. */
export function genSchema(r: Random, opts: GenOptions, kind?: string): JSONSchemaProps {
  const type =
    kind ??
    r.weighted([
      [opts.depth > 0 ? 4 : 0, 'object'],
      [opts.depth > 0 ? 2 : 0, 'array'],
      [4, 'string'],
      [2, 'integer'],
      [1, 'number'],
      [1, 'boolean'],
      [1, 'int-or-string'],
    ] as const);
  const sub: GenOptions = { ...opts, depth: opts.depth - 1 };
  let s: JSONSchemaProps;
  switch (type) {
    case 'object':
      s = genObjectSchema(r, sub);
      break;
    case 'array':
      s = genArraySchema(r, sub);
      break;
    case 'string':
      s = genStringSchema(r);
      break;
    case 'integer':
    case 'number':
      s = genNumberSchema(r, type);
      break;
    case 'boolean':
      s = { type: 'boolean' };
      break;
    default:
      s = { 'x-kubernetes-int-or-string': true };
      if (r.chance(0.3)) s.anyOf = [{ type: 'integer' }, { type: 'string' }];
      if (r.chance(0.2)) s.pattern = '^[0-9]+%?$';
  }
  if (r.chance(0.1)) s.nullable = true;
  if (opts.defaults && r.chance(0.15)) {
    const d = genValid(r, s, 1);
    if (d !== undefined) s.default = d;
  }
  if (opts.rules && r.chance(0.3)) {
    const rules = genRules(r, s);
    if (rules.length) s['x-kubernetes-validations'] = rules;
  }
  return s;
}

function genObjectSchema(r: Random, opts: GenOptions): JSONSchemaProps {
  const s: JSONSchemaProps = { type: 'object' };
  const shape = r.weighted([
    [6, 'props'],
    [2, 'map'],
    [1, 'preserve'],
    [1, 'embedded'],
  ] as const);
  if (shape === 'map') {
    s.additionalProperties = r.chance(0.85) ? genSchema(r, opts) : r.chance(0.5);
    if (r.chance(0.3)) s['x-kubernetes-map-type'] = r.pick(['granular', 'atomic']);
    if (r.chance(0.3)) s.maxProperties = r.int(0, 3);
    if (r.chance(0.2)) s.minProperties = r.int(0, 2);
    return s;
  }
  const props: Record<string, JSONSchemaProps> = {};
  for (const n of r.subset(PROP_NAMES, 0.25).slice(0, 4)) props[n] = genSchema(r, opts);
  if (shape === 'embedded') {
    s['x-kubernetes-embedded-resource'] = true;
    // An embedded resource's apiVersion and kind are strings (a CRD declaring them otherwise is rejected).
    for (const k of ['kind', 'apiVersion']) if (props[k] && props[k].type !== 'string') props[k] = { type: 'string' };
    if (Object.keys(props).length === 0 || r.chance(0.4)) s['x-kubernetes-preserve-unknown-fields'] = true;
  }
  if (shape === 'preserve') s['x-kubernetes-preserve-unknown-fields'] = true;
  if (Object.keys(props).length) {
    s.properties = props;
    if (r.chance(0.4)) s.required = r.subset(Object.keys(props), 0.5);
    if (r.chance(0.05)) s.required = [...(s.required ?? []), 'missing'];
  } else if (!s['x-kubernetes-preserve-unknown-fields'] && r.chance(0.5)) {
    s.properties = { a: genSchema(r, opts, 'string') };
  }
  if (r.chance(0.1)) s.maxProperties = r.int(0, 3);
  if (r.chance(0.05)) s['x-kubernetes-map-type'] = r.pick(['granular', 'atomic']);
  return s;
}

function genArraySchema(r: Random, opts: GenOptions): JSONSchemaProps {
  const listType = r.weighted([
    [3, undefined],
    [1, 'atomic'],
    [2, 'set'],
    [2, 'map'],
  ] as const);
  let items: JSONSchemaProps;
  const s: JSONSchemaProps = { type: 'array' };
  if (listType === 'map') {
    const keyType = r.pick(['string', 'integer'] as const);
    items = {
      type: 'object',
      properties: { key: { type: keyType }, v: genSchema(r, { ...opts, rules: opts.rules && r.chance(0.5) }) },
      required: r.chance(0.8) ? ['key'] : [],
    };
    if (r.chance(0.2)) {
      items.properties!.key2 = { type: 'string', default: 'dk' };
      s['x-kubernetes-list-map-keys'] = ['key', 'key2'];
    } else s['x-kubernetes-list-map-keys'] = ['key'];
  } else if (listType === 'set') {
    items = genSchema(r, opts, r.pick(['string', 'integer', 'number', 'boolean']));
  } else {
    items = genSchema(r, opts);
  }
  s.items = items;
  if (listType) s['x-kubernetes-list-type'] = listType;
  if (r.chance(0.3)) s.maxItems = r.int(0, 4);
  if (r.chance(0.2)) s.minItems = r.int(0, 2);
  if (r.chance(0.03)) s.uniqueItems = true;
  return s;
}

function genStringSchema(r: Random): JSONSchemaProps {
  const s: JSONSchemaProps = { type: 'string' };
  const k = r.weighted([
    [3, 'plain'],
    [2, 'enum'],
    [2, 'pattern'],
    [2, 'format'],
  ] as const);
  if (k === 'enum')
    s.enum = r
      .subset(['a', 'b', 'Exact', 'PathPrefix', 'c-d'], 0.6)
      .concat(['a'])
      .filter((x, i, a) => a.indexOf(x) === i);
  if (k === 'pattern') s.pattern = r.pick(PATTERNS)[0];
  if (k === 'format') s.format = r.pick(STRING_FORMATS)[0];
  if (r.chance(0.3)) s.maxLength = r.int(0, 12);
  if (r.chance(0.2)) s.minLength = r.int(0, 3);
  return s;
}

function genNumberSchema(r: Random, type: 'integer' | 'number'): JSONSchemaProps {
  const s: JSONSchemaProps = { type };
  if (type === 'integer' && r.chance(0.3)) s.format = r.pick(['int32', 'int64']);
  if (type === 'number' && r.chance(0.2)) s.format = r.pick(['float', 'double']);
  if (r.chance(0.4)) s.minimum = r.int(-5, 5);
  if (r.chance(0.4)) s.maximum = r.int(5, 100);
  if (s.minimum !== undefined && r.chance(0.3)) s.exclusiveMinimum = true;
  if (s.maximum !== undefined && r.chance(0.3)) s.exclusiveMaximum = true;
  if (r.chance(0.2)) s.multipleOf = type === 'integer' ? r.pick([2, 5]) : r.pick([0.5, 2]);
  if (r.chance(0.15)) s.enum = type === 'integer' ? [1, 2, 10] : [0.5, 1.5];
  return s;
}

/** CEL rules from a grammar of the shapes real CRDs use, typed by the node's schema. */
function genRules(r: Random, s: JSONSchemaProps): ValidationRule[] {
  const out: ValidationRule[] = [];
  const n = r.int(1, 2);
  for (let i = 0; i < n; i++) {
    const rule = genRule(r, s);
    if (!rule) continue;
    const v: ValidationRule = { rule };
    if (r.chance(0.3)) v.message = r.pick(['must be valid', 'Listener name must be unique', 'value is not allowed']);
    if (r.chance(0.15)) v.messageExpression = r.pick(["'bad: ' + string(self)", "'size ' + string(1)", 'self']);
    if (r.chance(0.1)) v.reason = r.pick(['FieldValueForbidden', 'FieldValueRequired', 'FieldValueDuplicate', 'FieldValueInvalid']);
    if (r.chance(0.1) && s.properties) v.fieldPath = '.' + r.pick(Object.keys(s.properties));
    out.push(v);
  }
  return out;
}

function genRule(r: Random, s: JSONSchemaProps): string | undefined {
  const transition = r.chance(0.12);
  if (transition) return r.pick(['self == oldSelf', 'oldSelf == self || true']);
  if (s['x-kubernetes-int-or-string']) return r.pick(["type(self) == string ? self.endsWith('%') : self >= 0", 'type(self) == int']);
  switch (s.type) {
    case 'string':
      return r.pick([
        'self.size() <= 5',
        "self.startsWith('a')",
        "self.matches('^[a-z-]*$')",
        'self.lowerAscii() == self',
        "self.contains('-')",
        "self.split('-').size() <= 2",
        "self.find('[0-9]+') == ''",
        'isURL(self)',
        "self == 'x' || self != 'x'",
        'self.size() > 100',
      ]);
    case 'integer':
      return r.pick(['self % 2 == 0', 'self >= 1', 'self < 100', 'int(string(self)) == self', 'self > 1.5']);
    case 'number':
      return r.pick(['self >= 0.5', 'self != 1.0', 'self > 1', 'double(int(self)) == self']);
    case 'boolean':
      return r.pick(['self == true', 'self || !self']);
    case 'array': {
      const items = s.items as JSONSchemaProps;
      const rs = ['self.size() <= 3', 'self.size() > 0'];
      if (items.type === 'string') rs.push("self.all(x, x != 'bad')", "self.exists(x, x == 'a')", 'self.isSorted()', "self.exists_one(x, x.startsWith('a'))");
      if (items.type === 'integer') rs.push('self.all(x, x >= 0)', 'self.sum() < 100', 'self.filter(x, x > 1).size() <= 1');
      if (items.type === 'object' && items.properties?.key) rs.push('self.all(x, has(x.key))', 'self.map(x, x.key).size() == self.size()');
      return r.pick(rs);
    }
    case 'object': {
      if (s.additionalProperties && typeof s.additionalProperties === 'object') {
        return r.pick(['self.size() <= 2', "!('bad' in self)", 'self.all(k, k.size() < 5)']);
      }
      const names = Object.keys(s.properties ?? {});
      if (names.length === 0) return r.pick(['true', 'has(self.kind) || !has(self.kind)']);
      const a = r.pick(names);
      const b = r.pick(names);
      const ea = r.chance(0.9) ? (escapeCEL(a) ?? a) : a;
      const eb = escapeCEL(b) ?? b;
      const pa = s.properties![a];
      const rs = [`has(self.${ea})`, `has(self.${ea}) == has(self.${eb})`, `!has(self.${ea}) || has(self.${eb})`];
      if (pa.type === 'string') rs.push(`!has(self.${ea}) || self.${ea}.size() > 1`, `self.${ea} == 'abc'`);
      if (pa.type === 'integer') rs.push(`!has(self.${ea}) || self.${ea} >= 2`);
      if (pa.type === 'array') rs.push(`!has(self.${ea}) || self.${ea}.size() < 2`);
      return r.pick(rs);
    }
  }
  return undefined;
}

/** A value that satisfies the schema's structural and value constraints (CEL rules may still fail). */
export function genValid(r: Random, s: JSONSchemaProps, depth = 4): Json {
  if (s.enum?.length) return r.pick(s.enum);
  if (s['x-kubernetes-int-or-string']) return r.chance(0.5) ? r.int(0, 20) : r.pick(['10%', '80', 'abc']);
  switch (s.type) {
    case 'object': {
      const o: Obj = {};
      if (s['x-kubernetes-embedded-resource']) {
        o.apiVersion = 'v1';
        o.kind = 'K';
        o.metadata = { name: r.pick(['n', 'my-obj']) };
      }
      if (s.additionalProperties !== undefined) {
        const max = Math.min(s.maxProperties ?? 3, 3);
        const ap = s.additionalProperties;
        for (const k of r.subset(MAP_KEYS, 0.4).slice(0, max)) {
          o[k] = typeof ap === 'object' ? genValid(r, ap, depth - 1) : r.pick(['v', 1, { nested: { x: 1 } }]);
        }
      }
      for (const [k, p] of Object.entries(s.properties ?? {})) {
        if ((s.required ?? []).includes(k) || r.chance(0.6)) {
          if (depth <= 0 && !(s.required ?? []).includes(k)) continue;
          const v = genValid(r, p, depth - 1);
          if (v !== undefined) o[k] = v;
        }
      }
      if (s['x-kubernetes-preserve-unknown-fields'] && r.chance(0.5)) o.extra = { any: [1, 'x'] };
      return o;
    }
    case 'array': {
      const items = s.items as JSONSchemaProps;
      const lo = s.minItems ?? 0;
      const hi = Math.min(s.maxItems ?? 3, 3);
      const n = hi < lo ? lo : r.int(lo, hi);
      const out: Json[] = [];
      const seen = new Set<string>();
      for (let i = 0; i < n * 3 && out.length < n; i++) {
        const v = genValid(r, items, depth - 1);
        if (s['x-kubernetes-list-type'] === 'map' && v && typeof v === 'object') {
          const o = v as Obj;
          o.key = items.properties?.key?.type === 'integer' ? i : `k${i}`;
        }
        const id = JSON.stringify(s['x-kubernetes-list-type'] === 'map' ? (v as Obj)?.key : v);
        if ((s['x-kubernetes-list-type'] === 'set' || s['x-kubernetes-list-type'] === 'map' || s.uniqueItems) && seen.has(id)) continue;
        seen.add(id);
        out.push(v);
      }
      return out;
    }
    case 'string': {
      if (s.pattern) {
        const p = PATTERNS.find(([re]) => re === s.pattern);
        if (p) return p[1];
      }
      if (s.format) {
        const f = STRING_FORMATS.find(([name]) => name === s.format);
        if (f) return f[1];
      }
      const lo = s.minLength ?? 0;
      const hi = Math.min(s.maxLength ?? 6, 6);
      const n = hi < lo ? lo : r.int(Math.max(lo, 1), Math.max(hi, 1));
      let out = '';
      for (let i = 0; i < n; i++) out += r.pick(['a', 'b', 'c', 'x', '-', '1']);
      return out;
    }
    case 'integer': {
      let lo = s.minimum ?? -10;
      let hi = s.maximum ?? 50;
      if (s.exclusiveMinimum) lo++;
      if (s.exclusiveMaximum) hi--;
      let v = r.int(lo, Math.max(lo, hi));
      if (s.multipleOf) v = Math.ceil(v / s.multipleOf) * s.multipleOf;
      return v;
    }
    case 'number': {
      const lo = s.minimum ?? -10;
      const hi = s.maximum ?? 50;
      let v = r.int(lo + 1, Math.max(lo + 1, hi - 1)) + (s.multipleOf ? 0 : 0.5);
      if (s.multipleOf) v = Math.ceil(v / s.multipleOf) * s.multipleOf;
      return Number.isInteger(v) ? new IntegralFloat(v) : v;
    }
    case 'boolean':
      return r.chance(0.5);
  }
  return r.pick(['x', 1, true]);
}

interface Slot {
  parent: Obj | Json[];
  key: string | number;
  schema: JSONSchemaProps | undefined;
}

/** All value positions of an instance together with the schema that applies there. */
function slots(v: Json, s: JSONSchemaProps | undefined, out: Slot[] = []): Slot[] {
  if (Array.isArray(v)) {
    const items = s && !Array.isArray(s.items) ? s.items : undefined;
    v.forEach((e, i) => {
      out.push({ parent: v, key: i, schema: items });
      slots(e, items, out);
    });
  } else if (v && typeof v === 'object' && !(v instanceof IntegralFloat)) {
    for (const [k, e] of Object.entries(v as Obj)) {
      const ps = s?.properties?.[k] ?? (s && typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
      out.push({ parent: v as Obj, key: k, schema: ps });
      slots(e, ps, out);
    }
  }
  return out;
}

/** Applies 1-2 random mutations in place; returns the mutated value (the root may be replaced). */
export function mutate(r: Random, v: Json, s: JSONSchemaProps): Json {
  const n = r.int(1, 2);
  for (let i = 0; i < n; i++) {
    const all = slots(v, s);
    if (all.length === 0) {
      if (v && typeof v === 'object' && !Array.isArray(v)) (v as Obj)[r.pick(['unknown', 'a'])] = r.pick([1, 'x', null]);
      continue;
    }
    const slot = r.pick(all);
    const cur = (slot.parent as Record<string | number, Json>)[slot.key];
    const ss = slot.schema;
    const op = r.weighted([
      [3, 'type'],
      [2, 'violate'],
      [2, 'delete'],
      [2, 'unknown'],
      [1, 'null'],
      [1, 'dup'],
    ] as const);
    const set = (x: Json) => ((slot.parent as Record<string | number, Json>)[slot.key] = x);
    switch (op) {
      case 'type':
        set(r.pick<Json>(['str', 7, 1.5, new IntegralFloat(3), true, [], {}, [1, 'a'], { k: 'v' }]));
        break;
      case 'violate':
        set(violate(r, cur, ss));
        break;
      case 'delete':
        if (Array.isArray(slot.parent)) slot.parent.splice(slot.key as number, 1);
        else delete slot.parent[slot.key as string];
        break;
      case 'unknown':
        if (cur && typeof cur === 'object' && !Array.isArray(cur) && !(cur instanceof IntegralFloat)) (cur as Obj)[r.pick(['zz', 'metadata', 'kind', 'status'])] = r.pick<Json>(['u', 1, { deep: 1 }, null]);
        else if (!Array.isArray(slot.parent)) slot.parent[r.pick(['zz', 'unknownField'])] = 'u';
        break;
      case 'null':
        set(null);
        break;
      case 'dup':
        if (Array.isArray(cur) && cur.length) cur.push(structuredCloneJson(cur[0]));
        else if (Array.isArray(slot.parent)) slot.parent.push(structuredCloneJson(cur));
        else set(violate(r, cur, ss));
        break;
    }
  }
  return v;
}

function violate(r: Random, cur: Json, s: JSONSchemaProps | undefined): Json {
  if (!s) return 'zzz';
  if (s.enum) return 'not-in-enum';
  if (s['x-kubernetes-int-or-string']) return r.pick<Json>([1.5, true, { a: 1 }, 'str']);
  switch (s.type) {
    case 'string': {
      if (s.pattern) return PATTERNS.find(([re]) => re === s.pattern)?.[2] ?? '!';
      if (s.format) return STRING_FORMATS.find(([n]) => n === s.format)?.[2] ?? '!';
      if (s.maxLength !== undefined) return 'x'.repeat(s.maxLength + 1);
      return r.pick(['', 'UPPER', 'a b', 'é']);
    }
    case 'integer':
      return r.pick<Json>([(s.maximum ?? 100) + 1, (s.minimum ?? 0) - 1, 3, 2147483648, 1.5, new IntegralFloat(2)]);
    case 'number':
      return r.pick<Json>([(s.maximum ?? 100) + 0.5, (s.minimum ?? 0) - 1, 7, new IntegralFloat(4)]);
    case 'array':
      return Array.isArray(cur) ? [...cur, ...cur.map(structuredCloneJson), 'x'] : ['x'];
    case 'object':
      return r.pick<Json>([{}, { zz: 1 }]);
  }
  return cur;
}

/** Deep copy that keeps IntegralFloat instances. */
export function structuredCloneJson<T>(v: T): T {
  if (v instanceof IntegralFloat) return new IntegralFloat(v.value) as T;
  if (Array.isArray(v)) return v.map(structuredCloneJson) as T;
  if (v && typeof v === 'object') {
    const o: Obj = {};
    for (const [k, e] of Object.entries(v)) o[k] = structuredCloneJson(e);
    return o as T;
  }
  return v;
}

/** JSON text of a case; IntegralFloat written with `.0` and bigints as digits (FORMAT.md "Values"). */
export function stringifyCase(v: unknown): string {
  const w = (x: unknown): string => {
    if (x instanceof IntegralFloat) return Number.isFinite(x.value) ? (Number.isInteger(x.value) && !/e/i.test(String(x.value)) ? `${x.value}.0` : String(x.value)) : 'null';
    if (typeof x === 'bigint') return x.toString();
    if (Array.isArray(x)) return `[${x.map(w).join(',')}]`;
    if (x && typeof x === 'object') {
      return `{${Object.entries(x)
        .filter(([, e]) => e !== undefined)
        .map(([k, e]) => `${JSON.stringify(k)}:${w(e)}`)
        .join(',')}}`;
    }
    return JSON.stringify(x) ?? 'null';
  };
  return w(v);
}
