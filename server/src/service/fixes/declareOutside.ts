/** Completeness: a property only specified under a junctor is declared in the structural part, with its type. */
import type { JSONSchemaProps } from '../../engine';
import { findWrittenPath, isMap, isScalar, parseFieldPath } from '../../yaml/file';
import { fix, placed } from './edits';
import { appendToMapping, prependToMapping, yamlKeyText } from '../../yaml/sourceEdits';
import { inferType } from '../../engine';
import type { FixProvider } from './types';
import { isJSONObject } from '../../engine';

export const declareOutside: FixProvider = {
  id: 'declareOutside',
  matches: (f) => f.document === 'crd' && f.params?.origin === 'completeness' && typeof f.params.definedIn === 'string' && f.segments?.[f.segments.length - 1]?.kind === 'key',
  fixes(ctx, f) {
    const segs = f.segments!;
    const keySeg = segs[segs.length - 1];
    if (keySeg.kind !== 'key') return [];
    const name = keySeg.key;
    const inner = findWrittenPath(ctx.doc, parseFieldPath(f.params!.definedIn!)).node;
    const innerValue = isMap(inner) ? (inner.toJSON() as JSONSchemaProps) : {};
    const type = isJSONObject(innerValue) && typeof innerValue.type === 'string' ? innerValue.type : inferType(innerValue).type;
    const owner = findWrittenPath(ctx.doc, segs.slice(0, -2)).node;
    if (!isMap(owner) || owner.flow || owner.items.length === 0) return [];
    const props = owner.items.find((p) => isScalar(p.key) && p.key.value === 'properties');
    const title = `Declare "${name}" outside the junctor (type: ${type})`;
    const keyName = yamlKeyText(name);
    if (props) {
      if (!isMap(props.value) || props.value.flow || props.value.items.length === 0) return [];
      const e = placed(ctx.td, appendToMapping(ctx.td.getText(), ctx.doc, props.value, [`${keyName}:`, `  type: ${type}`]));
      return e ? [fix(title, f, [e])] : [];
    }
    const e = placed(ctx.td, prependToMapping(ctx.td.getText(), ctx.doc, owner, ['properties:', `  ${keyName}:`, `    type: ${type}`]));
    return e ? [fix(title, f, [e])] : [];
  },
};
