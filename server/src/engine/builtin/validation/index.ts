/**
 * The API server's handwritten validation of built-in kinds (the checks of pkg/apis/<group>/validation
 * that no OpenAPI schema carries), on a v1 object as the user wrote it, before defaulting. Schema
 * validation (types, unknown fields, enums) comes first and is not repeated here; a mistyped field reads
 * as its zero value. Only the kinds and versions below are judged; anything else gives no findings.
 * What is ported and what is not: docs/builtin-validation.md.
 */
import { forbidden, type FieldError, type FieldPath } from '../../field';
import type { NameValidator } from '../../objectmeta/objectmeta';
import { validateDaemonSetSpec, validateDeploymentSpec, validateJobSpec, validateReplicaSetSpec, validateReplicationControllerSpec, validateStatefulSetSpec } from './controllers';
import { validateConfigMap, validateSecret } from './configmap';
import { validateCronJob } from './cronjob';
import { validateIngress } from './ingress';
import { dnsLabelName, dnsSubdomainName, pathSegmentName, serviceName, validateBuiltinObjectMeta } from './objectmeta';
import { restoreFeatureGates, setFeatureGates } from './gates';
import { kindKey } from './kindKey';
import { validatePodSpec } from './podspec';
import { validateRole, validateRoleBinding } from './rbac';
import { validateService } from './service';
import { list, obj, SPEC_PATH, type JSONObject } from './values';

export type { JSONObject } from './values';

interface KindRule {
  namespaced: boolean;
  /** The kind's ValidateXName. */
  name: NameValidator;
  /** The checks after ValidateObjectMeta, appending to errs. */
  rest?: (object: JSONObject, errs: FieldError[]) => void;
  /** What the kind's strategy PrepareForCreate changes that validation then sees. */
  prepare?: (object: JSONObject) => JSONObject;
}

/** core namespace strategy PrepareForCreate: the `kubernetes.io/metadata.name` label is the name (so a name that is no label value fails twice). */
function prepareNamespace(object: JSONObject): JSONObject {
  const meta = obj(object.metadata);
  if (typeof meta.name !== 'string') return object;
  return { ...object, metadata: { ...meta, labels: { ...obj(meta.labels), 'kubernetes.io/metadata.name': meta.name } } };
}

const spec = (f: (spec: JSONObject, p: FieldPath, errs: FieldError[]) => void) => (o: JSONObject, errs: FieldError[]) => f(obj(o.spec), SPEC_PATH, errs);

function validatePodCreate(object: JSONObject, errs: FieldError[]): void {
  validatePodSpec(obj(object.spec), SPEC_PATH, errs);
  if (list(obj(object.spec).ephemeralContainers).length > 0) errs.push(forbidden(SPEC_PATH.child('ephemeralContainers'), 'cannot be set on create'));
}

/** Kind rules by `apiVersion/kind`. */
const KINDS: Record<string, KindRule> = {
  // core/validation.ValidatePodCreate: ValidatePodName, ValidatePodSpec, no ephemeral containers on create
  'v1/Pod': { namespaced: true, name: dnsSubdomainName, rest: validatePodCreate },
  // ValidateServiceCreate (RelaxedServiceNameValidation: NameIsDNSLabel, before 1.36 NameIsDNS1035Label)
  'v1/Service': { namespaced: true, name: serviceName, rest: validateService },
  'v1/ConfigMap': { namespaced: true, name: dnsSubdomainName, rest: validateConfigMap },
  'v1/Secret': { namespaced: true, name: dnsSubdomainName, rest: validateSecret },
  'v1/ServiceAccount': { namespaced: true, name: dnsSubdomainName },
  'v1/PersistentVolumeClaim': { namespaced: true, name: dnsSubdomainName },
  'v1/Namespace': { namespaced: false, name: dnsLabelName, prepare: prepareNamespace },
  'v1/ReplicationController': { namespaced: true, name: dnsSubdomainName, rest: spec(validateReplicationControllerSpec) },
  'apps/v1/Deployment': { namespaced: true, name: dnsSubdomainName, rest: spec(validateDeploymentSpec) },
  'apps/v1/ReplicaSet': { namespaced: true, name: dnsSubdomainName, rest: spec(validateReplicaSetSpec) },
  // ValidateStatefulSetName: NameIsDNSLabel
  'apps/v1/StatefulSet': { namespaced: true, name: dnsLabelName, rest: spec(validateStatefulSetSpec) },
  'apps/v1/DaemonSet': { namespaced: true, name: dnsSubdomainName, rest: spec(validateDaemonSetSpec) },
  'batch/v1/Job': { namespaced: true, name: dnsSubdomainName, rest: spec(validateJobSpec) },
  'batch/v1/CronJob': { namespaced: true, name: dnsSubdomainName, rest: validateCronJob },
  'networking.k8s.io/v1/Ingress': { namespaced: true, name: dnsSubdomainName, rest: validateIngress },
  'rbac.authorization.k8s.io/v1/Role': { namespaced: true, name: pathSegmentName, rest: (o, errs) => validateRole(o, true, errs) },
  'rbac.authorization.k8s.io/v1/ClusterRole': { namespaced: false, name: pathSegmentName, rest: (o, errs) => validateRole(o, false, errs) },
  'rbac.authorization.k8s.io/v1/RoleBinding': { namespaced: true, name: pathSegmentName, rest: (o, errs) => validateRoleBinding(o, true, errs) },
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': { namespaced: false, name: pathSegmentName, rest: (o, errs) => validateRoleBinding(o, false, errs) },
};

/** The kinds (`apiVersion/kind`) handwrittenErrors judges. */
export const HANDWRITTEN_KINDS: readonly string[] = Object.keys(KINDS);

/** Whether handwrittenErrors judges apiVersion/kind. */
export function hasHandwrittenChecks(apiVersion: string, kind: string): boolean {
  return Object.hasOwn(KINDS, kindKey(apiVersion, kind));
}

/**
 * The errors the API server's handwritten validation gives for creating this object (server-side
 * dry-run, fieldValidation=Strict), field for field, at a target Kubernetes minor (undefined: the newest); [] for
 * kinds not listed in HANDWRITTEN_KINDS.
 */
export function handwrittenErrors(apiVersion: string, kind: string, object: JSONObject, kubernetesMinor?: number): FieldError[] {
  const rule = KINDS[kindKey(apiVersion, kind)];
  if (!rule) return [];
  if (rule.prepare) object = rule.prepare(object);
  // The feature gates of the target version, as its API server defaults them (./gates.ts).
  const saved = setFeatureGates(kubernetesMinor);
  try {
    const errs = validateBuiltinObjectMeta(object, rule.namespaced, rule.name);
    rule.rest?.(object, errs);
    for (const e of errs) e.severity = 'error';
    return errs;
  } finally {
    restoreFeatureGates(saved);
  }
}
