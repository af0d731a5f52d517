/**
 * kubectl-validate's own test cases for built-in kinds (its repository's testcases/manifests), each
 * written again here as a minimal reproduction of what it checks, with the answer it expects (the field
 * and the reason of each error, or none). crd-yaml must fail each expected failure on the same field for
 * the same reason, and pass each expected pass. Its cases on custom resources (CELBasic, JobSet) and on
 * CRDs are covered by the CRD suites. Differences, each checked against kube-apiserver 1.37:
 * - error_invalid_kind (`kind: configmap`): kubectl-validate answers an InternalError; crd-yaml answers as
 *   kubectl does before sending (the REST mapping: no kind "configmap" is registered), NoKindMatch.
 * - error_indentation, error_misspelled_key: kubectl-validate says FieldValueInvalid "value provided for
 *   unknown field"; crd-yaml, as the API server with fieldValidation=Strict, an unknown field (UnknownField).
 * - error_map_instead_of_array (metadata.finalizers a map): an InternalError in kubectl-validate; the API
 *   server's ObjectMeta decoding error on metadata in crd-yaml.
 * - error_multiple_fields (a key twice): kubectl-validate refuses the file; kubectl 1.37 keeps the last
 *   value and the API server accepts the Pod: crd-yaml warns (YAMLWarning DUPLICATE_KEY), no error.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LanguageService } from '../../server/src/service/languageService';
import { docOf } from './helpers';

interface Case {
  /** kubectl-validate's file name. */
  name: string;
  yaml: string;
  /** `field: code` of each error expected ([]: it passes). */
  expect: string[];
}

const POD = (containers: string) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n${containers}`;

const CASES: Case[] = [
  {
    name: 'apiservice.yaml',
    yaml: 'apiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata:\n  name: v1beta1.metrics.example.com\nspec:\n  service: {name: m, namespace: x, port: 443}\n  group: metrics.example.com\n  version: v1beta1\n  groupPriorityMinimum: 100\n  versionPriority: 100\n  insecureSkipTLSVerify: false\n',
    expect: [],
  },
  { name: 'configmap.yaml', yaml: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  finalizers: [example.com/f]\ndata: {k: v}\n', expect: [] },
  {
    name: 'deployment_with_strategy.yaml',
    yaml: 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, namespace: default}\nspec:\n  selector: {matchLabels: {a: b}}\n  strategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 0, maxSurge: 1}}\n  template:\n    metadata: {labels: {a: b}}\n    spec:\n      containers:\n      - name: m\n        image: i\n        resources: {limits: {cpu: 100m, memory: 100Mi}}\n        ports: [{containerPort: 8080, name: http, protocol: TCP}]\n',
    expect: [],
  },
  { name: 'empty.yaml', yaml: '# nothing\n', expect: [] },
  { name: 'empty_with_document.yaml', yaml: '# a\n---\n', expect: [] },
  { name: 'empty_secret.yaml', yaml: "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata:\n  key: ''\n", expect: [] },
  { name: 'error_array_instead_of_map.yaml', yaml: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n- x\n', expect: ['data: FieldValueTypeInvalid'] },
  { name: 'error_enum_invalid.yaml', yaml: POD('  - name: c\n    image: i\n    ports: [{protocol: udp, containerPort: 88}]\n'), expect: ['spec.containers[0].ports[0].protocol: FieldValueNotSupported'] },
  { name: 'error_indentation.yaml', yaml: 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\ncontainers:\n- name: c\n  image: i\n', expect: ['containers: UnknownField', 'spec.containers: FieldValueRequired'] },
  { name: 'error_invalid_kind.yaml', yaml: 'apiVersion: v1\nkind: configmap\nmetadata: {name: a}\n', expect: [': NoKindMatch'] },
  { name: 'error_invalid_label.yaml', yaml: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels: {owner: _}\n', expect: ['metadata.labels: FieldValueInvalid'] },
  { name: 'error_invalid_name.yaml', yaml: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x.com^2}\n', expect: ['metadata.name: FieldValueInvalid'] },
  {
    name: 'error_invalid_protocol_type.yaml',
    yaml: POD('  - name: c\n    image: i\n    ports: [{protocol: 22, containerPort: 88}]\n'),
    expect: ['spec.containers[0].ports[0].protocol: FieldValueTypeInvalid', 'spec.containers[0].ports[0].protocol: FieldValueNotSupported'],
  },
  { name: 'error_map_instead_of_array.yaml', yaml: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  finalizers: {k: v}\n', expect: ['metadata: FieldValueInvalid'] },
  { name: 'error_missing_image.yaml', yaml: POD('  - name: c\n'), expect: ['spec.containers[0].image: FieldValueRequired'] },
  { name: 'error_missing_name.yaml', yaml: 'apiVersion: v1\nkind: ConfigMap\ndata: {k: v}\n', expect: ['metadata.name: FieldValueRequired'] },
  { name: 'error_misspelled_key.yaml', yaml: 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  contAIN3rz: []\n  containers: [{name: c, image: i}]\n', expect: ['spec.contAIN3rz: UnknownField'] },
  { name: 'error_multiple_fields.yaml', yaml: POD('  - {name: c, image: i}\n  containers:\n  - {name: c, image: i}\n'), expect: [] },
  { name: 'error_name_exceeds_max_length.yaml', yaml: `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${'a'.repeat(254)}}\n`, expect: ['metadata.name: FieldValueInvalid'] },
  {
    name: 'error_quantity.yaml',
    yaml: POD('  - name: c\n    image: i\n    resources: {requests: {cpu: true}}\n'),
    expect: [': FieldValueInvalid', 'spec.containers[0].resources.requests.cpu: FieldValueTypeInvalid'],
  },
  {
    name: 'error_x_list_map_duplicate_key.yaml',
    yaml: POD('  - name: c\n    image: i\n    ports: [{protocol: UDP, containerPort: 88}, {protocol: TCP, containerPort: 88}, {protocol: TCP, containerPort: 88}]\n'),
    expect: ['spec.containers[0].ports[2]: FieldValueDuplicate'],
  },
  { name: 'x_list_map_nonduplicate_key.yaml', yaml: POD('  - name: c\n    image: i\n    ports: [{protocol: UDP, containerPort: 88}, {protocol: TCP, containerPort: 88}]\n'), expect: [] },
];

for (const c of CASES) {
  test(`kubectl-validate ${c.name}: ${c.expect.length ? c.expect.join(', ') : 'passes'}`, () => {
    const s = new LanguageService();
    const { td } = docOf(c.yaml);
    s.update(td);
    const got = s
      .findings(td)
      .filter((f) => f.severity === 'error')
      .map((f) => `${f.field ?? ''}: ${f.code}`)
      .sort();
    assert.deepEqual(got, [...c.expect].sort());
  });
}
