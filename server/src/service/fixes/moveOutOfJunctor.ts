/**
 * A keyword not allowed inside `allOf`/`anyOf`/`oneOf`/`not` (description, default, type, ...) moves to the
 * structural node the junctor applies to: the same path with every junctor step left out, i.e. the nearest
 * node outside all of them (never into an enclosing junctor). Removed when it is already there or cannot move.
 */
import type { PathSegment } from '../../engine';
import { findWrittenPath, isMap, nodeRange, type Node } from '../../yaml/file';
import { fix, placed } from './edits';
import { hasKey, prependToMapping, removePair, replaceWithEmpty } from '../../yaml/sourceEdits';
import type { FixProvider } from './types';

const JUNCTOR_LISTS = new Set(['allOf', 'anyOf', 'oneOf']);

/** The path without its junctor steps (`x.anyOf[0].properties[a].not` -> `x.properties[a]`). */
export function outsideJunctors(segs: readonly PathSegment[]): PathSegment[] {
  const out: PathSegment[] = [];
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i];
    if (s.kind === 'field' && JUNCTOR_LISTS.has(s.name) && segs[i + 1]?.kind === 'index') {
      i++;
      continue;
    }
    if (s.kind === 'field' && s.name === 'not') continue;
    out.push(s);
  }
  return out;
}

/** The innermost junctor of a path (for titles). */
function junctorOf(segs: readonly PathSegment[]): string {
  for (let i = segs.length - 1; i >= 0; i--) {
    const s = segs[i];
    if (s.kind === 'field' && (JUNCTOR_LISTS.has(s.name) || s.name === 'not')) return s.name;
  }
  return 'junctor';
}

export const moveOutOfJunctor: FixProvider = {
  id: 'moveOutOfJunctor',
  matches: (f) => f.document === 'crd' && f.params?.inJunctor === true && f.params.keyword !== 'metadata',
  fixes(ctx, f) {
    const segs = f.segments ?? [];
    const m = findWrittenPath(ctx.doc, segs);
    if (!m.pair) return [];
    const key = f.params!.keyword!;
    const innerSegs = segs.slice(0, -1);
    const inner = findWrittenPath(ctx.doc, innerSegs).node;
    if (!isMap(inner)) return [];
    const remove = inner.items.length === 1 ? placed(ctx.td, replaceWithEmpty(ctx.td.getText(), ctx.doc, m.pair)) : placed(ctx.td, removePair(ctx.td.getText(), ctx.doc, m.pair));
    if (!remove) return [];
    const junctor = junctorOf(innerSegs);
    const targetSegs = outsideJunctors(innerSegs);
    const target = findWrittenPath(ctx.doc, targetSegs);
    const targetNode = target.matched === targetSegs.length ? target.node : null;
    const already = hasKey(targetNode, key);
    const v = m.pair.value ? nodeRange(ctx.doc, m.pair.value as Node) : undefined;
    const valueText = v ? ctx.td.getText().slice(v[0], v[1]) : '';
    const canMove = !!targetNode && isMap(targetNode) && !targetNode.flow && !already && !valueText.includes('\n') && key !== 'x-kubernetes-validations';
    if (!canMove) return [fix(`Remove "${key}" from the ${junctor} (not allowed there)`, f, [remove], already)];
    const insert = placed(ctx.td, prependToMapping(ctx.td.getText(), ctx.doc, targetNode, [`${key}: ${valueText}`]));
    if (!insert) return [fix(`Remove "${key}" from the ${junctor} (not allowed there)`, f, [remove], false)];
    return [fix(`Move "${key}" out of the ${junctor}`, f, [insert, remove])];
  },
};
