import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { LineIndex, parseFieldPath, formatFieldPath, parseYamlDocuments, splitYamlChunks, identifyObject } from '../../server/src/yaml';
import { FieldPath, invalid, required } from '../../server/src/engine/field';

/** The text a path maps to, for readable assertions. */
function textOf(text: string, path: string, target: 'key' | 'value' = 'value', doc = 0): string {
  const d = parseYamlDocuments(text).documents[doc];
  const r = d.rangeOfPath(path, target);
  return text.slice(r.start, r.end);
}

test('split: cuts at --- lines at column 0 only', () => {
  const text = 'a: 1\n---\nb: "--- no"\n  ---\n--- # c\nc: 3\n----\nd: 4\n';
  const chunks = splitYamlChunks(text);
  assert.deepEqual(
    chunks.map((c) => c.text),
    ['a: 1\n', '---\nb: "--- no"\n  ---\n', '--- # c\nc: 3\n----\nd: 4\n'],
  );
  for (const c of chunks) assert.equal(text.slice(c.start, c.end), c.text);
});

test('split: directives stay with the document they introduce; CRLF works', () => {
  const text = '%YAML 1.2\n---\na: 1\r\n---\r\nb: 2\r\n';
  const chunks = splitYamlChunks(text);
  assert.deepEqual(
    chunks.map((c) => c.text),
    ['%YAML 1.2\n---\na: 1\r\n', '---\r\nb: 2\r\n'],
  );
});

test('documents: values, identities and absolute offsets', () => {
  const text = [
    'apiVersion: apiextensions.k8s.io/v1',
    'kind: CustomResourceDefinition',
    'metadata: {name: crontabs.stable.example.com}',
    '---',
    'apiVersion: stable.example.com/v1',
    'kind: CronTab',
    'metadata:',
    '  name: my-cron',
    'spec:',
    '  big: 9223372036854775807',
    '  small: 3',
    '  f: 1.5',
    '---',
    '- just a list',
    '---',
    '',
  ].join('\n');
  const f = parseYamlDocuments(text);
  assert.equal(f.documents.length, 4);
  assert.deepEqual(
    f.documents.map((d) => d.kind),
    ['crd', 'cr', 'other', 'empty'],
  );
  const cr = f.documents[1];
  assert.equal(cr.identity.group, 'stable.example.com');
  assert.equal(cr.identity.version, 'v1');
  assert.equal(cr.identity.objectKind, 'CronTab');
  assert.equal(cr.identity.name, 'my-cron');
  const spec = (cr.value as { spec: Record<string, unknown> }).spec;
  assert.equal(spec.big, 9223372036854775807n);
  assert.equal(spec.small, 3);
  assert.equal(spec.f, 1.5);
  assert.equal(text.slice(cr.start, cr.start + 4), '---\n');
  assert.equal(f.documents[0].start, 0);
  assert.equal(f.documents[0].end, cr.start);
  // Positions in the second document are absolute.
  assert.equal(textOf(text, 'spec.small', 'value', 1), '3');
  const r = cr.rangeOfPath('spec.small');
  assert.deepEqual(f.positionAt(r.start), { line: 10, character: 9 });
  assert.equal(f.documentAt(r.start), cr);
});

test('documents: a syntax error is reported with a range, the rest of the file still parses', () => {
  const text = 'apiVersion: v1\nkind: ConfigMap\ndata:\n  a: [1, 2\n---\napiVersion: stable.example.com/v1\nkind: CronTab\n';
  const f = parseYamlDocuments(text);
  assert.equal(f.documents.length, 2);
  const [bad, good] = f.documents;
  assert.ok(bad.hasSyntaxErrors);
  assert.ok(bad.errors.length >= 1);
  const e = bad.errors[0];
  assert.equal(e.severity, 'error');
  // On the broken document's own last line, not on the next document's `---`.
  assert.ok(e.start >= text.indexOf('[1, 2') && e.end <= good.start - 1, `error range ${e.start}-${e.end}`);
  assert.equal(f.positionAt(e.start).line, 3);
  assert.ok(!e.message.includes('\n'));
  // What parsed before the error is usable.
  assert.equal(bad.identity.objectKind, 'ConfigMap');
  assert.equal(good.hasSyntaxErrors, false);
  assert.equal(good.identity.objectKind, 'CronTab');
});

