// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the texts hold `${VAR}` references, not template literals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lexKustomizeVars, lexSubstitutions, maskSubstitutions } from './substitution';
import { maskTemplate } from './template';

const refs = (text: string) => lexSubstitutions(text).map((r) => text.slice(r.start, r.end));

test('substitution references as drone/envsubst reads them', () => {
  assert.deepEqual(refs('name: ${CLUSTER_NAME}-md-0'), ['${CLUSTER_NAME}']);
  assert.deepEqual(refs('a: ${A:=default} b: ${B:-x} c: ${C-x} d: ${#D} e: ${E/a/b} f: ${F:1:2}'), ['${A:=default}', '${B:-x}', '${C-x}', '${#D}', '${E/a/b}', '${F:1:2}']);
  // A nested reference belongs to the outer one.
  assert.deepEqual(refs("namespace: '${CLUSTER_CLASS_NAMESPACE:-${NAMESPACE}}'"), ['${CLUSTER_CLASS_NAMESPACE:-${NAMESPACE}}']);
  assert.deepEqual(refs('value: ${PRELOAD:-[]}'), ['${PRELOAD:-[]}']);
  // Not references: no name, GitHub Actions expressions, `$VAR` without braces, unclosed on its line.
  assert.deepEqual(refs('a: ${ A}\nb: ${{ secrets.TOKEN }}\nc: $HOME\nd: ${1}\ne: ${A:-x\n}'), []);
  // `$${A}` (an escaped reference) is still decided by the tool.
  assert.deepEqual(refs('a: $${A}'), ['${A}']);
});

test('references are masked as a Go action inside a line: same length, a span each', () => {
  const text = 'metadata:\n  name: ${CLUSTER_NAME}-md-0\nspec:\n  ports: [${PORT}]\n';
  const m = maskSubstitutions(text)!;
  assert.equal(m.text, 'metadata:\n  name: xxxxxxxxxxxxxxx-md-0\nspec:\n  ports: [xxxxxxx]\n');
  assert.deepEqual(
    m.spans.map((s) => text.slice(s.start, s.end)),
    ['${CLUSTER_NAME}', '${PORT}'],
  );
  assert.deepEqual(m.substitutions, m.spans);
  assert.equal(maskSubstitutions('a: $HOME'), undefined);
  // With Go actions: a `${` inside an action is the action's; both kinds of spans, in order.
  const helm = 'a: {{ printf "${%s}" .x }}\nb: ${B}\n';
  const both = maskSubstitutions(helm, maskTemplate(helm))!;
  assert.deepEqual(
    both.spans.map((s) => helm.slice(s.start, s.end)),
    ['{{ printf "${%s}" .x }}', '${B}'],
  );
  assert.deepEqual(
    both.substitutions!.map((s) => helm.slice(s.start, s.end)),
    ['${B}'],
  );
  assert.equal(both.actions.length, 1);
});

test('kustomize vars: $(NAME) references, masked only when asked (a file of a kustomize tree)', () => {
  const kvars = (text: string) => lexKustomizeVars(text).map((r) => text.slice(r.start, r.end));
  assert.deepEqual(kvars('name: $(kfp-app-name)\nowner: a-$(team.name)-b\n'), ['$(kfp-app-name)', '$(team.name)']);
  // `$$(X)` is an escaped `$`; no name, spaces or another line: not references.
  assert.deepEqual(kvars('a: $$(X)\nb: $$$(Y)\nc: $()\nd: $(A B)\ne: $(A\n)'), ['$(Y)']);
  const text = 'metadata:\n  name: $(NAME)\n  namespace: ${NS:-$(NS)}\n';
  assert.equal(maskSubstitutions('a: $(NAME)\n'), undefined);
  const m = maskSubstitutions(text, undefined, { kustomizeVars: true })!;
  assert.equal(m.text, 'metadata:\n  name: xxxxxxx\n  namespace: xxxxxxxxxxxx\n');
  assert.deepEqual(
    m.substitutions!.map((s) => text.slice(s.start, s.end)),
    ['$(NAME)', '${NS:-$(NS)}'],
  );
});
