/**
 * CEL cost findings as people read them: one finding per over-budget rule at its rule, the CRD's total once
 * with the rules that contributed to it as related locations (not rows of their own).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { LanguageService } from '../../server/src/service/languageService';
import { applyEdits, docOf, WIDGET_CRD } from './helpers';
import { needsShared, sharedPath } from '../shared';

const NO_SHARED = needsShared('realworld', 'crds', 'gateway-api');
const GATEWAYS = sharedPath('realworld', 'crds', 'gateway-api', 'standard', 'gateway.networking.k8s.io_gateways.yaml');

test('cost: one finding per over-budget rule, the total once with its contributors as related information', () => {
  const rules = [
    '                - rule: "self.tags.all(x, self.tags.all(y, x == y))"',
    '                - rule: "self.tags.all(x, self.tags.all(y, x.size() == y.size()))"',
    '                - rule: "self.tags.all(x, self.tags.all(y, x != y || x == y))"',
  ].join('\n');
  const crd = WIDGET_CRD.replace('                - rule: "self.replicas <= 5"\n                  message: too many replicas\n', rules + '\n');
  const s = new LanguageService();
  const { td } = docOf(crd);
  s.update(td);
  const found = s.findings(td);
  const cost = found.filter((f) => f.params?.origin === 'celCost');
  const perRule = cost.filter((f) => f.params?.cost?.scope === 'rule');
  const total = cost.filter((f) => f.params?.cost?.scope === 'total');
  assert.equal(perRule.length, 3, found.map((f) => f.message).join('\n'));
  assert.equal(total.length, 1);
  assert.equal(cost.length, 4, 'no row of its own for a contribution');
  for (const f of perRule) {
    assert.equal(td.getText(f.range), 'rule');
    assert.match(f.message, /^rule too expensive \(estimated cost [^,]+, limit 10 million per rule when the CRD is created\)/);
    assert.match(String(f.apiMessage), /estimated rule cost exceeds budget by factor of/);
  }
  const t = total[0];
  assert.match(t.message, /^the CRD's rules together are too expensive \(estimated cost .+, limit 100 million for all rules together when the CRD is created\)/);
  const contributed = (t.related ?? []).filter((r) => r.message.startsWith('this rule contributed'));
  assert.equal(contributed.length, 3);
  assert.deepEqual(contributed.map((r) => r.location.range.start.line).sort(), perRule.map((f) => f.range.start.line).sort());
});

test('cost fix: on the Gateway CRD without maxItems on spec.listeners, one bound for every rule iterating the list; applied once, no cost error is left', { skip: NO_SHARED }, () => {
  // The first version's `maxItems: 64` under listeners goes: five rules iterate the list (two of them
  // O(n^2)) and a rule on its items runs once per listener.
  const original = readFileSync(GATEWAYS, 'utf8');
  const at = original.indexOf('                maxItems: 64\n                minItems: 1\n                type: array\n                x-kubernetes-list-map-keys:\n                - name\n');
  assert.ok(at > 0, 'the listeners list of the first version');
  const crd = original.slice(0, at) + original.slice(at + '                maxItems: 64\n'.length);
  const s = new LanguageService();
  const { td } = docOf(crd);
  s.update(td);
  const cost = s.findings(td).filter((f) => f.params?.origin === 'celCost');
  assert.ok(cost.filter((f) => f.params?.cost?.scope === 'rule').length >= 3, cost.map((f) => f.message).join('\n'));
  // Every cost finding offers the same bound on the same list: whichever one the user applies fixes all.
  const titles = new Set(cost.flatMap((f) => s.fixesOf(td, f).map((x) => x.title)));
  assert.equal(titles.size, 1, [...titles].join('\n'));
  const [title] = titles;
  const n = Number(/^Add maxItems: (\d+) on spec\.listeners$/.exec(title)?.[1]);
  assert.ok(n > 0, title);
  const fx = s.fixesOf(td, cost[0])[0];
  const after = docOf(applyEdits(td, fx.edits)).td;
  s.update(after);
  assert.deepEqual(
    s
      .findings(after)
      .filter((f) => f.params?.origin === 'celCost')
      .map((f) => f.message),
    [],
    `"${title}" leaves no cost error`,
  );
  // The largest such bound: one more puts a rule over again.
  const over = docOf(after.getText().replace(`maxItems: ${n}\n`, `maxItems: ${n + 1}\n`)).td;
  s.update(over);
  assert.ok(
    s.findings(over).some((f) => f.params?.origin === 'celCost'),
    `maxItems: ${n + 1} is over`,
  );

  // The message and the hover on the same rule name the same limit, and say which one it is.
  const rule = cost.find((f) => f.params?.cost?.scope === 'rule' && f.params.cost.estimated > 1e9)!;
  assert.match(rule.message, /limit 10 million per rule when the CRD is created/);
  const hover = s.hover(td, { line: rule.range.start.line, character: rule.range.start.character + 1 });
  const text = (hover?.contents as { value: string } | undefined)?.value ?? '';
  assert.match(text, /over the limit of 10 million per rule when the CRD is created, and over the runtime limit of 1 million per evaluation/);
  // A rule on the items: cheap per evaluation, over at CRD create because it runs once per listener.
  const items = cost.find((f) => f.params?.cost?.scope === 'rule' && /listeners\]\.items/.test(f.field ?? ''))!;
  assert.ok(items, "a rule on the listeners' items is over");
  const itemHover = (s.hover(td, { line: items.range.start.line, character: items.range.start.character + 1 })?.contents as { value: string } | undefined)?.value ?? '';
  assert.match(itemHover, /per evaluation \(runtime limit 1 million\)/);
  assert.match(itemHover, /runs once per item of `spec\.listeners`, which is unbounded: .*the limit of 10 million per rule when the CRD is created/);
});
