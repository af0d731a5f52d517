/**
 * kube-openapi's SchemaValidator (pkg/validation/validate) on the raw openAPIV3Schema of a CRD, after
 * apiextensions' conversion (int-or-string becomes type [integer,string]; unsupported formats stripped).
 *
 * Why hand-written instead of ajv: the API server's findings are kube-openapi's, with its messages, its
 * path strings, its odd corners (a float that is "a JSON integer" passes `type: integer`; an anyOf reports
 * the errors of the branch with the most successful checks, which needs kube-openapi's MatchCount), none
 * of which a generic JSON-schema validator reproduces.
 *
 * A schema node is compiled once into a closure and cached by object identity (WeakMap), so validating
 * on every keystroke only walks the value.
 */
import type { PathSegment } from '../field';
import { compilePattern, matchPattern, RegexBudget } from '../regex/re2';
import type { JSONSchemaProps } from '../schema/types';
import { effectiveFormat, formatChecker } from './formats';
import { asFloat64, asInt64, floatToInt64, formatFloatF, formatGoFloat, goDeepEqual, goKind, isFloat64AJSONInteger, runeCount, type GoKind, goQuote } from '../json/go';
import { invalidTypeError, plainError, type OpenAPIError } from './kube-openapi-errors';
import { IntegralFloat } from '../json/lossless';
import { makeMapList, type MapList } from '../listtype/maplist';

/** A kube-openapi Result: errors plus the MatchCount used to pick the best failing anyOf/oneOf branch. */
export interface Result {
  errors: OpenAPIError[];
  matchCount: number;
}

/**
 * A check a bound cut short (a pattern too large to compile or too expensive to match here): not an
 * error, and the value counts as passing it (a false error is worse than a missed one).
 */
export interface NotChecked {
  /** The kube-openapi path string, as in OpenAPIError.name. */
  name: string;
  segments?: PathSegment[];
  detail: string;
}

/**
 * The state of one validateAgainstSchema call: the pattern work budget of the object, and the checks
 * bounds cut short. The compiled validators are shared closures, so the call in progress is held here
 * (validation is synchronous and not re-entered).
 */
interface Run {
  budget: RegexBudget;
  notChecked: NotChecked[];
  /** Formats as written, not stripped (see validateAgainstSchema). */
  formatsAsWritten?: boolean;
}
let run: Run | null = null;

function currentRun(): Run {
  run ??= { budget: new RegexBudget(), notChecked: [] };
  return run;
}

function noteNotChecked(path: ValuePath | null, detail: string): void {
  currentRun().notChecked.push({ name: nameOf(path), segments: segsOf(path), detail });
}

/** How many checks were cut short so far in this run (junctors compare before and after a branch). */
function notCheckedCount(): number {
  return run ? run.notChecked.length : 0;
}

/**
 * A value path as kube-openapi spells it: properties `a.b` (no dot at the root), additionalProperties
 * keys and required fields always with a dot (`.key` at the root), items `a[0]`.
 */
export class ValuePath {
  private nameCache: string | undefined;
  constructor(
    readonly parent: ValuePath | null,
    readonly seg: PathSegment,
    readonly mode: 'prop' | 'dot' | 'index',
  ) {}

  get name(): string {
    if (this.nameCache === undefined) {
      const p = this.parent ? this.parent.name : '';
      const s = this.seg;
      if (this.mode === 'index') this.nameCache = `${p}[${(s as { index: number }).index}]`;
      else {
        const n = s.kind === 'field' ? s.name : (s as { key: string }).key;
        this.nameCache = this.mode === 'prop' && p === '' ? n : `${p}.${n}`;
      }
    }
    return this.nameCache;
  }

  segments(): PathSegment[] {
    const out: PathSegment[] = [];
    for (let p: ValuePath | null = this; p; p = p.parent) out.push(p.seg);
    return out.reverse();
  }
}

const nameOf = (p: ValuePath | null) => (p ? p.name : '');
const segsOf = (p: ValuePath | null) => (p ? p.segments() : undefined);

/**
 * The old value correlated with the value being validated (ratcheting, apiserver pkg/cel/common
 * CorrelatedObject), with the schema node that correlates its children.
 */
export interface Correlation {
  old: unknown;
  schema: JSONSchemaProps;
}

/** `branch`: an anyOf/oneOf/allOf/not schema on the same value, which kube-openapi does not ratchet itself. */
type Validate = (data: unknown, path: ValuePath | null, corr?: Correlation, branch?: boolean) => Result;

