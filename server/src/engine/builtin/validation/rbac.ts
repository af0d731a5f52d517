/**
 * rbac/validation: Role and ClusterRole rules (ValidatePolicyRule), the aggregation rule's selectors,
 * and RoleBinding / ClusterRoleBinding references and subjects (apiGroups defaulted as rbac/v1's
 * SetDefaults_RoleBinding and SetDefaults_Subject do).
 */
import { FieldPath, invalid, notSupported, required, type FieldError } from '../../field';
import { nameIsDNSSubdomain, isPathSegmentName } from '../../objectmeta/names';
import { validateLabelSelector } from './labelselector';
import { list, obj, ptr, str, type JSONObject } from './values';

const GROUP = 'rbac.authorization.k8s.io';

const RULES_PATH = FieldPath.root('rules');
const ROLE_REF_PATH = FieldPath.root('roleRef');
const SUBJECTS_PATH = FieldPath.root('subjects');

/** ValidatePolicyRule */
function validatePolicyRule(rule: JSONObject, namespaced: boolean, p: FieldPath, errs: FieldError[]): void {
  const nonResourceURLs = list(rule.nonResourceURLs);
  if (list(rule.verbs).length === 0) errs.push(required(p.child('verbs'), '')); // declarative validation's error replaces the handwritten one (MarkCoveredByDeclarative)
  if (nonResourceURLs.length > 0) {
    if (namespaced) errs.push(invalid(p.child('nonResourceURLs'), nonResourceURLs.map(str), 'namespaced rules cannot apply to non-resource URLs'));
    if (list(rule.apiGroups).length > 0 || list(rule.resources).length > 0 || list(rule.resourceNames).length > 0) {
      errs.push(invalid(p.child('nonResourceURLs'), nonResourceURLs.map(str), 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return;
  }
  if (list(rule.apiGroups).length === 0) errs.push(required(p.child('apiGroups'), 'resource rules must supply at least one api group'));
  if (list(rule.resources).length === 0) errs.push(required(p.child('resources'), 'resource rules must supply at least one resource'));
}

/** ValidateRole / ValidateClusterRole without the metadata. */
export function validateRole(object: JSONObject, namespaced: boolean, errs: FieldError[]): void {
  const rules = list(object.rules);
  for (let i = 0; i < rules.length; i++) validatePolicyRule(obj(rules[i]), namespaced, RULES_PATH.index(i), errs);
  const agg = ptr(object.aggregationRule);
  if (!namespaced && agg) {
    const selectors = list(agg.clusterRoleSelectors);
    const p = FieldPath.root('aggregationRule', 'clusterRoleSelectors');
    if (selectors.length === 0) errs.push(required(p, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    for (let i = 0; i < selectors.length; i++) validateLabelSelector(obj(selectors[i]), p.index(i), errs);
  }
}

const BINDING_KINDS = ['Role', 'ClusterRole'];
const CLUSTER_BINDING_KINDS = ['ClusterRole'];

/** ValidateRoleBinding / ValidateClusterRoleBinding without the metadata. */
export function validateRoleBinding(object: JSONObject, namespaced: boolean, errs: FieldError[]): void {
  const ref = obj(object.roleRef);
  const rp = ROLE_REF_PATH;
  const apiGroup = str(ref.apiGroup) || GROUP;
  if (apiGroup !== GROUP) errs.push(notSupported(rp.child('apiGroup'), apiGroup, [GROUP]));
  const kinds = namespaced ? BINDING_KINDS : CLUSTER_BINDING_KINDS;
  const kind = str(ref.kind);
  if (!kinds.includes(kind)) errs.push(notSupported(rp.child('kind'), kind, kinds));
  const name = str(ref.name);
  if (name.length === 0) errs.push(required(rp.child('name'), ''));
  else for (const m of isPathSegmentName(name, false)) errs.push(invalid(rp.child('name'), name, m));
  const subjects = list(object.subjects);
  for (let i = 0; i < subjects.length; i++) {
    const s = obj(subjects[i]);
    const p = SUBJECTS_PATH.index(i);
    const sname = str(s.name);
    if (sname.length === 0) errs.push(required(p.child('name'), ''));
    const skind = str(s.kind);
    let group = str(s.apiGroup);
    switch (skind) {
      case 'ServiceAccount':
        if (sname.length > 0) for (const m of nameIsDNSSubdomain(sname, false)) errs.push(invalid(p.child('name'), sname, m));
        if (group.length > 0) errs.push(notSupported(p.child('apiGroup'), group, ['']));
        if (!namespaced && str(s.namespace).length === 0) errs.push(required(p.child('namespace'), ''));
        break;
      case 'User':
      case 'Group':
        group ||= GROUP;
        if (group !== GROUP) errs.push(notSupported(p.child('apiGroup'), group, [GROUP]));
        break;
      default:
        errs.push(notSupported(p.child('kind'), skind, ['ServiceAccount', 'User', 'Group']));
    }
  }
}
