/**
 * `crd-yaml convert`: a small conversion webhook on loopback (started here) answers right or wrong, and
 * the CLI reports what the API server would say, then validates the converted objects.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import { spawnSync } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { parseAllDocuments } from 'yaml';
import { runCli } from '../../server/src/cli/main';

type Mode = 'ok' | 'wrong-uid' | 'changed-name' | 'missing-object' | 'bad-port';

/** The webhook: v1beta1 `hostPort` <-> v1 `host` + `port`; `mode` says how to get it wrong. */
function startWebhook(): Promise<{ url: string; mode: (m: Mode) => void; reviews: any[]; close: () => void }> {
  let mode: Mode = 'ok';
  const reviews: any[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const review = JSON.parse(body);
      reviews.push(review);
      const { uid, desiredAPIVersion, objects } = review.request;
      let converted = objects.map((o: any) => {
        const out = { ...o, apiVersion: desiredAPIVersion, metadata: { ...o.metadata } };
        if (o.spec?.hostPort !== undefined) {
          const [host, port] = String(o.spec.hostPort).split(':');
          out.spec = { host, port: mode === 'bad-port' ? 'http' : port };
        }
        return out;
      });
      if (mode === 'changed-name') converted[0].metadata.name += '-converted';
      if (mode === 'missing-object') converted = converted.slice(1);
      const answer = { apiVersion: review.apiVersion, kind: 'ConversionReview', response: { uid: mode === 'wrong-uid' ? 'not-the-request' : uid, convertedObjects: converted, result: { status: 'Success' } } };
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}/convert`, mode: (m) => (mode = m), reviews, close: () => server.close() });
    });
  });
}

function crd(reviewVersions: string[]): string {
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: crontabs, kind: CronTab}
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [${reviewVersions.join(', ')}]
      clientConfig:
        service: {namespace: default, name: conversion, path: /convert}
  versions:
  - name: v1beta1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              hostPort: {type: string}
  - name: v1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              host: {type: string}
              port: {type: string, pattern: '^[0-9]+$'}
`;
}

const cr = (name: string, hostPort: string) => `apiVersion: example.com/v1beta1\nkind: CronTab\nmetadata:\n  name: ${name}\n  namespace: default\nspec:\n  hostPort: "${hostPort}"\n`;

function tmp(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crd-yaml-convert-'));
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), content);
  return dir;
}

async function cli(argv: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s), cwd });
  return { code, out, err };
}

const hookP = startWebhook();
after(async () => (await hookP).close());

const dir = tmp({
  'crd.yaml': crd(['v1', 'v1beta1']),
  'crd-v1beta1.yaml': crd(['v1beta1']),
  'two.yaml': cr('a', 'localhost:80') + '---\n' + cr('b', 'example.com:8080'),
  'one.yaml': cr('a', 'localhost:80'),
});

test('a correct webhook: the converted objects are printed and valid at the target version', async () => {
  const hook = await hookP;
  hook.mode('ok');
  const n = hook.reviews.length;
  const r = await cli(['convert', '--webhook', hook.url, '--to', 'v1', '--crd', 'crd.yaml', 'two.yaml'], dir);
  assert.equal(r.err, '');
  assert.equal(r.code, 0);
  const review = hook.reviews[n];
  assert.equal(review.apiVersion, 'apiextensions.k8s.io/v1');
  assert.equal(review.request.desiredAPIVersion, 'example.com/v1');
  assert.equal(review.request.objects.length, 2);
  assert.match(review.request.uid, /^[0-9a-f-]{36}$/);
  const docs = parseAllDocuments(r.out).map((d) => d.toJSON());
  assert.deepEqual(
    docs.map((d) => [d.apiVersion, d.metadata.name, d.spec]),
    [
      ['example.com/v1', 'a', { host: 'localhost', port: '80' }],
      ['example.com/v1', 'b', { host: 'example.com', port: '8080' }],
    ],
  );
});

test("the review version follows the CRD's conversionReviewVersions", async () => {
  const hook = await hookP;
  hook.mode('ok');
  const n = hook.reviews.length;
  const r = await cli(['convert', '--webhook', hook.url, '--to', 'example.com/v1', '--crd', 'crd-v1beta1.yaml', 'one.yaml'], dir);
  assert.equal(r.code, 0, r.err);
  assert.equal(hook.reviews[n].apiVersion, 'apiextensions.k8s.io/v1beta1');
});

