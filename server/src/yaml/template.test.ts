import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseYamlDocuments } from './document';
import { parseFieldPath } from './path';
import { decidedByTemplate, hasGoTemplateActions, lexTemplateActions, maskTemplate, pathKey, templateRegions, type TemplateRegions } from './template';

/** The regions of each document of a template, as printed paths (for readable assertions). */
function regionsOf(text: string): { masked: string; docs: Record<'templated' | 'open' | 'conditional', string[]>[]; errors: string[] } {
  const mask = maskTemplate(text)!;
  assert.equal(mask.text.length, text.length, 'masking keeps offsets');
  // Every character outside the actions is where it was (a line break may move to the end of blanked lines).
  const inAction = (i: number) => [...mask.actions, ...(mask.defines ?? [])].some((a) => i >= a.start && i < a.end);
  for (let i = 0; i < text.length; i++) {
    if (inAction(i) || mask.text[i] === text[i]) continue;
    assert.ok(/[\s]/.test(text[i]) && /[\s]/.test(mask.text[i]), `offset ${i}: ${JSON.stringify(text[i])} became ${JSON.stringify(mask.text[i])}`);
  }
  const file = parseYamlDocuments(mask.text);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the path keys join their segments with NUL/SOH.
  const separators = /[\u0000\u0001]/;
  const show = (s: Set<string>) => [...s].map((k) => k.split(separators).slice(1).join('.') || '<root>').sort();
  return {
    masked: mask.text,
    errors: file.errors.filter((e) => e.severity === 'error').map((e) => e.message),
    docs: file.documents.map((d) => {
      const r = templateRegions(d, mask.text, mask);
      return { templated: show(r.templated), open: show(r.open), conditional: show(r.conditional) };
    }),
  };
}

test('the lexer follows Go: trim markers, comments, strings holding }}', () => {
  const t = 'a: {{- .Values.x -}}\nb: {{ printf "}}" .y }}\nc: {{/* a }} comment */}}\nd: {{ `raw }}` }}\ne: {{ unclosed\n';
  const acts = lexTemplateActions(t).map((a) => t.slice(a.start, a.end));
  assert.deepEqual(acts, ['{{- .Values.x -}}', '{{ printf "}}" .y }}', '{{/* a }} comment */}}', '{{ `raw }}` }}']);
  assert.deepEqual(
    lexTemplateActions('{{-3}}').map((a) => a.body),
    ['-3'],
    '{{-3}} is not a trim marker',
  );
});

test("Go actions are told from other tools' braces", () => {
  assert.equal(hasGoTemplateActions('name: {{ .Values.name }}'), true);
  assert.equal(hasGoTemplateActions('labels:\n  {{- include "x.labels" . | nindent 4 }}'), true);
  assert.equal(hasGoTemplateActions('{{- if .Values.enabled }}\nkind: A\n{{- end }}'), true);
  // Argo Workflows and similar: not Go templates.
  assert.equal(hasGoTemplateActions('args: ["{{inputs.parameters.message}}"]'), false);
  assert.equal(hasGoTemplateActions('when: "{{=asInt(x) > 1}}"'), false);
  assert.equal(hasGoTemplateActions('value: "{{item}}"'), false);
  assert.equal(hasGoTemplateActions('no braces at all'), false);
});