test('documents: half-typed key keeps the earlier keys', () => {
  const f = parseYamlDocuments('apiVersion: stable.example.com/v1\nkind: CronTab\nspec:\n  cronSpec: "* * * *\n');
  const d = f.documents[0];
  assert.ok(d.hasSyntaxErrors);
  assert.equal(d.kind, 'cr');
});

test('documents: duplicate keys are warnings (as the API server warns); the last value wins', () => {
  const d = parseYamlDocuments('a: 1\na: 2\n').documents[0];
  assert.equal(d.errors[0].code, 'DUPLICATE_KEY');
  assert.equal(d.errors[0].severity, 'warning');
  assert.equal(d.hasSyntaxErrors, false);
  assert.equal(d.errors[0].start, 5);
  assert.deepEqual(d.value, { a: 2 });
});

test('documents: a comments-only text has no documents; an empty text neither', () => {
  assert.equal(parseYamlDocuments('# nothing here\n').documents.length, 0);
  assert.equal(parseYamlDocuments('').documents.length, 0);
});

test('documents: an unchanged document is reused after an edit elsewhere', () => {
  const v1 = 'a: 1\n---\nb: 2\n---\nc: 3\n';
  const v2 = 'a: 1\n---\nb: 22\n---\nc: 3\n';
  const f1 = parseYamlDocuments(v1);
  const f2 = parseYamlDocuments(v2, { previous: f1 });
  assert.equal(f2.documents[0].ast, f1.documents[0].ast);
  assert.notEqual(f2.documents[1].ast, f1.documents[1].ast);
  assert.equal(f2.documents[2].ast, f1.documents[2].ast);
  // The same place too: the same document object (the service keys a document's findings by it).
  assert.equal(f2.documents[0], f1.documents[0]);
  assert.notEqual(f2.documents[2], f1.documents[2]);
  // The reused document has its new absolute position.
  assert.equal(f2.documents[2].start, v2.lastIndexOf('---'));
  const r = f2.documents[2].rangeOfPath('c');
  assert.equal(v2.slice(r.start, r.end), '3');
});

test('documents: an edit inside a --- line that unmakes it merges the two documents, as a fresh parse does', () => {
  const v1 = 'a: 1\n---\nb: 2\n---\nc: 3\n';
  // Inside the marker, not at its start: the character before the edit is in the second chunk.
  for (const v2 of ['a: 1\n--x-\nb: 2\n---\nc: 3\n', 'a: 1\n-- -\nb: 2\n---\nc: 3\n', 'a: 1\n---x\nb: 2\n---\nc: 3\n', 'a: 1\n--\nb: 2\n---\nc: 3\n']) {
    for (const consumePrevious of [false, true]) {
      const inc = parseYamlDocuments(v2, { previous: parseYamlDocuments(v1), consumePrevious });
      const fresh = parseYamlDocuments(v2);
      const shape = (f: typeof fresh) => f.documents.map((d) => [d.start, d.end, d.errors.map((e) => `${e.start}-${e.end} ${e.message}`)]);
      assert.deepEqual(shape(inc), shape(fresh), JSON.stringify(v2));
    }
  }
});

test('documents: scalars as Kubernetes (go-yaml v2) reads them by default, YAML 1.2 core on request', () => {
  const text = 'a: yes\nb: 0755\nc: off\nd: 2001-12-14\ne: 12:30\nf: 0x1F\ng: "yes"\nh: 1.0\n';
  assert.deepEqual(parseYamlDocuments(text).documents[0].value, { a: true, b: 493, c: false, d: '2001-12-14', e: '12:30', f: 31, g: 'yes', h: 1 });
  // Go's strconv.ParseInt(s, 0, 64) prefixes, as go-yaml v2 reads them.
  assert.deepEqual(parseYamlDocuments('a: 0o17\nb: -0X1F\nc: 0B11\nd: 1_000\ne: 0o9\n').documents[0].value, { a: 15, b: -31, c: 3, d: 1000, e: '0o9' });
  assert.deepEqual(parseYamlDocuments(text, { yamlVersion: '1.2' }).documents[0].value, {
    a: 'yes',
    b: 755,
    c: 'off',
    d: '2001-12-14',
    e: '12:30',
    f: 31,
    g: 'yes',
    h: 1,
  });
});

