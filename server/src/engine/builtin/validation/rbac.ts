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

/** ValidatePolicyRule */
function validatePolicyRule(rule: JSONObject, namespaced: boolean, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const nonResourceURLs = list(rule.nonResourceURLs).map(str);
  if (list(rule.verbs).length === 0) errs.push(required(p.child('verbs'), '')); // declarative validation's error replaces the handwritten one (MarkCoveredByDeclarative)
  if (nonResourceURLs.length > 0) {
    if (namespaced) errs.push(invalid(p.child('nonResourceURLs'), nonResourceURLs, 'namespaced rules cannot apply to non-resource URLs'));
    if (list(rule.apiGroups).length > 0 || list(rule.resources).length > 0 || list(rule.resourceNames).length > 0) {
      errs.push(invalid(p.child('nonResourceURLs'), nonResourceURLs, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (list(rule.apiGroups).length === 0) errs.push(required(p.child('apiGroups'), 'resource rules must supply at least one api group'));
  if (list(rule.resources).length === 0) errs.push(required(p.child('resources'), 'resource rules must supply at least one resource'));
  return errs;
}

/** ValidateRole / ValidateClusterRole without the metadata. */
export function validateRole(object: JSONObject, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  list(object.rules).forEach((r, i) => errs.push(...validatePolicyRule(obj(r), namespaced, FieldPath.root('rules').index(i))));
  const agg = ptr(object.aggregationRule);
  if (!namespaced && agg) {
    const selectors = list(agg.clusterRoleSelectors);
    const p = FieldPath.root('aggregationRule', 'clusterRoleSelectors');
    if (selectors.length === 0) errs.push(required(p, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    selectors.forEach((s, i) => errs.push(...validateLabelSelector(obj(s), p.index(i))));
  }
  return errs;
}

/** ValidateRoleBinding / ValidateClusterRoleBinding without the metadata. */
export function validateRoleBinding(object: JSONObject, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const ref = obj(object.roleRef);
  const rp = FieldPath.root('roleRef');
  const apiGroup = str(ref.apiGroup) || GROUP;
  if (apiGroup !== GROUP) errs.push(notSupported(rp.child('apiGroup'), apiGroup, [GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  const kind = str(ref.kind);
  if (!kinds.includes(kind)) errs.push(notSupported(rp.child('kind'), kind, kinds));
  const name = str(ref.name);
  if (name.length === 0) errs.push(required(rp.child('name'), ''));
  else for (const m of isPathSegmentName(name, false)) errs.push(invalid(rp.child('name'), name, m));
  list(object.subjects).forEach((x, i) => {
    const s = obj(x);
    const p = FieldPath.root('subjects').index(i);
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
  });
  return errs;
}