test('a Helm template masks to YAML without syntax errors, offsets kept', () => {
  const text = [
    '{{- if .Values.widget.enabled }}',
    'apiVersion: example.com/v1',
    'kind: Widget',
    'metadata:',
    '  name: {{ include "chart.fullname" . }}',
    '  labels:',
    '    {{- include "chart.labels" . | nindent 4 }}',
    'spec:',
    '  replicas: {{ .Values.replicas }}',
    '  mode: fast',
    '  {{- with .Values.tags }}',
    '  tags:',
    '    {{- toYaml . | nindent 4 }}',
    '  {{- end }}',
    '  {{ .Values.extraKey }}: 1',
    '  ports:',
    '  {{- range .Values.ports }}',
    '  - name: {{ .name }}',
    '    port: 80',
    '  {{- end }}',
    '{{- end }}',
    '',
  ].join('\n');
  const r = regionsOf(text);
  assert.deepEqual(r.errors, []);
  assert.match(r.masked, /\n {2}name: x+\n/);
  assert.match(r.masked, /\n {2}mode: fast\s/);
  assert.deepEqual(r.docs, [
    {
      templated: ['metadata.labels', 'metadata.name', 'spec.ports.0.name', 'spec.replicas', 'spec.tags', 'spec.xxxxxxxxxxxxxxxxxxxxxx'],
      open: ['spec'],
      conditional: ['<root>', 'spec', 'spec.ports'],
    },
  ]);
});

test('define bodies are blanked; comments and assignments print nothing', () => {
  const text = '{{- define "x" }}\nnot: [yaml\n{{- end }}\n{{- $v := 1 }}\napiVersion: v1 {{/* trailing */}}\nkind: ConfigMap\n';
  const r = regionsOf(text);
  assert.deepEqual(r.errors, []);
  assert.doesNotMatch(r.masked, /not: \[yaml/);
  assert.match(r.masked, /apiVersion: v1 +\n/, 'a trailing comment action leaves the value literal');
  assert.deepEqual(r.docs[0].templated, []);
});

test('actions piped into indent/nindent belong to the column they print at', () => {
  const text = ['kind: A', 'spec:', '  template:', '    metadata:', '      labels:', '{{ include "labels" . | indent 8 }}', '    spec: {}', ''].join('\n');
  assert.deepEqual(regionsOf(text).docs[0].templated, ['spec.template.metadata.labels']);
  // A value that starts with a line break: literal lines below it belong to it.
  const inline = ['kind: A', 'metadata:', '  labels: {{ include "labels" . | nindent 4 }}', '    app: x', '  name: n', ''].join('\n');
  const r = regionsOf(inline);
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.docs[0].open, ['metadata.labels']);
  const text2 = ['kind: A', 'spec:', '  a: 1', '{{ include "more" . | indent 2 }}', ''].join('\n');
  assert.deepEqual(regionsOf(text2).docs[0].open, ['spec']);
});

test('lines of actions in a block scalar do not make it invalid', () => {
  const text = ['kind: ConfigMap', 'data:', '  config.yaml: |', '{{- if .Values.rules }}', '    rules:', '{{ toYaml .Values.rules | indent 6 }}', '{{- end }}', '  other: x', ''].join('\n');
  const r = regionsOf(text);
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.docs[0].templated, ['data.config.yaml']);
  const crlf = regionsOf(text.replace(/\n/g, '\r\n'));
  assert.deepEqual(crlf.errors, []);
});

test('findings on what the template decides are dropped, the rest kept', () => {
  const regions: TemplateRegions = {
    templated: new Set([pathKey(parseFieldPath('spec.replicas'))]),
    open: new Set([pathKey(parseFieldPath('metadata.labels')), pathKey(parseFieldPath('spec.template'))]),
    conditional: new Set([pathKey(parseFieldPath('spec.ports'))]),
  };
  const decided = (p: string, type = 'FieldValueInvalid', whole = false) => decidedByTemplate(regions, parseFieldPath(p), type, whole);
  assert.equal(decided('spec.replicas'), true, 'a templated value');
  assert.equal(decided('spec.mode'), false, 'a literal value');
  assert.equal(decided('spec.template.image', 'FieldValueRequired', true), true, 'required in an open object');
  assert.equal(decided('spec.image', 'FieldValueRequired', true), false, 'required in a literal object');
  assert.equal(decided('spec', 'FieldValueInvalid', true), true, 'a rule over an object holding templated parts');
  assert.equal(decided('spec.portsX', 'FieldValueInvalid', true), false, 'path prefixes are whole segments');
  assert.equal(decided('metadata', 'FieldValueInvalid', true), true);
  assert.equal(decided('status', 'FieldValueInvalid', true), false);
});
