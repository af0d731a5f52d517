import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { LanguageService } from '../../server/src/service/languageService';
import { CompletionItemKind, type Position } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { renderPreview } from '../../server/src/service/preview';
import { completionsAt, CRD_URI, docOf, expectWhole, fixedDocOf, hoverAt, quickFixes, serviceWithCrd, WIDGET_CRD } from './helpers';

const HEAD = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n';

/**
 * The documents whose whole answers are kept (test/service/expected/<feature>.json), by case name: `cr` ones
 * asked of a service that knows the Widget CRD, `crd` ones of a service that knows no CRD. The tests of
 * single parts of an answer below ask the same documents.
 */
const HOVER = {
  cr: {
    'CR field with enum': HEAD + 'spec:\n  si<|>ze: small\n',
    'CR value with default and minimum': HEAD + 'spec:\n  size: small\n  replicas: <|>3\n',
    'CR object with rules': HEAD + 'sp<|>ec:\n  size: small\n',
    'CR set list': HEAD + 'spec:\n  ta<|>gs: [a]\n',
    'CR unknown field': HEAD + 'spec:\n  unkn<|>own: 1\n',
  },
  crd: {
    'CRD keyword': WIDGET_CRD.replace('x-kubernetes-list-type: set', 'x-kubernetes-list-<|>type: set'),
    'CRD rule expression': WIDGET_CRD.replace('"self.replicas <= 5"', '"self.rep<|>licas <= 5"'),
    'CRD rule key': WIDGET_CRD.replace('- rule: "self.replicas <= 5"', '- ru<|>le: "self.replicas <= 5"'),
    'CRD scope': WIDGET_CRD.replace('  scope: Namespaced', '  sc<|>ope: Namespaced'),
  },
};
const COMPLETION = {
  cr: {
    'CR properties': HEAD + 'spec:\n  <|>\n',
    'CR enum value': HEAD + 'spec:\n  size: <|>\n',
    'CR apiVersion': 'apiVersion: <|>\nkind: Widget\n',
  },
  crd: {
    'CRD keywords of an integer': WIDGET_CRD.replace('                  default: 1\n', '                  default: 1\n                  <|>\n'),
    'CRD type values': WIDGET_CRD.replace('                  type: boolean', '                  type: <|>'),
    'CRD rule on self': WIDGET_CRD.replace('message: too many replicas', 'message: too many replicas\n                - rule: self.<|>'),
  },
};
const ACTIONS = {
  cr: {
    'CR value not in the enum': HEAD + 'spec:\n  size: medum  # comment kept\n',
    'CR field to prune': HEAD + 'spec:\n  size: small\n  # about colour\n  colour:\n    r: 1\n    g: 2\n  replicas: 1\n',
    'CR required field missing': HEAD + 'spec:\n  replicas: 1 # one\n',
  },
  crd: {
    'CRD type missing': WIDGET_CRD.replace('            spec:\n              type: object\n', '            spec:\n'),
    'CRD uniqueItems': WIDGET_CRD.replace('                  x-kubernetes-list-type: set\n', '                  uniqueItems: true\n'),
  },
};

/** Each feature: its expected file, the URI name its documents are opened at, its cases, the request. */
type Cases = { cr: Record<string, string>; crd: Record<string, string> };
type Ask = (s: LanguageService, td: TextDocument, pos: Position) => unknown;
const WHOLE: Array<[string, string, Cases, Ask]> = [
  ['hover', 'hover', HOVER, (s, td, pos) => s.hover(td, pos) ?? null],
  ['completion', 'completion', COMPLETION, (s, td, pos) => s.completion(td, pos)],
  ['code-actions', 'actions', ACTIONS, (s, td) => s.fixes(td, { start: { line: 0, character: 0 }, end: td.positionAt(td.getText().length) })],
];

