/**
 * Editor messages over a wide corpus (the conformance cases as CRD and CR documents, the real-world CRDs
 * and samples, the examples): no Go struct dump, no absolute schema path up front, and the API server's
 * exact message one click away (the diagnostic's first related information) wherever it differs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { stringify } from 'yaml';
import { LanguageService } from '../../server/src/service/languageService';
import { toPlain } from '../../server/src/service/preview';
import { API_SERVER_LABEL, toDiagnostic } from '../../server/src/lsp/render';
import type { Finding } from '../../server/src/service/finding';
import { defaultSharedDir, listCaseFiles, loadCases } from '../conformance/runner';
import { needsShared } from '../shared';
import { loadCrdFile } from '../conformance/ops';

const ROOT = join(__dirname, '..', '..');
const SHARED = defaultSharedDir();

const WRAP = (schema: unknown) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'things.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
  },
});

/** Each conformance case that has a CRD or schema, as a YAML file: the CRD, then the object (when any). */
function corpusTexts(): Array<{ name: string; text: string }> {
  const out: Array<{ name: string; text: string }> = [];
  for (const file of listCaseFiles([join(SHARED, 'conformance')])) {
    for (const c of loadCases(file)) {
      if (!['crd', 'structural', 'cel-compile', 'validate'].includes(c.op)) continue;
      let crd: Record<string, any> | undefined;
      try {
        crd = (c.crd ?? (c.crdFile ? loadCrdFile(SHARED, c.crdFile) : c.schema !== undefined ? WRAP(c.schema) : undefined)) as Record<string, any> | undefined;
      } catch {
        continue;
      }
      if (!crd) continue;
      let text = stringify(toPlain(crd), { lineWidth: 0, aliasDuplicateObjects: false });
      if (c.op === 'validate' && c.object && typeof c.object === 'object' && !Array.isArray(c.object) && (c.isResourceRoot ?? true)) {
        const group = crd.spec?.group ?? 'example.com';
        const version = c.version ?? crd.spec?.versions?.find((v: { served?: boolean }) => v.served)?.name ?? 'v1';
        const obj = { apiVersion: `${group}/${version}`, kind: crd.spec?.names?.kind ?? 'Thing', ...(toPlain(c.object) as object) };
        text += '---\n' + stringify(obj, { lineWidth: 0, aliasDuplicateObjects: false });
      }
      out.push({ name: c.id, text });
    }
  }
  return out;
}

function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...yamlFiles(p));
    else if (/\.ya?ml$/.test(e)) out.push(p);
  }
  return out;
}

/** What a person reading the Problems panel must never see first, or at all. */
function checkMessage(f: Finding, uri: string, where: string): void {
  const d = toDiagnostic(f, uri);
  const m = String(d.message);
  assert.doesNotMatch(m, /\{"Rule":|"OptionalOldSelf"|"MessageExpression":/, `${where}: a Go struct in ${JSON.stringify(m)}`);
  assert.doesNotMatch(m, /^(spec\.validation\.|spec\.versions\[)/, `${where}: an absolute schema path leads ${JSON.stringify(m)}`);
  // CEL compile errors: the compiler's words, not cel-go's `ERROR: <input>:1:9:` prefix or its container.
  assert.doesNotMatch(m, /compilation failed: |ERROR: <input>:\d+:\d+:|\(in container ''\)/, `${where}: cel-go's prefix in ${JSON.stringify(m)}`);
  if (f.apiMessage !== undefined && f.apiMessage !== m) {
    const first = d.relatedInformation?.[0];
    assert.ok(first, `${where}: the API server message is not reachable: ${m}`);
    assert.equal(first.message, API_SERVER_LABEL + f.apiMessage, where);
    assert.deepEqual(first.location, { uri, range: d.range }, where);
  }
}

test('editor messages: no Go struct dump, no absolute schema path first, the API server message reachable (conformance corpus)', { skip: needsShared('conformance') }, () => {
  const s = new LanguageService();
  let n = 0;
  let differing = 0;
  let crdPaths = 0;
  for (const { name, text } of corpusTexts()) {
    const uri = `file:///corpus/${encodeURIComponent(name)}.yaml`;
    const td = TextDocument.create(uri, 'yaml', 1, text);
    s.update(td);
    for (const f of s.findings(td)) {
      checkMessage(f, uri, name);
      n++;
      if (f.apiMessage && f.apiMessage !== f.message) differing++;
      if (f.apiMessage && /^spec\.(validation|versions\[)/.test(f.apiMessage)) crdPaths++;
    }
    s.close(uri);
  }
  // The corpus is broad: hundreds of findings, most with an API server text of their own, many on CRD schema paths.
  assert.ok(n > 500 && differing > 400 && crdPaths > 200, `${n} findings, ${differing} with their own API server text, ${crdPaths} on absolute CRD paths`);
});

test('editor messages on the real-world CRDs and samples and the examples', { skip: needsShared('realworld') }, () => {
  const s = new LanguageService();
  const crds = yamlFiles(join(SHARED, 'realworld', 'crds'));
  for (const f of crds) s.indexDiskFile(`file://${f}`, readFileSync(f, 'utf8'));
  let n = 0;
  for (const f of [...yamlFiles(join(SHARED, 'realworld', 'samples')), ...yamlFiles(join(ROOT, 'examples')), ...crds.slice(0, 12)]) {
    const uri = `file://${f}`;
    const td = TextDocument.create(uri, 'yaml', 1, readFileSync(f, 'utf8'));
    s.update(td);
    for (const x of s.findings(td)) {
      checkMessage(x, uri, relative(ROOT, f));
      n++;
    }
  }
  assert.ok(n > 20, `${n} findings`);
});
