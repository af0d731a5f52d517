/**
 * Quick fixes for findings with a mechanical fix: add a missing `type` (inferred from the node), turn
 * `uniqueItems: true` into `x-kubernetes-list-type: set`, remove a field that will be pruned, add a
 * missing required field (with its default), replace a value not in the enum with the closest allowed.
 * Edits are minimal text edits so comments and formatting around them stay as they are.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CodeActionKind, type CodeAction, type Diagnostic, type Range, type TextEdit } from 'vscode-languageserver-types';
import { inferType } from '../engine/schema/infer';
import { isObject, type JSONSchemaProps } from '../engine/schema/types';
import type { ServiceContext } from './context';
import { yamlScalar } from './completion';
import { SOURCE, type FixData } from './diagnostics';
import { resolveCr, roleOf, schemaAtPath } from './kube';
import { docAt, findWrittenPath, isMap, isScalar, keyRange, nodeRange, parseFieldPath, type Node, type Pair, type YamlDoc, type YamlFile } from './yamlDocument';

/** The quick fixes for the given diagnostics (those of ours that carry fix data). */
export function codeActions(ctx: ServiceContext, td: TextDocument, file: YamlFile, range: Range, diagnostics: Diagnostic[]): CodeAction[] {
  const out: CodeAction[] = [];
  for (const d of diagnostics) {
    if (d.source !== SOURCE || !isObject(d.data) || typeof d.data.fix !== 'string') continue;
    const doc = docAt(file, td.offsetAt(d.range.start));
    if (!doc) continue;
    try {
      const a = fixAction(ctx, td, file, doc, d, d.data as FixData);
      if (a) out.push(a);
    } catch {
      // A fix that cannot be computed on this text is simply not offered.
    }
  }
  void range;
  return out;
}

