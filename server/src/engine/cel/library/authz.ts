/**
 * The authorization library's names (apiserver pkg/cel/library/authz.go): the CRD environment
 * declares them; no rule can obtain an authorizer, so only the type checker sees them.
 */
import { fn, type Library } from './decls';

/** The authorization library's functions (no implementation: a CRD rule has no authorizer value). */
export const AUTHZ: Library = {
  name: 'kubernetes.authz',
  since: 27,
  functions: [
    fn('path', '', [['authorizer_path', 'Authorizer.path(string): PathCheck']]),
    fn('group', '', [['authorizer_group', 'Authorizer.group(string): GroupCheck']]),
    fn('serviceAccount', '', [['authorizer_serviceaccount', 'Authorizer.serviceAccount(string, string): Authorizer']]),
    fn('resource', '', [['groupcheck_resource', 'GroupCheck.resource(string): ResourceCheck']]),
    fn('subresource', '', [['resourcecheck_subresource', 'ResourceCheck.subresource(string): ResourceCheck']]),
    fn('namespace', '', [['resourcecheck_namespace', 'ResourceCheck.namespace(string): ResourceCheck']]),
    fn('name', '', [['resourcecheck_name', 'ResourceCheck.name(string): ResourceCheck']]),
    fn('check', '', [
      ['pathcheck_check', 'PathCheck.check(string): Decision'],
      ['resourcecheck_check', 'ResourceCheck.check(string): Decision'],
    ]),
    fn('errored', '', [['decision_errored', 'Decision.errored(): bool']]),
    fn('error', '', [['decision_error', 'Decision.error(): string']]),
    fn('allowed', '', [['decision_allowed', 'Decision.allowed(): bool']]),
    fn('reason', '', [['decision_reason', 'Decision.reason(): string']]),
  ],
};

/** AuthzSelectors (1.31): field and label selectors on resource checks. */
export const AUTHZ_SELECTORS: Library = {
  name: 'kubernetes.authzSelectors',
  since: 31,
  functions: [
    fn('fieldSelector', '', [['authorizer_fieldselector', 'ResourceCheck.fieldSelector(string): ResourceCheck']]),
    fn('labelSelector', '', [['authorizer_labelselector', 'ResourceCheck.labelSelector(string): ResourceCheck']]),
  ],
};
