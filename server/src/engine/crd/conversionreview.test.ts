import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkConversionReviewResponse, conversionReviewRequest, formatGroupVersionKind, objectsToConvert, type SentConversionReview } from './conversionreview';

const cr = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'example.com/v1beta1',
  kind: 'CronTab',
  metadata: { name, namespace: 'default', uid: `uid-${name}`, labels: { app: 'a' }, resourceVersion: '7' },
  spec: { hostPort: 'localhost:7' },
  ...extra,
});

function sent(objects: unknown[], reviewVersion: 'v1' | 'v1beta1' = 'v1'): SentConversionReview {
  const isList = objects.length > 1;
  return { reviewVersion, uid: 'req-1', desiredAPIVersion: 'example.com/v1', objects, inApiVersion: 'example.com/v1beta1', inKind: isList ? 'CronTabList' : 'CronTab', isList };
}

/** A webhook's answer: each object converted to v1 (host and port split), optionally tampered with. */
function answer(objects: any[], tamper: (r: any) => void = () => {}): any {
  const response = {
    uid: 'req-1',
    result: { status: 'Success' },
    convertedObjects: objects.map((o) => {
      const [host, port] = o.spec.hostPort.split(':');
      return { ...o, apiVersion: 'example.com/v1', metadata: { ...o.metadata }, spec: { host, port } };
    }),
  };
  const review = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response };
  tamper(review);
  return review;
}

const check = (objects: any[], review: any, version: 'v1' | 'v1beta1' = 'v1') => {
  const out = checkConversionReviewResponse(sent(objects, version), review, JSON.stringify(review));
  return { ...out, errors: out.errors.map((e) => e.message), indexes: out.errors.map((e) => e.index) };
};

test("the review version is the first of the CRD's conversionReviewVersions the API server knows", () => {
  const r = conversionReviewRequest(['v2', 'v1beta1', 'v1'], [cr('a')], 'example.com/v1', 'u');
  if (r.error !== undefined) assert.fail(r.error);
  assert.equal(r.reviewVersion, 'v1beta1');
  assert.deepEqual(r.review, { kind: 'ConversionReview', apiVersion: 'apiextensions.k8s.io/v1beta1', request: { uid: 'u', desiredAPIVersion: 'example.com/v1', objects: [cr('a')] } });
  assert.deepEqual(conversionReviewRequest(['v2'], [], 'x/v1', 'u'), { error: 'no supported conversion review versions' });
  assert.deepEqual(objectsToConvert([cr('a'), { ...cr('b'), apiVersion: 'example.com/v1' }], 'example.com/v1'), [cr('a')]);
  assert.equal(formatGroupVersionKind('v1', 'Pod'), '/v1, Kind=Pod');
});

test('a correct response gives the converted objects with the original metadata and the new labels', () => {
  const objs = [cr('a'), cr('b')];
  const out = check(
    objs,
    answer(objs, (r) => {
      r.response.convertedObjects[0].metadata.labels = { app: 'b' };
      r.response.convertedObjects[0].metadata.resourceVersion = '99';
    }),
  );
  assert.deepEqual(out.errors, []);
  assert.equal(out.objects!.length, 2);
  assert.deepEqual((out.objects![0] as any).metadata, { name: 'a', namespace: 'default', uid: 'uid-a', labels: { app: 'b' }, resourceVersion: '7' });
  assert.deepEqual((out.objects![1] as any).spec, { host: 'localhost', port: '7' });
});

