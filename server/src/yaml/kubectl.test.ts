/**
 * The YAML layer reads files as kubectl does (sigs.k8s.io/yaml over go-yaml v2). The table of the
 * oracle tier (test/oracle/yaml-table.test.ts) checks values and errors against the Go code itself;
 * these tests check what needs no Go: where each error is, what it says, and that the `yaml`
 * package's own warnings never reach stderr.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isSeq, isScalar, isPair, type Node } from 'yaml';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { IntegralFloat } from '../engine/json/lossless';
import { LanguageService } from '../service/languageService';
import { parseYamlDocuments } from './index';

/** [text, code, the text the error covers, a piece of kubectl's error]. */
const REFUSED: [string, string, string, string][] = [
  ['spec:\n  replicas: .inf\n', 'NOT_JSON', '.inf', 'json: unsupported value: +Inf'],
  ['spec:\n  ratio: -.Inf\n', 'NOT_JSON', '-.Inf', 'json: unsupported value: -Inf'],
  ['a: [1, .nan]\n', 'NOT_JSON', '.nan', 'json: unsupported value: NaN'],
  ['a: 1\nb: "x\\/y"\n', 'BAD_ESCAPE', '\\/', 'yaml: line 2: found unknown escape character'],
  ['b: "\\ud800"\n', 'BAD_ESCAPE', '\\ud800', 'yaml: found invalid Unicode character escape code'],
  ['a: !!int 1.5\n', 'TAG_MISMATCH', '1.5', 'yaml: cannot decode !!float `1.5` as a !!int'],
  ['a: !!binary "%%"\n', 'TAG_MISMATCH', '"%%"', '!!binary value contains invalid base64 data'],
  ['a: 1\n[x]: 2\n', 'INVALID_MAP_KEY', '[x]', 'yaml: invalid map key: []interface {}{"x"}'],
  ['a: 1\n~: 2\n', 'INVALID_MAP_KEY', '~', 'unsupported map key of type: %!s(<nil>), key: <nil>, value: 2'],
  ['a: 1\n<<: [1]\n', 'BAD_MERGE', '1', 'map merge requires map or sequence of maps as the value'],
  ['a: *nope\n', 'UNKNOWN_ANCHOR', '*nope', "unknown anchor 'nope' referenced"],
  ['a: &x {b: [*x]}\n', 'ALIAS_CYCLE', '*x', "anchor 'x' value contains itself"],
  ['a: b\u0007\n', 'CONTROL_CHARACTER', '\u0007', 'yaml: control characters are not allowed'],
  ['%YAML 1.1\n---\na: 1\n', 'DIRECTIVE', '%YAML 1.1', 'yaml: line 1: did not find expected <document start>'],
  ['a: 1\n--- !!map\nb: 2\n', 'DOCUMENT_SEPARATOR', '--- !!map', 'invalid Yaml document separator: !!map'],
];

test("what kubectl cannot read is an error on the offending token, with kubectl's error", () => {
  for (const [text, code, covered, kubectl] of REFUSED) {
    const errors = parseYamlDocuments(text)
      .documents.flatMap((d) => d.errors)
      .filter((e) => e.severity === 'error');
    const e = errors.find((x) => x.code === code);
    assert.ok(e, `${JSON.stringify(text)}: no ${code} in ${JSON.stringify(errors)}`);
    assert.equal(text.slice(e.start, e.end), covered, JSON.stringify(text));
    assert.ok(e.kubectl?.includes(kubectl), `${JSON.stringify(text)}: ${e.kubectl}`);
    // The message is for people (what is wrong, in the file's terms); kubectl's own text is apart.
    assert.ok(e.message.length > 10 && !e.message.includes('error converting') && !e.message.includes(kubectl), e.message);
  }
});

test('the same texts are fine where kubectl reads them: quoted, or as keys', () => {
  for (const text of ['a: ".inf"\n', "a: '\\/'\n", 'a: "\\x2F\\\'"\n', '.inf: 1\n', 'a: |\n  \\/\n', 'a: !!str .nan\n', 'a: "\\u00e9"\n']) {
    const d = parseYamlDocuments(text).documents[0];
    assert.deepEqual(d.errors, [], JSON.stringify(text));
  }
});

test("what a later key replaces never reaches kubectl's JSON conversion: no error for it", () => {
  for (const text of ['a: .inf\na: 1\n', 'a: {~: 1}\na: 2\n', 'b: &x {a: .nan}\nb: 1\n', 'a: [.inf]\n<<: {a: 1}\n']) {
    const d = parseYamlDocuments(text).documents[0];
    assert.deepEqual(
      d.errors.filter((e) => e.severity === 'error'),
      [],
      JSON.stringify(text),
    );
  }
  // Still refused where the value stays, also through an alias of an overwritten anchor.
  const d = parseYamlDocuments('k: &i .inf\nk: 1\nv: [*i]\n').documents[0];
  assert.deepEqual(
    d.errors.filter((e) => e.severity === 'error').map((e) => e.code),
    ['NOT_JSON'],
  );
  assert.deepEqual(d.value, { k: 1, v: [null] });
});