test('documents: a __proto__ key is data, not a prototype', () => {
  const v = parseYamlDocuments('__proto__: {x: 1}\n').documents[0].value as Record<string, unknown>;
  assert.deepEqual(Object.keys(v), ['__proto__']);
  assert.equal((v as { x?: number }).x, undefined);
});

test('paths: parse and print Kubernetes field paths', () => {
  assert.deepEqual(parseFieldPath('spec.foo[0].bar'), [
    { kind: 'field', name: 'spec' },
    { kind: 'field', name: 'foo' },
    { kind: 'index', index: 0 },
    { kind: 'field', name: 'bar' },
  ]);
  assert.deepEqual(parseFieldPath('metadata.labels[app.kubernetes.io/name]'), [
    { kind: 'field', name: 'metadata' },
    { kind: 'field', name: 'labels' },
    { kind: 'key', key: 'app.kubernetes.io/name' },
  ]);
  assert.deepEqual(parseFieldPath(''), []);
  assert.deepEqual(parseFieldPath('<nil>'), []);
  const p = FieldPath.root('spec').child('versions').index(1).child('schema').key('a.b');
  assert.equal(formatFieldPath(p.segments()), p.toString());
  assert.deepEqual(parseFieldPath(p.toString()), p.segments());
});

const CR = `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: my-cron
  labels:
    app.kubernetes.io/name: x
spec:
  cronSpec: "* * * * */5"
  replicas: 15
  ports:
    - name: http
      port: 80
    - {name: https, port: 443}
  empty:
  flow: {a: 1, b: [1, 2]}
`;

test('ranges: a bad value maps to the value', () => {
  assert.equal(textOf(CR, 'spec.replicas'), '15');
  assert.equal(textOf(CR, 'spec.cronSpec'), '"* * * * */5"');
  assert.equal(textOf(CR, 'spec.ports[0].port'), '80');
  assert.equal(textOf(CR, 'spec.ports[1].port'), '443');
  assert.equal(textOf(CR, 'metadata.labels[app.kubernetes.io/name]'), 'x');
  assert.equal(textOf(CR, 'spec.flow.b[1]'), '2');
  assert.equal(textOf(CR, 'spec.flow'), '{a: 1, b: [1, 2]}');
});

test('ranges: a block collection maps to its key, a sequence item to its first line, an empty value to its key', () => {
  assert.equal(textOf(CR, 'spec.ports'), 'ports');
  assert.equal(textOf(CR, 'spec.ports[0]'), 'name: http');
  assert.equal(textOf(CR, 'spec.empty'), 'empty');
});

test('ranges: an unknown or missing field maps to the key of its deepest existing parent', () => {
  assert.equal(textOf(CR, 'spec.replicas', 'key'), 'replicas');
  const d = parseYamlDocuments(CR).documents[0];
  const r = d.rangeOfPath('spec.image', 'key');
  assert.equal(CR.slice(r.start, r.end), 'spec');
  assert.equal(r.exact, false);
  assert.deepEqual(r.found, [{ kind: 'field', name: 'spec' }]);
  assert.equal(textOf(CR, 'spec.ports[7].name'), 'ports');
  assert.equal(textOf(CR, 'spec.ports[0].protocol', 'key'), 'name: http');
  // Nothing of the path exists: the object's kind.
  assert.equal(textOf(CR, 'status.phase'), 'kind');
  assert.equal(textOf(CR, ''), 'kind');
});

test('ranges: field errors choose key or value by type, using segments or the printed path', () => {
  const d = parseYamlDocuments(CR).documents[0];
  const bad = invalid(FieldPath.root('spec', 'replicas'), 15, 'must be less than or equal to 10');
  let r = d.rangeOfFieldError(bad);
  assert.equal(CR.slice(r.start, r.end), '15');
  const req = required(FieldPath.root('spec', 'image'), '');
  r = d.rangeOfFieldError(req);
  assert.equal(CR.slice(r.start, r.end), 'spec');
  r = d.rangeOfFieldError({ type: 'FieldValueRequired', field: 'metadata.labels[app.kubernetes.io/name]' });
  assert.equal(CR.slice(r.start, r.end), 'app.kubernetes.io/name');
});

