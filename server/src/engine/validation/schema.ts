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
 *
 * The keywords are checked in kube-openapi's files: type.ts, enum.ts, string.ts, number.ts, slice.ts,
 * object.ts, schema-props.ts (junctors), formats.ts; ratcheting.ts and result.ts hold what they share.
 */
import { RegexBudget } from '../regex/re2';
import type { JSONSchemaProps } from '../schema/types';
import { effectiveFormat, formatChecker } from './formats';
import { goKind, type GoKind } from '../json/go';
import { invalidTypeError, type OpenAPIError } from './kube-openapi-errors';
import { IntegralFloat } from '../json/lossless';
import { formatsAsWritten, inRun, pathName, pathSegments, type NotChecked, type Result, type Run } from './result';
import { correlatedEqual, type Correlation } from './ratcheting';
import { validateType } from './type';
import { enumError, enumMatches } from './enum';
import { compileString } from './string';
import { compileNumber } from './number';
import { compileSlice } from './slice';
import { compileObject } from './object';
import { compileSchemaProps } from './schema-props';

/**
 * Validates the value at the path in progress (result.ts enter/leave), adding its errors and match count
 * to `out` (kube-openapi merges each validator's Result into its parent's: one Result per call here, not
 * per node). `branch`: an anyOf/oneOf/allOf/not schema on the same value, which kube-openapi does not
 * ratchet itself.
 */
export type Validate = (data: unknown, out: Result, corr?: Correlation, branch?: boolean) => void;

const cache = new WeakMap<object, Validate>();

const asWrittenCache = new WeakMap<object, Validate>();

/**
 * The compiled kube-openapi validator of a schema node (cached by identity), for the run in progress or,
 * from a compiled parent, in the parent's formats mode (the same: a parent is run only in its mode).
 */
export function schemaValidator(schema: JSONSchemaProps, asWritten = formatsAsWritten()): Validate {
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
  const state: Run = { budget: opts.budget ?? new RegexBudget(), notChecked: [], formatsAsWritten: opts.formatsAsWritten };
  const r: Result = { errors: [], matchCount: 0 };
  inRun(state, () => schemaValidator(schema)(data, r, old ? { old: old.value, schema } : undefined));
  return { errors: r.errors, matchCount: r.matchCount, notChecked: state.notChecked.length === 0 ? state.notChecked : distinctNotChecked(state.notChecked) };
}

/** Branches of anyOf/oneOf/allOf may meet the same value and pattern more than once. */
function distinctNotChecked(all: NotChecked[]): NotChecked[] {
  const seen = new Set<string>();
  return all.filter((n) => !seen.has(n.name + '\0' + n.detail) && !!seen.add(n.name + '\0' + n.detail));
}

export function num(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof IntegralFloat) return v.value;
  return undefined;
}

export function isSchema(v: unknown): v is JSONSchemaProps {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
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
  const sliceCheck = compileSlice(s, formatsAsWritten);
  const objectCheck = compileObject(s, formatsAsWritten);
  const propsCheck = compileSchemaProps(s, formatsAsWritten);

  const wanted = types.join(',');
  // The type check's verdict depends on the value's kind alone but for floats (an integral one may pass
  // type integer): the last kind that passed so is remembered (a node mostly meets one kind).
  let passing: GoKind | undefined;
  const typeCheck = (data: unknown, kind: GoKind): OpenAPIError | undefined => {
    const e = validateType(data, kind, types, wanted, nullable, format);
    if (e === undefined && kind !== 'float') passing = kind;
    return e;
  };

  return (data, out, corr, branch) => {
    const before = out.errors.length;
    // kube-openapi's SchemaValidator.Validate: each validator in turn, every one counting its match.
    let matches = 0;
    // (Strings are the most common values: no call for them.)
    const kind: GoKind = typeof data === 'string' ? 'string' : goKind(data);
    if (kind === 'nil') {
      // Only the type and common (enum) validators run on null.
      const e = kind === passing ? undefined : typeCheck(data, kind);
      if (e) out.errors.push(e);
      else matches++;
      if (enumValues) out.errors.push(enumError(data, enumValues));
    } else {
      if (hasTypeValidator) {
        const e = kind === passing ? undefined : typeCheck(data, kind);
        if (e) out.errors.push(e);
        else matches++;
        matches++;
      }
      if (propsCheck) propsCheck(data, kind, out, corr);
      else matches++;
      matches++;
      if (kind === 'string') {
        if (stringCheck) {
          const e = stringCheck(data as string);
          if (e) out.errors.push(e);
        }
        matches++;
        if (formatCheck) {
          if (!formatCheck(data as string)) out.errors.push(invalidTypeError(pathName(), pathSegments(), format, data, 'format'));
          matches++;
        }
      } else if (kind === 'int' || kind === 'float') {
        numberCheck(data, kind, out);
        matches++;
      } else if (kind === 'slice') {
        sliceCheck(data as unknown[], out, corr);
        matches++;
      }
      if (enumValues && !enumMatches(data, enumValues)) out.errors.push(enumError(data, enumValues));
      matches++;
      if (kind === 'map') {
        objectCheck(data as Record<string, unknown>, out, corr);
        matches++;
      }
      matches++;
    }
    out.matchCount += matches;
    // RatchetingValueValidator: an unchanged value keeps no errors (they become warnings), only its match count.
    if (corr && !branch && out.errors.length > before && correlatedEqual(data, corr)) out.errors.length = before;
  };
}