/** Each case's answer, by name: its text opened at one fixed URI in its group's service, asked, closed. */
function answersOf(cases: Cases, uriName: string, ask: Ask): Record<string, unknown> {
  const services = { cr: serviceWithCrd(), crd: new LanguageService() };
  const answers: Record<string, unknown> = {};
  for (const group of ['cr', 'crd'] as const) {
    for (const [name, text] of Object.entries(cases[group])) {
      const { td, pos } = fixedDocOf(text, uriName);
      services[group].update(td);
      answers[name] = ask(services[group], td, pos);
      services[group].close(td.uri);
    }
  }
  return answers;
}

for (const [feature, uriName, cases, ask] of WHOLE) {
  test(`${feature}: the whole answers, in CRs and CRDs (expected/${feature}.json)`, () => {
    expectWhole(feature, answersOf(cases, uriName, ask));
  });
}

// ---- hover

test('hover on a CR field shows the schema: type, description, enum, required, default, constraints, rules', () => {
  const s = serviceWithCrd();
  const size = hoverAt(s, HOVER.cr['CR field with enum']);
  assert.match(size, /\*\*size\*\*: `string`/);
  assert.match(size, /required/);
  assert.match(size, /How big the widget is\./);
  assert.match(size, /Enum: `"small"`, `"medium"`, `"large"`/);
  const replicas = hoverAt(s, HOVER.cr['CR value with default and minimum']);
  assert.match(replicas, /Default: `1`/);
  assert.match(replicas, /Minimum: `0`/);
  const spec = hoverAt(s, HOVER.cr['CR object with rules']);
  assert.match(spec, /self\.replicas <= 5/);
  assert.match(spec, /too many replicas/);
  const tags = hoverAt(s, HOVER.cr['CR set list']);
  assert.match(tags, /array of string/);
  assert.match(tags, /List type: `set`/);
  assert.match(hoverAt(s, HOVER.cr['CR unknown field']), /not in the schema of widgets\.example\.com \(version v1\): the API server prunes it/);
  assert.equal(hoverAt(s, HEAD + 'spec:\n  unknown: <|>1\n'), '');
});

test('hover on CRD keywords explains them; on a rule, the type of self', () => {
  const s = new LanguageService();
  const kw = hoverAt(s, HOVER.crd['CRD keyword']);
  assert.match(kw, /atomic/);
  assert.match(kw, /map/);
  const ui = hoverAt(s, WIDGET_CRD.replace('                  minimum: 0', '                  minim<|>um: 0'));
  assert.match(ui, /smallest allowed number/);
  // Inside the rule: the sub-expression under the cursor, and the rule's cost.
  const rule = hoverAt(s, HOVER.crd['CRD rule expression']);
  assert.match(rule, /`replicas` \(field\): `int`/);
  assert.match(rule, /Estimated cost: \d+ \(limits: 10 million per rule when the CRD is created, 1 million per evaluation at runtime\)/);
  // On the `rule:` key: what self is (its fields).
  const key = hoverAt(s, HOVER.crd['CRD rule key']);
  assert.match(key, /`self`: `object`/);
  assert.match(key, /- `size`: `string` — required — How big the widget is\./);
  const costly = hoverAt(s, WIDGET_CRD.replace('"self.replicas <= 5"', '"self.tags.all(t, t.size() < 3) && self.rep<|>licas == oldSelf.replicas"'));
  assert.match(costly, /over the runtime limit of 1 million per evaluation/);
  assert.match(costly, /iterates `self\.tags`: size unbounded/);
  assert.match(costly, /transition rule/);
  const scope = hoverAt(s, HOVER.crd['CRD scope']);
  assert.match(scope, /Namespaced or Cluster/);
});

test('a whole answer that differs from its expected file fails, whatever part differs', () => {
  if (process.env.CRD_YAML_UPDATE === '1') return; // the expected files are being written
  const hover = JSON.parse(readFileSync(join(__dirname, 'expected', 'hover.json'), 'utf8'));
  hover['CR unknown field'].range.end.character++;
  assert.throws(() => expectWhole('hover', hover), /differs from test\/service\/expected\/hover\.json/);
});