test('ranges: aliases and merge keys are followed', () => {
  const text = 'base: &b {image: nginx, size: 3}\nspec:\n  <<: *b\n  size: 4\n';
  assert.equal(textOf(text, 'spec.size'), '4');
  assert.equal(textOf(text, 'spec.image'), 'nginx');
  const v = parseYamlDocuments(text).documents[0].value as { spec: unknown };
  assert.deepEqual(v.spec, { image: 'nginx', size: 4 });
});

test('pathAt: the field path under the cursor, on a key or a value', () => {
  const d = parseYamlDocuments(CR).documents[0];
  let p = d.pathAt(CR.indexOf('replicas') + 2);
  assert.equal(formatFieldPath(p.segments), 'spec.replicas');
  assert.equal(p.target, 'key');
  p = d.pathAt(CR.indexOf('15') + 1);
  assert.equal(formatFieldPath(p.segments), 'spec.replicas');
  assert.equal(p.target, 'value');
  p = d.pathAt(CR.indexOf('443'));
  assert.equal(formatFieldPath(p.segments), 'spec.ports[1].port');
  p = d.pathAt(CR.indexOf('port: 80') + 1);
  assert.equal(formatFieldPath(p.segments), 'spec.ports[0].port');
  assert.equal(p.target, 'key');
});

test('LineIndex: offsets and positions round-trip, with \\n, \\r\\n and \\r', () => {
  const text = 'ab\r\ncd\ne\rf';
  const li = new LineIndex(text);
  assert.equal(li.lineCount, 4);
  assert.deepEqual(li.positionAt(text.indexOf('d')), { line: 1, character: 1 });
  assert.deepEqual(li.positionAt(text.indexOf('f')), { line: 3, character: 0 });
  for (let o = 0; o <= text.length; o++) {
    if (text[o - 1] === '\r' && text[o] === '\n') continue; // inside a CRLF
    assert.equal(li.offsetAt(li.positionAt(o)), o, `offset ${o}`);
  }
  assert.equal(li.offsetAt({ line: 0, character: 99 }), 2);
  assert.equal(li.offsetAt({ line: 99, character: 0 }), text.length);
});

test('identifyObject: CRDs of any apiextensions version, objects, others', () => {
  assert.equal(identifyObject({ apiVersion: 'apiextensions.k8s.io/v1beta1', kind: 'CustomResourceDefinition' }).kind, 'crd');
  assert.equal(identifyObject({ apiVersion: 'v1', kind: 'ConfigMap' }).group, '');
  assert.equal(identifyObject({ kind: 'ConfigMap' }).kind, 'other');
  assert.equal(identifyObject('text').kind, 'other');
  assert.equal(identifyObject(null).kind, 'empty');
});

test('ranges: internal CRD paths (hoisted spec.validation, ...) land on the v1 fields', () => {
  const crd = [
    'apiVersion: apiextensions.k8s.io/v1',
    'kind: CustomResourceDefinition',
    'spec:',
    '  conversion:',
    '    strategy: Webhook',
    '    webhook:',
    '      conversionReviewVersions: ["v9"]',
    '  versions:',
    '    - name: v1',
    '      schema:',
    '        openAPIV3Schema:',
    '          type: object',
    '          properties:',
    '            spec:',
    '              properties:',
    '                color: {}',
    '      subresources:',
    '        status: {}',
    '',
  ].join('\n');
  const d = parseYamlDocuments(crd).documents[0];
  const at = (type: 'FieldValueRequired' | 'FieldValueInvalid', field: string) => {
    const r = d.rangeOfFieldError({ type, field });
    return crd.slice(r.start, r.end);
  };
  assert.equal(at('FieldValueRequired', 'spec.validation.openAPIV3Schema.properties[spec].type'), 'spec');
  assert.equal(d.rangeOfFieldError({ type: 'FieldValueRequired', field: 'spec.validation.openAPIV3Schema.properties[spec].type' }).start, crd.indexOf('spec:\n              properties'));
  assert.equal(at('FieldValueInvalid', 'spec.validation.openAPIV3Schema.type'), 'object');
  assert.equal(at('FieldValueInvalid', 'spec.subresources.status'), '{}');
  assert.equal(at('FieldValueInvalid', 'spec.conversion.conversionReviewVersions[0]'), '"v9"');
  // A path that is the same in v1 is not remapped.
  assert.equal(at('FieldValueInvalid', 'spec.versions[0].name'), 'v1');
});

