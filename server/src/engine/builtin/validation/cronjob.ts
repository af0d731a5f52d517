/**
 * batch/validation.validateCronJobSpec and ValidateCronJobCreate: the schedule (robfig/cron v3's
 * ParseStandard, as Kubernetes parses it), the name length the controller's Job names need, and the
 * jobTemplate (a Job spec whose selector is generated). The timeZone field is not checked here: the
 * API server asks its time-zone database, which this package does not ship.
 */
import { FieldPath, invalid, notSupported, required, type FieldError } from '../../field';
import { validateJobSpecCommon } from './controllers';
import { labelSelectorValue } from './labelselector';
import { validateNonnegativeField } from './podspec';
import { intPtr, obj, ptr, SPEC_PATH, str, type JSONObject } from './values';

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MINUTES: Bounds = { min: 0, max: 59 };
const HOURS: Bounds = { min: 0, max: 23 };
const DOM: Bounds = { min: 1, max: 31 };
const MONTHS: Bounds = { min: 1, max: 12, names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 } };
const DOW: Bounds = { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } };

class CronError extends Error {}

const ATOI = /^[+-]?\d+$/;

/** strconv.Atoi's accepted form (an optional sign and decimal digits) and its error text. */
function atoi(s: string): number {
  if (!ATOI.test(s)) throw new CronError(`failed to parse int from ${s}: strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`);
  const n = Number(s);
  if (!Number.isSafeInteger(n) || Math.abs(n) > 2 ** 63 - 1) throw new CronError(`failed to parse int from ${s}: strconv.Atoi: parsing ${JSON.stringify(s)}: value out of range`);
  return n;
}

/** cron's mustParseInt */
function mustParseInt(expr: string): number {
  const n = atoi(expr);
  if (n < 0) throw new CronError(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function parseIntOrName(expr: string, names?: Record<string, number>): number {
  if (names && Object.hasOwn(names, expr.toLowerCase())) return names[expr.toLowerCase()];
  return mustParseInt(expr);
}

/** cron's getRange: one comma-separated part of a field. */
function getRange(expr: string, r: Bounds): void {
  // A lone `*` (most fields) is the whole range with step 1: nothing to parse.
  if (expr === '*') return;
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0].split('-');
  const single = lowAndHigh.length === 1;
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
  } else {
    start = parseIntOrName(lowAndHigh[0], r.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1], r.names);
    else throw new CronError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1]);
    if (single) end = r.max;
  } else if (rangeAndStep.length > 2) throw new CronError(`too many slashes: ${expr}`);
  if (start < r.min) throw new CronError(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) throw new CronError(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronError(`step of range should be a positive number: ${expr}`);
}

/** The bounds of a standard spec's five fields (minute, hour, day of month, month, day of week). */
const FIELD_BOUNDS = [MINUTES, HOURS, DOM, MONTHS, DOW];
/** What Go's unicode.IsSpace calls white space (strings.Fields splits on it), as Go 1.26 lists it. */
const WHITE_SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/**
 * cron.ParseStandard's error for a schedule, undefined when it parses, or 'unknown' where the answer
 * needs what is not ported (a TZ= location, an @every duration).
 */
export function parseStandardError(spec: string): string | undefined | 'unknown' {
  if (spec.length === 0) return 'empty spec string';
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) return 'unknown';
  if (spec.startsWith('@')) {
    if (DESCRIPTORS.has(spec)) return undefined;
    if (spec.startsWith('@every ')) return 'unknown';
    return `unrecognized descriptor: ${spec}`;
  }
  // strings.Fields: split on white space (a native split: most schedules are read once, before any
  // loop of ours would be compiled)
  const fields = spec.split(WHITE_SPACE).filter((f) => f !== '');
  if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`;
  try {
    for (let i = 0; i < 5; i++) {
      // strings.FieldsFunc on ',': empty parts are skipped
      for (const part of fields[i].split(',')) if (part !== '') getRange(part, FIELD_BOUNDS[i]);
    }
  } catch (e) {
    if (e instanceof CronError) return e.message;
    throw e;
  }
  return undefined;
}

/** validateScheduleFormat on create (no TZ allowed in the schedule). */
function validateScheduleFormat(schedule: string, p: FieldPath, errs: FieldError[]): void {
  const err = parseStandardError(schedule);
  if (err !== undefined && err !== 'unknown') errs.push(invalid(p, schedule, err));
  if (schedule.includes('TZ')) errs.push(invalid(p, schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
}

const CONCURRENCY = ['Allow', 'Forbid', 'Replace'];

/** ValidateCronJobCreate without the metadata (the name length is here). */
export function validateCronJob(object: JSONObject, errs: FieldError[]): void {
  const spec = obj(object.spec);
  const sp = SPEC_PATH;
  const schedule = str(spec.schedule);
  if (schedule.length === 0) errs.push(required(sp.child('schedule'), ''));
  else validateScheduleFormat(schedule, sp.child('schedule'), errs);
  validateNonnegativeField(intPtr(spec.startingDeadlineSeconds), sp.child('startingDeadlineSeconds'), errs);
  const cp = str(spec.concurrencyPolicy);
  if (cp !== '' && !CONCURRENCY.includes(cp)) errs.push(notSupported(sp.child('concurrencyPolicy'), cp, CONCURRENCY));
  // ValidateJobTemplateSpec
  const jt = obj(obj(spec.jobTemplate).spec);
  const jp = sp.child('jobTemplate');
  validateJobSpecCommon(jt, jp.child('spec'), errs);
  const selector = ptr(jt.selector);
  if (selector) errs.push(invalid(jp.child('spec', 'selector'), labelSelectorValue(selector), '`selector` will be auto-generated'));
  if (jt.manualSelector === true) errs.push(notSupported(jp.child('spec', 'manualSelector'), true, ['nil', 'false']));
  validateNonnegativeField(intPtr(spec.successfulJobsHistoryLimit), sp.child('successfulJobsHistoryLimit'), errs);
  validateNonnegativeField(intPtr(spec.failedJobsHistoryLimit), sp.child('failedJobsHistoryLimit'), errs);
  const name = str(obj(object.metadata).name);
  if (name.length > 52) errs.push(invalid(FieldPath.root('metadata', 'name'), name, 'must be no more than 52 characters'));
}
