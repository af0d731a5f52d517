/**
 * The workload controllers' specs (apps/validation, batch/validation, core's ReplicationController):
 * the selector against the Pod template's labels, the template itself, and each controller's restart
 * policy. Defaults the API server applies before validating are assumed where a field is missing.
 */
import { type FieldPath, forbidden, invalid, notSupported, required, type FieldError } from '../../field';
import { validateAnnotations, validateLabels } from '../../objectmeta/objectmeta';
import { labelSelectorAsSelector, labelSelectorValue, selectorEmpty, selectorMatches, validateLabelSelector } from './labelselector';
import { defaultedRestartPolicy, validateDNS1123Label, validateNonnegativeField, validatePodTemplateSpec } from './podspec';
import { isJSONObject } from '../../json/values';
import { validateDaemonSetUpdateStrategy, validateDeploymentStrategy } from './strategy';
import { int, intPtr, list, obj, ptr, str, stringMap, type JSONObject } from './values';

const SELECTOR_MISMATCH = '`selector` does not match template `labels`';

const templateLabels = (template: JSONObject) => stringMap(obj(template.metadata).labels);
/** The template's labels as the bad value of a mismatch: a nil map prints null. */
const labelsValue = (template: JSONObject) => (isJSONObject(obj(template.metadata).labels) ? templateLabels(template) : null);

/**
 * What the controllers of long-running Pods add after ValidatePodTemplateSpec: the template's
 * restartPolicy (after SetDefaults_PodSpec) is Always and it has no activeDeadlineSeconds.
 */
function validateLongRunningTemplate(template: JSONObject, tPath: FieldPath, kind: string): FieldError[] {
  const errs: FieldError[] = [];
  const tspec = obj(template.spec);
  const rp = defaultedRestartPolicy(tspec);
  if (rp !== 'Always') errs.push(notSupported(tPath.child('spec', 'restartPolicy'), rp, ['Always']));
  if (intPtr(tspec.activeDeadlineSeconds) !== undefined) errs.push(forbidden(tPath.child('spec', 'activeDeadlineSeconds'), `activeDeadlineSeconds in ${kind} is not Supported`));
  return errs;
}

/** The strict selector checks of Deployment, ReplicaSet and StatefulSet: required, valid, not empty. */
function validateRequiredSelector(selector: JSONObject | undefined, fldPath: FieldPath, kindWord: string): FieldError[] {
  if (!selector) return [required(fldPath, '')];
  const errs = validateLabelSelector(selector, fldPath);
  if (Object.keys(stringMap(selector.matchLabels)).length + list(selector.matchExpressions).length === 0) {
    errs.push(invalid(fldPath, labelSelectorValue(selector), `empty selector is invalid for ${kindWord}`));
  }
  return errs;
}

/**
 * apps/validation.ValidatePodTemplateSpecForReplicaSet (Deployment and ReplicaSet): the selector
 * matches the template's labels, the template is valid, its restartPolicy is Always and it has no
 * activeDeadlineSeconds.
 */
function validatePodTemplateSpecForReplicaSet(template: JSONObject, selector: JSONObject | undefined, fldPath: FieldPath, kind: string): FieldError[] {
  const errs: FieldError[] = [];
  const s = labelSelectorAsSelector(selector);
  if ('error' in s) return errs;
  if (!selectorEmpty(s) && !selectorMatches(s, templateLabels(template))) errs.push(invalid(fldPath.child('metadata', 'labels'), labelsValue(template), SELECTOR_MISMATCH));
  errs.push(...validatePodTemplateSpec(template, fldPath));
  errs.push(...validateLongRunningTemplate(template, fldPath, kind));
  return errs;
}

/** apps/validation.ValidateDeploymentSpec (the rollback check is not ported). */
export function validateDeploymentSpec(spec: JSONObject, fldPath: FieldPath): FieldError[] {
  const errs = validateNonnegativeField(intPtr(spec.replicas), fldPath.child('replicas'));
  const selector = ptr(spec.selector);
  errs.push(...validateRequiredSelector(selector, fldPath.child('selector'), 'deployment'));
  errs.push(...templateForReplicaSet(spec, selector, fldPath, 'ReplicaSet'));
  errs.push(...validateDeploymentStrategy(obj(spec.strategy), fldPath.child('strategy')));
  errs.push(...validateNonnegativeField(int(spec.minReadySeconds), fldPath.child('minReadySeconds')));
  errs.push(...validateNonnegativeField(intPtr(spec.revisionHistoryLimit), fldPath.child('revisionHistoryLimit')));
  const pds = intPtr(spec.progressDeadlineSeconds);
  if (pds !== undefined) {
    errs.push(...validateNonnegativeField(pds, fldPath.child('progressDeadlineSeconds')));
    if (pds <= (int(spec.minReadySeconds) ?? 0)) errs.push(invalid(fldPath.child('progressDeadlineSeconds'), pds, 'must be greater than minReadySeconds'));
  }
  return errs;
}

