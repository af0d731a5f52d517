/** A value not among the supported ones is replaced with the closest supported value (and the others offered). */
import { yamlScalar } from '../newObject';
import { closestValue } from '../../engine';
import { findWrittenPath, isScalar, nodeRange } from '../../yaml/file';
import { edit, fix } from './edits';
import type { FixProvider } from './types';

/** How many supported values are offered besides the closest. */
const MORE = 4;

export const closestEnum: FixProvider = {
  id: 'closestEnum',
  matches: (f) => f.code === 'FieldValueNotSupported' && (f.params?.supportedValues?.length ?? 0) > 0,
  fixes(ctx, f) {
    const m = findWrittenPath(ctx.doc, f.segments ?? []);
    if (!m.node || !isScalar(m.node)) return [];
    const r = nodeRange(ctx.doc, m.node)!;
    const values = f.params!.supportedValues!;
    const closest = closestValue(m.node.value, values);
    if (closest === undefined) return [];
    const others = values.filter((v) => v !== closest).slice(0, MORE);
    return [closest, ...others].map((v, i) => fix(`Replace with ${yamlScalar(v)}`, f, [edit(ctx.td, r[0], r[1], yamlScalar(v))], i === 0));
  },
};
