/**
 * An over-budget CEL rule (or CRD total) gets the bound that brings it under budget: "Add maxItems: N"
 * (maxProperties, maxLength) on the unbounded list, map or string that dominates its estimated cost. N
 * is the engine's (engine/crd/costadvice.ts: the largest bound with which the rule and the whole CRD
 * are under their limits, computed with the estimator), carried in the finding's params.
 */
import { parseFieldPath } from '../../yaml';
import { valuePathOfSchemaPath } from '../messages';
import { findPath, isMap, isScalar, nodeRange, type Node } from '../../yaml/file';
import { edit, fix, type TextEdit, placed } from './edits';
import { appendToMapping } from '../../yaml/sourceEdits';
import type { FixProvider } from './types';

export const celCostBound: FixProvider = {
  id: 'celCostBound',
  matches: (f) => f.document === 'crd' && f.params?.origin === 'celCost' && !!f.params.cost?.maxBound && !!f.params.cost.dominant,
  fixes(ctx, f) {
    const { dominant, maxBound } = f.params!.cost!;
    const segs = f.segments ?? [];
    // The dominant path is relative to the openAPIV3Schema of the finding's version.
    const root = segs.findIndex((s) => s.kind === 'field' && s.name === 'openAPIV3Schema');
    if (root < 0 || !dominant || !maxBound) return [];
    const target = [...segs.slice(0, root + 1), ...parseFieldPath(dominant.path)];
    const m = findPath(ctx.doc, target);
    if (m.matched !== target.length || !isMap(m.node)) return [];
    const { keyword, value } = maxBound;
    let e: TextEdit | undefined;
    // The engine names only unbounded values: the keyword is not there yet.
    if (m.node.items.some((p) => isScalar(p.key) && p.key.value === keyword)) return [];
    if (m.node.flow) {
      // `{ type: string }`: after the last entry (or the opening brace).
      const last = m.node.items[m.node.items.length - 1];
      const after = last ? nodeRange(ctx.doc, (last.value ?? last.key) as Node)?.[1] : (nodeRange(ctx.doc, m.node)?.[0] ?? -1) + 1;
      if (after !== undefined && after > 0) e = edit(ctx.td, after, after, `${last ? ', ' : ' '}${keyword}: ${value}`);
    } else {
      e = placed(ctx.td, appendToMapping(ctx.td.getText(), ctx.doc, m.node, [`${keyword}: ${value}`]));
    }
    if (!e) return [];
    return [fix(`Add ${keyword}: ${value} on ${valuePathOfSchemaPath(dominant.path)}`, f, [e])];
  },
};
