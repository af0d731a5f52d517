/**
 * kube-openapi's objectValidator (validate/object_validator.go): min/maxProperties,
 * additionalProperties, properties, required, patternProperties.
 */
import { compilePattern, matchPattern } from '../regex/re2';
import type { JSONSchemaProps } from '../schema/types';
import { currentRun, formatsAsWritten, merge, nameOf, noteNotChecked, patternTooLarge, segsOf, ValuePath, type Result } from './result';
import { corrKey, type Correlation } from './ratcheting';
import { isSchema, num, schemaValidator, type Validate } from './schema';

const noPatterns = (): boolean => false;
const noPatternMatches = (): Array<[string, unknown]> => [];
const NO_KEYS: readonly string[] = [];

/** objectValidator: min/maxProperties, additionalProperties, properties, required, patternProperties. */
export function compileObject(s: JSONSchemaProps): (data: Record<string, unknown>, path: ValuePath | null, corr?: Correlation) => Result {
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
  // Each property's validator, looked up once (schemaValidator's caches are by formats mode: one list each).
  const byMode: Array<Array<Validate | undefined>> = [[], []];
  const propValidator = (i: number): Validate => {
    const mine = byMode[formatsAsWritten() ? 1 : 0];
    return (mine[i] ??= schemaValidator(props![propNames[i]]));
  };
  // The value's own keys matter only to these (a schema of properties alone looks up its properties).
  const readsKeys = apForbids || apSchema !== undefined || patternProps.length > 0 || minP !== undefined || maxP !== undefined;
  return (val, path, corr) => {
    // No closure per call for the many schemas without patternProperties.
    const matchingPatterns =
      patternProps.length === 0
        ? noPatternMatches
        : (key: string) =>
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
    // The path's name is spelled only for an error: every map of every object passes here.
    const keys = readsKeys ? Object.keys(val) : NO_KEYS;
    const n = keys.length;
    if (minP !== undefined && n < minP) {
      const name = nameOf(path);
      res.errors.push({ code: 'TooFewProperties', name, segments: segsOf(path), value: n, valid: minP, message: `${name} in body should have at least ${minP} properties` });
    }
    if (maxP !== undefined && n > maxP) {
      const name = nameOf(path);
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
          const name = nameOf(path);
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
    for (let i = 0; i < propNames.length; i++) {
      const p = propNames[i];
      if (Object.hasOwn(val, p)) {
        merge(res, propValidator(i)(val[p], new ValuePath(path, { kind: 'field', name: p }, 'prop'), corrKey(corr, val, p, path)));
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