// ---- completion

test('completion of CR properties: required first, snippets with defaults and enum choices', () => {
  const items = completionsAt(serviceWithCrd(), COMPLETION.cr['CR properties']);
  const labels = items.map((i) => i.label).sort();
  assert.deepEqual(labels, ['enabled', 'replicas', 'size', 'tags']);
  const sorted = [...items].sort((a, b) => String(a.sortText).localeCompare(String(b.sortText)));
  assert.equal(sorted[0].label, 'size');
  const text = (l: string) => (items.find((i) => i.label === l)!.textEdit as { newText: string }).newText;
  // biome-ignore-start lint/suspicious/noTemplateCurlyInString: LSP snippet placeholders, not template literals.
  assert.equal(text('size'), 'size: ${1|small,medium,large|}');
  assert.equal(text('replicas'), 'replicas: ${1:1}');
  assert.equal(text('enabled'), 'enabled: ${1|true,false|}');
  // biome-ignore-end lint/suspicious/noTemplateCurlyInString: LSP snippet placeholders.
  assert.equal(text('tags'), 'tags:\n  - $0');
});

test('completion leaves out properties already present, and knows list items', () => {
  const s = serviceWithCrd();
  const labels = completionsAt(s, HEAD + 'spec:\n  size: small\n  <|>\n  replicas: 1\n')
    .map((i) => i.label)
    .sort();
  assert.deepEqual(labels, ['enabled', 'tags']);
  const root = completionsAt(s, HEAD + '<|>\n').map((i) => i.label);
  assert.ok(root.includes('spec') && !root.includes('kind'));
});

test('completion of values: enums, booleans, apiVersion and kind from the index', () => {
  const s = serviceWithCrd();
  assert.deepEqual(
    completionsAt(s, COMPLETION.cr['CR enum value']).map((i) => i.label),
    ['small', 'medium', 'large'],
  );
  assert.deepEqual(
    completionsAt(s, HEAD + 'spec:\n  enabled: <|>\n').map((i) => i.label),
    ['true', 'false'],
  );
  const versions = completionsAt(s, COMPLETION.cr['CR apiVersion']).map((i) => i.label);
  assert.deepEqual(versions.sort(), ['example.com/v1', 'example.com/v1beta1']);
  assert.deepEqual(
    completionsAt(s, 'apiVersion: example.com/v1\nkind: W<|>\n').map((i) => i.label),
    ['Widget'],
  );
});

test('completion in CRDs: schema keywords, type values, rule fields', () => {
  const s = new LanguageService();
  const kw = completionsAt(s, COMPLETION.crd['CRD keywords of an integer']).map((i) => i.label);
  assert.ok(kw.includes('x-kubernetes-validations') && kw.includes('multipleOf') && kw.includes('format'));
  assert.ok(!kw.includes('minimum') && !kw.includes('type'), 'present keywords are not offered again');
  // Valid at that place: an integer takes number keywords, not list or object ones; nothing forbidden in CRDs.
  assert.ok(kw.includes('maximum') && kw.includes('x-kubernetes-validations'));
  for (const k of ['items', 'x-kubernetes-list-type', 'properties', 'pattern', 'x-kubernetes-int-or-string', 'uniqueItems', '$ref']) assert.ok(!kw.includes(k), k);
  const arr = completionsAt(s, WIDGET_CRD.replace('                  x-kubernetes-list-type: set\n', '                  x-kubernetes-list-type: set\n                  <|>\n')).map((i) => i.label);
  assert.ok(arr.includes('maxItems') && !arr.includes('x-kubernetes-list-map-keys') && !arr.includes('properties'));
  const types = completionsAt(s, COMPLETION.crd['CRD type values']).map((i) => i.label);
  assert.deepEqual(types, ['object', 'array', 'string', 'integer', 'number', 'boolean']);
  const rule = completionsAt(s, COMPLETION.crd['CRD rule on self']).map((i) => i.label);
  assert.deepEqual(
    completionsAt(s, COMPLETION.crd['CRD rule on self'])
      .filter((i) => i.kind === CompletionItemKind.Field)
      .map((i) => i.label)
      .sort(),
    ['enabled', 'replicas', 'size', 'tags'],
  );
  assert.ok(!rule.includes('startsWith') && !rule.includes('all'), 'an object has no string or list functions');
  const fns = completionsAt(s, WIDGET_CRD.replace('message: too many replicas', 'message: too many replicas\n                - rule: <|>')).map((i) => i.label);
  assert.ok(fns.includes('has') && fns.includes('self') && fns.includes('quantity') && !fns.includes('exists'), 'exists is a member of lists');
  const listType = completionsAt(s, WIDGET_CRD.replace('x-kubernetes-list-type: set', 'x-kubernetes-list-type: <|>')).map((i) => i.label);
  assert.deepEqual(listType, ['atomic', 'set', 'map']);
  const scope = completionsAt(s, WIDGET_CRD.replace('scope: Namespaced', 'scope: <|>')).map((i) => i.label);
  assert.deepEqual(scope, ['Namespaced', 'Cluster']);
});

