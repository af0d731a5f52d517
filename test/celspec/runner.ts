/**
 * The CEL peer suites of ../shared/celspec (cel-spec's conformance tests, the Kubernetes CEL libraries'
 * test tables, targeted sweeps), each case answered by the real Kubernetes CEL environment
 * (k8s.io/apiserver v0.37.2's base environment for new expressions, cel-go v0.29.2), run through the
 * engine and compared as that README says: the same typed value (int, uint and double distinct, lists
 * ordered, maps unordered, doubles by bits), or a failure in the same phase (compile, which includes
 * program planning: both reject a CRD, vs runtime). The error text is compared and reported apart.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sharedPath } from '../shared';
import { celEnvironment, evaluate, PER_CALL_LIMIT } from '../../server/src/engine/cel/environment';
import { formatCelType, T, type CelType } from '../../server/src/engine/cel/common/types';
import { Duration, Optional, TypeValue, isList, isOpaque, listItems, type Val } from '../../server/src/engine/cel/runtime/values';
import { Uint } from '../../server/src/engine/cel/common/types';
import { goNative } from '../cel/values';

/** A typed value of the case files: `{t, v}` (doubles also carry their IEEE bits in `b`). */
export interface TypedValue {
  t: string;
  v?: unknown;
  b?: string;
}

export interface PeerCase {
  id: string;
  suite: string;
  file: string;
  expr: string;
  decls: { name: string; type: string }[];
  bindings: Record<string, TypedValue>;
  excluded: string[];
  checkOnly?: boolean;
  k8s: { kind: 'value' | 'compile_error' | 'program_error' | 'eval_error' | 'checked'; value?: TypedValue; message?: string; type?: string };
}

export type Phase = 'value' | 'compile' | 'runtime' | 'checked';

export interface PeerResult {
  id: string;
  /** Same value, or failure in the same phase. */
  agrees: boolean;
  /** Both failed in the same phase with the same text. */
  sameText?: boolean;
  expected: { phase: Phase; value?: TypedValue; message?: string; type?: string };
  actual: { phase: Phase; value?: TypedValue; message?: string; type?: string };
}

export const SUITE_FILES = ['celspec.jsonl', 'k8slib.jsonl', 'targeted.jsonl'] as const;

export function defaultCelspecDir(): string {
  return sharedPath('celspec', 'cases');
}

/** The cases of one file, without those its README excludes (other libraries, harness variables). */
export function loadPeerCases(file: string): PeerCase[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as PeerCase)
    .filter((c) => c.excluded.length === 0);
}

/** A declared type as the case files write it: `int`, `list(int)`, `map(string, int)`, `null_type`. */
export function parseDeclType(s: string): CelType {
  let i = 0;
  const read = (): CelType => {
    const m = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(s.slice(i));
    if (!m) throw new Error(`bad type ${s}`);
    i += m[0].length;
    const params: CelType[] = [];
    if (s[i] === '(') {
      i++;
      for (;;) {
        while (s[i] === ' ') i++;
        params.push(read());
        while (s[i] === ' ') i++;
        if (s[i] === ',') i++;
        else if (s[i] === ')') {
          i++;
          break;
        } else throw new Error(`bad type ${s}`);
      }
    }
    switch (m[0]) {
      case 'list':
        return T.list(params[0]);
      case 'map':
        return T.map(params[0], params[1]);
      case 'null_type':
        return T.null;
      case 'int':
      case 'uint':
      case 'double':
      case 'bool':
      case 'string':
      case 'bytes':
      case 'timestamp':
      case 'duration':
      case 'dyn':
        return (T as unknown as Record<string, CelType>)[m[0]];
      default:
        throw new Error(`unsupported type ${m[0]}`);
    }
  };
  return read();
}

/** A typed value of the case files as a CEL runtime value (bindings). */
export function fromTyped(x: TypedValue): Val {
  switch (x.t) {
    case 'null':
      return null;
    case 'bool':
    case 'string':
      return x.v;
    case 'int':
      return BigInt(x.v as string);
    case 'uint':
      return Uint.of(BigInt(x.v as string));
    case 'double':
      return x.b ? Buffer.from(x.b, 'hex').readDoubleBE(0) : Number(x.v);
    case 'bytes':
      return new Uint8Array(Buffer.from(x.v as string, 'base64'));
    case 'duration':
      return new Duration(BigInt(x.v as string));
    case 'list':
      return (x.v as TypedValue[]).map(fromTyped);
    case 'map':
      return new Map((x.v as [TypedValue, TypedValue][]).map(([k, v]) => [fromTyped(k), fromTyped(v)]));
    default:
      throw new Error(`unsupported binding type ${x.t}`);
  }
}

function doubleBits(d: number): string {
  const b = Buffer.alloc(8);
  b.writeDoubleBE(d, 0);
  return b.toString('hex');
}

