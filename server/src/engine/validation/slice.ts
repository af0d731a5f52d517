/**
 * kube-openapi's schemaSliceValidator (validate/slice_validator.go): items, minItems, maxItems, uniqueItems.
 */
import type { JSONSchemaProps } from '../schema/types';
import { goDeepEqual } from '../json/go';
import { merge, nameOf, segsOf, ValuePath, type Result } from './result';
import { corrIndex, type Correlation } from './ratcheting';
import { isSchema, num, schemaValidator } from './schema';

/** schemaSliceValidator: items, minItems, maxItems, uniqueItems. */
export function compileSlice(s: JSONSchemaProps): (data: unknown[], path: ValuePath | null, corr?: Correlation) => Result {
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
    const size = data.length;
    // Spelled only for an error: every list of every object passes here.
    const name = minItems !== undefined || maxItems !== undefined || unique ? nameOf(path) : '';
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
