/**
 * JSON parsing that keeps what Go's decoder keeps and JSON.parse loses: integers outside ±2^53 become
 * bigint (Kubernetes int64 fields, CEL ints), and, on request, a number written with a fraction or an
 * exponent whose value is integral becomes an IntegralFloat (Go float64 / CEL double `1.0`).
 */

/** A float64 whose value happens to be integral, written `1.0` in the source: Go decodes it as float64. */
export class IntegralFloat {
  constructor(readonly value: number) {}
  valueOf(): number {
    return this.value;
  }
  toJSON(): number {
    return this.value;
  }
}

export interface LosslessOptions {
  /** Wrap integral numbers written as floats (`1.0`, `1e3`) in IntegralFloat. */
  markIntegralFloats?: boolean;
}

const LITERALS: [string, boolean | null][] = [
  ['true', true],
  ['false', false],
  ['null', null],
];

export function parseJSONLossless(text: string, opts: LosslessOptions = {}): unknown {
  let i = 0;
  const ws = () => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const fail = (msg: string): never => {
    throw new SyntaxError(`${msg} at offset ${i}`);
  };
  const value = (): unknown => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const o: Record<string, unknown> = {};
      ws();
      if (text[i] === '}') {
        i++;
        return o;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected string key');
        const k = str();
        ws();
        if (text[i++] !== ':') fail('expected :');
        o[k] = value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return o;
        } else fail('expected , or }');
      }
    }
    if (c === '[') {
      i++;
      const a: unknown[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return a;
      }
      for (;;) {
        a.push(value());
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return a;
        } else fail('expected , or ]');
      }
    }
    if (c === '"') return str();
    for (const [word, v] of LITERALS) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    return num();
  };
  const str = (): string => {
    const start = i;
    i++;
    let simple = true;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') {
        simple = false;
        i += 2;
      } else i++;
    }
    if (i >= text.length) fail('unterminated string');
    i++;
    const raw = text.slice(start, i);
    return simple ? raw.slice(1, -1) : (JSON.parse(raw) as string);
  };
  const num = (): unknown => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) return fail('unexpected token');
    i += m[0].length;
    const isFloat = m[2] !== undefined || m[3] !== undefined;
    if (!isFloat) {
      const n = Number(m[0]);
      return Number.isSafeInteger(n) ? n : BigInt(m[0]);
    }
    const f = Number(m[0]);
    if (opts.markIntegralFloats && Number.isInteger(f)) return new IntegralFloat(f);
    return f;
  };
  const v = value();
  ws();
  if (i !== text.length) fail('trailing characters');
  return v;
}

/** JSON.stringify that also writes bigint values (as their digits), e.g. int64 fields beyond ±2^53. */
export function stringifyJSONLossless(v: unknown, indent?: number): string {
  const marks: string[] = [];
  const text = JSON.stringify(
    v,
    (_k, x) => {
      if (typeof x !== 'bigint') return x;
      marks.push(x.toString());
      return `\u0000bigint${marks.length - 1}\u0000`;
    },
    indent,
  );
  return text.replace(/"\\u0000bigint(\d+)\\u0000"/g, (_m, i: string) => marks[Number(i)]);
}