test("the API server's messages for a wrong response", () => {
  const one = [cr('a')];
  const two = [cr('a'), cr('b')];
  const msg = (objs: any[], tamper: (r: any) => void, v: 'v1' | 'v1beta1' = 'v1') => check(objs, answer(objs, tamper), v).errors;
  assert.deepEqual(
    msg(one, (r) => (r.response.uid = 'other')),
    ['conversion webhook for example.com/v1beta1, Kind=CronTab failed: expected response.uid="req-1", got "other"'],
  );
  // v1beta1 reviews are not checked for the uid.
  assert.deepEqual(
    msg(
      one,
      (r) => {
        r.apiVersion = 'apiextensions.k8s.io/v1beta1';
        r.response.uid = 'other';
      },
      'v1beta1',
    ),
    [],
  );
  assert.deepEqual(
    msg(one, (r) => (r.response.convertedObjects[0].metadata.name = 'b')),
    ['conversion webhook for example.com/v1beta1, Kind=CronTab returned invalid object: must have the same name: a != b'],
  );
  assert.deepEqual(
    msg(two, (r) => (r.response.convertedObjects[1].metadata.namespace = 'other')),
    ['conversion webhook for example.com/v1beta1, Kind=CronTabList returned invalid converted object at index 1: must have the same namespace: default != other'],
  );
  assert.deepEqual(
    check(
      two,
      answer(two, (r) => (r.response.convertedObjects[1].metadata.uid = 'x')),
    ).indexes,
    [1],
  );
  assert.deepEqual(
    msg(two, (r) => r.response.convertedObjects.pop()),
    ['conversion webhook for example.com/v1beta1, Kind=CronTabList returned 1 objects, expected 2'],
  );
  assert.deepEqual(
    msg(one, (r) => (r.response.convertedObjects[0].apiVersion = 'example.com/v1beta1')),
    ['conversion webhook for example.com/v1beta1, Kind=CronTab returned invalid object at index 0: invalid groupVersion (expected example.com/v1, received example.com/v1beta1)'],
  );
  assert.deepEqual(
    msg(one, (r) => (r.response.convertedObjects[0].kind = 'Other')),
    ['conversion webhook for example.com/v1beta1, Kind=CronTab returned invalid object at index 0: invalid kind (expected CronTab, received Other)'],
  );
  assert.deepEqual(
    msg(one, (r) => (r.response.result = { status: 'Failure', message: 'cannot convert' })),
    ['conversion webhook for example.com/v1beta1, Kind=CronTab failed: cannot convert'],
  );
  assert.deepEqual(
    msg(one, (r) => (r.response.result = { status: 'Failure' })),
    ["conversion webhook for example.com/v1beta1, Kind=CronTab failed: response.result.status was 'Failure', not 'Success'"],
  );
  assert.deepEqual(
    msg(one, (r) => (r.apiVersion = 'apiextensions.k8s.io/v1beta1')),
    ['conversion webhook for example.com/v1beta1, Kind=CronTab failed: expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1beta1, Kind=ConversionReview'],
  );
  assert.deepEqual(
    msg(one, (r) => delete r.response),
    ['conversion webhook for example.com/v1beta1, Kind=CronTab failed: no response provided'],
  );
  // Dropping metadata changes the name first; without name, namespace and uid it is the metadata check.
  assert.deepEqual(
    msg(one, (r) => delete r.response.convertedObjects[0].metadata),
    ['conversion webhook for example.com/v1beta1, Kind=CronTab returned invalid object: must have the same name: a != '],
  );
  const bare = [{ ...cr('a'), metadata: {} }];
  assert.deepEqual(
    msg(bare, (r) => delete r.response.convertedObjects[0].metadata),
    ['conversion webhook for example.com/v1beta1, Kind=CronTab returned invalid metadata: missing metadata in converted object'],
  );
  assert.deepEqual(
    msg(one, (r) => (r.response.convertedObjects[0].metadata.labels = { app: 7 })),
    ['conversion webhook for example.com/v1beta1, Kind=CronTab returned invalid metadata: metadata.labels[app] must be a string, but is int64 in converted object'],
  );
  assert.deepEqual(
    msg(one, (r) => (r.response.convertedObjects[0].metadata.labels = { app: 'no spaces allowed' })),
    [
      "conversion webhook for example.com/v1beta1, Kind=CronTab returned invalid metadata: metadata.labels: Invalid value: \"no spaces allowed\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ],
  );
  const noKind = { apiVersion: 'apiextensions.k8s.io/v1', response: {} };
  assert.deepEqual(check(one, noKind).errors, [`conversion webhook for example.com/v1beta1, Kind=CronTab failed: Object 'Kind' is missing in '${JSON.stringify(noKind)}'`]);
});
