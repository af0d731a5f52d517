/**
 * kube-openapi's objectValidator (validate/object_validator.go): min/maxProperties,
 * additionalProperties, properties, required, patternProperties.
 */
import { compilePattern, matchPattern } from '../regex/re2';
import type { JSONSchemaProps } from '../schema/types';
import { atRoot, currentRun, enter, leave, noteNotChecked, pathName, pathSegments, patternTooLarge, type Result } from './result';
import { corrKey, type Correlation } from './ratcheting';
import { isSchema, num, schemaValidator, type Validate } from './schema';

const NO_KEYS: readonly string[] = [];
const NO_PATTERNS: readonly PatternProperty[] = [];

/** A patternProperties entry, with its validator once looked up. */
interface PatternProperty {
  pattern: string;
  schema: JSONSchemaProps;
  validator: Validate | undefined;
}

/** objectValidator: min/maxProperties, additionalProperties, properties, required, patternProperties. */
/** `asWritten`: the formats mode of the parent (see schemaValidator). */
export function compileObject(s: JSONSchemaProps, asWritten: boolean): (data: Record<string, unknown>, out: Result, corr?: Correlation) => void {
  const props = isSchema(s.properties) ? (s.properties as Record<string, JSONSchemaProps>) : undefined;
  const propNames = props ? Object.keys(props).filter((k) => isSchema(props[k])) : [];
  const ap = s.additionalProperties;
  const apForbids = ap === false;
  const apSchema = isSchema(ap) ? ap : undefined;
  const req = Array.isArray(s.required) ? s.required.filter((x): x is string => typeof x === 'string') : [];
  const minP = num(s.minProperties);
  const maxP = num(s.maxProperties);
  const patternProps = isSchema(s.patternProperties)
    ? Object.entries(s.patternProperties as Record<string, unknown>)
        .filter(([, v]) => isSchema(v))
        .map(([p, v]): PatternProperty => ({ pattern: p, schema: v as JSONSchemaProps, validator: undefined }))
    : [];
  const hasProp = (k: string) => props !== undefined && Object.hasOwn(props, k) && isSchema(props[k]);
  // Each child's validator, looked up on first use (a schema may nest itself).
  const validators: Array<Validate | undefined> = [];
  let apValidator: Validate | undefined;
  // The value's own keys matter only to these (a schema of properties alone looks up its properties).
  const readsKeys = apForbids || apSchema !== undefined || patternProps.length > 0 || minP !== undefined || maxP !== undefined;

  /** The patternProperties schemas whose pattern matches a key; a match a bound cut short is noted, not counted. */
  const matchingPatterns = (key: string): readonly PatternProperty[] => {
    if (patternProps.length === 0) return NO_PATTERNS;
    const matched: PatternProperty[] = [];
    for (const pp of patternProps) {
      const c = compilePattern(pp.pattern);
      if (c.kind === 'invalid') continue;
      const m = c.kind === 'ok' ? matchPattern(c, key, currentRun().budget) : undefined;
      if (m === undefined) {
        const detail = c.kind === 'tooLarge' ? patternTooLarge(c.size) : `pattern too expensive for a key of ${key.length} characters`;
        enter('dotKey', key);
        noteNotChecked(`patternProperties: ${detail}`);
        leave();
      }
      if (m === true) matched.push(pp);
    }
    return matched;
  };
  /** Validates a key's value against the patternProperties schemas its key matches: whether any did. */
  const validatePatterns = (val: Record<string, unknown>, key: string, out: Result, corr: Correlation | undefined, root: boolean): boolean => {
    const matched = matchingPatterns(key);
    for (const pp of matched) {
      const v = (pp.validator ??= schemaValidator(pp.schema, asWritten));
      const c = corrKey(corr, val, key, root);
      enter('dotKey', key);
      v(val[key], out, c);
      leave();
    }
    return matched.length > 0;
  };

  return (val, out, corr) => {
    // Ratcheting only: whether this object is the root of the value (apiVersion and kind never correlate there).
    const root = corr !== undefined && atRoot();
    // The path is spelled only for an error: every map of every object passes here.
    const keys = readsKeys ? Object.keys(val) : NO_KEYS;
    const n = keys.length;
    if (minP !== undefined && n < minP) {
      const name = pathName();
      out.errors.push({ code: 'TooFewProperties', name, segments: pathSegments(), value: n, valid: minP, message: `${name} in body should have at least ${minP} properties` });
    }
    if (maxP !== undefined && n > maxP) {
      const name = pathName();
      out.errors.push({ code: 'TooManyProperties', name, segments: pathSegments(), value: n, valid: maxP, message: `${name} in body should have at most ${maxP} properties` });
    }
    if (apForbids) {
      for (let i = 0; i < n; i++) {
        const k = keys[i];
        if (!hasProp(k) && matchingPatterns(k).length === 0) {
          const name = pathName();
          out.errors.push({ code: 'UnallowedProperty', name, segments: pathSegments(), value: k, message: `${name}.${k} in body is a forbidden property` });
        }
      }
    } else {
      for (let i = 0; i < n; i++) {
        const k = keys[i];
        const regular = hasProp(k);
        const matched = patternProps.length > 0 ? validatePatterns(val, k, out, corr, root) : false;
        if (!(regular || matched) && apSchema) {
          const c = corrKey(corr, val, k, root);
          enter('dotKey', k);
          (apValidator ??= schemaValidator(apSchema, asWritten))(val[k], out, c);
          leave();
        }
      }
    }
    for (let i = 0; i < propNames.length; i++) {
      const p = propNames[i];
      if (!Object.hasOwn(val, p)) continue;
      const v = (validators[i] ??= schemaValidator(props![p], asWritten));
      const c = corr && corrKey(corr, val, p, root);
      enter('prop', p);
      v(val[p], out, c);
      leave();
    }
    for (let i = 0; i < req.length; i++) {
      const k = req[i];
      if (!Object.hasOwn(val, k)) {
        enter('dotField', k);
        const name = pathName();
        out.errors.push({ code: 'Required', name, segments: pathSegments(), message: `${name} in body is required` });
        leave();
      }
    }
    if (patternProps.length > 0) {
      for (let i = 0; i < n; i++) {
        const k = keys[i];
        if (hasProp(k)) {
          validatePatterns(val, k, out, corr, root);
          continue;
        }
        // kube-openapi validates matched pattern properties a second and third time here.
        if (validatePatterns(val, k, out, corr, root)) validatePatterns(val, k, out, corr, root);
      }
    }
  };
}