/** LabelSelectorAsSelector's error ("invalid label selector" at spec.selector) or the template checks. */
function templateForReplicaSet(spec: JSONObject, selector: JSONObject | undefined, fldPath: FieldPath, kind: string): FieldError[] {
  if ('error' in labelSelectorAsSelector(selector)) return [invalid(fldPath.child('selector'), labelSelectorValue(selector ?? {}), 'invalid label selector')];
  return validatePodTemplateSpecForReplicaSet(obj(spec.template), selector, fldPath.child('template'), kind);
}

/** apps/validation.ValidateReplicaSetSpec */
export function validateReplicaSetSpec(spec: JSONObject, fldPath: FieldPath): FieldError[] {
  const errs = validateNonnegativeField(intPtr(spec.replicas), fldPath.child('replicas'));
  errs.push(...validateNonnegativeField(int(spec.minReadySeconds), fldPath.child('minReadySeconds')));
  const selector = ptr(spec.selector);
  errs.push(...validateRequiredSelector(selector, fldPath.child('selector'), 'deployment'));
  errs.push(...templateForReplicaSet(spec, selector, fldPath, 'ReplicaSet'));
  return errs;
}

/**
 * apps/validation.ValidateStatefulSetSpec: the template is checked with hostname and subdomain cleared
 * and a volume for each volumeClaimTemplate (what the controller adds); podManagementPolicy and
 * updateStrategy are defaulted (OrderedReady, RollingUpdate) and their other values not ported.
 */
export function validateStatefulSetSpec(spec: JSONObject, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateNonnegativeField(intPtr(spec.replicas), fldPath.child('replicas')));
  errs.push(...validateNonnegativeField(int(spec.minReadySeconds), fldPath.child('minReadySeconds')));
  const serviceName = str(spec.serviceName);
  if (serviceName.length > 0) errs.push(...validateDNS1123Label(serviceName, fldPath.child('serviceName')));
  const selector = ptr(spec.selector);
  errs.push(...validateRequiredSelector(selector, fldPath.child('selector'), 'statefulset'));
  const s = labelSelectorAsSelector(selector);
  const template = obj(spec.template);
  const tPath = fldPath.child('template');
  if ('error' in s) errs.push(invalid(fldPath.child('selector'), labelSelectorValue(selector ?? {}), ''));
  else {
    const tspec = { ...obj(template.spec) };
    delete tspec.hostname;
    delete tspec.subdomain;
    const claims = list(spec.volumeClaimTemplates).map((c) => str(obj(obj(c).metadata).name));
    if (claims.length > 0) {
      const added = claims.map((name) => ({ name, persistentVolumeClaim: { claimName: name } }));
      tspec.volumes = [...added, ...list(tspec.volumes).filter((v) => !claims.includes(str(obj(v).name)))];
    }
    const t: JSONObject = { ...template, spec: tspec };
    if (!selectorEmpty(s) && !selectorMatches(s, templateLabels(t))) errs.push(invalid(tPath.child('metadata', 'labels'), labelsValue(t), SELECTOR_MISMATCH));
    errs.push(...validatePodTemplateSpec(t, tPath));
    // ValidatePodTemplateSpecForStatefulSet checks labels and annotations a second time.
    const meta = obj(t.metadata);
    errs.push(...validateLabels(stringMap(meta.labels), tPath.child('labels')));
    errs.push(...validateAnnotations(stringMap(meta.annotations), tPath.child('annotations')));
  }
  errs.push(...validateLongRunningTemplate(template, tPath, 'StatefulSet'));
  return errs;
}