test('numbers, words and tags as the API server receives them from kubectl', () => {
  const v = parseYamlDocuments(
    [
      'float: 6.02e+23', // a float64: 6.02e+23 is sent as written
      'big: 1e20', // sent as 100000000000000000000: too big for int64, so a float
      'int: 1e5', // sent as 100000: an int
      'pow: 4611686018427387904.0', // a float64 sent with its shortest digits: 4611686018427388000
      'huge: 1e400', // ParseFloat overflows: a string
      'tagged: !!float 1', // float64(1) is sent as 1: an int
      'octal: 0755',
      'leadingZero: 08', // not octal, not an int: the float 8, sent as 8
      'uint: 18446744073709551615', // uint64: read back as a float
      'word: off',
      'stamp: 2001-12-14',
      'bin: !!binary aGVsbG8=',
      'negzero: -0.0',
    ].join('\n'),
  ).documents[0].value as Record<string, unknown>;
  assert.ok(v.float instanceof IntegralFloat && v.float.value === 6.02e23);
  assert.ok(v.big instanceof IntegralFloat && v.big.value === 1e20);
  assert.equal(v.int, 100000);
  assert.equal(v.pow, 4611686018427388000n);
  assert.equal(v.huge, '1e400');
  assert.equal(v.tagged, 1);
  assert.equal(v.octal, 493);
  assert.equal(v.leadingZero, 8);
  assert.ok(v.uint instanceof IntegralFloat && v.uint.value === 2 ** 64);
  assert.equal(v.word, false);
  assert.equal(v.stamp, '2001-12-14');
  assert.equal(v.bin, 'hello');
  assert.ok(Object.is(v.negzero, 0));
});

test('merge keys as go-yaml v2 applies them: at their place, the earlier of a list wins', () => {
  const v = parseYamlDocuments('base: &b {a: 1, c: 1}\nbefore:\n  a: 2\n  <<: *b\nafter:\n  <<: *b\n  a: 2\nlist:\n  <<: [{a: 3}, {a: 4, d: 4}]\n').documents[0].value;
  assert.deepEqual(v, { base: { a: 1, c: 1 }, before: { a: 1, c: 1 }, after: { a: 2, c: 1 }, list: { a: 3, d: 4 } });
  // A merged key is overridden without a duplicate warning; a repeated key is warned about.
  assert.deepEqual(parseYamlDocuments('base: &b {a: 1}\nx:\n  <<: *b\n  a: 2\n').documents[0].errors, []);
});

test('duplicate keys: a warning on the later key (spelled as written), the last value wins', () => {
  const text = 'on: 1\nb: 2\n"true": 3\nb: 4\n';
  const d = parseYamlDocuments(text).documents[0];
  assert.deepEqual(d.value, { true: 3, b: 4 });
  assert.deepEqual(
    d.errors.map((e) => [e.severity, e.code, text.slice(e.start, e.end)]),
    [
      ['warning', 'DUPLICATE_KEY', '"true"'],
      ['warning', 'DUPLICATE_KEY', 'b'],
    ],
  );
  assert.equal(d.errors[0].message, 'duplicate key "true" (`on` above reads as "true" too): kubectl keeps only this last value');
  assert.equal(d.errors[1].message, 'duplicate key "b": kubectl keeps only this last value');
  assert.equal(d.hasSyntaxErrors, false);
});

test("quoted scalars over several lines are read at any indentation, as go-yaml's scanner reads them", () => {
  // sigs.k8s.io/yaml (go-yaml v2) gives {"schema":{"description":"Mode of the pod: one of fast, slow","type":"string"}}:
  // libyaml checks no indentation inside a quoted scalar; the `yaml` package alone reports a missing quote.
  const atKey = "schema:\n  description: 'Mode of the pod:\n  one of fast, slow'\n  type: string\n";
  const d = parseYamlDocuments(atKey).documents[0];
  assert.deepEqual(d.errors, []);
  assert.deepEqual(d.value, { schema: { description: 'Mode of the pod: one of fast, slow', type: 'string' } });
  // Left of the key, in double quotes with an escape, blank lines folding to a line break, in a list, `''`.
  const v = parseYamlDocuments("a:\n  b: \"one\\ttwo\nthree\n\n  four\"\n  c:\n    - 'it''s\n    x'\n    - z\n").documents[0];
  assert.deepEqual(v.errors, []);
  assert.deepEqual(v.value, { a: { b: 'one\ttwo three\nfour', c: ["it's x", 'z'] } });
  // Positions are those of the text: the next key's value is found where it is written.
  const path = d.rangeOfPath('schema.type');
  assert.equal(atKey.slice(path!.start, path!.end), 'string');
  // What go-yaml refuses too stays an error: a key over two lines, a document marker or the end inside.
  for (const text of ["a:\n  'b\n  c': 1\n", "a:\n  b: 'x\n...\n  y'\n", 'a:\n  b: "x\n  y\n']) {
    assert.ok(
      parseYamlDocuments(text).documents.some((x) => x.errors.some((e) => e.severity === 'error')),
      JSON.stringify(text),
    );
  }
});