/** A CEL runtime value in the case files' typed encoding (what the oracle printed). */
export function toTyped(v: Val): TypedValue {
  if (v === null || v === undefined) return { t: 'null' };
  switch (typeof v) {
    case 'boolean':
      return { t: 'bool', v };
    case 'string':
      return { t: 'string', v };
    case 'bigint':
      return { t: 'int', v: v.toString() };
    case 'number':
      return { t: 'double', b: doubleBits(v) };
  }
  if (v instanceof Uint) return { t: 'uint', v: v.value.toString() };
  if (v instanceof Uint8Array) return { t: 'bytes', v: Buffer.from(v).toString('base64') };
  if (v instanceof Optional) return { t: 'optional', v: v.present ? toTyped(v.value) : null };
  if (v instanceof TypeValue) return { t: 'type', v: v.name };
  if (v instanceof Duration) return { t: 'duration', v: v.nanos.toString() };
  if (isList(v)) return { t: 'list', v: listItems(v).map(toTyped) };
  if (v instanceof Map) return { t: 'map', v: [...v].map(([k, x]) => [toTyped(k), toTyped(x)]) };
  if (isOpaque(v)) return { t: 'opaque', v: `${v.celTypeName}(${goNative(v)})` };
  return { t: 'unknown', v: String(v) };
}

/** A canonical string of a typed value: maps sorted by key, doubles by their bits. */
export function canonical(x: TypedValue | null | undefined): string {
  if (x === null || x === undefined) return 'none';
  switch (x.t) {
    case 'double':
      return `double:${x.b ?? doubleBits(Number(x.v))}`;
    case 'list':
      return `[${(x.v as TypedValue[]).map(canonical).join(',')}]`;
    case 'map':
      return `{${(x.v as [TypedValue, TypedValue][])
        .map(([k, v]) => `${canonical(k)}:${canonical(v)}`)
        .sort()
        .join(',')}}`;
    case 'optional':
      return `optional(${canonical(x.v as TypedValue | null)})`;
    default:
      return `${x.t}:${JSON.stringify(x.v)}`;
  }
}

const PHASE: Record<PeerCase['k8s']['kind'], Phase> = { value: 'value', checked: 'checked', compile_error: 'compile', program_error: 'compile', eval_error: 'runtime' };

/** Runs one case in the environment CRD rules use (the newest Kubernetes version, new expressions). */
export function runPeerCase(c: PeerCase): PeerResult {
  const expected = { phase: PHASE[c.k8s.kind], value: c.k8s.value, message: c.k8s.message, type: c.k8s.type };
  const actual = actualOf(c);
  let agrees = expected.phase === actual.phase;
  if (agrees && expected.phase === 'value') agrees = canonical(expected.value) === canonical(actual.value);
  if (agrees && expected.phase === 'checked') agrees = expected.type === actual.type;
  const sameText = expected.message === undefined ? undefined : agrees && expected.message === actual.message;
  return { id: c.id, agrees, sameText, expected, actual };
}

function actualOf(c: PeerCase): PeerResult['actual'] {
  try {
    const env = celEnvironment({ kind: 'new' });
    const decls = new Map<string, CelType>(c.decls.map((d) => [d.name, parseDeclType(d.type)]));
    // cel-spec's unchecked cases bind variables they do not declare: the harness declares them dyn.
    for (const k of Object.keys(c.bindings)) if (!decls.has(k)) decls.set(k, T.dyn);
    const compiled = env.compile(c.expr, decls);
    if (compiled.issuesText !== undefined) return { phase: 'compile', message: compiled.issuesText };
    if (compiled.programErrors.length) return { phase: 'compile', message: compiled.programErrors[0] };
    const type = compiled.checked ? formatCelType(compiled.checked.type) : undefined;
    if (c.checkOnly) return { phase: 'checked', type };
    const vars: Record<string, Val> = {};
    for (const [k, v] of Object.entries(c.bindings)) vars[k] = fromTyped(v);
    const r = evaluate(compiled.program!, vars, { costLimit: PER_CALL_LIMIT });
    if ('error' in r) return { phase: 'runtime', message: r.error, type };
    return { phase: 'value', value: toTyped(r.value), type };
  } catch (e) {
    return { phase: 'runtime', message: `internal error: ${e instanceof Error ? e.stack : String(e)}` };
  }
}

export interface SuiteSummary {
  file: string;
  total: number;
  agree: number;
  /** Failures on both sides in the same phase, and how many of them with the same text. */
  failures: number;
  sameText: number;
  disagreements: PeerResult[];
  /** Failures in the same phase whose text differs. */
  textDiffers: PeerResult[];
}

export function runSuite(dir: string, file: string): SuiteSummary {
  const results = loadPeerCases(path.join(dir, file)).map(runPeerCase);
  const failures = results.filter((r) => r.agrees && (r.expected.phase === 'compile' || r.expected.phase === 'runtime'));
  return {
    file,
    total: results.length,
    agree: results.filter((r) => r.agrees).length,
    failures: failures.length,
    sameText: failures.filter((r) => r.sameText).length,
    disagreements: results.filter((r) => !r.agrees),
    textDiffers: failures.filter((r) => !r.sameText),
  };
}
