/** The light index must give the same CRDs (names, positions, values) as a full parse. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseYamlDocuments } from '../yaml';
import { extractCrds } from './crdIndex';
import { lightCrds, withoutHeavySpecBlocks } from './lightIndex';
import { needsShared, sharedPath } from '../../../test/shared';

const NO_SHARED = needsShared('realworld', 'crds');

function full(text: string) {
  const f = parseYamlDocuments(text);
  return extractCrds(
    'u',
    f.documents.map((d) => ({ index: d.index, text: text.slice(d.start, d.end), value: d.value, startLine: f.positionAt(d.start).line })),
  );
}

const view = (cs: ReturnType<typeof full>) => cs.map((c) => ({ docIndex: c.docIndex, startLine: c.startLine, name: c.name, group: c.group, kind: c.kind, plural: c.plural, text: c.text, crd: c.crd }));

test('light index = full parse on real CRD files (small ones) and multi-document files', { skip: NO_SHARED }, () => {
  const root = sharedPath('realworld', 'crds');
  const files: string[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(f) && statSync(p).size < 60_000) files.push(p);
    }
  };
  walk(root);
  assert.ok(files.length > 20);
  const texts = files.slice(0, 40).map((f) => readFileSync(f, 'utf8'));
  texts.push(texts.slice(0, 3).join('\n---\n# a comment\n---\n'), `# header\n---\n${texts[0]}\n---\napiVersion: v1\nkind: ConfigMap\n`);
  for (const t of texts) {
    const light = lightCrds('u', t);
    assert.ok(light, 'light path applies');
    assert.deepEqual(view(light), view(full(t)));
  }
});

test('light index: layouts it does not handle fall back (undefined)', () => {
  const crd = (spec: string) => `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: a.b.c\n${spec}`;
  assert.equal(lightCrds('u', crd('spec: {group: b.c, names: {kind: A, plural: a}}\n')), undefined);
  assert.equal(lightCrds('u', crd('spec:\n  group: b.c\n  names: {kind: A, plural: a}\n  versions: [{name: v1}]\n')), undefined);
  assert.equal(lightCrds('u', '%YAML 1.1\n---\n' + crd('spec:\n  group: b.c\n')), undefined);
  // A sequence at its key's indent, comments and blank lines inside the block are cut with it.
  const t = crd('spec:\n  group: b.c\n  versions:\n  - name: v1\n\n# c\n    schema: {}\n  - name: v2\n  names:\n    kind: A\n    plural: a\n  scope: Namespaced\n');
  assert.equal(withoutHeavySpecBlocks(t), crd('spec:\n  group: b.c\n  names:\n    kind: A\n    plural: a\n  scope: Namespaced\n'));
  assert.deepEqual(view(lightCrds('u', t)!), view(full(t)));
});

test("light index read again (a one-shot check): the full parse's CRDs, texts read on first use and again after a drop, getters shared", () => {
  const crd = (name: string, extra = '') =>
    `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: ${name}s.example.com\nspec:\n  group: example.com\n  names:\n    kind: ${name}\n    plural: ${name.toLowerCase()}s\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object${extra}\n`;
  const text = `${crd('Alpha')}---\n${crd('Beta', '\n        properties:\n          spec: {type: string}')}`;
  let reads = 0;
  const held: Array<{ chars: number; drop: () => void }> = [];
  const light = lightCrds('u', text, '1.1', {
    reread: () => {
      reads++;
      return text;
    },
    held: (_crd, chars, drop) => void held.push({ chars, drop }),
  })!;
  assert.equal(reads, 0, 'indexing reads no text again');
  assert.deepEqual(view(light), view(full(text)));
  assert.equal(reads, 2, 'each CRD read its text once');
  assert.deepEqual(
    held.map((h) => h.chars),
    full(text).map((c) => c.text.length),
  );
  // Dropped (the caches' budget), a CRD reads its text again when asked, the same value.
  held[1].drop();
  assert.deepEqual(light[1].crd, full(text)[1].crd);
  assert.equal(reads, 3);
  // One pair of getters for all CRDs: a getter of its own gave each CRD a hidden class, and V8 then kept
  // each as a hash table (1 KB a CRD, 8 MB of the catalog's index).
  const getters = (c: (typeof light)[number]) => ['text', 'crd'].map((k) => Object.getOwnPropertyDescriptor(c, k)?.get);
  assert.ok(getters(light[0]).every((g) => typeof g === 'function'));
  assert.deepEqual(getters(light[0]), getters(light[1]));
});
