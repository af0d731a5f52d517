/**
 * The service's words for unknown fields and deprecated versions, checked against a real kube-apiserver:
 * under Strict (kubectl apply's default) the finding's API server message is the server's error message
 * exactly; under Warn it is the warning the server sends; a deprecated version's finding is the server's
 * deprecation warning.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { parse } from 'yaml';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LanguageService } from '../../server/src/service/languageService';
import type { FieldValidation } from '../../server/src/service/context';
import { skipWithoutKapi, startApiServer } from './kapi';
import { crdYaml } from '../crd';

const CRD = readFileSync(join(__dirname, '..', 'service', 'fixtures', 'widget-crd.yaml'), 'utf8');
const CR = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: small\n  colour: red\n';
const DEPRECATED = 'apiVersion: example.com/v1beta1\nkind: Widget\nmetadata:\n  name: old\nspec: {}\n';

/** The finding of `code` the service gives for a text, under a fieldValidation setting. */
function finding(text: string, code: string, fieldValidation: FieldValidation = 'Strict') {
  const s = new LanguageService({ fieldValidation });
  s.update(TextDocument.create('file:///ws/crd.yaml', 'yaml', 1, CRD));
  const td = TextDocument.create('file:///ws/cr.yaml', 'yaml', 1, text);
  s.update(td);
  const f = s.findings(td).find((x) => x.code === code);
  assert.ok(f, `${code} in ${JSON.stringify(s.findings(td))}`);
  return f;
}

/** The texts of a response's Warning headers (`299 - "text"`). */
function warnings(h: string | string[] | undefined): string[] {
  const list = Array.isArray(h) ? h : h ? h.split(/,(?=\s*299 )/) : [];
  return list.map((w) => JSON.parse(w.trim().replace(/^299 - /, '')) as string);
}

test('unknown fields and deprecated versions: the API server says what the service says it says', { skip: skipWithoutKapi() }, async () => {
  const server = await startApiServer();
  const dir = mkdtempSync(join(tmpdir(), 'crd-yaml-fv-'));
  try {
    await server.createCrds([parse(CRD)]);
    const body = parse(CR);
    const path = '/apis/example.com/v1/namespaces/default/widgets?dryRun=All';

    const strict = finding(CR, 'UnknownField');
    assert.equal(strict.severity, 'error');
    const rejected = await server.request('POST', `${path}&fieldValidation=Strict`, body);
    assert.equal(rejected.status, 400);
    assert.equal(rejected.body.message, strict.apiMessage);

    const warn = finding(CR, 'UnknownField', 'Warn');
    assert.equal(warn.severity, 'warning');
    const accepted = await server.request('POST', `${path}&fieldValidation=Warn`, body);
    assert.equal(accepted.status, 201);
    assert.deepEqual(warnings(accepted.headers.warning), [warn.apiMessage]);

    const deprecated = finding(DEPRECATED, 'DeprecatedVersion');
    const old = await server.request('POST', '/apis/example.com/v1beta1/namespaces/default/widgets?dryRun=All', parse(DEPRECATED));
    assert.equal(old.status, 201, JSON.stringify(old.body));
    assert.deepEqual(warnings(old.headers.warning), [deprecated.apiMessage]);

    // Inside a map (additionalProperties) the server names keys with dots, not field.Path's brackets.
    const GADGET = crdYaml(
      ['type: object', 'properties:', '  spec:', '    type: object', '    properties:', '      sets:', '        type: object', '        additionalProperties: {type: object, properties: {a: {type: string}}}'].join('\n'),
      { kind: 'Gadget' },
    );
    await server.createCrds([parse(GADGET)]);
    const gadget = 'apiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: g\nspec:\n  sets:\n    first: {a: x, b: y}\n';
    const s = new LanguageService();
    s.update(TextDocument.create('file:///ws/gadget-crd.yaml', 'yaml', 1, GADGET));
    const gtd = TextDocument.create('file:///ws/gadget.yaml', 'yaml', 1, gadget);
    s.update(gtd);
    const inMap = s.findings(gtd).find((x) => x.code === 'UnknownField');
    assert.ok(inMap, JSON.stringify(s.findings(gtd)));
    const mapAnswer = await server.request('POST', '/apis/example.com/v1/namespaces/default/gadgets?dryRun=All&fieldValidation=Strict', parse(gadget));
    assert.equal(mapAnswer.status, 400);
    assert.equal(mapAnswer.body.message, inMap.apiMessage);

    // A misspelt keyword in the CRD itself: strict decoding of the CRD, in the same words.
    const badCrd = CRD.replace('                  minimum: 0\n', '                  minimun: 0\n')
      .replace(/widgets\.example\.com/g, 'widgets.other.example.com')
      .replace('group: example.com', 'group: other.example.com');
    const crdFinding = finding(badCrd, 'UnknownField');
    const crdAnswer = await server.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions?dryRun=All&fieldValidation=Strict', parse(badCrd));
    assert.equal(crdAnswer.status, 400, JSON.stringify(crdAnswer.body));
    assert.equal(crdAnswer.body.message, crdFinding.apiMessage);

    // kubectl apply (no flags): strict field validation, the same message.
    const file = join(dir, 'cr.yaml');
    writeFileSync(file, CR);
    const k = spawnSync(server.kubectl, ['--kubeconfig', server.kubeconfig, 'apply', '--dry-run=server', '-f', file], { encoding: 'utf8' });
    assert.notEqual(k.status, 0);
    assert.ok(k.stderr.includes(strict.apiMessage!), k.stderr);
  } finally {
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
