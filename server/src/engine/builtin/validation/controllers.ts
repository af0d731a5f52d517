/**
 * The workload controllers' specs (apps/validation, batch/validation, core's ReplicationController):
 * the selector against the Pod template's labels, the template itself, and each controller's restart
 * policy. Defaults the API server applies before validating are assumed where a field is missing.
 */
import { type FieldPath, forbidden, invalid, notSupported, required, type FieldError } from '../../field';
import { validateAnnotations, validateLabels } from '../../objectmeta/objectmeta';
import { labelSelectorAsSelector, labelSelectorValue, selectorEmpty, selectorMatches, validateLabelSelector, type Selector } from './labelselector';
import { defaultedRestartPolicy, validateDNS1123Label, validateNonnegativeField, validatePodTemplateSpec } from './podspec';
import { isJSONObject, setOwn } from '../../json/values';
import { validateDaemonSetUpdateStrategy, validateDeploymentStrategy } from './strategy';
import { int, intPtr, isSet, list, obj, ptr, str, stringMap, type JSONObject } from './values';

const SELECTOR_MISMATCH = '`selector` does not match template `labels`';

const templateLabels = (template: JSONObject) => stringMap(obj(template.metadata).labels);
/** The template's labels as the bad value of a mismatch (a copy): a nil map prints null. */
const labelsValue = (template: JSONObject) => (isJSONObject(obj(template.metadata).labels) ? { ...templateLabels(template) } : null);

/**
 * What the controllers of long-running Pods add after ValidatePodTemplateSpec: the template's
 * restartPolicy (after SetDefaults_PodSpec) is Always and it has no activeDeadlineSeconds.
 */
function validateLongRunningTemplate(template: JSONObject, tPath: FieldPath, kind: string, errs: FieldError[]): void {
  const tspec = obj(template.spec);
  const rp = defaultedRestartPolicy(tspec);
  if (rp !== 'Always') errs.push(notSupported(tPath.child('spec', 'restartPolicy'), rp, ['Always']));
  if (intPtr(tspec.activeDeadlineSeconds) !== undefined) errs.push(forbidden(tPath.child('spec', 'activeDeadlineSeconds'), `activeDeadlineSeconds in ${kind} is not Supported`));
}

/** Whether a selector has no matchLabels and no matchExpressions. */
const emptySelector = (selector: JSONObject) => Object.keys(stringMap(selector.matchLabels)).length + list(selector.matchExpressions).length === 0;

/** The strict selector checks of Deployment, ReplicaSet and StatefulSet: required, valid, not empty. */
function validateRequiredSelector(selector: JSONObject | undefined, fldPath: FieldPath, kindWord: string, errs: FieldError[]): void {
  if (!selector) {
    errs.push(required(fldPath, ''));
    return;
  }
  validateLabelSelector(selector, fldPath, errs);
  if (emptySelector(selector)) errs.push(invalid(fldPath, labelSelectorValue(selector), `empty selector is invalid for ${kindWord}`));
}

/**
 * apps/validation.ValidatePodTemplateSpecForReplicaSet (Deployment and ReplicaSet): the selector
 * matches the template's labels, the template is valid, its restartPolicy is Always and it has no
 * activeDeadlineSeconds.
 */
function validatePodTemplateSpecForReplicaSet(template: JSONObject, s: Selector, fldPath: FieldPath, kind: string, errs: FieldError[]): void {
  if (!selectorEmpty(s) && !selectorMatches(s, templateLabels(template))) errs.push(invalid(fldPath.child('metadata', 'labels'), labelsValue(template), SELECTOR_MISMATCH));
  validatePodTemplateSpec(template, fldPath, errs);
  validateLongRunningTemplate(template, fldPath, kind, errs);
}

/** apps/validation.ValidateDeploymentSpec (the rollback check is not ported). */
export function validateDeploymentSpec(spec: JSONObject, fldPath: FieldPath, errs: FieldError[]): void {
  validateNonnegativeField(intPtr(spec.replicas), fldPath.child('replicas'), errs);
  const selector = ptr(spec.selector);
  validateRequiredSelector(selector, fldPath.child('selector'), 'deployment', errs);
  templateForReplicaSet(spec, selector, fldPath, 'ReplicaSet', errs);
  validateDeploymentStrategy(obj(spec.strategy), fldPath.child('strategy'), errs);
  const minReadySeconds = int(spec.minReadySeconds);
  validateNonnegativeField(minReadySeconds, fldPath.child('minReadySeconds'), errs);
  validateNonnegativeField(intPtr(spec.revisionHistoryLimit), fldPath.child('revisionHistoryLimit'), errs);
  const pds = intPtr(spec.progressDeadlineSeconds);
  if (pds !== undefined) {
    validateNonnegativeField(pds, fldPath.child('progressDeadlineSeconds'), errs);
    if (pds <= (minReadySeconds ?? 0)) errs.push(invalid(fldPath.child('progressDeadlineSeconds'), pds, 'must be greater than minReadySeconds'));
  }
}

