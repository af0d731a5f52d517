/**
 * cel-go's legacy string.format (ext/formatting.go, the formatter StringsVersion 2 uses): clauses
 * %s %d %f %e %b %o %x %X %%, with optional precision; lists/maps print as CEL literals, doubles in
 * them as %f; %f/%e go through the en_US printer (digit grouping, "×10⁰⁰" exponents).
 */
import { formatGoExpAbs, formatGoFixedAbs, goQuote } from '../../json/go';
import { toCelString } from '../runtime/convert';
import { work } from '../runtime/guard';
import { fail, listItems, typeName, type CelList, type TypeValue, type Val } from '../runtime/values';
import { Uint } from '../common/types';

type Kind = 'int' | 'uint' | 'double' | 'string' | 'bool' | 'null' | 'bytes' | 'timestamp' | 'duration' | 'list' | 'map' | 'type' | 'optional' | 'object';

/** The formatter's kind of a value, from its CEL type name (runtime/values.ts typeName); opaque values are objects. */
const KIND_OF_TYPE: Record<string, Kind> = {
  int: 'int',
  uint: 'uint',
  double: 'double',
  string: 'string',
  bool: 'bool',
  null_type: 'null',
  bytes: 'bytes',
  'google.protobuf.Timestamp': 'timestamp',
  'google.protobuf.Duration': 'duration',
  list: 'list',
  map: 'map',
  type: 'type',
  optional_type: 'optional',
};

function kindOf(v: Val): Kind {
  return KIND_OF_TYPE[typeName(v)] ?? 'object';
}

const typeNameOf = typeName;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

function isValidUtf8(b: Uint8Array): boolean {
  try {
    UTF8.decode(b);
    return true;
  } catch {
    return false;
  }
}
const celString = (v: Val): string | undefined => toCelString(v);

const SUPERSCRIPT: Record<string, string> = {
  '0': '⁰',
  '1': '¹',
  '2': '²',
  '3': '³',
  '4': '⁴',
  '5': '⁵',
  '6': '⁶',
  '7': '⁷',
  '8': '⁸',
  '9': '⁹',
  '-': '⁻',
  '+': '',
};

