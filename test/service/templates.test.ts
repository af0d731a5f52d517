/**
 * Go templates (issue 22): what an action prints is unknown until `helm template` renders it, so it is
 * never checked nor shown; what the literal YAML around the actions decides still is. Each test has a
 * template whose actions print something valid, and a planted error in its literal YAML that must still be
 * reported. The comments say what `helm template` sends (helm v3.22, values as noted) and what a real
 * kube-apiserver 1.37 answers for it (`kubectl apply --dry-run=server`, with the Widget CRD of
 * test/fixtures/repo under a group of its own: spec.size 1..10, spec.mode fast|slow, spec.owner
 * ^[a-z][a-z0-9-]*$, spec.ports a list-map of {name, port <= 65535}).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { DocumentSymbol } from 'vscode-languageserver-types';
import { LanguageService } from '../../server/src/service/languageService';
import { notCheckedByTemplate, parseFile } from '../../server/src/service/templates';

const REPO = join(__dirname, '..', 'fixtures', 'repo');
const CRD = readFileSync(join(REPO, 'chart', 'crds', 'widgets.example.com.yaml'), 'utf8');
const uri = (rel: string) => pathToFileURL(join(REPO, rel)).href;

function service(): LanguageService {
  const s = new LanguageService();
  s.indexDiskFile(uri('chart/crds/widgets.example.com.yaml'), CRD);
  return s;
}

/** The findings of a chart template (`chart/templates/<name>`), as `code text-at-range` lines. */
function check(s: LanguageService, text: string, rel = 'chart/templates/t.yaml', helm = true): { td: TextDocument; lines: string[]; messages: string[] } {
  if (helm) s.setFileContext(uri(rel), { helmTemplate: true });
  const td = TextDocument.create(uri(rel), 'yaml', 1, text);
  s.update(td);
  const findings = s.findings(td);
  return {
    td,
    lines: findings.map((f) => `${f.code} ${td.getText(f.range)}`).sort(),
    messages: findings.flatMap((f) => [f.message, f.apiMessage ?? '', ...(f.related ?? []).map((r) => r.message)]),
  };
}

function symbolTexts(symbols: DocumentSymbol[]): string[] {
  return symbols.flatMap((s) => [s.name, s.detail ?? '', ...symbolTexts(s.children ?? [])]);
}

test('a value an action prints is never checked nor shown: a label from `{{ ... | quote }}`', () => {
  const s = service();
  // helm template (team name `platform`, label key `tier`) sends labels {team: "platform", tier: x, owner:
  // <the literal 71-byte value>}; kube-apiserver 1.37 (kubectl apply --dry-run=server) answers
  // `metadata.labels: Invalid value: "this-literal-label-...": must be no more than 63 bytes` and
  // `spec.mode: Unsupported value: "medium"`, nothing about what the values print (the chart does not know
  // them; their masks were 70 and more characters long).
  const text = [
    'apiVersion: example.com/v1',
    'kind: Widget',
    'metadata:',
    '  name: {{ include "chart.fullname" . }}-tls',
    '  labels:',
    '    team: {{ .Values.teamNameFromTheValuesFileWhoseMaskIsLongerThanSixtyThree | quote }}',
    '    {{ .Values.labelKeyFromValuesThatIsLongerThanSixtyThreeCharactersForSureYes }}: x',
    '    owner: this-literal-label-value-is-longer-than-sixty-three-characters-for-sure',
    'spec:',
    '  size: 3',
    '  mode: medium',
    '',
  ].join('\n');
  const r = check(s, text);
  assert.deepEqual(r.lines, ['FieldValueInvalid labels', 'FieldValueNotSupported medium']);
  assert.ok(
    r.messages.some((m) => m.includes('this-literal-label')),
    r.messages.join('\n'),
  );
  assert.ok(!r.messages.some((m) => m.includes('xxx')), r.messages.join('\n'));
  // Outline and breadcrumbs show the user's text, never the mask.
  const symbols = symbolTexts(s.documentSymbols(r.td));
  assert.ok(symbols.includes('Widget {{ include "chart.fullname" . }}-tls'), symbols.join('\n'));
  assert.ok(!symbols.some((x) => x.includes('xxx')), symbols.join('\n'));
  // No hover names a key an action prints.
  const key = text.indexOf('{{ .Values.labelKey') + 3;
  assert.equal(s.hover(r.td, r.td.positionAt(key)), null);
});

test('a list item that is only an action is unknown, not null', () => {
  const s = service();
  // helm template with ports [{name: http, port: 80}] sends spec.ports: [{name: http, port: 80}, {name: admin,
  // port: 70000}]; the API server answers `spec.ports[1].port: Invalid value: 70000: spec.ports[1].port in
  // body should be less than or equal to 65535` (the literal item), nothing about the item the range prints.
  const text = [
    'apiVersion: example.com/v1',
    'kind: Widget',
    'metadata:',
    '  name: w',
    'spec:',
    '  size: 3',
    '  mode: fast',
    '  ports:',
    '    {{- range .Values.ports }}',
    '    - {{- toYaml . | nindent 6 }}',
    '    {{- end }}',
    '    - name: admin',
    '      port: 70000',
    '',
  ].join('\n');
  assert.deepEqual(check(s, text).lines, ['FieldValueInvalid 70000']);
  assert.deepEqual(check(s, text.replace('70000', '8080')).lines, []);
});