const cache = new WeakMap<object, Validate>();
const asWrittenCache = new WeakMap<object, Validate>();

/** The compiled kube-openapi validator of a schema node (cached by identity), for the run in progress. */
export function schemaValidator(schema: JSONSchemaProps): Validate {
  const asWritten = run?.formatsAsWritten === true;
  const c = asWritten ? asWrittenCache : cache;
  let v = c.get(schema);
  if (!v) {
    v = compile(schema, asWritten);
    c.set(schema, v);
  }
  return v;
}

/**
 * Validate a value against a schema: kube-openapi's Result. With an old value (an update), errors of
 * every sub-value that is unchanged from its correlated old value are ratcheted away, as the
 * RatchetingSchemaValidator of CRDValidationRatcheting does. `formatsAsWritten`: the schema converted
 * as Structural.ToKubeOpenAPI does (defaults are validated so), keeping formats the API server strips
 * from custom resource validation (`format: int32` on a string still makes kube-openapi's type check
 * ask for an int32).
 */
export function validateAgainstSchema(schema: JSONSchemaProps, data: unknown, old?: { value: unknown }, opts: { budget?: RegexBudget; formatsAsWritten?: boolean } = {}): Result & { notChecked: NotChecked[] } {
  const outer = run;
  run = { budget: opts.budget ?? new RegexBudget(), notChecked: [], formatsAsWritten: opts.formatsAsWritten };
  try {
    const r = schemaValidator(schema)(data, null, old ? { old: old.value, schema } : undefined);
    // Branches of anyOf/oneOf/allOf may meet the same value and pattern more than once.
    const seen = new Set<string>();
    const notChecked = run.notChecked.filter((n) => !seen.has(n.name + '\0' + n.detail) && !!seen.add(n.name + '\0' + n.detail));
    return { ...r, notChecked };
  } finally {
    run = outer;
  }
}

/** CorrelatedObject.Key: the old value of a field, when both have it and the schema knows the field. */
function corrKey(corr: Correlation | undefined, data: unknown, field: string, path: ValuePath | null): Correlation | undefined {
  if (!corr) return undefined;
  if (path === null && (field === 'kind' || field === 'apiVersion')) return undefined;
  const old = corr.old;
  if (!isGoMapValue(old) || !isGoMapValue(data)) return undefined;
  if (!Object.hasOwn(old, field) || !Object.hasOwn(data, field)) return undefined;
  const props = isSchema(corr.schema.properties) ? (corr.schema.properties as Record<string, unknown>) : undefined;
  let sub: unknown = props && Object.hasOwn(props, field) ? props[field] : undefined;
  if (!isSchema(sub)) sub = isSchema(corr.schema.additionalProperties) ? corr.schema.additionalProperties : undefined;
  if (!isSchema(sub)) return undefined;
  return { old: old[field], schema: sub };
}

/** CorrelatedObject.Index: only list-type map items correlate, by their keys (MakeMapList). */
function corrIndex(corr: Correlation | undefined, data: unknown, i: number): Correlation | undefined {
  if (corr?.schema['x-kubernetes-list-type'] !== 'map' || !isSchema(corr.schema.items)) return undefined;
  if (!Array.isArray(corr.old) || !Array.isArray(data) || i >= data.length) return undefined;
  const match = oldMapList(corr.schema, corr.old).get(data[i]);
  return match === undefined ? undefined : { old: match, schema: corr.schema.items as JSONSchemaProps };
}

const mapLists = new WeakMap<unknown[], WeakMap<JSONSchemaProps, MapList>>();

/** The old list's MapList, built once per (old list, schema) as the correlated object caches it. */
function oldMapList(schema: JSONSchemaProps, old: unknown[]): MapList {
  let bySchema = mapLists.get(old);
  if (!bySchema) mapLists.set(old, (bySchema = new WeakMap()));
  let m = bySchema.get(schema);
  if (!m) bySchema.set(schema, (m = makeMapList(schema, old)));
  return m;
}

/**
 * CorrelatedObject.CachedDeepEqual for other ratcheting users (the CEL validator shares the correlated object):
 * keys the schema does not declare (apiVersion, kind, metadata at a root that does not list them, unknown
 * fields kept by x-kubernetes-preserve-unknown-fields) never correlate, so such a node is never "unchanged".
 */
export function correlatedDeepEqual(oldValue: unknown, newValue: unknown, schema: JSONSchemaProps): boolean {
  return correlatedEqual(newValue, { old: oldValue, schema });
}