function groupThousands(intPart: string): string {
  return intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** %f through the en_US printer: digit grouping, and no sign on -0 (the printer tests x < 0). */
function fixed(x: number, prec: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '-∞';
  work(prec >> 4);
  const [i, f] = formatGoFixedAbs(x, prec).split('.');
  return (x < 0 ? '-' : '') + groupThousands(i) + (f !== undefined ? '.' + f : '');
}

/**
 * %e: cel-go builds the verb as `%<precision>e`, a width, so the precision is always Go's default 6
 * and the width the given precision, or 6 (NaN and infinities are padded to it).
 */
function scientific(x: number, width: number): string {
  let out: string;
  if (Number.isNaN(x)) out = 'NaN';
  else if (!Number.isFinite(x)) out = x > 0 ? '∞' : '-∞';
  else {
    const { mantissa, exp } = formatGoExpAbs(x, 6);
    const digits = String(Math.abs(exp)).padStart(2, '0');
    const sup = (exp < 0 ? '⁻' : '') + [...digits].map((d) => SUPERSCRIPT[d]).join('');
    out = `${x < 0 ? '-' : ''}${mantissa}×10${sup}`;
  }
  const n = [...out].length;
  return width > n ? ' '.repeat(width - n) + out : out;
}

function formatError(msg: string): never {
  fail(`error during formatting: ${msg}`);
}

/** %s of one value (FormatString). */
function formatS(v: unknown): string {
  const k = kindOf(v);
  if (k === 'list') return formatList(v as CelList);
  if (k === 'map') return formatMap(v);
  if (k === 'null') return 'null';
  if (k === 'bytes' && !isValidUtf8(v as Uint8Array)) {
    formatError(`could not convert argument ${goQuote('invalid UTF-8 in bytes, cannot convert to string')} to string`);
  }
  const s = celString(v);
  if (s === undefined || k === 'object' || k === 'optional') {
    formatError(`string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given ${typeNameOf(v)}`);
  }
  return s;
}

/** A list or map member, formatted and quoted as a CEL literal (clauseForType + quoteForCEL). */
function formatMember(v: unknown): string {
  const k = kindOf(v);
  switch (k) {
    case 'int':
    case 'uint':
      return celString(v)!;
    case 'string':
      return goQuote(v as string);
    case 'bytes':
      return 'b' + goQuote(Buffer.from(v as Uint8Array).toString('utf8'));
    case 'bool':
    case 'null':
      return formatS(v);
    case 'type':
      return (v as TypeValue).name;
    case 'timestamp':
      return `timestamp(${goQuote(celString(v)!)})`;
    case 'duration':
      return `duration(${goQuote(celString(v)!)})`;
    case 'list':
      return formatList(v as CelList);
    case 'map':
      return formatMap(v);
    case 'double': {
      const x = v as number;
      // fmt's %f: every digit, the sign of -0 kept.
      if (Number.isFinite(x)) return (x < 0 || Object.is(x, -0) ? '-' : '') + formatGoFixedAbs(x, 6);
      return goQuote(Number.isNaN(x) ? 'NaN' : x > 0 ? '+Inf' : '-Inf');
    }
    default:
      return formatError(`no formatting function for ${typeNameOf(v)}`);
  }
}

function formatList(l: CelList): string {
  const items = listItems(l);
  work(items.length);
  return '[' + items.map(formatMember).join(', ') + ']';
}

function entries(m: unknown): [unknown, unknown][] {
  if (m instanceof Map) return [...m.entries()];
  return Object.entries(m as Record<string, unknown>);
}

function formatMap(m: unknown): string {
  const pairs = entries(m).map(([k, v]) => {
    const kk = kindOf(k);
    let ks: string;
    if (kk === 'string') ks = goQuote(k as string);
    else if (kk === 'bool' || kk === 'int' || kk === 'uint') ks = celString(k)!;
    else ks = formatError(`no formatting function for map key of type ${typeNameOf(k)}`);
    return [ks, formatMember(v)] as const;
  });
  work(pairs.length);
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return '{' + pairs.map(([k, v]) => `${k}:${v}`).join(', ') + '}';
}

function toBigInt(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (v instanceof Uint) return v.value;
  return undefined;
}

function floatArg(v: unknown, clause: string): number {
  if (typeof v === 'number') return v;
  if (v === 'NaN') return NaN;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  return formatError(`${clause} clause can only be used on doubles, was given ${typeNameOf(v)}`);
}

function hex(v: unknown, upper: boolean): string {
  let s: string;
  const i = toBigInt(v);
  if (i !== undefined) s = (i < 0n ? '-' : '') + (i < 0n ? -i : i).toString(16);
  else if (typeof v === 'string') s = Buffer.from(v, 'utf8').toString('hex');
  else if (v instanceof Uint8Array) s = Buffer.from(v).toString('hex');
  else return formatError(`only integers, byte buffers, and strings can be formatted as hex, was given ${typeNameOf(v)}`);
  return upper ? s.toUpperCase() : s;
}

/** Evaluates `format.format(args)` as cel-go's legacy formatter does. */
export function formatString(format: string, list: CelList): string {
  const args = listItems(list);
  work(format.length >> 4);
  let out = '';
  let argIndex = 0;
  let i = 0;
  while (i < format.length) {
    const c = format[i];
    if (c !== '%') {
      out += c;
      i++;
      continue;
    }
    if (format[i + 1] === '%') {
      out += '%';
      i += 2;
      continue;
    }
    if (argIndex >= args.length) fail(`index ${argIndex} out of range`);
    if (i + 1 >= format.length) fail('unexpected end of string');
    const arg = args[argIndex];
    let j = i + 1;
    let precision: number | undefined;
    if (format[j] === '.') {
      let k = j + 1;
      while (k < format.length && format[k] >= '0' && format[k] <= '9') k++;
      if (k >= format.length) fail('could not parse formatting clause: error while parsing precision: could not find end of precision specifier');
      precision = Number(format.slice(j + 1, k));
      j = k;
    }
    const clause = format[j];
    j++;
    let val: string;
    switch (clause) {
      case 's':
        val = formatS(arg);
        break;
      case 'd': {
        const n = toBigInt(arg);
        if (n === undefined) formatError(`decimal clause can only be used on integers, was given ${typeNameOf(arg)}`);
        val = n!.toString();
        break;
      }
      case 'f':
        val = fixed(floatArg(arg, 'fixed-point'), precision ?? 6);
        break;
      case 'e':
        val = scientific(floatArg(arg, 'scientific'), precision ?? 6);
        break;
      case 'b': {
        const n = toBigInt(arg);
        if (n !== undefined) val = (n < 0n ? '-' : '') + (n < 0n ? -n : n).toString(2);
        else if (typeof arg === 'boolean') val = arg ? '1' : '0';
        else val = formatError(`only integers and bools can be formatted as binary, was given ${typeNameOf(arg)}`);
        break;
      }
      case 'o': {
        const n = toBigInt(arg);
        if (n === undefined) formatError(`octal clause can only be used on integers, was given ${typeNameOf(arg)}`);
        val = (n! < 0n ? '-' : '') + (n! < 0n ? -n! : n!).toString(8);
        break;
      }
      case 'x':
      case 'X':
        val = hex(arg, clause === 'X');
        break;
      default:
        fail(`could not parse formatting clause: unrecognized formatting clause "${clause ?? ''}"`);
    }
    out += val;
    argIndex++;
    i = j;
  }
  return out;
}