test('if/else branches setting apiVersion: checked as the branch a known CRD serves, never an error for one branch', () => {
  const s = service();
  // helm install renders the v1 branch where the cluster serves it (.Capabilities; `helm template
  // --api-versions example.com/v1`), and the API server answers `spec.mode: Unsupported value: "medium"`.
  // Plain `helm template` knows no cluster and renders the v1beta1 branch, which kubectl maps to nothing
  // ("no matches for kind"): the branch a cluster without v1 gets, not an error of the chart.
  const text = [
    '{{- if .Capabilities.APIVersions.Has "example.com/v1" }}',
    'apiVersion: example.com/v1',
    '{{- else }}',
    'apiVersion: example.com/v1beta1',
    '{{- end }}',
    'kind: Widget',
    'metadata:',
    '  name: w',
    'spec:',
    '  size: 3',
    '  mode: medium',
    '',
  ].join('\n');
  assert.deepEqual(check(s, text).lines, ['FieldValueNotSupported medium']);
  // Branches of a known CRD's group that no known CRD serves: not checked (no NoKindMatch), and the summary
  // can say why; branches of groups no CRD is known for: an object no known CRD defines, as without branches.
  const unserved = text.replace('apiVersion: example.com/v1\n', 'apiVersion: example.com/v2\n');
  assert.deepEqual(check(s, unserved).lines, []);
  const doc = (t: string) => parseFile(t, undefined, { helmTemplate: true }).documents[0];
  const lookup = (apiVersion: string, kind: string) => (apiVersion === 'example.com/v1' && kind === 'Widget' ? 'served' : apiVersion.startsWith('example.com/') ? 'known' : 'unknown');
  assert.equal(notCheckedByTemplate(doc(unserved), lookup), 'branches');
  assert.equal(notCheckedByTemplate(doc(text), lookup), undefined);
  assert.equal(notCheckedByTemplate(doc(text.replace(/example\.com/g, 'other.io')), lookup), undefined);
});

test('a document with a column-0 action that indents what it prints, or a `fail`, is checked', () => {
  const s = service();
  // helm template (selector: {matchLabels: {a: b}}, strict: false) sends the Widget with spec.labels {a: b}
  // and spec.colour: red; the API server (kubectl apply, strict field validation) answers `Widget in version
  // "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.colour"`. With strict:
  // true helm renders nothing (fail).
  const text = [
    '{{- if .Values.strict }}',
    '{{- fail "strict is not supported" }}',
    '{{- end }}',
    'apiVersion: example.com/v1',
    'kind: Widget',
    'metadata:',
    '  name: w',
    'spec:',
    '  size: 3',
    '  mode: fast',
    '  colour: red',
    '  labels:',
    '{{ tpl (toYaml .Values.selector.matchLabels | indent 4) . }}',
    '',
  ].join('\n');
  assert.deepEqual(check(s, text).lines, ['UnknownField colour']);
  assert.equal(notCheckedByTemplate(parseFile(text, undefined, { helmTemplate: true }).documents[0]), undefined);
  // An action printing at column 0 may print apiVersion and kind: the whole document is the template's.
  const whole = ['{{ include "chart.widget" . }}', 'metadata:', '  name: w', 'spec:', '  colour: red', ''].join('\n');
  assert.deepEqual(check(s, whole).lines, []);
  assert.equal(notCheckedByTemplate(parseFile(whole, undefined, { helmTemplate: true }).documents[0]), 'whole');
});

test('outside a chart, an action laying out a block scalar is a template action, not text', () => {
  const s = service();
  // Rendered by helm (.Files.Get of a file holding `team-a`), spec.owner is "team-a" and the API server
  // answers only `spec.size: Invalid value: 30: spec.size in body should be less than or equal to 10`.
  // kubectl apply of the file as written would send the action's text (refused by the pattern), but the
  // file is a template: its `{{- ... | nindent 4 }}` lays out YAML, as only a template does.
  const text = ['apiVersion: example.com/v1', 'kind: Widget', 'metadata:', '  name: w', 'spec:', '  size: 30', '  mode: fast', '  owner: |-', '    {{- (.Files.Get "owner.txt") | trim | nindent 4 }}', ''].join('\n');
  const r = check(s, text, 'deploy/widget.yaml', false);
  assert.deepEqual(r.lines, ['FieldValueInvalid 30']);
  assert.ok(!r.messages.some((m) => m.includes('{{')), r.messages.join('\n'));
});
