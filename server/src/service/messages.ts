/**
 * Short messages for people: the first words say what is wrong, in the file's own terms. The range of a
 * finding already says where, so no absolute path leads; the API server's exact text stays on the finding
 * (`apiMessage`). Built from the error's type, value and structured parameters, never by rewriting the
 * API server's text.
 */
import { errorTypeString, formatBadValue, OMIT_VALUE, type FieldError, type PathSegment } from '../engine';
import { parseFieldPath } from '../yaml';
import { GoStruct } from '../engine';

/** The name of the last field of a path, as written (`type`, `size`, `x-kubernetes-validations[0]`). */
export function leafName(segs: readonly PathSegment[]): string {
  let out = '';
  for (let i = segs.length - 1; i >= 0; i--) {
    const s = segs[i];
    if (s.kind === 'index') {
      out = `[${s.index}]${out}`;
      continue;
    }
    return (s.kind === 'field' ? s.name : s.key) + out;
  }
  return out;
}

/** Bad values longer than this are cut in short messages (the API server message keeps them whole). */
const MAX_VALUE_CHARS = 80;

function shortValue(v: unknown): string {
  const s = formatBadValue(v);
  return s.length > MAX_VALUE_CHARS ? s.slice(0, MAX_VALUE_CHARS - 1) + '…' : s;
}

export interface MessageContext {
  /** The field exists in the file and the range is on it (else the range is on an ancestor). */
  exact: boolean;
  /** The path as written (segments), to name a missing field. */
  segments: readonly PathSegment[];
}

/** The short message of an engine finding. */
export function shortMessage(e: FieldError, ctx: MessageContext): string {
  const p = e.params ?? {};
  const leaf = leafName(ctx.segments);
  // A CEL rule's own message (or messageExpression) is written for people: it is the message.
  if (e.provenance?.rule && p.origin !== 'celCompile' && e.detail) return e.detail;
  if (p.origin === 'celCost' && p.cost) return costMessage(e);
  // A compile error's bad value is the Go struct of the rule: leave it out, keep the compiler's message and caret.
  if (e.badValue instanceof GoStruct) return celCompileMessage(e.detail) + suggestionText(p.suggestions);
  if (p.origin === 'required' && e.type === 'FieldValueRequired') return `missing required field "${leaf}"`;
  if (p.inJunctor && p.keyword) return `"${p.keyword}" is not allowed inside ${junctorOf(ctx.segments)}: ${e.detail}`;
  // kube-openapi's type errors carry the JSON type of the value as the bad value.
  if (p.origin === 'type' && p.reason && typeof e.badValue === 'string') return `${p.reason}, not ${e.badValue}`;
  const detail = (p.reason ?? e.detail) + suggestionText(p.suggestions);
  let body: string;
  switch (e.type) {
    case 'FieldValueRequired':
      // The range is on the parent when the field is missing: say which.
      body = ctx.exact ? errorTypeString(e.type) : `missing "${leaf}"`;
      break;
    case 'FieldValueForbidden':
    case 'FieldValueTooLong':
    case 'InternalError':
      body = errorTypeString(e.type);
      if (!ctx.exact && leaf) body = `"${leaf}": ${body}`;
      break;
    default:
      body = e.badValue === OMIT_VALUE ? errorTypeString(e.type) : `${errorTypeString(e.type)} ${shortValue(e.badValue)}`;
  }
  return detail ? `${body}: ${detail}` : body;
}

/**
 * A CEL compile error for people: the compiler's messages without cel-go's `compilation failed: ERROR:
 * <input>:1:9:` prefix, its caret lines and `(in container '')` (the range already shows where); the
 * first error first, the others on their own lines. Other texts are returned as they are.
 */
export function celCompileMessage(detail: string): string {
  const m = /^(?:messageExpression )?compilation failed: ([\s\S]*)$/.exec(detail);
  if (!m) return detail;
  const issues = [...m[1].matchAll(/ERROR: <input>:\d+:\d+: ([^\n]*)/g)].map((x) => x[1].replace(/ \(in container ''\)/g, '').trim());
  return issues.length ? issues.join('\n') : detail;
}

/** The innermost junctor of a path (`anyOf`, `allOf`, `oneOf`, `not`). */
function junctorOf(segs: readonly PathSegment[]): string {
  for (let i = segs.length - 1; i >= 0; i--) {
    const s = segs[i];
    if (s.kind === 'field' && (s.name === 'anyOf' || s.name === 'allOf' || s.name === 'oneOf' || s.name === 'not')) return s.name;
  }
  return 'a junctor (allOf, anyOf, oneOf, not)';
}

function suggestionText(s: readonly string[] | undefined): string {
  if (!s || s.length === 0) return '';
  return ` (did you mean ${s
    .slice(0, 3)
    .map((x) => `'${x}'`)
    .join(', ')}?)`;
}

/** Costs as people read them (1.2 million, 34 billion). */
export function formatCost(n: number): string {
  if (!Number.isFinite(n) || n >= 1e15) return 'unbounded';
  const units: Array<[number, string]> = [
    [1e12, 'trillion'],
    [1e9, 'billion'],
    [1e6, 'million'],
  ];
  for (const [v, name] of units) if (n >= v) return `${(n / v).toFixed(n / v >= 100 ? 0 : 1).replace(/\.0$/, '')} ${name}`;
  return Math.round(n).toLocaleString('en-US');
}

function costMessage(e: FieldError): string {
  const c = e.params!.cost!;
  // The limit named as the hover names it (service/celEditor.ts costLines): the estimate at CRD create.
  const numbers = `estimated cost ${formatCost(c.estimated)}, limit ${formatCost(c.limit)} ${c.scope === 'total' ? 'for all rules together' : 'per rule'} when the CRD is created`;
  const bound = c.dominant ? (c.dominant.kind === 'list' ? 'maxItems' : c.dominant.kind === 'map' ? 'maxProperties' : 'maxLength') : '';
  const advice = c.dominant
    ? `: the ${c.dominant.kind} ${valuePathOfSchemaPath(c.dominant.path)} is unbounded (set ${c.maxBound ? `${c.maxBound.keyword}: ${c.maxBound.value} or less` : bound})`
    : ': bound the lists, maps and strings it iterates (maxItems, maxProperties, maxLength)';
  switch (c.scope) {
    case 'rule':
      return `rule too expensive (${numbers})${advice}`;
    case 'total':
      return `the CRD's rules together are too expensive (${numbers}): see the rules that contributed`;
    default:
      return `rule contributes ${formatCost(c.estimated)} to the CRD's total cost${advice}`;
  }
}

/**
 * A schema path (`properties[spec].properties[items].items`) as the value path it describes
 * (`spec.items[*]`), the way a CR author reads it.
 */
export function valuePathOfSchemaPath(schemaPath: string): string {
  let out = '';
  const segs = parseFieldPath(schemaPath);
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i];
    if (s.kind === 'field' && s.name === 'properties' && segs[i + 1]?.kind === 'key') {
      const k = segs[++i] as { key: string };
      out += out === '' ? k.key : `.${k.key}`;
    } else if (s.kind === 'field' && (s.name === 'items' || s.name === 'additionalProperties')) out += '[*]';
    else if (s.kind === 'field' && s.name === 'openAPIV3Schema') continue;
    else return schemaPath;
  }
  return out === '' ? '(the object)' : out;
}
