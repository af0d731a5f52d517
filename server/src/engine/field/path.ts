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

  /**
   * The last segment as its kind and its name, index or key (null at the root): its PathSegment is made
   * only when segments() is asked (most paths of a check are never printed nor listed).
   */
  private constructor(
    private readonly parent: FieldPath | null,
    private readonly kind: PathSegment['kind'] | null,
    private readonly step: string | number,
  ) {
    this.length = parent && kind ? parent.length + 1 : 0;
  }

  /** A new root path; `NewPath(name, more...)`. With no names, the nil path (prints `""`). */
  static root(...names: string[]): FieldPath {
    let p = new FieldPath(null, null, '');
    for (let i = 0; i < names.length; i++) p = p.child(names[i]);
    return p;
  }

  child(name: string, ...more: string[]): FieldPath {
    let p: FieldPath = new FieldPath(this, 'field', name);
    for (let i = 0; i < more.length; i++) p = p.child(more[i]);
    return p;
  }

  index(index: number): FieldPath {
    return new FieldPath(this, 'index', index);
  }

  key(key: string): FieldPath {
    return new FieldPath(this, 'key', key);
  }

  /** The segments from the root. */
  segments(): PathSegment[] {
    const out: PathSegment[] = [];
    for (let p: FieldPath | null = this; p?.kind; p = p.parent) out.push(p.segment());
    return out.reverse();
  }

  private segment(): PathSegment {
    if (this.kind === 'index') return { kind: 'index', index: this.step as number };
    if (this.kind === 'key') return { kind: 'key', key: this.step as string };
    return { kind: 'field', name: this.step as string };
  }

  isRoot(): boolean {
    return this.kind === null;
  }

  toString(): string {
    if (this.printed !== undefined) return this.printed;
    let s = '';
    if (this.kind && this.parent) {
      const head = this.parent.toString();
      if (this.kind === 'field') s = head === '' ? (this.step as string) : `${head}.${this.step}`;
      else s = `${head}[${this.step}]`;
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
