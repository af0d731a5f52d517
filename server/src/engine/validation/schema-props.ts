/**
 * kube-openapi's schemaPropsValidator (validate/schema_props.go): the junctors anyOf, oneOf, allOf,
 * not, and property dependencies.
 */
import type { JSONSchemaProps } from '../schema/types';
import { type GoKind, goQuote } from '../json/go';
import { plainError } from './kube-openapi-errors';
import { enter, leave, merge, notCheckedCount, pathName, probe, type Result } from './result';
import type { Correlation } from './ratcheting';
import { isSchema, schemaValidator } from './schema';

function schemaList(v: unknown): JSONSchemaProps[] {
  return Array.isArray(v) ? v.filter(isSchema) : [];
}

/** schemaPropsValidator: anyOf, oneOf, allOf, not (and property dependencies). */
/** `asWritten`: the formats mode of the parent (see schemaValidator). */
export function compileSchemaProps(s: JSONSchemaProps, asWritten: boolean): ((data: unknown, kind: GoKind, out: Result, corr?: Correlation) => void) | undefined {
  const anyOf = schemaList(s.anyOf);
  const oneOf = schemaList(s.oneOf);
  const allOf = schemaList(s.allOf);
  const not = isSchema(s.not) ? s.not : undefined;
  const deps = isSchema(s.dependencies) ? (s.dependencies as Record<string, unknown>) : undefined;
  // Without junctors nothing to run: the caller counts the one match (no result object per node).
  if (!anyOf.length && !oneOf.length && !allOf.length && !not && !deps) return undefined;
  // The field's quoted name, for an error only (most values pass).
  const q = () => goQuote(pathName());
  // Each branch gets a Result of its own: kube-openapi compares their errors and match counts.
  const branch = (sch: JSONSchemaProps, data: unknown, corr: Correlation | undefined): Result => {
    const r: Result = { errors: [], matchCount: 0 };
    schemaValidator(sch, asWritten)(data, r, corr, true);
    return r;
  };
  return (data, kind, main, corr) => {
    if (anyOf.length) {
      let best: Result | undefined;
      let firstSuccess: Result | undefined;
      let succeeded = false;
      for (const sch of anyOf) {
        const r = branch(sch, data, corr);
        if (r.errors.length === 0) {
          best = undefined;
          succeeded = true;
          firstSuccess ??= r;
          break;
        }
        if (!best || r.matchCount > best.matchCount) best = r;
      }
      if (!succeeded) main.errors.push(plainError(`${q()} must validate at least one schema (anyOf)`));
      if (best) merge(main, best);
      else if (firstSuccess) merge(main, firstSuccess);
    }
    if (oneOf.length) {
      let best: Result | undefined;
      let firstSuccess: Result | undefined;
      let validated = 0;
      const before = notCheckedCount();
      for (const sch of oneOf) {
        // After a branch passed, the others only count: probes.
        const r = validated === 0 ? branch(sch, data, corr) : probe(() => branch(sch, data, corr));
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
        main.errors.push(plainError(`${q()} must validate one and only one schema (oneOf). ${more}`));
        if (best) merge(main, best);
      } else if (firstSuccess) merge(main, firstSuccess);
    }
    if (allOf.length) {
      let validated = 0;
      for (const sch of allOf) {
        const r = branch(sch, data, corr);
        if (r.errors.length === 0) validated++;
        merge(main, r);
      }
      if (validated !== allOf.length) main.errors.push(plainError(`${q()} must validate all the schemas (allOf)${validated === 0 ? '. None validated' : ''}`));
    }
    if (not) {
      const before = notCheckedCount();
      const r = probe(() => branch(not, data, corr));
      // Passing `not` only because a bound cut a check is no evidence against the value.
      if (r.errors.length === 0 && notCheckedCount() === before) main.errors.push(plainError(`${q()} must not validate the schema (not)`));
    }
    if (deps && kind === 'map') {
      const obj = data as Record<string, unknown>;
      for (const key of Object.keys(obj)) {
        const dep = deps[key];
        if (dep === undefined) continue;
        if (Array.isArray(dep)) {
          for (const depKey of dep) {
            if (typeof depKey === 'string' && !Object.hasOwn(obj, depKey)) {
              main.errors.push(plainError(`${q()} has a dependency on ${depKey}`));
            }
          }
        } else if (isSchema(dep)) {
          enter('dotField', key);
          schemaValidator(dep, asWritten)(data, main);
          leave();
        }
      }
    }
    main.matchCount++;
  };
}
