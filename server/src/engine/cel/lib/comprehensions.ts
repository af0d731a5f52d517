/**
 * Macros cel-js lacks, written against its macro hooks (typeCheck/evaluate): cel-go's
 * TwoVarComprehensions (all/exists/existsOne/exists_one with two variables, transformList,
 * transformMap, transformMapEntry), ext.Lists' sortBy, and the optional library's optMap/optFlatMap.
 * Quantifiers keep cel-go's error absorption: `all` is false if any element is false even when
 * another errs; `exists` likewise for true; existsOne propagates the first error.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { Optional } from '@marcbachmann/cel-js';
import { kindOf } from './convert';
import { celEquals } from './compare';
import { fail } from './errors';
import { chargeCost, CostLimitExceeded } from './guard';
import { sortValues } from './lists';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Node = any;
type Checker = any;
type Ctx = any;
type Ev = any;

interface Macro {
  ast: Node;
  receiver: Node;
  vars: string[];
  filter?: Node;
  body: Node;
  typeCheck(chk: Checker, m: Macro, ctx: Ctx): unknown;
  evaluate(ev: Ev, m: Macro, ctx: Ctx): unknown;
}

function ident(n: Node, what: string): string {
  if (n?.op === 'id' && typeof n.args === 'string') return n.args;
  return fail(`${what} must be a simple name`);
}

/** Element types of an iterable for (key/index, value) and (value) comprehensions. */
function iterTypes(chk: Checker, t: Node): { first: Node; second: Node; firstOne: Node } {
  const dyn = chk.getType('dyn');
  if (t.kind === 'list') return { first: chk.getType('int'), second: t.valueType, firstOne: t.valueType };
  if (t.kind === 'map') return { first: t.keyType, second: t.valueType, firstOne: t.keyType };
  if (t.kind === 'dyn') return { first: dyn, second: dyn, firstOne: dyn };
  throw chk.createError('invalid_comprehension_range', `expression of type '${t.name}' cannot be range of a comprehension (must be list, map, or dynamic)`);
}

/** (key, value) pairs of a list (index, element) or a map (key, value). */
function pairs(v: unknown): [unknown, unknown][] {
  const k = kindOf(v);
  if (k === 'list') return Array.from(v as unknown[]).map((x, i) => [BigInt(i), x]);
  if (k === 'map') return v instanceof Map ? [...v.entries()] : Object.entries(v as object);
  return fail(`expression of type '${k}' cannot be range of a comprehension`);
}

function bind(ctx: Ctx, names: string[], types: Node[], values: unknown[]): Ctx {
  let c = ctx;
  for (let i = 0; i < names.length; i++) {
    c = c.forkWithVariable(names[i], types[i]);
    c.iterValue = values[i];
  }
  return c;
}

function checkBool(chk: Checker, n: Node, ctx: Ctx, what: string): void {
  const t = chk.check(n, ctx);
  if (t.kind !== 'dyn' && t.name !== 'bool') throw chk.createError('invalid_macro_argument', `${what} must return bool, got '${t.name}'`, n);
}

function asBool(v: unknown): boolean {
  if (typeof v !== 'boolean') fail('no such overload');
  return v;
}

type Kind = 'all' | 'exists' | 'existsOne' | 'transformList' | 'transformMap' | 'transformMapEntry';

function makeTwoVar(kind: Kind, withFilter: boolean) {
  return ({ ast, args, receiver }: { ast: Node; args: Node[]; receiver: Node }) => {
    const vars = [ident(args[0], 'iteration variable'), ident(args[1], 'iteration variable')];
    if (vars[0] === vars[1]) fail(`duplicate variable name: ${vars[0]}`);
    const m: Macro & { types?: Node[] } = {
      ast,
      receiver,
      vars,
      filter: withFilter ? args[2] : undefined,
      body: withFilter ? args[3] : args[2],
      typeCheck(chk, mm: Macro & { types?: Node[] }, ctx) {
        const it = iterTypes(chk, chk.check(mm.receiver, ctx));
        mm.types = [it.first, it.second];
        const inner = ctx.forkWithVariable(vars[0], it.first).forkWithVariable(vars[1], it.second);
        if (mm.filter) checkBool(chk, mm.filter, inner, `${kind} filter`);
        const bt = chk.check(mm.body, inner);
        mm.ast.setMeta('async', false);
        switch (kind) {
          case 'all':
          case 'exists':
          case 'existsOne':
            if (bt.kind !== 'dyn' && bt.name !== 'bool') throw chk.createError('invalid_macro_argument', `${kind} predicate must return bool, got '${bt.name}'`, mm.body);
            return chk.getType('bool');
          case 'transformList':
            return chk.registry.getListType(bt);
          case 'transformMap':
            return chk.registry.getMapType(it.first, bt);
          case 'transformMapEntry':
            if (bt.kind !== 'map' && bt.kind !== 'dyn') throw chk.createError('invalid_macro_argument', `transformMapEntry expression must return a map, got '${bt.name}'`, mm.body);
            return bt.kind === 'map' ? bt : chk.getType('map');
        }
      },
      evaluate(ev, mm: Macro & { types?: Node[] }, ctx) {
        const ps = pairs(ev.run(mm.receiver, ctx));
        const types = mm.types ?? [ev.registry?.getType?.('dyn'), ev.registry?.getType?.('dyn')];
        let err: unknown;
        let count = 0;
        const list: unknown[] = [];
        const map = new Map<unknown, unknown>();
        for (const [k, v] of ps) {
          chargeCost(1);
          const c = bind(ctx, vars, types, [k, v]);
          if (mm.filter && !asBool(ev.run(mm.filter, c))) continue;
          if (kind === 'all' || kind === 'exists') {
            let r: boolean;
            try {
              r = asBool(ev.run(mm.body, c));
            } catch (e) {
              if (e instanceof CostLimitExceeded) throw e;
              err ??= e;
              continue;
            }
            if (kind === 'all' && !r) return false;
            if (kind === 'exists' && r) return true;
            continue;
          }
          const r = ev.run(mm.body, c);
          switch (kind) {
            case 'existsOne':
              if (asBool(r)) count++;
              break;
            case 'transformList':
              list.push(r);
              break;
            case 'transformMap':
              map.set(k, r);
              break;
            case 'transformMapEntry': {
              const es = r instanceof Map ? [...r.entries()] : Object.entries(r as object);
              for (const [ek, ev2] of es) {
                for (const existing of map.keys()) if (celEquals(existing, ek)) fail(`insert failed: key ${String(ek)} already exists`);
                map.set(ek, ev2);
              }
              break;
            }
          }
        }
        if (err) throw err;
        switch (kind) {
          case 'all': return true;
          case 'exists': return false;
          case 'existsOne': return count === 1;
          case 'transformList': return list;
          default: return map;
        }
      },
    };
    return m;
  };
}

