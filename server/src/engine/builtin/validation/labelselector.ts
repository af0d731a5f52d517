/**
 * metav1.LabelSelector: its validation (apimachinery meta/v1/validation.ValidateLabelSelector) and its
 * meaning as a labels.Selector (metav1.LabelSelectorAsSelector, Selector.Matches, Selector.Empty).
 */
import { forbidden, invalid, required, type FieldPath, type FieldError } from '../../field';
import { GoStruct } from '../../json/go';
import { isQualifiedName, isValidLabelValue } from '../../objectmeta/names';
import { validateLabels } from '../../objectmeta/objectmeta';
import { list, obj, str, stringMap, type JSONObject } from './values';

/** ValidateLabelSelector (AllowInvalidLabelValueInSelector false, no unknown operators), appended to errs. */
export function validateLabelSelector(selector: JSONObject | undefined, fldPath: FieldPath, errs: FieldError[]): void {
  if (!selector) return;
  errs.push(...validateLabels(stringMap(selector.matchLabels), fldPath.child('matchLabels')));
  const exprs = list(selector.matchExpressions);
  for (let i = 0; i < exprs.length; i++) {
    const r = obj(exprs[i]);
    const p = fldPath.child('matchExpressions').index(i);
    const values = list(r.values);
    const operator = str(r.operator);
    switch (operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errs.push(required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) errs.push(forbidden(p.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        errs.push(invalid(p.child('operator'), operator, 'not a valid selector operator'));
    }
    const key = str(r.key);
    for (const msg of isQualifiedName(key)) errs.push(invalid(p.child('key'), key, msg));
    for (let j = 0; j < values.length; j++) {
      const v = str(values[j]);
      for (const msg of isValidLabelValue(v)) errs.push(invalid(p.child('values').index(j), v, msg));
    }
  }
}

interface Requirement {
  key: string;
  op: 'in' | 'notin' | 'exists' | '!' | '=';
  values: string[];
}

/** A labels.Selector: `nothing` for a nil LabelSelector, else its requirements (none: everything). */
export type Selector = { nothing: true } | { nothing: false; requirements: Requirement[] };

/** The selection operators of a LabelSelectorRequirement, as labels.Selector names them. */
const OPERATORS = new Map<string, Requirement['op']>([
  ['In', 'in'],
  ['NotIn', 'notin'],
  ['Exists', 'exists'],
  ['DoesNotExist', '!'],
]);

/** metav1.LabelSelectorAsSelector: the selector, or an error (when a requirement is malformed). */
export function labelSelectorAsSelector(selector: JSONObject | undefined): Selector | { error: true } {
  if (!selector) return { nothing: true };
  const matchLabels = stringMap(selector.matchLabels);
  const exprs = list(selector.matchExpressions);
  const requirements: Requirement[] = [];
  for (const k of Object.keys(matchLabels)) {
    const v = matchLabels[k];
    if (isQualifiedName(k).length || isValidLabelValue(v).length) return { error: true };
    requirements.push({ key: k, op: '=', values: [v] });
  }
  for (const x of exprs) {
    const e = obj(x);
    const key = str(e.key);
    const values = list(e.values).map(str);
    const op = OPERATORS.get(str(e.operator));
    if (!op || isQualifiedName(key).length) return { error: true };
    if ((op === 'in' || op === 'notin') && values.length === 0) return { error: true };
    if ((op === 'exists' || op === '!') && values.length > 0) return { error: true };
    if (values.some((v) => isValidLabelValue(v).length)) return { error: true };
    requirements.push({ key, op, values });
  }
  return { nothing: false, requirements };
}

/** Selector.Empty: a selector with no requirements (nothing is not empty). */
export const selectorEmpty = (s: Selector) => !s.nothing && s.requirements.length === 0;

/** Selector.Matches(labels.Set(labels)). */
export function selectorMatches(s: Selector, labels: Record<string, string>): boolean {
  if (s.nothing) return false;
  return s.requirements.every((r) => {
    const has = Object.hasOwn(labels, r.key);
    switch (r.op) {
      case '=':
      case 'in':
        return has && r.values.includes(labels[r.key]);
      case 'notin':
        return !has || !r.values.includes(labels[r.key]);
      case 'exists':
        return has;
      case '!':
        return !has;
    }
  });
}

/** A *metav1.LabelSelector as field.Error prints it (json.Marshal of the struct: fields in order, omitempty). */
export function labelSelectorValue(selector: JSONObject): GoStruct {
  const fields: [string, unknown][] = [];
  const ml = stringMap(selector.matchLabels);
  if (Object.keys(ml).length) fields.push(['matchLabels', { ...ml }]);
  const me = list(selector.matchExpressions).map((x) => {
    const r = obj(x);
    const f: [string, unknown][] = [
      ['key', str(r.key)],
      ['operator', str(r.operator)],
    ];
    const values = list(r.values).map(str);
    if (values.length) f.push(['values', values]);
    return new GoStruct(f);
  });
  if (me.length) fields.push(['matchExpressions', me]);
  return new GoStruct(fields);
}
