/**
 * cel-go's type assignability and substitution (checker/types.go, checker/mapping.go): type
 * parameters bind through a mapping that is copied on each attempt and kept on success.
 */
import { T, type CelType } from '../common/types';

/** Type-parameter substitutions. */
export type Mapping = Map<string, CelType>;

export function isDyn(t: CelType): boolean {
  return t.kind === 'dyn';
}

export function isDynOrError(t: CelType): boolean {
  return t.kind === 'dyn' || t.kind === 'error';
}

export function isOptionalType(t: CelType): t is CelType & { kind: 'opaque' } {
  return t.kind === 'opaque' && t.name === 'optional_type';
}

export function maybeUnwrapOptional(t: CelType): [CelType, boolean] {
  return isOptionalType(t) ? [t.params[0], true] : [t, false];
}

/** Type parameters of a type (list elem, map key/value, opaque params, type's param). */
export function typeParams(t: CelType): CelType[] {
  switch (t.kind) {
    case 'list':
      return [t.elem];
    case 'map':
      return [t.key, t.value];
    case 'opaque':
      return t.params;
    case 'type':
      return t.param ? [t.param] : [];
    default:
      return [];
  }
}

function typeName(t: CelType): string {
  switch (t.kind) {
    case 'object':
    case 'opaque':
      return t.name;
    case 'param':
      return t.name;
    default:
      return t.kind;
  }
}

/** IsExactType: same kind, name and parameters. */
export function isExactType(a: CelType, b: CelType): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind || typeName(a) !== typeName(b)) return false;
  if (a.kind === 'type' && b.kind === 'type' && !!a.param !== !!b.param) return false;
  const pa = typeParams(a);
  const pb = typeParams(b);
  if (pa.length !== pb.length) return false;
  for (let i = 0; i < pa.length; i++) if (!isExactType(pa[i], pb[i])) return false;
  return true;
}

function isLegacyNullable(t: CelType): boolean {
  return t.kind === 'opaque' || t.kind === 'object' || t.kind === 'duration' || t.kind === 'timestamp';
}

function isEqualOrLessSpecific(t1: CelType, t2: CelType): boolean {
  if (isDyn(t1) || t1.kind === 'param') return true;
  if (isDyn(t2) || t2.kind === 'param') return false;
  if (t1.kind !== t2.kind) return false;
  switch (t1.kind) {
    case 'opaque': {
      const o2 = t2 as CelType & { kind: 'opaque' };
      if (t1.name !== o2.name || t1.params.length !== o2.params.length) return false;
      return t1.params.every((p, i) => isEqualOrLessSpecific(p, o2.params[i]));
    }
    case 'list':
      return isEqualOrLessSpecific(t1.elem, (t2 as CelType & { kind: 'list' }).elem);
    case 'map': {
      const m2 = t2 as CelType & { kind: 'map' };
      return isEqualOrLessSpecific(t1.key, m2.key) && isEqualOrLessSpecific(t1.value, m2.value);
    }
    case 'type':
      return true;
    default:
      return isExactType(t1, t2);
  }
}

/** mostGeneral: the less specific of two types. */
export function mostGeneral(t1: CelType, t2: CelType): CelType {
  return isEqualOrLessSpecific(t1, t2) ? t1 : t2;
}

function notReferencedIn(m: Mapping, t: CelType, within: CelType): boolean {
  if (isExactType(t, within)) return false;
  switch (within.kind) {
    case 'param': {
      const sub = m.get(within.name);
      return sub ? notReferencedIn(m, t, sub) : true;
    }
    case 'opaque':
    case 'list':
    case 'map':
    case 'type':
      return typeParams(within).every((p) => notReferencedIn(m, t, p));
    default:
      return true;
  }
}

function isValidTypeSubstitution(m: Mapping, t1: CelType, t2: CelType & { kind: 'param' }): [boolean, boolean] {
  if (t1.kind === t2.kind && isExactType(t1, t2)) return [true, true];
  const sub = m.get(t2.name);
  if (sub) {
    if (t1.kind === sub.kind && isExactType(t1, sub)) return [true, true];
    if (internalIsAssignable(m, t1, sub)) {
      const g = mostGeneral(t1, sub);
      if (notReferencedIn(m, t2, g)) m.set(t2.name, g);
      return [true, true];
    }
    return [false, true];
  }
  if (notReferencedIn(m, t2, t1)) {
    m.set(t2.name, t1);
    return [true, false];
  }
  return [false, false];
}

function internalIsAssignable(m: Mapping, t1: CelType, t2: CelType): boolean {
  if (t2.kind === 'param') {
    const [valid, hasSub] = isValidTypeSubstitution(m, t1, t2);
    if (valid) return true;
    if (hasSub) return false;
  }
  if (t1.kind === 'param') return isValidTypeSubstitution(m, t2, t1)[0];
  if (isDynOrError(t1) || isDynOrError(t2)) return true;
  if (t1.kind === 'null_type') return t2.kind === 'null_type' || isLegacyNullable(t2);
  if (t2.kind === 'null_type') return isLegacyNullable(t1);
  switch (t1.kind) {
    case 'type':
      return t2.kind === 'type';
    case 'opaque':
    case 'list':
    case 'map': {
      if (t1.kind !== t2.kind || typeName(t1) !== typeName(t2)) return false;
      const p1 = typeParams(t1);
      const p2 = typeParams(t2);
      if (p1.length !== p2.length) return false;
      for (let i = 0; i < p1.length; i++) if (!internalIsAssignable(m, p1[i], p2[i])) return false;
      return true;
    }
    default:
      return isExactType(t1, t2);
  }
}

/** isAssignable: the mapping after assigning t1 to t2, or undefined (the input mapping is untouched). */
export function isAssignable(m: Mapping, t1: CelType, t2: CelType): Mapping | undefined {
  const copy = new Map(m);
  return internalIsAssignable(copy, t1, t2) ? copy : undefined;
}

export function isAssignableList(m: Mapping, l1: CelType[], l2: CelType[]): Mapping | undefined {
  if (l1.length !== l2.length) return undefined;
  const copy = new Map(m);
  for (let i = 0; i < l1.length; i++) if (!internalIsAssignable(copy, l1[i], l2[i])) return undefined;
  return copy;
}

/** substitute: replaces bound type parameters (and, with toDyn, unbound ones by dyn). */
export function substitute(m: Mapping, t: CelType, toDyn: boolean): CelType {
  if (t.kind === 'param') {
    const s = m.get(t.name);
    if (s) return substitute(m, s, toDyn);
    return toDyn ? T.dyn : t;
  }
  switch (t.kind) {
    case 'opaque':
      return t.params.length ? { kind: 'opaque', name: t.name, params: t.params.map((p) => substitute(m, p, toDyn)) } : t;
    case 'list': {
      const e = substitute(m, t.elem, toDyn);
      return e === t.elem ? t : { ...t, elem: e };
    }
    case 'map':
      return T.map(substitute(m, t.key, toDyn), substitute(m, t.value, toDyn));
    case 'type':
      return t.param ? T.type(substitute(m, t.param, toDyn)) : t;
    default:
      return t;
  }
}
