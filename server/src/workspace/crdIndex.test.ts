/**
 * mayHoldCrd: a file it rules out holds no CRD by the full parse (a file of custom resources is indexed
 * without one), and a backslash alone (a template's regular expression) does not rule a file in.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseYamlDocuments } from '../yaml';
import { CrdIndex, isCrdObject, mayHoldCrd, type CrdSourceKind, type IndexedCrd } from './crdIndex';

const crd = (kind: string) => `apiVersion: apiextensions.k8s.io/v1\nkind: ${kind}\nmetadata:\n  name: widgets.example.com\n`;

test('mayHoldCrd: the kind spelled out or with escapes, never a backslash alone', () => {
  const cases: Array<[string, string]> = [
    ['plain', crd('CustomResourceDefinition')],
    ['\\x escape', crd('"Custom\\x52esourceDefinition"')],
    ['\\u escape', crd('"Custom\\u0052esourceDefinition"')],
    ['\\U escape', crd('"\\U00000043ustomResourceDefinition"')],
    ['escaped line break', crd('"Custom\\\n    ResourceDefinition"')],
    ['escaped CRLF line break', crd('"Custom\\\n    ResourceDefinition"').replace(/\n/g, '\r\n')],
    ['JSON', `{"apiVersion": "apiextensions.k8s.io/v1", "kind": "\\u0043ustomResourceDefinition", "metadata": {"name": "w"}}`],
    ['escaped backslash', crd('"Custom\\\\x52esourceDefinition"')],
    ['a regular expression', `apiVersion: v1\nkind: ConfigMap\ndata:\n  re: "^\\\\d+\\\\.\\\\d+$"\n  path: "C:\\\\x52"\n`],
    ['a template with backslashes', `apiVersion: v1\nkind: ConfigMap\ndata:\n  a: {{ regexReplaceAll "\\\\s+" .Values.x "" | quote }}\n`],
  ];
  for (const [name, text] of cases) {
    const parsed = parseYamlDocuments(text.replace(/\{\{.*\}\}/g, '""')).documents.some((d) => isCrdObject(d.value));
    // Never ruled out when the parse finds a CRD; ruled out when it does not (for these files).
    assert.equal(mayHoldCrd(text), parsed, name);
  }
});

/**
 * The index is kept up to date one source at a time (a check of thousands of files changes one at a
 * time): after any sequence of changes it must resolve every group/kind as a rebuild from all sources
 * does, and each change must report exactly the keys whose CRD in use changed.
 */
test('CrdIndex: changes one source at a time resolve as a rebuild, and report the keys that changed', () => {
  const kinds: CrdSourceKind[] = ['open', 'disk', 'external'];
  let seed = 29;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  let id = 0;
  const entry = (uri: string, docIndex: number): IndexedCrd => ({
    uri,
    docIndex,
    startLine: 0,
    text: '',
    crd: {},
    name: '',
    group: `g${rand(3)}.example.com`,
    kind: `K${rand(4)}`,
    plural: '',
    id: ++id,
    ...(rand(5) === 0 ? { broken: true } : {}),
  });
  // The reference: every source's CRDs (an open document hides its disk and external copies), sorted.
  const rebuild = (sources: Record<CrdSourceKind, Map<string, IndexedCrd[]>>): Map<string, IndexedCrd[]> => {
    const m = new Map<string, IndexedCrd[]>();
    for (const k of kinds) {
      for (const [uri, list] of sources[k]) {
        if (k !== 'open' && sources.open.has(uri)) continue;
        for (const c of list) m.set(`${c.group}/${c.kind}`, [...(m.get(`${c.group}/${c.kind}`) ?? []), { ...c, source: k }]);
      }
    }
    const rank = { open: 0, disk: 0, external: 1 };
    for (const l of m.values()) l.sort((a, b) => Number(!!a.broken) - Number(!!b.broken) || rank[a.source!] - rank[b.source!] || (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0) || a.docIndex - b.docIndex);
    return m;
  };
  const index = new CrdIndex();
  const sources: Record<CrdSourceKind, Map<string, IndexedCrd[]>> = { open: new Map(), disk: new Map(), external: new Map() };
  let before = rebuild(sources);
  for (let step = 0; step < 3000; step++) {
    const uri = `file:///w/f${rand(12)}.yaml`;
    const source = kinds[rand(3)];
    let changed: string[];
    if (rand(4) === 0) {
      sources[source].delete(uri);
      changed = index.remove(uri, source);
    } else {
      const crds = Array.from({ length: rand(3) }, (_, i) => entry(uri, i));
      if (crds.length) sources[source].set(uri, crds);
      else sources[source].delete(uri);
      changed = index.set(uri, crds, source);
    }
    const after = rebuild(sources);
    for (const [k, l] of after) {
      assert.deepEqual(
        index.definitions(k.slice(0, k.indexOf('/')), k.slice(k.indexOf('/') + 1)).map((c) => c.id),
        l.map((c) => c.id),
        `step ${step}: ${k}`,
      );
    }
    assert.equal(index.size, after.size, `step ${step}: keys`);
    assert.deepEqual(new Set(index.all().map((c) => c.id)), new Set([...after.values()].map((l) => l[0].id)), `step ${step}: all`);
    const expected = [...new Set([...before.keys(), ...after.keys()])].filter((k) => before.get(k)?.[0].id !== after.get(k)?.[0].id);
    assert.deepEqual(new Set(changed), new Set(expected), `step ${step}: changed keys`);
    before = after;
  }
});