function fixAction(ctx: ServiceContext, td: TextDocument, file: YamlFile, doc: YamlDoc, d: Diagnostic, fix: FixData): CodeAction | undefined {
  const segs = parseFieldPath(fix.path);
  const text = file.text;
  const action = (title: string, edits: TextEdit[], preferred = true): CodeAction => ({
    title,
    kind: CodeActionKind.QuickFix,
    diagnostics: [d],
    isPreferred: preferred,
    edit: { changes: { [td.uri]: edits } },
  });
  const edit = (start: number, end: number, newText: string): TextEdit => ({ range: { start: td.positionAt(start), end: td.positionAt(end) }, newText });
  switch (fix.fix) {
    case 'addType': {
      const m = findWrittenPath(doc, segs);
      if (!isMap(m.node) || m.node.flow || m.node.items.length === 0) return undefined;
      const t = inferType(m.node.toJSON() as JSONSchemaProps);
      const first = keyRange(doc, m.node.items[0] as Pair<unknown, unknown>);
      if (!first) return undefined;
      const indent = first[0] - lineStart(text, first[0]);
      const onOwnLine = text.slice(lineStart(text, first[0]), first[0]).trim() === '';
      // Insert before the first key, keeping the mapping's indentation (after a `- ` marker too).
      const insert = `type: ${t.type}\n${onOwnLine ? ' '.repeat(indent) : ' '.repeat(indent)}`;
      return action(`Add "type: ${t.type}"${t.inferred ? '' : ' (not inferred)'}`, [edit(first[0], first[0], insert)], t.inferred);
    }
    case 'uniqueItemsToSet': {
      const m = findWrittenPath(doc, segs);
      if (!m.pair) return undefined;
      const parent = findWrittenPath(doc, segs.slice(0, -1)).node;
      const hasListType = isMap(parent) && parent.items.some((p) => isScalar(p.key) && p.key.value === 'x-kubernetes-list-type');
      if (hasListType) return removePairAction(td, text, doc, m.pair, 'Remove "uniqueItems: true"', d);
      const k = keyRange(doc, m.pair)!;
      const v = nodeRange(doc, m.pair.value as Node) ?? k;
      return action('Replace "uniqueItems: true" with "x-kubernetes-list-type: set"', [edit(k[0], v[1], 'x-kubernetes-list-type: set')]);
    }
    case 'removeField': {
      const m = findWrittenPath(doc, segs);
      if (!m.pair) return undefined;
      return removePairAction(td, text, doc, m.pair, `Remove "${fix.path}" (it will be pruned)`, d);
    }
    case 'addRequired': {
      const name = segs[segs.length - 1];
      if (!name || name.kind === 'index') return undefined;
      const key = name.kind === 'field' ? name.name : name.key;
      const parent = findWrittenPath(doc, segs.slice(0, -1));
      if (!isMap(parent.node) || parent.node.flow || parent.node.items.length === 0) return undefined;
      const value = requiredValue(ctx, doc, segs);
      const last = parent.node.items[parent.node.items.length - 1] as Pair<unknown, unknown>;
      const firstKey = keyRange(doc, parent.node.items[0] as Pair<unknown, unknown>)!;
      const indent = firstKey[0] - lineStart(text, firstKey[0]);
      const lastEnd: number = (last.value ? nodeRange(doc, last.value as Node)?.[1] : undefined) ?? keyRange(doc, last)![1];
      const eol = lineEnd(text, lastEnd > 0 && text[lastEnd - 1] === '\n' ? lastEnd - 1 : lastEnd);
      return action(`Add required field "${key}"`, [edit(eol, eol, `\n${' '.repeat(indent)}${key}: ${value}`)]);
    }
    case 'moveOutOfJunctor': {
      const m = findWrittenPath(doc, segs);
      if (!m.pair) return undefined;
      const keyName = segs[segs.length - 1];
      const key = keyName.kind === 'field' ? keyName.name : keyName.kind === 'key' ? keyName.key : String(keyName.index);
      // The schema outside the junctors: strip `.allOf[i]`, `.not`, ... from the end of the parent path.
      let outerLen = segs.length - 1;
      for (;;) {
        const last = segs[outerLen - 1];
        const prev = segs[outerLen - 2];
        if (last?.kind === 'field' && last.name === 'not') outerLen -= 1;
        else if (last?.kind === 'index' && prev?.kind === 'field' && /^(allOf|anyOf|oneOf)$/.test(prev.name)) outerLen -= 2;
        else break;
      }
      const outer = findWrittenPath(doc, segs.slice(0, outerLen)).node;
      const inner = findWrittenPath(doc, segs.slice(0, -1)).node;
      if (!isMap(inner)) return undefined;
      const remove = inner.items.length === 1 ? replaceWithEmpty(td, doc, m.pair) : removePairAction(td, text, doc, m.pair, '', d)?.edit?.changes?.[td.uri]?.[0];
      if (!remove) return undefined;
      // Deeper inside a junctor (e.g. a property declared there): the keyword can only go.
      if (outerLen === segs.length - 1) return action(`Remove "${key}" (not allowed inside allOf/anyOf/oneOf/not)`, [remove], false);
      if (!isMap(outer) || outer.flow) return undefined;
      const hasOutside = outer.items.some((p) => isScalar(p.key) && String(p.key.value) === key);
      const v = m.pair.value ? nodeRange(doc, m.pair.value as Node) : undefined;
      const valueText = v ? text.slice(v[0], v[1]) : '';
      if (hasOutside || valueText.includes('\n') || key === 'x-kubernetes-validations') {
        return action(`Remove "${key}" from the ${junctorName(segs, outerLen)} (not allowed there)`, [remove], hasOutside);
      }
      const first = keyRange(doc, outer.items[0] as Pair<unknown, unknown>)!;
      const indent = first[0] - lineStart(text, first[0]);
      return action(`Move "${key}" out of the ${junctorName(segs, outerLen)}`, [edit(first[0], first[0], `${key}: ${valueText}\n${' '.repeat(indent)}`), remove]);
    }
    case 'declareOutside': {
      // `X.properties[k]` is only defined inside a junctor: declare it under X.properties with its type.
      const keySeg = segs[segs.length - 1];
      if (keySeg.kind !== 'key') return undefined;
      const name = keySeg.key;
      const inner = findWrittenPath(doc, parseFieldPath(fix.definedIn)).node;
      const innerValue = isMap(inner) ? (inner.toJSON() as JSONSchemaProps) : {};
      const type = typeof innerValue.type === 'string' ? innerValue.type : inferType(innerValue).type;
      const owner = findWrittenPath(doc, segs.slice(0, -2)).node;
      if (!isMap(owner) || owner.flow || owner.items.length === 0) return undefined;
      const props = owner.items.find((p) => isScalar(p.key) && p.key.value === 'properties');
      const keyName = yamlKeyText(name);
      if (props && isMap(props.value) && !props.value.flow && props.value.items.length) {
        const items = props.value.items;
        const first = keyRange(doc, items[0] as Pair<unknown, unknown>)!;
        const indent = first[0] - lineStart(text, first[0]);
        const last = items[items.length - 1] as Pair<unknown, unknown>;
        const lastEnd: number = (last.value ? nodeRange(doc, last.value as Node)?.[1] : undefined) ?? keyRange(doc, last)![1];
        const eol = lineEnd(text, text[lastEnd - 1] === '\n' ? lastEnd - 1 : lastEnd);
        return action(`Declare "${name}" outside the junctor (type: ${type})`, [edit(eol, eol, `\n${' '.repeat(indent)}${keyName}:\n${' '.repeat(indent + 2)}type: ${type}`)]);
      }
      if (props) return undefined;
      const first = keyRange(doc, owner.items[0] as Pair<unknown, unknown>)!;
      const indent = first[0] - lineStart(text, first[0]);
      const pad = ' '.repeat(indent);
      return action(`Declare "${name}" outside the junctor (type: ${type})`, [edit(first[0], first[0], `properties:\n${pad}  ${keyName}:\n${pad}    type: ${type}\n${pad}`)]);
    }
    case 'removeKeyword': {
      const m = findWrittenPath(doc, segs);
      if (!m.pair) return undefined;
      const k = segs[segs.length - 1];
      return removePairAction(td, text, doc, m.pair, `Remove "${k.kind === 'field' ? k.name : fix.path}" (${fix.why})`, d);
    }
    case 'setType': {
      const m = findWrittenPath(doc, segs);
      if (m.node && isScalar(m.node)) {
        const r = nodeRange(doc, m.node)!;
        return action(`Set "type: ${fix.type}"`, [edit(r[0], r[1], fix.type)]);
      }
      const owner = findWrittenPath(doc, segs.slice(0, -1)).node;
      if (!isMap(owner) || owner.flow || owner.items.length === 0) return undefined;
      const first = keyRange(doc, owner.items[0] as Pair<unknown, unknown>)!;
      const indent = first[0] - lineStart(text, first[0]);
      return action(`Add "type: ${fix.type}"`, [edit(first[0], first[0], `type: ${fix.type}\n${' '.repeat(indent)}`)]);
    }
    case 'removeMetadataSchema': {
      const m = findWrittenPath(doc, segs);
      if (!m.pair) return undefined;
      return removePairAction(td, text, doc, m.pair, 'Remove the metadata schema (the API server defines metadata)', d);
    }
    case 'closestEnum': {
      const m = findWrittenPath(doc, segs);
      if (!m.node || !isScalar(m.node)) return undefined;
      const r = nodeRange(doc, m.node)!;
      const closest = closestValue(m.node.value, fix.values);
      if (closest === undefined) return undefined;
      return action(`Replace with ${yamlScalar(closest)}`, [edit(r[0], r[1], yamlScalar(closest))]);
    }
  }
  return undefined;
}