/** CorrelatedObject.CachedDeepEqual: is the value unchanged, correlating children through the schema? */
function correlatedEqual(data: unknown, corr: Correlation): boolean {
  const old = corr.old;
  const nk = goKind(data);
  const ok = goKind(old);
  if (nk === 'nil' && ok === 'nil') return true;
  if (nk === 'nil' || ok === 'nil') return false;
  if ((nk === 'slice') !== (ok === 'slice') || (nk === 'map') !== (ok === 'map')) return false;
  if (nk === 'slice') {
    const n = data as unknown[];
    const o = old as unknown[];
    if (n.length !== o.length) return false;
    const isMapList = corr.schema['x-kubernetes-list-type'] === 'map' && isSchema(corr.schema.items);
    for (let i = 0; i < n.length; i++) {
      const child = corrIndex(corr, n, i);
      if (!child) return isMapList ? false : goDeepEqual(o, n);
      if (!correlatedEqual(n[i], child)) return false;
    }
    return true;
  }
  if (nk === 'map') {
    const n = data as Record<string, unknown>;
    const o = old as Record<string, unknown>;
    const keys = Object.keys(n);
    if (keys.length !== Object.keys(o).length) return false;
    for (const k of keys) {
      const child = corrKey(corr, n, k, {} as ValuePath);
      if (!child || !correlatedEqual(n[k], child)) return false;
    }
    return true;
  }
  return goDeepEqual(old, data);
}

function isGoMapValue(v: unknown): v is Record<string, unknown> {
  return goKind(v) === 'map';
}

function num(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof IntegralFloat) return v.value;
  return undefined;
}