// ---- code actions

test('quick fix: replace a value not in the enum with the closest allowed one', () => {
  const fixes = quickFixes(serviceWithCrd(), ACTIONS.cr['CR value not in the enum']);
  const f = fixes.find((x) => x.code === 'FieldValueNotSupported');
  assert.ok(f);
  assert.equal(f.title, 'Replace with medium');
  assert.equal(f.result, HEAD + 'spec:\n  size: medium  # comment kept\n');
});

test('quick fix: remove a field that will be pruned, keeping the rest as is', () => {
  const fixes = quickFixes(serviceWithCrd(), ACTIONS.cr['CR field to prune']);
  const f = fixes.find((x) => x.code === 'UnknownField')!;
  assert.equal(f.result, HEAD + 'spec:\n  size: small\n  # about colour\n  replicas: 1\n');
});

test('quick fix: add a missing required field with its first enum value', () => {
  const fixes = quickFixes(serviceWithCrd(), ACTIONS.cr['CR required field missing']);
  const f = fixes.find((x) => x.code === 'FieldValueRequired')!;
  assert.equal(f.title, 'Add required field "size"');
  assert.equal(f.result, HEAD + 'spec:\n  replicas: 1 # one\n  size: small\n');
});

test('quick fix: add the missing type, inferred from properties', () => {
  const crd = ACTIONS.crd['CRD type missing'];
  const fixes = quickFixes(new LanguageService(), crd);
  const f = fixes.find((x) => x.title.startsWith('Add "type: object"'))!;
  assert.ok(f, JSON.stringify(fixes.map((x) => x.title)));
  assert.equal(f.result, WIDGET_CRD.replace('            spec:\n              type: object\n              description', '            spec:\n              type: object\n              description'));
  assert.equal(f.result, WIDGET_CRD);
});

test('quick fix: uniqueItems: true becomes x-kubernetes-list-type: set', () => {
  const crd = ACTIONS.crd['CRD uniqueItems'];
  const fixes = quickFixes(new LanguageService(), crd);
  const f = fixes.find((x) => x.code === 'FieldValueForbidden')!;
  assert.ok(f, JSON.stringify(fixes));
  assert.equal(f.result, WIDGET_CRD);
});

// ---- preview