function removePairAction(td: TextDocument, text: string, doc: YamlDoc, pair: Pair<unknown, unknown>, title: string, d: Diagnostic): CodeAction | undefined {
  const k = keyRange(doc, pair);
  if (!k) return undefined;
  const valueNode = pair.value as Node | null;
  const v = valueNode ? nodeRange(doc, valueNode) : undefined;
  let end = v ? Math.max(v[1], k[1]) : k[1];
  const ls = lineStart(text, k[0]);
  const onOwnLine = text.slice(ls, k[0]).trim() === '';
  let start = k[0];
  if (onOwnLine) {
    // Remove whole lines: from the key's line start through the end of the value's last line.
    start = ls;
    if (end > 0 && text[end - 1] === '\n') end = end;
    else end = lineEnd(text, end) + 1;
    end = Math.min(end, text.length);
  } else {
    // After a `- ` marker or in a flow mapping: remove up to the next key (or the separator).
    const after = text.slice(end);
    const m = /^[ \t]*(?:#.*)?\n[ \t]*/.exec(after) ?? /^\s*,\s*/.exec(after);
    if (m) end += m[0].length;
  }
  return {
    title,
    kind: CodeActionKind.QuickFix,
    diagnostics: [d],
    isPreferred: true,
    edit: { changes: { [td.uri]: [{ range: { start: td.positionAt(start), end: td.positionAt(end) }, newText: '' }] } },
  };
}

function yamlKeyText(k: string): string {
  return /^[A-Za-z_][\w.-]*$/.test(k) ? k : JSON.stringify(k);
}

function junctorName(segs: ReturnType<typeof parseFieldPath>, outerLen: number): string {
  const s = segs[outerLen];
  return s && s.kind === 'field' ? s.name : 'junctor';
}

/** Replaces the only pair of a block mapping by `{}` (an empty schema), keeping the list item valid. */
function replaceWithEmpty(td: TextDocument, doc: YamlDoc, pair: Pair<unknown, unknown>): TextEdit | undefined {
  const k = keyRange(doc, pair);
  if (!k) return undefined;
  const v = pair.value ? nodeRange(doc, pair.value as Node) : undefined;
  let end = v ? Math.max(v[1], k[1]) : k[1];
  const text = td.getText();
  if (text[end - 1] === '\n') end--;
  return { range: { start: td.positionAt(k[0]), end: td.positionAt(end) }, newText: '{}' };
}

function requiredValue(ctx: ServiceContext, doc: YamlDoc, segs: ReturnType<typeof parseFieldPath>): string {
  const role = roleOf(doc.value);
  if (role.role !== 'cr') return '""';
  const schema = resolveCr(ctx.index, role)?.version?.schema;
  const at = schema ? schemaAtPath(schema, segs) : undefined;
  const s = at?.schema;
  if (!s) return '""';
  if (s.default !== undefined) return typeof s.default === 'object' && s.default !== null ? JSON.stringify(s.default) : yamlScalar(s.default);
  if (Array.isArray(s.enum) && s.enum.length) return yamlScalar(s.enum[0]);
  switch (s.type) {
    case 'integer':
    case 'number':
      return String(s.minimum ?? 0);
    case 'boolean':
      return 'false';
    case 'object':
      return '{}';
    case 'array':
      return '[]';
  }
  return '""';
}

/** The allowed value closest to a bad one (case-insensitive edit distance). */
export function closestValue(bad: unknown, values: unknown[]): unknown {
  const b = String(bad).toLowerCase();
  let best: unknown;
  let bestD = Infinity;
  for (const v of values) {
    const d = editDistance(b, String(v).toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = v;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  const prev = new Array(b.length + 1).fill(0).map((_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function lineEnd(text: string, offset: number): number {
  const i = text.indexOf('\n', offset);
  return i < 0 ? text.length : i;
}