test("a wrong uid, a changed name, a missing object: the API server's messages", async () => {
  const hook = await hookP;
  hook.mode('wrong-uid');
  let r = await cli(['convert', '--webhook', hook.url, '--to', 'v1', '--crd', 'crd.yaml', 'two.yaml'], dir);
  assert.equal(r.code, 1);
  assert.match(r.err, /^two\.yaml:1:1: error: conversion webhook for example\.com\/v1beta1, Kind=CronTabList failed: expected response\.uid="[0-9a-f-]{36}", got "not-the-request"$/m);
  assert.equal(r.out, '');

  hook.mode('changed-name');
  r = await cli(['convert', '--webhook', hook.url, '--to', 'v1', '--crd', 'crd.yaml', 'one.yaml'], dir);
  assert.equal(r.code, 1);
  assert.equal(r.err, 'one.yaml:1:1: error: conversion webhook for example.com/v1beta1, Kind=CronTab returned invalid object: must have the same name: a != a-converted\n');

  r = await cli(['convert', '--webhook', hook.url, '--to', 'v1', '--crd', 'crd.yaml', 'two.yaml'], dir);
  assert.equal(r.code, 1);
  assert.equal(r.err, 'two.yaml:1:1: error: conversion webhook for example.com/v1beta1, Kind=CronTabList returned invalid converted object at index 0: must have the same name: a != a-converted\n');

  hook.mode('missing-object');
  r = await cli(['convert', '--webhook', hook.url, '--to', 'v1', '--crd', 'crd.yaml', 'two.yaml'], dir);
  assert.equal(r.code, 1);
  assert.equal(r.err, 'two.yaml:1:1: error: conversion webhook for example.com/v1beta1, Kind=CronTabList returned 1 objects, expected 2\n');
});

test("converted objects are validated against the target version's schema", async () => {
  const hook = await hookP;
  hook.mode('bad-port');
  const r = await cli(['convert', '--webhook', hook.url, '--to', 'v1', '--crd', 'crd.yaml', 'two.yaml'], dir);
  assert.equal(r.code, 1);
  assert.match(r.err, /^two\.yaml:1:1: error: spec\.port: Invalid value: "http": spec\.port in body should match '\^\[0-9\]\+\$' \(after conversion to example\.com\/v1\)$/m);
  assert.match(r.err, /^two\.yaml:9:1: error: spec\.port: Invalid value: "http"/m);
});

test('requests the API server would not send, and a webhook that is not there', async () => {
  const hook = await hookP;
  let r = await cli(['convert', '--webhook', hook.url, '--to', 'v9', '--crd', 'crd.yaml', 'one.yaml'], dir);
  assert.equal(r.code, 1);
  assert.match(r.err, /error: request to convert CR to an invalid group\/version: example\.com\/v9$/m);
  // A free port nobody listens on.
  const port = await new Promise<number>((resolve) => {
    const s = http.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
  r = await cli(['convert', '--webhook', `http://127.0.0.1:${port}/convert`, '--to', 'v1', '--crd', 'crd.yaml', 'one.yaml'], dir);
  assert.equal(r.code, 1);
  assert.equal(r.err, `one.yaml:1:1: error: conversion webhook for example.com/v1beta1, Kind=CronTab failed: Post "http://127.0.0.1:${port}/convert": dial tcp 127.0.0.1:${port}: connect: connection refused\n`);
  r = await cli(['convert', '--to', 'v1', 'one.yaml'], dir);
  assert.equal(r.code, 2);
  assert.match(r.err, /convert: --webhook URL is required/);
});

test("an https webhook is trusted through --ca-bundle or the CRD's caBundle", { skip: hasOpenssl() ? false : 'openssl is not installed' }, async () => {
  const certDir = tmp({});
  const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', 'key.pem', '-out', 'cert.pem'], {
    cwd: certDir,
    encoding: 'utf8',
  });
  assert.equal(made.status, 0, made.stderr);
  const cert = fs.readFileSync(path.join(certDir, 'cert.pem'), 'utf8');
  const server = https.createServer({ key: fs.readFileSync(path.join(certDir, 'key.pem')), cert }, (req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const review = JSON.parse(body);
      const convertedObjects = review.request.objects.map((o: any) => ({ ...o, apiVersion: review.request.desiredAPIVersion, spec: { host: 'h', port: '1' } }));
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'ConversionReview', response: { uid: review.request.uid, convertedObjects, result: { status: 'Success' } } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/convert`;
    const d = tmp({ 'crd.yaml': crd(['v1']), 'one.yaml': cr('a', 'x:1'), 'cert.pem': cert });
    let r = await cli(['convert', '--webhook', url, '--to', 'v1', '--crd', 'crd.yaml', 'one.yaml'], d);
    assert.equal(r.code, 1);
    assert.match(r.err, /failed: Post "https:\/\/127\.0\.0\.1:\d+\/convert": tls: failed to verify certificate: x509: certificate signed by unknown authority$/m);
    r = await cli(['convert', '--webhook', url, '--to', 'v1', '--ca-bundle', 'cert.pem', '--crd', 'crd.yaml', 'one.yaml'], d);
    assert.equal(r.code, 0, r.err);
    const withBundle = crd(['v1']).replace(
      '        service: {namespace: default, name: conversion, path: /convert}',
      `        service: {namespace: default, name: conversion, path: /convert}\n        caBundle: ${Buffer.from(cert).toString('base64')}`,
    );
    fs.writeFileSync(path.join(d, 'crd.yaml'), withBundle);
    r = await cli(['convert', '--webhook', url, '--to', 'v1', '--crd', 'crd.yaml', 'one.yaml'], d);
    assert.equal(r.code, 0, r.err);
  } finally {
    server.close();
  }
});

function hasOpenssl(): boolean {
  return spawnSync('openssl', ['version']).status === 0;
}
