import type { PathSegment } from './errors';

/**
 * An immutable field path, printed as k8s.io/apimachinery field.Path prints it:
 * `spec.foo[0].bar`, map keys as `[key]`. The root has no name and prints as `""`.
 */
export class FieldPath {
  /** The printed path, computed once (paths are immutable and printed often: memo keys, errors). */
  private printed?: string;
  /** Number of segments from the root. */
  readonly length: number;

  private constructor(
    private readonly parent: FieldPath | null,
    private readonly seg: PathSegment | null,
  ) {
    this.length = parent && seg ? parent.length + 1 : 0;
  }

  /** A new root path; `NewPath(name, more...)`. With no names, the nil path (prints `""`). */
  static root(...names: string[]): FieldPath {
    let p = new FieldPath(null, null);
    for (const n of names) p = p.child(n);
    return p;
  }

  child(name: string, ...more: string[]): FieldPath {
    let p: FieldPath = new FieldPath(this, { kind: 'field', name });
    for (const n of more) p = p.child(n);
    return p;
  }

  index(index: number): FieldPath {
    return new FieldPath(this, { kind: 'index', index });
  }

  key(key: string): FieldPath {
    return new FieldPath(this, { kind: 'key', key });
  }

  /** The segments from the root. */
  segments(): PathSegment[] {
    const out: PathSegment[] = [];
    for (let p: FieldPath | null = this; p?.seg; p = p.parent) out.push(p.seg);
    return out.reverse();
  }

  isRoot(): boolean {
    return this.seg === null;
  }

  toString(): string {
    if (this.printed !== undefined) return this.printed;
    const seg = this.seg;
    let s = '';
    if (seg && this.parent) {
      const head = this.parent.toString();
      if (seg.kind === 'field') s = head === '' ? seg.name : `${head}.${seg.name}`;
      else if (seg.kind === 'index') s = `${head}[${seg.index}]`;
      else s = `${head}[${seg.key}]`;
    }
    this.printed = s;
    return s;
  }
}

/**
 * A path as the API server's strict JSON decoding names a field in `unknown field "..."` (sigs.k8s.io/json,
 * and pruning's ReturnPruned paths): names and map keys joined with dots, list indexes in brackets
 * (`spec.versions[0].schema.openAPIV3Schema.properties.spec`), unlike field.Path's `properties[spec]`.
 */
export function strictDecodingPath(segments: readonly PathSegment[]): string {
  let s = '';
  for (const seg of segments) {
    if (seg.kind === 'index') s += `[${seg.index}]`;
    else {
      const name = seg.kind === 'field' ? seg.name : seg.key;
      s = s === '' ? name : `${s}.${name}`;
    }
  }
  return s;
}
