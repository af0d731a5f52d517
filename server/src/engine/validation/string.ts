/**
 * kube-openapi's stringValidator (validate/validator.go): maxLength, minLength, pattern.
 */
import { compilePattern, matchPattern } from '../regex/re2';
import type { JSONSchemaProps } from '../schema/types';
import { runeCount } from '../json/go';
import type { OpenAPIError } from './kube-openapi-errors';
import { currentRun, nameOf, noteNotChecked, patternTooLarge, segsOf, type ValuePath } from './result';
import { num } from './schema';

/** stringValidator: the first failing of maxLength, minLength, pattern. */
export function compileString(s: JSONSchemaProps): ((data: string, path: ValuePath | null) => OpenAPIError | undefined) | undefined {
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