test('rangeInString: every character of a string value maps to its source, in every scalar style', () => {
  const cases = [
    'r: self.a > 0 && self.b',
    "r: 'it''s self.a'",
    'r: "self.a == \\"x\\" && \\u00e9 == self.b"',
    'r: "first \\\n    second"',
    'r: |\n  self.items.all(i,\n    i.size() > 0)\n',
    'r: >-\n  self.a >\n  self.b\n\n  && self.c\n',
    'r: self.a\n  && self.b\n',
  ];
  for (const text of cases) {
    const d = parseYamlDocuments(text).documents[0];
    const value = (d.value as { r: string }).r;
    for (let i = 0; i < value.length; i++) {
      const r = d.rangeInString('r', i, i + 1);
      assert.ok(r, `${JSON.stringify(text)} @${i}`);
      const src = text.slice(r.start, r.end);
      if (/\s/.test(value[i])) continue;
      // Escaped characters map to their backslash.
      assert.ok(src === value[i] || src === '\\', `${JSON.stringify(text)} @${i}: ${JSON.stringify(src)} for ${JSON.stringify(value[i])}`);
    }
    const whole = d.rangeInString('r', 0, value.length)!;
    assert.ok(whole.end > whole.start);
  }
});

test('rangeOfFieldError: a CEL compile error with a ruleRange points inside the rule', () => {
  const crd = [
    'apiVersion: apiextensions.k8s.io/v1',
    'kind: CustomResourceDefinition',
    'spec:',
    '  versions:',
    '    - name: v1',
    '      schema:',
    '        openAPIV3Schema:',
    '          type: object',
    '          x-kubernetes-validations:',
    '            - rule: "self.foo == \\"a\\" && self.nope"',
    '',
  ].join('\n');
  const d = parseYamlDocuments(crd).documents[0];
  const rule = 'self.foo == "a" && self.nope';
  const at = rule.indexOf('nope');
  const r = d.rangeOfFieldError({
    type: 'FieldValueInvalid',
    field: 'spec.validation.openAPIV3Schema.x-kubernetes-validations[0].rule',
    ruleRange: { start: at, end: at + 4 },
  });
  assert.equal(crd.slice(r.start, r.end), 'nope');
});

test('half-typed text: every prefix of a CRD parses, and every query answers without throwing', () => {
  const full = readFileSync(join(__dirname, '../../examples/crontab-crd.yaml'), 'utf8') + '---\n' + CR + '  tail: [1, {a: "b\n';
  const paths = ['spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[cronSpec].pattern', 'spec.names.kind', 'spec.replicas', 'metadata.name', ''];
  let previous: ReturnType<typeof parseYamlDocuments> | undefined;
  for (let n = 0; n <= full.length; n += 13) {
    const text = full.slice(0, n);
    const f = parseYamlDocuments(text, { previous });
    previous = f;
    for (const d of f.documents) {
      void d.value;
      void d.identity;
      for (const e of d.errors) assert.ok(e.start >= d.start && e.end <= text.length && e.start <= e.end, `error range in prefix ${n}`);
      for (const p of paths) {
        for (const target of ['key', 'value'] as const) {
          const r = d.rangeOfPath(p, target);
          assert.ok(r.start >= d.start && r.end <= Math.max(d.end, r.start) && r.start <= r.end, `range of ${p} in prefix ${n}`);
        }
      }
      d.pathAt(Math.floor((d.start + d.end) / 2));
    }
  }
});
