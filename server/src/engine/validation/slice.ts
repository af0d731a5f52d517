/**
 * kube-openapi's schemaSliceValidator (validate/slice_validator.go): items, minItems, maxItems, uniqueItems.
 */
import type { JSONSchemaProps } from '../schema/types';
import { goDeepEqual } from '../json/go';
import { enter, leave, pathName, pathSegments, type Result } from './result';
import { corrIndex, type Correlation } from './ratcheting';
import { isSchema, num, schemaValidator, type Validate } from './schema';

/** schemaSliceValidator: items, minItems, maxItems, uniqueItems. */
/** `asWritten`: the formats mode of the parent (see schemaValidator). */
export function compileSlice(s: JSONSchemaProps, asWritten: boolean): (data: unknown[], out: Result, corr?: Correlation) => void {
  const items = isSchema(s.items) ? s.items : undefined;
  const minItems = num(s.minItems);
  const maxItems = num(s.maxItems);
  const unique = s.uniqueItems === true;
  // Looked up on first use (a schema may nest itself).
  let itemValidator: Validate | undefined;
  return (data, out, corr) => {
    if (items) {
      const v = (itemValidator ??= schemaValidator(items, asWritten));
      for (let i = 0; i < data.length; i++) {
        enter('index', i);
        v(data[i], out, corrIndex(corr, data, i));
        leave();
      }
    }
    const size = data.length;
    // The path is spelled only for an error: every list of every object passes here.
    if (minItems !== undefined && size < minItems) {
      const name = pathName();
      out.errors.push({ code: 'MinItems', name, segments: pathSegments(), value: size, valid: minItems, message: `${name} in body should have at least ${minItems} items` });
    }
    if (maxItems !== undefined && size > maxItems) {
      const name = pathName();
      out.errors.push({ code: 'MaxItems', name, segments: pathSegments(), value: size, valid: maxItems, message: `${name} in body should have at most ${maxItems} items` });
    }
    if (unique) {
      outer: for (let i = 1; i < size; i++) {
        for (let j = 0; j < i; j++) {
          if (goDeepEqual(data[i], data[j])) {
            const name = pathName();
            out.errors.push({ code: 'Unique', name, segments: pathSegments(), message: `${name} in body shouldn't contain duplicates` });
            break outer;
          }
        }
      }
    }
    out.matchCount++;
  };
}