/** apps/validation.ValidateDaemonSetSpec */
export function validateDaemonSetSpec(spec: JSONObject, fldPath: FieldPath): FieldError[] {
  const selector = ptr(spec.selector);
  const errs = validateLabelSelector(selector, fldPath.child('selector'));
  const template = obj(spec.template);
  const s = labelSelectorAsSelector(selector);
  if (!('error' in s) && !selectorMatches(s, templateLabels(template))) errs.push(invalid(fldPath.child('template', 'metadata', 'labels'), labelsValue(template), SELECTOR_MISMATCH));
  if (selector && Object.keys(stringMap(selector.matchLabels)).length + list(selector.matchExpressions).length === 0) {
    errs.push(invalid(fldPath.child('selector'), labelSelectorValue(selector), 'empty selector is invalid for daemonset'));
  }
  errs.push(...validatePodTemplateSpec(template, fldPath.child('template')));
  errs.push(...validateLongRunningTemplate(template, fldPath.child('template'), 'DaemonSet'));
  errs.push(...validateNonnegativeField(int(spec.minReadySeconds), fldPath.child('minReadySeconds')));
  errs.push(...validateDaemonSetUpdateStrategy(obj(spec.updateStrategy), fldPath.child('updateStrategy')));
  errs.push(...validateNonnegativeField(intPtr(spec.revisionHistoryLimit), fldPath.child('revisionHistoryLimit')));
  return errs;
}

/**
 * core/validation.ValidateReplicationControllerSpec: the selector (defaulted to the template's labels,
 * SetDefaults_ReplicationController) must not be empty and must match them.
 */
export function validateReplicationControllerSpec(spec: JSONObject, fldPath: FieldPath): FieldError[] {
  const template = ptr(spec.template);
  const labels = template ? templateLabels(template) : {};
  let selector = stringMap(spec.selector);
  if (Object.keys(selector).length === 0) selector = labels;
  const errs = validateNonnegativeField(int(spec.minReadySeconds), fldPath.child('minReadySeconds'));
  if (Object.keys(selector).length === 0) errs.push(required(fldPath.child('selector'), ''));
  errs.push(...validateNonnegativeField(intPtr(spec.replicas), fldPath.child('replicas')));
  const tPath = fldPath.child('template');
  if (!template) return [...errs, required(tPath, '')];
  if (Object.entries(selector).some(([k, v]) => labels[k] !== v)) errs.push(invalid(tPath.child('metadata', 'labels'), labelsValue(template), SELECTOR_MISMATCH));
  errs.push(...validatePodTemplateSpec(template, tPath));
  errs.push(...validateLongRunningTemplate(template, tPath, 'ReplicationController'));
  return errs;
}

/**
 * batch/validation.validateJobSpec: counts not negative, the template, and its restartPolicy
 * (OnFailure or Never; Never with a podFailurePolicy). Completion modes, pod failure and success
 * policies are not ported.
 */
export function validateJobSpecCommon(spec: JSONObject, fldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished', 'backoffLimitPerIndex', 'maxFailedIndexes']) {
    errs.push(...validateNonnegativeField(intPtr(spec[f]), fldPath.child(f)));
  }
  const template = obj(spec.template);
  errs.push(...validatePodTemplateSpec(template, fldPath.child('template')));
  const rp = str(obj(template.spec).restartPolicy);
  const rpPath = fldPath.child('template', 'spec', 'restartPolicy');
  if (rp === 'Always' || rp === '') errs.push(required(rpPath, 'valid values: "OnFailure", "Never"'));
  else if (rp !== 'OnFailure' && rp !== 'Never') errs.push(notSupported(rpPath, rp, ['OnFailure', 'Never']));
  else if (ptr(spec.podFailurePolicy) && rp !== 'Never') errs.push(invalid(rpPath, rp, 'only "Never" is supported when podFailurePolicy is specified'));
  return errs;
}

/**
 * batch/validation.ValidateJobSpec on create. With `manualSelector: true` the selector is the user's:
 * required, valid, and matching the template's labels. Without it the API server generates the
 * selector and labels from the Job's uid (validateGeneratedSelector), which only the server knows:
 * a selector written without manualSelector is not judged here.
 */
export function validateJobSpec(spec: JSONObject, fldPath: FieldPath): FieldError[] {
  const errs = validateJobSpecCommon(spec, fldPath);
  if (spec.manualSelector !== true) return errs;
  const selector = ptr(spec.selector);
  if (!selector) errs.push(required(fldPath.child('selector'), ''));
  else errs.push(...validateLabelSelector(selector, fldPath.child('selector')));
  const s = labelSelectorAsSelector(selector);
  const template = obj(spec.template);
  if (!('error' in s) && !selectorMatches(s, templateLabels(template))) errs.push(invalid(fldPath.child('template', 'metadata', 'labels'), labelsValue(template), SELECTOR_MISMATCH));
  return errs;
}