test('preview: the object as stored, with pruned and defaulted paths and the findings', () => {
  const s = serviceWithCrd();
  const text = HEAD + 'spec:\n  size: small\n---\n' + HEAD + 'spec:\n  size: large\n  colour: red\n  replicas: 9\n';
  const { td } = docOf(text);
  s.update(td);
  const p = s.preview(td, { line: 9, character: 0 })!;
  assert.ok(p);
  assert.deepEqual(p.pruned, [{ path: 'spec.colour', reason: 'unknown field' }]);
  assert.deepEqual(p.defaulted, []);
  const yaml = renderPreview(p);
  assert.match(yaml, /size: large/);
  assert.match(yaml, /^# pruned: spec\.colour \(unknown field\)$/m);
  assert.doesNotMatch(yaml, /colour: red/);
  assert.ok(p.findings.some((d) => d.message.includes('too many replicas')));
  const first = s.preview(td, { line: 1, character: 0 })!;
  assert.deepEqual(first.defaulted, [{ path: 'spec.replicas', action: 'default', value: 1 }]);
  assert.match(renderPreview(first), /^# defaulted: spec\.replicas = 1$/m);
  assert.match(renderPreview(first), /replicas: 1/);
  assert.deepEqual((first.object as { spec: unknown }).spec, { size: 'small', replicas: 1 });
  assert.equal(s.codeLenses(td).length, 2);
  assert.equal(s.preview(td, { line: 5, character: 0 })?.pruned.length, 0);
});

test('preview: null outside a CR of a known CRD', () => {
  const s = serviceWithCrd();
  const { td } = docOf('apiVersion: apps/v1\nkind: Deployment\n');
  assert.equal(s.preview(td, { line: 0, character: 0 }), null);
});

// ---- navigation

test('go to definition: CR field to its schema node, kind to the CRD', () => {
  const s = serviceWithCrd();
  const { td, pos } = docOf(HEAD + 'spec:\n  size: small\n  repl<|>icas: 2\n');
  s.update(td);
  const [loc] = s.definition(td, pos);
  assert.equal(loc.uri, CRD_URI);
  const crdLines = WIDGET_CRD.split('\n');
  assert.equal(crdLines[loc.range.start.line].trim(), 'replicas:');
  assert.equal(loc.range.start.line, 31);
  const k = docOf('apiVersion: example.com/v1\nkind: Wid<|>get\n');
  s.update(k.td);
  const [kl] = s.definition(k.td, k.pos);
  assert.equal(crdLines[kl.range.start.line].trim(), 'kind: Widget');
});

test('document symbols and folding ranges follow the documents and their fields', () => {
  const s = serviceWithCrd();
  const { td } = docOf(HEAD + 'spec:\n  size: small\n---\n' + HEAD.replace('name: w', 'name: v') + 'spec:\n  tags:\n    - a\n    - b\n');
  const syms = s.documentSymbols(td);
  assert.deepEqual(
    syms.map((x) => x.name),
    ['Widget w', 'Widget v'],
  );
  assert.deepEqual(
    syms[1].children?.map((c) => c.name),
    ['apiVersion', 'kind', 'metadata', 'spec'],
  );
  assert.equal(syms[1].range.start.line, 6);
  const folds = s.foldingRanges(td);
  assert.ok(
    folds.some((f) => f.startLine === 0 && f.endLine === 5),
    JSON.stringify(folds),
  );
  assert.ok(
    folds.some((f) => f.startLine === 11 && f.endLine === 14),
    JSON.stringify(folds),
  );
  assert.ok(
    folds.some((f) => f.startLine === 12 && f.endLine === 14),
    JSON.stringify(folds),
  );
});

test('quick fix: move a keyword out of a junctor; remove it when already outside', () => {
  const crd = WIDGET_CRD.replace(
    '                enabled:\n                  type: boolean\n',
    '                enabled:\n                  type: boolean\n                  anyOf:\n                    - description: on or off\n                    - title: t\n                      nullable: true\n',
  );
  const fixes = quickFixes(new LanguageService(), crd);
  const move = fixes.find((f) => f.title === 'Move "description" out of the anyOf');
  assert.ok(move, JSON.stringify(fixes.map((f) => f.title)));
  assert.ok(move.result.includes('                enabled:\n                  description: on or off\n                  type: boolean\n                  anyOf:\n                    - {}\n'), move.result);
  const title = fixes.find((f) => f.title === 'Move "title" out of the anyOf')!;
  assert.ok(title.result.includes('                  title: t\n                  type: boolean\n'), title.result);
  assert.ok(title.result.includes('                    - nullable: true\n'), title.result);
});

test('quick fix: drop a metadata schema that restricts more than name and generateName', () => {
  const crd = WIDGET_CRD.replace(
    '          properties:\n            spec:\n',
    '          properties:\n            metadata:\n              type: object\n              properties:\n                labels:\n                  type: object\n            spec:\n',
  );
  const fixes = quickFixes(new LanguageService(), crd);
  const f = fixes.find((x) => x.title.startsWith('Remove the metadata schema'));
  assert.ok(f, JSON.stringify(fixes.map((x) => x.title)));
  assert.equal(f.result, WIDGET_CRD);
});

test('quick fix: declare outside a junctor a field only specified inside it', () => {
  // (The API server checks the completeness of the root's junctors.)
  const crd = WIDGET_CRD.replace(
    '          type: object\n          properties:\n            spec:\n',
    '          type: object\n          anyOf:\n            - properties:\n                color:\n                  maxLength: 5\n          properties:\n            spec:\n',
  );
  const fixes = quickFixes(new LanguageService(), crd);
  const f = fixes.find((x) => x.title === 'Declare "color" outside the junctor (type: string)');
  assert.ok(f, JSON.stringify(fixes.map((x) => x.title)));
  assert.ok(f.result.includes('                  x-kubernetes-list-type: set\n            color:\n              type: string\n    - name: v1beta1'), f.result);
  // Applying it makes the schema structural.
  const after = new LanguageService();
  const { td } = docOf(f.result);
  after.update(td);
  assert.deepEqual(
    after.findings(td).map((d) => d.code),
    [],
  );
});

test('quick fixes for extension conflicts: int-or-string with preserve-unknown-fields, embedded resources of another type', () => {
  const withTags = (extra: string) => WIDGET_CRD.replace('                enabled:\n                  type: boolean\n', '                enabled:\n' + extra);
  const ios = withTags('                  x-kubernetes-int-or-string: true\n                  x-kubernetes-preserve-unknown-fields: true\n');
  const f1 = quickFixes(new LanguageService(), ios).find((x) => x.title === 'Remove "x-kubernetes-preserve-unknown-fields" (x-kubernetes-int-or-string is set)');
  assert.ok(f1, JSON.stringify(quickFixes(new LanguageService(), ios).map((x) => x.title)));
  assert.equal(f1.result, withTags('                  x-kubernetes-int-or-string: true\n'));
  const emb = withTags('                  type: string\n                  x-kubernetes-embedded-resource: true\n                  x-kubernetes-preserve-unknown-fields: true\n');
  const f2 = quickFixes(new LanguageService(), emb).find((x) => x.title === 'Set "type: object"');
  assert.ok(f2, JSON.stringify(quickFixes(new LanguageService(), emb).map((x) => x.title)));
  assert.equal(f2.result, emb.replace('                  type: string\n                  x-kubernetes-embedded', '                  type: object\n                  x-kubernetes-embedded'));
});

test('CRD outline: versions with their schema fields and types', () => {
  const s = new LanguageService();
  const { td } = docOf(WIDGET_CRD);
  const [crd] = s.documentSymbols(td);
  assert.equal(crd.name, 'CustomResourceDefinition widgets.example.com');
  const spec = crd.children!.find((c) => c.name === 'spec')!;
  assert.deepEqual(
    spec.children!.map((v) => v.name),
    ['v1', 'v1beta1', 'v1alpha1'],
  );
  const v1 = spec.children![0];
  assert.deepEqual(
    v1.children!.map((f) => `${f.name}:${f.detail}`),
    ['spec:object'],
  );
  assert.deepEqual(
    v1.children![0].children!.map((f) => `${f.name}:${f.detail}`),
    ['size:string', 'replicas:integer', 'enabled:boolean', 'tags:array'],
  );
  assert.equal(WIDGET_CRD.split('\n')[v1.children![0].children![1].selectionRange.start.line].trim(), 'replicas:');
});