/** LabelSelectorAsSelector's error ("invalid label selector" at spec.selector) or the template checks. */
function templateForReplicaSet(spec: JSONObject, selector: JSONObject | undefined, fldPath: FieldPath, kind: string, errs: FieldError[]): void {
  const s = labelSelectorAsSelector(selector);
  if ('error' in s) errs.push(invalid(fldPath.child('selector'), labelSelectorValue(selector ?? {}), 'invalid label selector'));
  else validatePodTemplateSpecForReplicaSet(obj(spec.template), s, fldPath.child('template'), kind, errs);
}

/** apps/validation.ValidateReplicaSetSpec */
export function validateReplicaSetSpec(spec: JSONObject, fldPath: FieldPath, errs: FieldError[]): void {
  validateNonnegativeField(intPtr(spec.replicas), fldPath.child('replicas'), errs);
  validateNonnegativeField(int(spec.minReadySeconds), fldPath.child('minReadySeconds'), errs);
  const selector = ptr(spec.selector);
  validateRequiredSelector(selector, fldPath.child('selector'), 'deployment', errs);
  templateForReplicaSet(spec, selector, fldPath, 'ReplicaSet', errs);
}

/** The pod spec of a StatefulSet's template as its controller makes it: no hostname or subdomain, a volume for each volumeClaimTemplate. */
function statefulSetPodSpec(spec: JSONObject, templateSpec: JSONObject): JSONObject {
  // A copy without them (a spread then adding or deleting fields takes V8's slow path: microseconds an object).
  const tspec: JSONObject = {};
  for (const k in templateSpec) if (k !== 'hostname' && k !== 'subdomain') setOwn(tspec, k, templateSpec[k]);
  const claimTemplates = list(spec.volumeClaimTemplates);
  if (claimTemplates.length > 0) {
    const claims = claimTemplates.map((c) => str(obj(obj(c).metadata).name));
    const added = claims.map((name) => ({ name, persistentVolumeClaim: { claimName: name } }));
    tspec.volumes = [...added, ...list(tspec.volumes).filter((v) => !claims.includes(str(obj(v).name)))];
  }
  return tspec;
}

/**
 * apps/validation.ValidateStatefulSetSpec: the template is checked with hostname and subdomain cleared
 * and a volume for each volumeClaimTemplate (what the controller adds); podManagementPolicy and
 * updateStrategy are defaulted (OrderedReady, RollingUpdate) and their other values not ported.
 */
export function validateStatefulSetSpec(spec: JSONObject, fldPath: FieldPath, errs: FieldError[]): void {
  validateNonnegativeField(intPtr(spec.replicas), fldPath.child('replicas'), errs);
  validateNonnegativeField(int(spec.minReadySeconds), fldPath.child('minReadySeconds'), errs);
  const serviceName = str(spec.serviceName);
  if (serviceName.length > 0) validateDNS1123Label(serviceName, fldPath.child('serviceName'), errs);
  const selector = ptr(spec.selector);
  validateRequiredSelector(selector, fldPath.child('selector'), 'statefulset', errs);
  const s = labelSelectorAsSelector(selector);
  const template = obj(spec.template);
  const tPath = fldPath.child('template');
  if ('error' in s) errs.push(invalid(fldPath.child('selector'), labelSelectorValue(selector ?? {}), ''));
  else {
    const t: JSONObject = { ...template, spec: statefulSetPodSpec(spec, obj(template.spec)) };
    if (!selectorEmpty(s) && !selectorMatches(s, templateLabels(t))) errs.push(invalid(tPath.child('metadata', 'labels'), labelsValue(t), SELECTOR_MISMATCH));
    validatePodTemplateSpec(t, tPath, errs);
    // ValidatePodTemplateSpecForStatefulSet checks labels and annotations a second time.
    const meta = obj(t.metadata);
    errs.push(...validateLabels(stringMap(meta.labels), tPath.child('labels')));
    errs.push(...validateAnnotations(stringMap(meta.annotations), tPath.child('annotations')));
  }
  validateLongRunningTemplate(template, tPath, 'StatefulSet', errs);
}