test('a document after `...` without `---` is flagged: kubectl ignores it', () => {
  const d = parseYamlDocuments('a: 1\n...\nb: 2\n').documents;
  assert.equal(d.length, 2);
  assert.deepEqual(d[0].errors, []);
  assert.deepEqual(
    d[1].errors.map((e) => [e.severity, e.code]),
    [['warning', 'IGNORED_DOCUMENT']],
  );
});

const WIDGET_CRD = readFileSync(join(__dirname, '..', '..', '..', 'test', 'service', 'fixtures', 'widget-crd.yaml'), 'utf8');

test('`.inf` in a custom resource is an error in the editor, on `.inf`, and nothing else is reported on the object', () => {
  const s = new LanguageService();
  s.update(TextDocument.create('file:///ws/crds/widget-crd.yaml', 'yaml', 1, WIDGET_CRD));
  const text = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: small\n  replicas: .inf\n';
  const td = TextDocument.create('file:///ws/w.yaml', 'yaml', 1, text);
  const diags = s.findings(td);
  const errors = diags.filter((x) => x.severity === 'error');
  assert.equal(errors.length, 1, JSON.stringify(diags));
  assert.equal(td.getText(errors[0].range), '.inf');
  assert.equal(errors[0].message, '.inf is infinite, which JSON cannot carry: kubectl refuses the file');
  // kubectl's exact words are one click away (and what the CLI prints).
  assert.equal(errors[0].apiMessage, 'error converting YAML to JSON: json: unsupported value: +Inf');
  // The same object with a number is fine.
  const ok = TextDocument.create('file:///ws/ok.yaml', 'yaml', 1, text.replace('.inf', '3'));
  assert.deepEqual(
    s.findings(ok).filter((x) => x.severity === 'error'),
    [],
  );
});

test("a CRD whose description continues at its key's column is checked, as the API server checks it", () => {
  // kubectl create --dry-run=server (kube-apiserver 1.37) accepts the CRD with the description as written,
  // and refuses it with `minimum: ten` for spec.replicas (`CustomResourceDefinition in version "v1" cannot
  // be handled as a CustomResourceDefinition: json: cannot unmarshal string into Go struct field
  // JSONSchemaProps...`): kubectl reads the description, so the real error is what stops the CRD.
  const description = "              description: 'The widget''s desired state:\n              its size and replicas.'\n";
  const crd = WIDGET_CRD.replace("              description: The widget's desired state.\n", description);
  assert.notEqual(crd, WIDGET_CRD);
  const s = new LanguageService();
  const codes = (text: string) => {
    const td = TextDocument.create('file:///ws/crds/widget-crd.yaml', 'yaml', 1, text);
    s.update(td);
    return s.findings(td).map((f) => `${f.code} ${td.getText(f.range)}`);
  };
  assert.deepEqual(codes(crd), []);
  assert.deepEqual(codes(crd.replace('minimum: 0', 'minimum: ten')), ['FieldValueTypeInvalid ten']);
  assert.equal(s.index.lookup('example.com', 'Widget')?.crd && JSON.stringify(s.index.lookup('example.com', 'Widget')!.crd).includes("The widget's desired state: its size and replicas."), true);
});

test('no warning of the `yaml` package reaches stderr, whatever is done with the AST', () => {
  const texts = ['[a, b]: 1\n{c: 1}: 2\n? [x]\n: y\n', 'a: !!float 1\nb: !unknown x\n', 'a: &x [1]\nb: *x\nc: {<<: *x}\n', '%YAML 1.3\n---\na: 1\n', 'a: "\\/"\n'];
  const seen: string[] = [];
  const emit = process.emitWarning;
  const warn = console.warn;
  process.emitWarning = ((w: string | Error) => void seen.push(String(w))) as typeof process.emitWarning;
  console.warn = (...a: unknown[]) => void seen.push(a.join(' '));
  try {
    for (const t of texts) {
      for (const d of parseYamlDocuments(t).documents) {
        void d.value;
        void d.errors;
        // What other layers may do with nodes (code actions read node.toJSON()).
        const stack: unknown[] = [d.contents];
        while (stack.length) {
          const n = stack.pop();
          if (isPair(n)) stack.push(n.key, n.value);
          else if (isMap(n) || isSeq(n)) {
            stack.push(...n.items);
            try {
              (n as Node & { toJSON(): unknown }).toJSON();
            } catch {
              // an alias the AST cannot resolve alone
            }
          } else if (isScalar(n)) n.toJSON();
        }
        try {
          d.ast.toJS();
        } catch {
          // unresolved aliases throw; warnings are what this test is about
        }
      }
    }
  } finally {
    process.emitWarning = emit;
    console.warn = warn;
  }
  assert.deepEqual(seen, []);
});
