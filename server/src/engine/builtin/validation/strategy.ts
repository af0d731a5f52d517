/**
 * The update strategies of Deployments and DaemonSets (apps/validation.ValidateDeploymentStrategy,
 * ValidateRollingUpdateDeployment, ValidateDaemonSetUpdateStrategy, ValidateRollingUpdateDaemonSet)
 * after apps/v1's defaults: type RollingUpdate, a Deployment's maxUnavailable and maxSurge 25%, a
 * DaemonSet's 1 and 0. An unknown strategy type is not ported (its bad value is the internal struct).
 */
import { forbidden, invalid, required, type FieldPath, type FieldError } from '../../field';
import { regexError } from '../../objectmeta/names';
import { validateNonnegativeField } from './podspec';
import { int, obj, ptr, str, type JSONObject } from './values';

type IntOrString = number | string;

/** An intstr.IntOrString field, or its default when unset (undefined: neither, no check runs on it). */
function intOrString(v: unknown, dflt: IntOrString): IntOrString | undefined {
  if (v === undefined || v === null) return dflt;
  if (typeof v === 'string') return v;
  return int(v);
}

const PERCENT_FMT = '[0-9]+%';
const PERCENT = /^[0-9]+%$/;
const ATOI = /^[+-]?\d+$/;

/** util/validation.IsValidPercent */
const isValidPercent = (s: string) => (PERCENT.test(s) ? [] : [regexError("a valid percent string must be a numeric string followed by an ending '%'", PERCENT_FMT, '1%', '93%')]);

/** getPercentValue */
const percentValue = (v: IntOrString): number | undefined => (typeof v === 'string' && PERCENT.test(v) ? Number.parseInt(v.slice(0, -1), 10) : undefined);

/** getIntOrPercentValue: a percent's number, an int, or IntValue() of another string (strconv.Atoi, 0 on error). */
function intOrPercentValue(v: IntOrString): number {
  const p = percentValue(v);
  if (p !== undefined) return p;
  if (typeof v === 'number') return v;
  return ATOI.test(v) ? Number.parseInt(v, 10) : 0;
}

/** ValidatePositiveIntOrPercent */
function validatePositiveIntOrPercent(v: IntOrString, p: FieldPath, errs: FieldError[]): void {
  if (typeof v === 'string') for (const m of isValidPercent(v)) errs.push(invalid(p, v, m));
  else validateNonnegativeField(v, p, errs);
}

/** IsNotMoreThan100Percent */
function notMoreThan100Percent(v: IntOrString, p: FieldPath, errs: FieldError[]): void {
  const pct = percentValue(v);
  if (pct !== undefined && pct > 100) errs.push(invalid(p, v, 'must not be greater than 100%'));
}

/** ValidateDeploymentStrategy */
export function validateDeploymentStrategy(strategy: JSONObject, p: FieldPath, errs: FieldError[]): void {
  const type = str(strategy.type) || 'RollingUpdate';
  const rolling = ptr(strategy.rollingUpdate);
  if (type === 'Recreate') {
    if (rolling) errs.push(forbidden(p.child('rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'"));
    return;
  }
  if (type !== 'RollingUpdate') return;
  const ru = rolling ?? {};
  const maxUnavailable = intOrString(ru.maxUnavailable, '25%');
  const maxSurge = intOrString(ru.maxSurge, '25%');
  if (maxUnavailable === undefined || maxSurge === undefined) return;
  const rp = p.child('rollingUpdate');
  validatePositiveIntOrPercent(maxUnavailable, rp.child('maxUnavailable'), errs);
  validatePositiveIntOrPercent(maxSurge, rp.child('maxSurge'), errs);
  if (intOrPercentValue(maxUnavailable) === 0 && intOrPercentValue(maxSurge) === 0) errs.push(invalid(rp.child('maxUnavailable'), maxUnavailable, 'may not be 0 when `maxSurge` is 0'));
  notMoreThan100Percent(maxUnavailable, rp.child('maxUnavailable'), errs);
}

/** ValidateDaemonSetUpdateStrategy (RollingUpdate and OnDelete). */
export function validateDaemonSetUpdateStrategy(strategy: JSONObject, p: FieldPath, errs: FieldError[]): void {
  const type = str(strategy.type) || 'RollingUpdate';
  if (type !== 'RollingUpdate') return;
  const ru = obj(strategy.rollingUpdate);
  const maxUnavailable = intOrString(ru.maxUnavailable, 1);
  const maxSurge = intOrString(ru.maxSurge, 0);
  if (maxUnavailable === undefined || maxSurge === undefined) return;
  const rp = p.child('rollingUpdate');
  validatePositiveIntOrPercent(maxUnavailable, rp.child('maxUnavailable'), errs);
  validatePositiveIntOrPercent(maxSurge, rp.child('maxSurge'), errs);
  notMoreThan100Percent(maxUnavailable, rp.child('maxUnavailable'), errs);
  notMoreThan100Percent(maxSurge, rp.child('maxSurge'), errs);
  const hasUnavailable = intOrPercentValue(maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(maxSurge) !== 0;
  if (hasUnavailable && hasSurge) errs.push(invalid(rp.child('maxSurge'), maxSurge, 'may not be set when maxUnavailable is non-zero'));
  else if (!hasUnavailable && !hasSurge) errs.push(required(rp.child('maxUnavailable'), 'cannot be 0 when maxSurge is 0'));
}