/** apps/validation.ValidateDaemonSetSpec */
export function validateDaemonSetSpec(spec: JSONObject, fldPath: FieldPath, errs: FieldError[]): void {
  const selector = ptr(spec.selector);
  validateLabelSelector(selector, fldPath.child('selector'), errs);
  const template = obj(spec.template);
  const s = labelSelectorAsSelector(selector);
  if (!('error' in s) && !selectorMatches(s, templateLabels(template))) errs.push(invalid(fldPath.child('template', 'metadata', 'labels'), labelsValue(template), SELECTOR_MISMATCH));
  if (selector && emptySelector(selector)) errs.push(invalid(fldPath.child('selector'), labelSelectorValue(selector), 'empty selector is invalid for daemonset'));
  validatePodTemplateSpec(template, fldPath.child('template'), errs);
  validateLongRunningTemplate(template, fldPath.child('template'), 'DaemonSet', errs);
  validateNonnegativeField(int(spec.minReadySeconds), fldPath.child('minReadySeconds'), errs);
  validateDaemonSetUpdateStrategy(obj(spec.updateStrategy), fldPath.child('updateStrategy'), errs);
  validateNonnegativeField(intPtr(spec.revisionHistoryLimit), fldPath.child('revisionHistoryLimit'), errs);
}

/**
 * core/validation.ValidateReplicationControllerSpec: the selector (defaulted to the template's labels,
 * SetDefaults_ReplicationController) must not be empty and must match them.
 */
export function validateReplicationControllerSpec(spec: JSONObject, fldPath: FieldPath, errs: FieldError[]): void {
  const template = ptr(spec.template);
  const labels = template ? templateLabels(template) : {};
  let selector = stringMap(spec.selector);
  if (Object.keys(selector).length === 0) selector = labels;
  validateNonnegativeField(int(spec.minReadySeconds), fldPath.child('minReadySeconds'), errs);
  if (Object.keys(selector).length === 0) errs.push(required(fldPath.child('selector'), ''));
  validateNonnegativeField(intPtr(spec.replicas), fldPath.child('replicas'), errs);
  const tPath = fldPath.child('template');
  if (!template) {
    errs.push(required(tPath, ''));
    return;
  }
  if (Object.entries(selector).some(([k, v]) => labels[k] !== v)) errs.push(invalid(tPath.child('metadata', 'labels'), labelsValue(template), SELECTOR_MISMATCH));
  validatePodTemplateSpec(template, tPath, errs);
  validateLongRunningTemplate(template, tPath, 'ReplicationController', errs);
}

/** The counts of a Job spec that may not be negative, in validateJobSpec's order. */
const JOB_COUNTS = ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished', 'backoffLimitPerIndex', 'maxFailedIndexes'];

/**
 * batch/validation.validateJobSpec: counts not negative, the template, and its restartPolicy
 * (OnFailure or Never; Never with a podFailurePolicy). Completion modes, pod failure and success
 * policies are not ported.
 */
export function validateJobSpecCommon(spec: JSONObject, fldPath: FieldPath, errs: FieldError[]): void {
  for (const f of JOB_COUNTS) if (isSet(spec[f])) validateNonnegativeField(intPtr(spec[f]), fldPath.child(f), errs);
  const template = obj(spec.template);
  validatePodTemplateSpec(template, fldPath.child('template'), errs);
  const rp = str(obj(template.spec).restartPolicy);
  if (rp === 'Always' || rp === '') errs.push(required(fldPath.child('template', 'spec', 'restartPolicy'), 'valid values: "OnFailure", "Never"'));
  else if (rp !== 'OnFailure' && rp !== 'Never') errs.push(notSupported(fldPath.child('template', 'spec', 'restartPolicy'), rp, ['OnFailure', 'Never']));
  else if (ptr(spec.podFailurePolicy) && rp !== 'Never') errs.push(invalid(fldPath.child('template', 'spec', 'restartPolicy'), rp, 'only "Never" is supported when podFailurePolicy is specified'));
}

/**
 * batch/validation.ValidateJobSpec on create. With `manualSelector: true` the selector is the user's:
 * required, valid, and matching the template's labels. Without it the API server generates the
 * selector and labels from the Job's uid (validateGeneratedSelector), which only the server knows:
 * a selector written without manualSelector is not judged here.
 */
export function validateJobSpec(spec: JSONObject, fldPath: FieldPath, errs: FieldError[]): void {
  validateJobSpecCommon(spec, fldPath, errs);
  if (spec.manualSelector !== true) return;
  const selector = ptr(spec.selector);
  if (!selector) errs.push(required(fldPath.child('selector'), ''));
  else validateLabelSelector(selector, fldPath.child('selector'), errs);
  const s = labelSelectorAsSelector(selector);
  const template = obj(spec.template);
  if (!('error' in s) && !selectorMatches(s, templateLabels(template))) errs.push(invalid(fldPath.child('template', 'metadata', 'labels'), labelsValue(template), SELECTOR_MISMATCH));
}