function makeSortBy() {
  return ({ ast, args, receiver }: { ast: Node; args: Node[]; receiver: Node }) => {
    const v = ident(args[0], 'sortBy variable');
    return {
      ast,
      receiver,
      body: args[1],
      typeCheck(chk: Checker, mm: any, ctx: Ctx) {
        const t = chk.check(mm.receiver, ctx);
        if (t.kind !== 'list' && t.kind !== 'dyn') throw chk.createError('no_matching_overload', `found no matching overload for '${t.name}.sortBy()'`, mm.ast);
        mm.elemType = t.kind === 'list' ? t.valueType : chk.getType('dyn');
        chk.check(mm.body, ctx.forkWithVariable(v, mm.elemType));
        mm.ast.setMeta('async', false);
        return t.kind === 'list' ? t : chk.getType('list');
      },
      evaluate(ev: Ev, mm: any, ctx: Ctx) {
        const l = ev.run(mm.receiver, ctx);
        if (kindOf(l) !== 'list') fail('no such overload');
        return sortValues(Array.from(l as unknown[]), (x) => ev.run(mm.body, bind(ctx, [v], [mm.elemType], [x])));
      },
    };
  };
}

function makeOptMap(flat: boolean) {
  return ({ ast, args, receiver }: { ast: Node; args: Node[]; receiver: Node }) => {
    const v = ident(args[0], 'optMap variable');
    return {
      ast,
      receiver,
      body: args[1],
      typeCheck(chk: Checker, mm: any, ctx: Ctx) {
        const t = chk.check(mm.receiver, ctx);
        if (t.kind !== 'optional' && t.kind !== 'dyn') throw chk.createError('no_matching_overload', `found no matching overload for '${t.name}.${flat ? 'optFlatMap' : 'optMap'}()'`, mm.ast);
        mm.elemType = t.kind === 'optional' ? t.valueType : chk.getType('dyn');
        const bt = chk.check(mm.body, ctx.forkWithVariable(v, mm.elemType));
        mm.ast.setMeta('async', false);
        if (flat) return bt.kind === 'optional' ? bt : chk.getType('optional');
        return chk.registry.getOptionalType(bt);
      },
      evaluate(ev: Ev, mm: any, ctx: Ctx) {
        const o = ev.run(mm.receiver, ctx);
        if (!(o instanceof Optional)) fail('no such overload');
        if (!o.hasValue()) return Optional.none();
        const r = ev.run(mm.body, bind(ctx, [v], [mm.elemType], [o.value()]));
        if (flat) {
          if (!(r instanceof Optional)) fail('optFlatMap expression must return an optional');
          return r;
        }
        return Optional.of(r);
      },
    };
  };
}

/** Registers the macros. */
export function installComprehensions(env: Environment): void {
  const m = (sig: string, h: unknown) => env.registerFunction(sig, h as (...a: unknown[]) => unknown);
  m('list.all(ast, ast, ast): bool', makeTwoVar('all', false));
  m('list.exists(ast, ast, ast): bool', makeTwoVar('exists', false));
  m('list.existsOne(ast, ast, ast): bool', makeTwoVar('existsOne', false));
  m('list.exists_one(ast, ast, ast): bool', makeTwoVar('existsOne', false));
  m('list.transformList(ast, ast, ast): list<dyn>', makeTwoVar('transformList', false));
  m('list.transformList(ast, ast, ast, ast): list<dyn>', makeTwoVar('transformList', true));
  m('list.transformMap(ast, ast, ast): map<dyn, dyn>', makeTwoVar('transformMap', false));
  m('list.transformMap(ast, ast, ast, ast): map<dyn, dyn>', makeTwoVar('transformMap', true));
  m('list.transformMapEntry(ast, ast, ast): map<dyn, dyn>', makeTwoVar('transformMapEntry', false));
  m('list.transformMapEntry(ast, ast, ast, ast): map<dyn, dyn>', makeTwoVar('transformMapEntry', true));
  m('list.sortBy(ast, ast): list<dyn>', makeSortBy());
  m('optional.optMap(ast, ast): optional<dyn>', makeOptMap(false));
  m('optional.optFlatMap(ast, ast): optional<dyn>', makeOptMap(true));
}