function isSchema(v: unknown): v is JSONSchemaProps {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function schemaList(v: unknown): JSONSchemaProps[] {
  return Array.isArray(v) ? v.filter(isSchema) : [];
}

function compile(s: JSONSchemaProps, formatsAsWritten: boolean): Validate {
  const types: string[] = s['x-kubernetes-int-or-string'] === true ? ['integer', 'string'] : typeof s.type === 'string' && s.type !== '' ? [s.type] : [];
  const nullable = s.nullable === true;
  const written = typeof s.format === 'string' ? s.format : undefined;
  const format = formatsAsWritten ? (written ?? '') : effectiveFormat(written, types);
  const hasTypeValidator = types.length > 0 || format !== '';
  const enumValues = Array.isArray(s.enum) && s.enum.length > 0 ? s.enum : undefined;

  const stringCheck = compileString(s);
  const formatCheck = formatChecker(format);
  const numberCheck = compileNumber(s, types, format);
  const sliceCheck = compileSlice(s);
  const objectCheck = compileObject(s);
  const propsCheck = compileSchemaProps(s);

  const typeCheck = (data: unknown, kind: GoKind, path: ValuePath | null): OpenAPIError | undefined => validateType(data, kind, types, nullable, format, path);

  return (data, path, corr, branch) => {
    const r = validateNode(data, path, corr);
    // RatchetingValueValidator: an unchanged value keeps no errors (they become warnings).
    if (corr && !branch && r.errors.length > 0 && correlatedEqual(data, corr)) return { errors: [], matchCount: r.matchCount };
    return r;
  };

  function validateNode(data: unknown, path: ValuePath | null, corr: Correlation | undefined): Result {
    const r: Result = { errors: [], matchCount: 0 };
    const kind = goKind(data);
    if (kind === 'nil') {
      // Only the type and common (enum) validators run on null.
      const e = typeCheck(data, kind, path);
      if (e) r.errors.push(e);
      else r.matchCount++;
      if (enumValues) r.errors.push(enumError(path, data, enumValues));
      return r;
    }
    if (hasTypeValidator) {
      const e = typeCheck(data, kind, path);
      if (e) r.errors.push(e);
      else r.matchCount++;
      r.matchCount++;
    }
    if (propsCheck) merge(r, propsCheck(data, kind, path, corr));
    r.matchCount++;
    if (kind === 'string') {
      if (stringCheck) {
        const e = stringCheck(data as string, path);
        if (e) r.errors.push(e);
      }
      r.matchCount++;
      if (formatCheck) {
        if (!formatCheck(data as string)) r.errors.push(invalidTypeError(nameOf(path), segsOf(path), format, data, 'format'));
        r.matchCount++;
      }
    }
    if (kind === 'int' || kind === 'float') {
      merge(r, numberCheck(data, kind, path));
      r.matchCount++;
    }
    if (kind === 'slice') {
      merge(r, sliceCheck(data as unknown[], path, corr));
      r.matchCount++;
    }
    if (enumValues && !enumMatches(data, enumValues)) r.errors.push(enumError(path, data, enumValues));
    r.matchCount++;
    if (kind === 'map') {
      merge(r, objectCheck(data as Record<string, unknown>, path, corr));
      r.matchCount++;
    }
    r.matchCount++;
    return r;
  }
}

const noPatterns = (): boolean => false;

function patternTooLarge(size: number): string {
  return `pattern too large to check here (a program of about ${size} instructions)`;
}

function merge(into: Result, other: Result | undefined): void {
  if (!other) return;
  for (const e of other.errors) into.errors.push(e);
  into.matchCount += other.matchCount;
}

/** schemaInfoForType: the JSON type and format kube-openapi infers from a decoded Go value. */
function schemaInfo(kind: GoKind): [string, string] {
  switch (kind) {
    case 'bool':
      return ['boolean', ''];
    case 'string':
      return ['string', ''];
    case 'int':
      return ['integer', 'int64'];
    case 'float':
      return ['number', 'float64'];
    case 'slice':
      return ['array', ''];
    case 'map':
      return ['object', ''];
    default:
      return ['', ''];
  }
}

/** typeValidator.Validate */
function validateType(data: unknown, kind: GoKind, types: string[], nullable: boolean, format: string, path: ValuePath | null): OpenAPIError | undefined {
  const name = nameOf(path);
  if (kind === 'nil') {
    if (types.length > 0 && !types.includes('null') && !nullable) return invalidTypeError(name, segsOf(path), types.join(','), 'null');
    return undefined;
  }
  const [schType, dataFormat] = schemaInfo(kind);
  const isFloatInt = schType === 'number' && isFloat64AJSONInteger(asFloat64(data)) && types.includes('integer');
  const isIntFloat = schType === 'integer' && types.includes('number');
  const stringOrSlice = kind === 'string' || kind === 'slice';
  if (!stringOrSlice && format !== '' && !(types.includes(schType) || dataFormat === format || isFloatInt || isIntFloat)) {
    return invalidTypeError(name, segsOf(path), format, dataFormat, 'format');
  }
  if (!(types.includes('number') || types.includes('integer')) && format !== '' && stringOrSlice) return undefined;
  if (!(types.includes(schType) || isFloatInt || isIntFloat)) return invalidTypeError(name, segsOf(path), types.join(','), schType);
  return undefined;
}

/** basicCommonValidator: reflect's convertible-and-DeepEqual comparison against each enum value. */
function enumMatches(data: unknown, values: unknown[]): boolean {
  const dk = goKind(data);
  for (const ev of values) {
    const ek = goKind(ev);
    if (ek === 'nil' || dk === 'nil') continue;
    if (dk === ek) {
      if (goDeepEqual(data, ev)) return true;
      continue;
    }
    // reflect.Value.Convert between numeric kinds, and int -> string (a rune).
    if ((dk === 'int' || dk === 'float') && (ek === 'int' || ek === 'float')) {
      if (ek === 'int') {
        const d = dk === 'int' ? asInt64(data) : floatToInt64(asFloat64(data));
        if (d === asInt64(ev)) return true;
      } else if (asFloat64(data) === asFloat64(ev)) return true;
    } else if (dk === 'int' && ek === 'string') {
      const n = asInt64(data);
      const s = n >= 0n && n <= 0x10ffffn && !(n >= 0xd800n && n <= 0xdfffn) ? String.fromCodePoint(Number(n)) : '\ufffd';
      if (s === ev) return true;
    }
  }
  return false;
}

function enumError(path: ValuePath | null, data: unknown, values: unknown[]): OpenAPIError {
  const name = nameOf(path);
  return { code: 'Enum', name, segments: segsOf(path), value: data, values, message: `${name} in body should be one of ${goSliceString(values)}` };
}

function goSliceString(values: unknown[]): string {
  const one = (v: unknown): string => {
    const k = goKind(v);
    if (k === 'nil') return '<nil>';
    if (k === 'int' || k === 'float') return k === 'int' ? asInt64(v).toString() : formatGoFloat(asFloat64(v));
    if (k === 'slice') return '[' + (v as unknown[]).map(one).join(' ') + ']';
    if (k === 'map') {
      const o = v as Record<string, unknown>;
      return (
        'map[' +
        Object.keys(o)
          .sort()
          .map((key) => `${key}:${one(o[key])}`)
          .join(' ') +
        ']'
      );
    }
    return String(v);
  };
  return '[' + values.map(one).join(' ') + ']';
}

/** stringValidator: the first failing of maxLength, minLength, pattern. */
function compileString(s: JSONSchemaProps): ((data: string, path: ValuePath | null) => OpenAPIError | undefined) | undefined {
  const maxLength = num(s.maxLength);
  const minLength = num(s.minLength);
  const pattern = typeof s.pattern === 'string' && s.pattern !== '' ? s.pattern : undefined;
  if (maxLength === undefined && minLength === undefined && pattern === undefined) return undefined;
  const re = pattern !== undefined ? compilePattern(pattern) : undefined;
  return (data, path) => {
    const name = nameOf(path);
    if (maxLength !== undefined || minLength !== undefined) {
      const n = runeCount(data);
      if (maxLength !== undefined && n > maxLength) {
        return { code: 'TooLong', name, segments: segsOf(path), value: data, valid: maxLength, message: `${name} in body should be at most ${maxLength} chars long` };
      }
      if (minLength !== undefined && n < minLength) {
        return { code: 'TooShort', name, segments: segsOf(path), value: data, valid: minLength, message: `${name} in body should be at least ${minLength} chars long` };
      }
    }
    if (re) {
      if (re.kind === 'invalid') {
        return { code: 'Pattern', name, segments: segsOf(path), value: data, message: `${name} in body should match '${pattern}, but pattern is invalid: ${re.error}'` };
      }
      if (re.kind === 'tooLarge') {
        noteNotChecked(path, patternTooLarge(re.size));
        return undefined;
      }
      const m = matchPattern(re, data, currentRun().budget);
      if (m === undefined) noteNotChecked(path, `pattern too expensive for a value of ${data.length} characters`);
      else if (!m) return { code: 'Pattern', name, segments: segsOf(path), value: data, message: `${name} in body should match '${pattern}'` };
    }
    return undefined;
  };
}

/** IsValueValidAgainstRange: can the value be converted to the type/format without loss? */
function rangeError(val: unknown, kind: GoKind, typeName: string, format: string, prefix: string, pathName: string): OpenAPIError | undefined {
  // Fast paths: only integer types and the float format can fail; in-range ints need no text.
  if (typeName !== 'integer' && format !== 'float') return undefined;
  if (typeName === 'integer' && kind === 'int' && (format !== 'int32' || (typeof val === 'number' && val >= -2147483648 && val <= 2147483647))) {
    return undefined;
  }
  const rep = kind === 'int' ? asInt64(val).toString() : formatFloatF(asFloat64(val));
  let bad = false;
  if (typeName === 'integer') {
    if (!/^[+-]?[0-9]+$/.test(rep)) bad = true;
    else {
      const n = BigInt(rep);
      if (format === 'int32') bad = n < -(2n ** 31n) || n > 2n ** 31n - 1n;
      else bad = n < -(2n ** 63n) || n > 2n ** 63n - 1n;
    }
  } else if (format === 'float') {
    bad = !Number.isFinite(Math.fround(Number(rep)));
  }
  if (!bad) return undefined;
  return plainError(format !== '' ? `${prefix} value must be of type ${typeName} with format ${format} in ${pathName}` : `${prefix} value must be of type ${typeName} (default format) in ${pathName}`);
}

/** numberValidator: range of the type/format, multipleOf, maximum, minimum. */
function compileNumber(s: JSONSchemaProps, types: string[], format: string): (data: unknown, kind: GoKind, path: ValuePath | null) => Result {
  let typeName = '';
  let fmt = '';
  if (types.length === 1) {
    if (types[0] === 'integer') {
      typeName = 'integer';
      if (format === 'int32' || format === 'int64') fmt = format;
    } else if (types[0] === 'number') {
      typeName = 'number';
      if (format === 'float' || format === 'double') fmt = format;
    }
  }
  const multipleOf = num(s.multipleOf);
  const maximum = num(s.maximum);
  const minimum = num(s.minimum);
  const exclMax = s.exclusiveMaximum === true;
  const exclMin = s.exclusiveMinimum === true;
  // Whether each bound itself fits the type/format is a property of the schema: decide it once.
  const boundFits = (b: number | undefined) => b === undefined || rangeError(b, 'float', typeName, fmt, '', '') === undefined;
  const multipleOfFits = boundFits(multipleOf);
  const minimumFits = boundFits(minimum);
  const maximumFits = boundFits(maximum);
  const noBounds = multipleOf === undefined && maximum === undefined && minimum === undefined;
  return (val, kind, path) => {
    if (noBounds && typeName !== 'integer' && fmt !== 'float') return { errors: [], matchCount: 1 };
    const name = nameOf(path);
    const res: Result = { errors: [], matchCount: 1 };
    const r = rangeError(val, kind, typeName, fmt, 'Checked', name);
    if (r) res.errors.push(r);
    const data = asFloat64(val);
    const more: OpenAPIError[] = [];
    const seg = segsOf(path);
    if (multipleOf !== undefined) {
      const boundErr = multipleOfFits ? undefined : rangeError(multipleOf, 'float', typeName, fmt, 'MultipleOf', name);
      if (boundErr) more.push(boundErr);
      const e = !boundErr && kind === 'int' ? multipleOfInt(name, seg, asInt64(val), floatToInt64(multipleOf)) : multipleOfFloat(name, seg, data, multipleOf, asGoFloat(data));
      if (e) more.push(e);
    }
    const minMore: OpenAPIError[] = [];
    if (minimum !== undefined) {
      const boundErr = minimumFits ? undefined : rangeError(minimum, 'float', typeName, fmt, 'Minimum boundary', name);
      if (boundErr) minMore.push(boundErr);
      let fail: boolean;
      let shown: string;
      let value: unknown = val;
      if (!boundErr && kind === 'int') {
        const v = asInt64(val);
        const m = floatToInt64(minimum);
        fail = exclMin ? v <= m : v < m;
        shown = m.toString();
      } else {
        // The float64 comparison reports the value as a float64 too.
        fail = exclMin ? data <= minimum : data < minimum;
        shown = formatGoFloat(minimum);
        value = asGoFloat(data);
      }
      if (fail) minMore.push({ code: 'Min', name, segments: seg, value, message: `${name} in body should be greater than ${exclMin ? '' : 'or equal to '}${shown}` });
    }
    const maxMore: OpenAPIError[] = [];
    if (maximum !== undefined) {
      const boundErr = maximumFits ? undefined : rangeError(maximum, 'float', typeName, fmt, 'Maximum boundary', name);
      if (boundErr) maxMore.push(boundErr);
      let fail: boolean;
      let shown: string;
      let value: unknown = val;
      if (!boundErr && kind === 'int') {
        const v = asInt64(val);
        const m = floatToInt64(maximum);
        fail = exclMax ? v >= m : v > m;
        shown = m.toString();
      } else {
        fail = exclMax ? data >= maximum : data > maximum;
        shown = formatGoFloat(maximum);
        value = asGoFloat(data);
      }
      if (fail) maxMore.push({ code: 'Max', name, segments: seg, value, message: `${name} in body should be less than ${exclMax ? '' : 'or equal to '}${shown}` });
    }
    res.errors.push(...more, ...minMore, ...maxMore);
    return res;
  };
}

/** A float64 as a decoded value: integral ones boxed so they keep printing as Go floats (1e+20). */
function asGoFloat(f: number): unknown {
  return Number.isInteger(f) ? new IntegralFloat(f) : f;
}

function multipleOfInt(name: string, segments: PathSegment[] | undefined, v: bigint, factor: bigint): OpenAPIError | undefined {
  if (factor <= 0n) return { code: 'MultipleOfMustBePositive', name, segments, value: factor, message: `factor MultipleOf declared for ${name} must be positive: ${factor}` };
  if ((v / factor) * factor !== v) return { code: 'MultipleOf', name, segments, value: v, message: `${name} in body should be a multiple of ${factor}` };
  return undefined;
}

function multipleOfFloat(name: string, segments: PathSegment[] | undefined, data: number, factor: number, raw: unknown): OpenAPIError | undefined {
  if (factor <= 0) return { code: 'MultipleOfMustBePositive', name, segments, value: factor, message: `factor MultipleOf declared for ${name} must be positive: ${formatGoFloat(factor)}` };
  const mult = factor < 1 ? (1 / factor) * data : data / factor;
  if (!isFloat64AJSONInteger(mult)) return { code: 'MultipleOf', name, segments, value: raw, message: `${name} in body should be a multiple of ${formatGoFloat(factor)}` };
  return undefined;
}

/** schemaSliceValidator: items, minItems, maxItems, uniqueItems. */
function compileSlice(s: JSONSchemaProps): (data: unknown[], path: ValuePath | null, corr?: Correlation) => Result {
  const items = isSchema(s.items) ? s.items : undefined;
  const minItems = num(s.minItems);
  const maxItems = num(s.maxItems);
  const unique = s.uniqueItems === true;
  return (data, path, corr) => {
    const r: Result = { errors: [], matchCount: 0 };
    if (items) {
      const v = schemaValidator(items);
      for (let i = 0; i < data.length; i++) merge(r, v(data[i], new ValuePath(path, { kind: 'index', index: i }, 'index'), corrIndex(corr, data, i)));
    }
    const name = nameOf(path);
    const size = data.length;
    if (minItems !== undefined && size < minItems) {
      r.errors.push({ code: 'MinItems', name, segments: segsOf(path), value: size, valid: minItems, message: `${name} in body should have at least ${minItems} items` });
    }
    if (maxItems !== undefined && size > maxItems) {
      r.errors.push({ code: 'MaxItems', name, segments: segsOf(path), value: size, valid: maxItems, message: `${name} in body should have at most ${maxItems} items` });
    }
    if (unique) {
      outer: for (let i = 1; i < size; i++) {
        for (let j = 0; j < i; j++) {
          if (goDeepEqual(data[i], data[j])) {
            r.errors.push({ code: 'Unique', name, segments: segsOf(path), message: `${name} in body shouldn't contain duplicates` });
            break outer;
          }
        }
      }
    }
    r.matchCount++;
    return r;
  };
}

/** objectValidator: min/maxProperties, additionalProperties, properties, required, patternProperties. */
function compileObject(s: JSONSchemaProps): (data: Record<string, unknown>, path: ValuePath | null, corr?: Correlation) => Result {
  const props = isSchema(s.properties) ? (s.properties as Record<string, JSONSchemaProps>) : undefined;
  const propNames = props ? Object.keys(props).filter((k) => isSchema(props[k])) : [];
  const ap = s.additionalProperties;
  const apForbids = ap === false;
  const apSchema = isSchema(ap) ? ap : undefined;
  const req = Array.isArray(s.required) ? s.required.filter((x): x is string => typeof x === 'string') : [];
  const minP = num(s.minProperties);
  const maxP = num(s.maxProperties);
  const patternProps = isSchema(s.patternProperties) ? Object.entries(s.patternProperties as Record<string, unknown>).filter(([, v]) => isSchema(v)) : [];
  const hasProp = (k: string) => props !== undefined && Object.hasOwn(props, k) && isSchema(props[k]);
  return (val, path, corr) => {
    const matchingPatterns = (key: string) =>
      patternProps.filter(([p]) => {
        const c = compilePattern(p);
        if (c.kind === 'invalid') return false;
        const m = c.kind === 'ok' ? matchPattern(c, key, currentRun().budget) : undefined;
        if (m === undefined) {
          const detail = c.kind === 'tooLarge' ? patternTooLarge(c.size) : `pattern too expensive for a key of ${key.length} characters`;
          noteNotChecked(new ValuePath(path, { kind: 'key', key }, 'dot'), `patternProperties: ${detail}`);
        }
        return m === true;
      });
    const res: Result = { errors: [], matchCount: 0 };
    const name = nameOf(path);
    const keys = Object.keys(val);
    const n = keys.length;
    if (minP !== undefined && n < minP) {
      res.errors.push({ code: 'TooFewProperties', name, segments: segsOf(path), value: n, valid: minP, message: `${name} in body should have at least ${minP} properties` });
    }
    if (maxP !== undefined && n > maxP) {
      res.errors.push({ code: 'TooManyProperties', name, segments: segsOf(path), value: n, valid: maxP, message: `${name} in body should have at most ${maxP} properties` });
    }
    const validatePatterns =
      patternProps.length === 0
        ? noPatterns
        : (key: string): boolean => {
            const matched = matchingPatterns(key);
            for (const [, sch] of matched) {
              merge(res, schemaValidator(sch as JSONSchemaProps)(val[key], new ValuePath(path, { kind: 'key', key }, 'dot'), corrKey(corr, val, key, path)));
            }
            return matched.length > 0;
          };
    if (apForbids) {
      for (const k of keys) {
        if (!hasProp(k) && matchingPatterns(k).length === 0) {
          res.errors.push({ code: 'UnallowedProperty', name, segments: segsOf(path), value: k, message: `${name}.${k} in body is a forbidden property` });
        }
      }
    } else {
      for (const k of keys) {
        const regular = hasProp(k);
        const matched = patternProps.length > 0 ? validatePatterns(k) : false;
        if (!(regular || matched) && apSchema) {
          merge(res, schemaValidator(apSchema)(val[k], new ValuePath(path, { kind: 'key', key: k }, 'dot'), corrKey(corr, val, k, path)));
        }
      }
    }
    for (const p of propNames) {
      if (Object.hasOwn(val, p)) {
        merge(res, schemaValidator(props![p])(val[p], new ValuePath(path, { kind: 'field', name: p }, 'prop'), corrKey(corr, val, p, path)));
      }
    }
    for (const k of req) {
      if (!Object.hasOwn(val, k)) {
        const rp = new ValuePath(path, { kind: 'field', name: k }, 'dot');
        res.errors.push({ code: 'Required', name: rp.name, segments: rp.segments(), message: `${rp.name} in body is required` });
      }
    }
    if (patternProps.length > 0) {
      for (const k of keys) {
        if (hasProp(k)) {
          validatePatterns(k);
          continue;
        }
        // kube-openapi validates matched pattern properties a second and third time here.
        if (validatePatterns(k)) validatePatterns(k);
      }
    }
    return res;
  };
}

/** schemaPropsValidator: anyOf, oneOf, allOf, not (and property dependencies). */
function compileSchemaProps(s: JSONSchemaProps): ((data: unknown, kind: GoKind, path: ValuePath | null, corr?: Correlation) => Result) | undefined {
  const anyOf = schemaList(s.anyOf);
  const oneOf = schemaList(s.oneOf);
  const allOf = schemaList(s.allOf);
  const not = isSchema(s.not) ? s.not : undefined;
  const deps = isSchema(s.dependencies) ? (s.dependencies as Record<string, unknown>) : undefined;
  if (!anyOf.length && !oneOf.length && !allOf.length && !not && !deps) {
    return () => ({ errors: [], matchCount: 1 });
  }
  return (data, kind, path, corr) => {
    const main: Result = { errors: [], matchCount: 0 };
    const q = goQuote(nameOf(path));
    if (anyOf.length) {
      let best: Result | undefined;
      let firstSuccess: Result | undefined;
      let succeeded = false;
      for (const sch of anyOf) {
        const r = schemaValidator(sch)(data, path, corr, true);
        if (r.errors.length === 0) {
          best = undefined;
          succeeded = true;
          firstSuccess ??= r;
          break;
        }
        if (!best || r.matchCount > best.matchCount) best = r;
      }
      if (!succeeded) main.errors.push(plainError(`${q} must validate at least one schema (anyOf)`));
      if (best) merge(main, best);
      else if (firstSuccess) merge(main, firstSuccess);
    }
    if (oneOf.length) {
      let best: Result | undefined;
      let firstSuccess: Result | undefined;
      let validated = 0;
      const before = notCheckedCount();
      for (const sch of oneOf) {
        const r = schemaValidator(sch)(data, path, corr, true);
        if (r.errors.length === 0) {
          validated++;
          best = undefined;
          firstSuccess ??= r;
          continue;
        }
        if (validated === 0 && (!best || r.matchCount > best.matchCount)) best = r;
      }
      // A branch that passed only because a bound cut a check may not really pass: no verdict on "more than one".
      if (validated > 1 && notCheckedCount() > before) validated = 1;
      if (validated !== 1) {
        const more = validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`;
        main.errors.push(plainError(`${q} must validate one and only one schema (oneOf). ${more}`));
        if (best) merge(main, best);
      } else if (firstSuccess) merge(main, firstSuccess);
    }
    if (allOf.length) {
      let validated = 0;
      for (const sch of allOf) {
        const r = schemaValidator(sch)(data, path, corr, true);
        if (r.errors.length === 0) validated++;
        merge(main, r);
      }
      if (validated !== allOf.length) main.errors.push(plainError(`${q} must validate all the schemas (allOf)${validated === 0 ? '. None validated' : ''}`));
    }
    if (not) {
      const before = notCheckedCount();
      const r = schemaValidator(not)(data, path, corr, true);
      // Passing `not` only because a bound cut a check is no evidence against the value.
      if (r.errors.length === 0 && notCheckedCount() === before) main.errors.push(plainError(`${q} must not validate the schema (not)`));
    }
    if (deps && kind === 'map') {
      const obj = data as Record<string, unknown>;
      for (const key of Object.keys(obj)) {
        const dep = deps[key];
        if (dep === undefined) continue;
        if (Array.isArray(dep)) {
          for (const depKey of dep) {
            if (typeof depKey === 'string' && !Object.hasOwn(obj, depKey)) {
              main.errors.push(plainError(`${q} has a dependency on ${depKey}`));
            }
          }
        } else if (isSchema(dep)) {
          const dp = new ValuePath(path, { kind: 'field', name: key }, 'dot');
          merge(main, schemaValidator(dep)(data, dp));
        }
      }
    }
    main.matchCount++;
    return main;
  };
}
