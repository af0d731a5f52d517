/**
 * cel.ValidFieldPath (apiextensions-apiserver pkg/apiserver/schema/cel): resolves a JSON path made of
 * `.field` and `['key']` steps against a schema, as used by selectableFields and the fieldPath of
 * x-kubernetes-validations rules.
 */
import { FieldPath } from '../../field';
import type { JSONSchemaProps } from '../types';
import { isJSONObject } from '../../json/values';

export interface ValidFieldPathResult {
  path?: FieldPath;
  schema?: JSONSchemaProps;
  error?: string;
}

/** Splits like the Go scanner: '.', '[', ']' are single tokens; a leading quote runs to the closing quote. */
function tokenize(s: string): string[] {
  const toks: string[] = [];
  let i = 0;
  while (i < s.length) {
    if (s[i] === "'") {
      let j = i + 1;
      while (j < s.length && !(s[j] === "'" && s[j - 1] !== '\\')) j++;
      toks.push(s.slice(i, Math.min(j + 1, s.length)));
      i = j + 1;
      continue;
    }
    if (s[i] === '.' || s[i] === '[' || s[i] === ']') {
      toks.push(s[i]);
      i++;
      continue;
    }
    let j = i;
    while (j < s.length && s[j] !== '.' && s[j] !== '[' && s[j] !== ']') j++;
    toks.push(s.slice(i, j));
    i = j;
  }
  return toks;
}

function unescapeSingleQuote(s: string): { value: string } | { error: string } {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '\\') {
      out += s[i];
      continue;
    }
    const c = s[++i];
    const map: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' };
    if (c === undefined || !(c in map)) return { error: `invalid escape char \\${c ?? ''}` };
    out += map[c];
  }
  return { value: out };
}

function hasProperties(s: JSONSchemaProps | undefined): boolean {
  return !!s && isJSONObject(s.properties) && Object.keys(s.properties).length > 0;
}

/** ValidFieldPath; allowArrayNotation false rejects `[...]` steps (selectableFields). */
export function validFieldPath(jsonPath: string, schema: JSONSchemaProps | undefined, allowArrayNotation = true): ValidFieldPathResult {
  let path: FieldPath | undefined;
  let cur = schema;
  const step = (name: string): string | undefined => {
    if (hasProperties(cur)) {
      path = path ? path.child(name) : FieldPath.root(name);
      const next = (cur!.properties as Record<string, JSONSchemaProps>)[name];
      if (!next) return 'does not refer to a valid field';
      cur = next;
      return undefined;
    }
    if (cur && cur.additionalProperties !== undefined) {
      path = path ? path.key(name) : FieldPath.root().key(name);
      cur = isJSONObject(cur.additionalProperties) ? (cur.additionalProperties as JSONSchemaProps) : undefined;
      return undefined;
    }
    return 'does not refer to a valid field';
  };
  const toks = tokenize(jsonPath);
  for (let i = 0; i < toks.length; i++) {
    const tok = toks[i];
    if (tok === '[') {
      if (!allowArrayNotation) return { error: 'array notation is not allowed' };
      if (++i >= toks.length) return { error: 'unexpected end of JSON path' };
      const q = toks[i];
      if (q.length < 2 || q[0] !== "'" || q[q.length - 1] !== "'") return { error: `expected single quoted string but got ${q}` };
      const u = unescapeSingleQuote(q.slice(1, -1));
      if ('error' in u) return { error: `invalid string literal: ${u.error}` };
      const err = step(u.value);
      if (err) return { error: err };
      if (++i >= toks.length) return { error: 'unexpected end of JSON path' };
      if (toks[i] !== ']') return { error: `expected ] but got ${toks[i]}` };
    } else if (tok === '.') {
      if (++i >= toks.length) return { error: 'unexpected end of JSON path' };
      const err = step(toks[i]);
      if (err) return { error: err };
    } else {
      return { error: `expected [ or . but got: ${tok}` };
    }
  }
  return { path, schema: cur };
}
