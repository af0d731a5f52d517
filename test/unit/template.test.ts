/**
 * Whether a file outside a chart is a Go template (yaml/template.ts hasGoTemplateActions): actions in the
 * prose of block scalars do not make one (cluster-api CRDs quote `{{ .cluster.name }}` in descriptions),
 * actions anywhere else do.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isScalar, parseAllDocuments, visit } from 'yaml';
import { blockScalarContents, hasGoTemplateActions } from '../../server/src/yaml/template';
import { needsShared, sharedPath } from '../shared';

const NO_SHARED = needsShared('realworld', 'crds', 'cluster-api');
const CLUSTER_API = sharedPath('realworld', 'crds', 'cluster-api');

test('actions only inside block scalar content: not a template', () => {
  const crd = ['spec:', '  description: |-', '    Defaults to `{{ .cluster.name }}-{{ .random }}`.', '', '    More.', '  items:', '  - >', '      also {{ .x }}', 'kind: A', ''].join('\n');
  assert.equal(hasGoTemplateActions(crd), false);
  assert.equal(hasGoTemplateActions('a:\n  - name: |\n      {{ .Values.x }}\n'), false);
});

test('actions outside block scalar content: a template', () => {
  for (const text of [
    'name: {{ .Values.name }}\n',
    'name: "{{ .Values.name }}"\n',
    'data:\n  x: |\n    text\n{{ include "x" . | indent 4 }}\n',
    // less indented than the first content line: ends the scalar
    'data:\n  x: |\n      text\n    {{ .Values.y }}\n',
    // an indentation indicator is not read: the action still counts
    'data:\n  x: |2\n    {{ .Values.y }}\n',
    'a: |\n  text\n{{- if .Values.b }}\nb: 1\n{{- end }}\n',
  ]) {
    assert.equal(hasGoTemplateActions(text), true, text);
  }
});

test('block scalar contents lie inside the block scalars the YAML parser reads (real CRDs)', { skip: NO_SHARED }, () => {
  const files = readdirSync(CLUSTER_API).filter((f) => f.endsWith('.yaml'));
  let templated = 0;
  let ranges = 0;
  for (const f of files) {
    const text = readFileSync(join(CLUSTER_API, f), 'utf8');
    if (!text.includes('{{')) continue;
    templated++;
    assert.equal(hasGoTemplateActions(text), false, f);
    const blocks: [number, number][] = [];
    for (const doc of parseAllDocuments(text)) {
      if (!('contents' in doc)) continue;
      visit(doc, {
        Scalar(_, node) {
          if (isScalar(node) && (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED') && node.range) blocks.push([node.range[0], node.range[1]]);
        },
      });
    }
    blocks.sort((a, b) => a[0] - b[0]);
    for (const r of blockScalarContents(text)) {
      ranges++;
      // The innermost block scalar starting before the range (its header) holds it whole.
      let lo = 0;
      let hi = blocks.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (blocks[mid][0] <= r.start) lo = mid;
        else hi = mid - 1;
      }
      const b = blocks[lo];
      assert.ok(b && b[0] <= r.start && r.end <= b[1], `${f}: ${JSON.stringify(text.slice(r.start, r.start + 80))}`);
    }
  }
  assert.ok(templated >= 5, 'the cluster-api CRDs that quote {{ }} are there');
  assert.ok(ranges > 1000);
});
