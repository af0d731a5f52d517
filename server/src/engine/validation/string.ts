/**
 * kube-openapi's stringValidator (validate/validator.go): maxLength, minLength, pattern.
 */
import { compilePattern, matchPattern } from '../regex/re2';
import type { JSONSchemaProps } from '../schema/types';
import { runeCount } from '../json/go';
import type { OpenAPIError } from './kube-openapi-errors';
import { currentRun, noteNotChecked, pathName, pathSegments, patternTooLarge } from './result';
import { num } from './schema';

/** stringValidator: the first failing of maxLength, minLength, pattern. */
export function compileString(s: JSONSchemaProps): ((data: string) => OpenAPIError | undefined) | undefined {
  const maxLength = num(s.maxLength);
  const minLength = num(s.minLength);
  const pattern = typeof s.pattern === 'string' && s.pattern !== '' ? s.pattern : undefined;
  if (maxLength === undefined && minLength === undefined && pattern === undefined) return undefined;
  const re = pattern !== undefined ? compilePattern(pattern) : undefined;
  // The path's name is spelled only for an error: most values pass.
  return (data) => {
    if (maxLength !== undefined || minLength !== undefined) {
      const n = runeCount(data);
      if (maxLength !== undefined && n > maxLength) {
        const name = pathName();
        return { code: 'TooLong', name, segments: pathSegments(), value: data, valid: maxLength, message: `${name} in body should be at most ${maxLength} chars long` };
      }
      if (minLength !== undefined && n < minLength) {
        const name = pathName();
        return { code: 'TooShort', name, segments: pathSegments(), value: data, valid: minLength, message: `${name} in body should be at least ${minLength} chars long` };
      }
    }
    if (re) {
      if (re.kind === 'invalid') {
        const name = pathName();
        return { code: 'Pattern', name, segments: pathSegments(), value: data, message: `${name} in body should match '${pattern}, but pattern is invalid: ${re.error}'` };
      }
      if (re.kind === 'tooLarge') {
        noteNotChecked(patternTooLarge(re.size));
        return undefined;
      }
      const m = matchPattern(re, data, currentRun().budget);
      if (m === undefined) noteNotChecked(`pattern too expensive for a value of ${data.length} characters`);
      else if (!m) {
        const name = pathName();
        return { code: 'Pattern', name, segments: pathSegments(), value: data, message: `${name} in body should match '${pattern}'` };
      }
    }
    return undefined;
  };
}
