/**
 * Static cost estimation of CRD rules: cel-go's checker/cost.go estimator (on the macro forms, with the
 * costs of their expansions), the Kubernetes library costs (apiserver pkg/cel/library/cost.go) and the
 * schema-derived size estimates of apiextensions' sizeEstimator (maxItems/maxProperties/maxLength).
 */
import type { ASTNode } from '@marcbachmann/cel-js';
import type { CelType, DeclType } from './types';

const MAX = 18446744073709551615; // math.MaxUint64 as a float; saturating arithmetic below
const STRING_TRAVERSAL = 0.1;
const REGEX_STRING_LENGTH = 0.25;
const LIST_CREATE_BASE = 10;
const MAP_CREATE_BASE = 30;

interface Est {
  min: number;
  max: number;
}

const add = (a: number, b: number) => (a + b >= MAX ? MAX : a + b);
const mulN = (a: number, b: number) => (a === 0 || b === 0 ? 0 : a * b >= MAX ? MAX : a * b);
const byFactor = (x: number, f: number) => (x >= MAX ? MAX : Math.min(MAX, Math.ceil(x * f - 1e-9)));

const E = {
  fixed: (n: number): Est => ({ min: n, max: n }),
  add: (a: Est, b: Est): Est => ({ min: add(a.min, b.min), max: add(a.max, b.max) }),
  mul: (a: Est, b: Est): Est => ({ min: mulN(a.min, b.min), max: mulN(a.max, b.max) }),
  factor: (a: Est, f: number): Est => ({ min: byFactor(a.min, f), max: byFactor(a.max, f) }),
  union: (a: Est, b: Est): Est => ({ min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) }),
};
const UNKNOWN: Est = { min: 0, max: MAX };
const ZERO: Est = { min: 0, max: 0 };

interface LocalVar {
  path?: string[];
  size?: Est;
  entry?: Entry;
}
interface Entry {
  val: Est;
}

class Coster {
  private sizes = new Map<ASTNode, Est>();
  private entries = new Map<ASTNode, Entry>();
  private paths = new Map<ASTNode, string[]>();
  private locals = new Map<string, LocalVar[]>();

  constructor(
    private readonly root: DeclType,
    private readonly typeOf: (n: ASTNode) => CelType | undefined,
  ) {}

  private pathOf(n: ASTNode): string[] | undefined {
    return this.paths.get(n);
  }

  private estimateSize(path: string[] | undefined): Est | undefined {
    if (!path || path.length === 0) return undefined;
    let cur: DeclType | undefined = this.root;
    for (const seg of path.slice(1)) {
      if (!cur) return undefined;
      if (seg === '@items' || seg === '@values') cur = cur.elemType;
      else if (seg === '@keys') cur = cur.keyType;
      else cur = cur.fields?.get(seg)?.type;
    }
    if (!cur) return undefined;
    return { min: 0, max: cur.maxElements };
  }

  size(n: ASTNode): Est {
    const s = this.sizes.get(n);
    if (s) return s;
    if (n.op === 'value') {
      const v = n.args;
      if (typeof v === 'string') return E.fixed([...v].length);
      if (v instanceof Uint8Array) return E.fixed(v.length);
      return E.fixed(1);
    }
    const est = this.estimateSize(this.pathOf(n));
    if (est) {
      this.sizes.set(n, est);
      return est;
    }
    const t = this.typeOf(n);
    if (t && ['bool', 'double', 'duration', 'int', 'timestamp', 'uint', 'null_type'].includes(t.kind)) return E.fixed(1);
    if (n.op === 'id') {
      const lv = this.peek(n.args);
      if (lv?.size) return lv.size;
    }
    return UNKNOWN;
  }

  private entry(n: ASTNode): Entry | undefined {
    const e = this.entries.get(n);
    if (e) return e;
    if (n.op === 'id') return this.peek(n.args)?.entry;
    return undefined;
  }

  private peek(name: string): LocalVar | undefined {
    const s = this.locals.get(name);
    return s && s.length ? s[s.length - 1] : undefined;
  }
  private push(name: string, v: LocalVar) {
    const s = this.locals.get(name) ?? [];
    s.push(v);
    this.locals.set(name, s);
  }
  private pop(name: string) {
    this.locals.get(name)?.pop();
  }

  cost(n: ASTNode): Est {
    switch (n.op) {
      case 'value':
        return ZERO;
      case 'id': {
        const lv = this.peek(n.args);
        if (lv) {
          if (lv.path) this.paths.set(n, lv.path);
        } else this.paths.set(n, [n.args]);
        return E.fixed(1);
      }
      case '.':
      case '.?': {
        const [obj, field] = n.args;
        let c = this.cost(obj);
        const t = this.typeOf(obj);
        if (t && (t.kind === 'map' || t.kind === 'object' || t.kind === 'param')) c = E.add(c, E.fixed(1));
        else if (n.op === '.?') c = E.add(c, E.fixed(1));
        // cel-go appends to the operand's path even when it has none (then the estimator sees the root).
        this.paths.set(n, [...(this.pathOf(obj) ?? []), field]);
        return c;
      }
      case '[]':
      case '[?]': {
        const [obj, idx] = n.args;
        const c = E.add(E.add(this.cost(obj), this.cost(idx)), E.fixed(1));
        const t = this.typeOf(obj);
        const p = this.pathOf(obj);
        const ent = this.entry(obj);
        if (ent) this.sizes.set(n, ent.val);
        if (t?.kind === 'list') this.paths.set(n, [...(p ?? []), '@items']);
        else if (t?.kind === 'map') this.paths.set(n, [...(p ?? []), '@values']);
        return c;
      }
      case 'list': {
        let sum = ZERO;
        let item: Est = n.args.length === 0 ? { min: 0, max: 0 } : { min: MAX, max: 0 };
        for (const e of n.args) {
          sum = E.add(sum, this.cost(e));
          item = E.union(item, this.size(e));
        }
        this.entries.set(n, { val: item });
        this.sizes.set(n, E.fixed(n.args.length));
        return E.add(sum, E.fixed(LIST_CREATE_BASE));
      }
      case 'map': {
        let sum = ZERO;
        let val: Est = n.args.length === 0 ? { min: 0, max: 0 } : { min: MAX, max: 0 };
        for (const [k, v] of n.args) {
          sum = E.add(E.add(sum, this.cost(k)), this.cost(v));
          val = E.union(val, this.size(v));
        }
        this.entries.set(n, { val });
        this.sizes.set(n, E.fixed(n.args.length));
        return E.add(sum, E.fixed(MAP_CREATE_BASE));
      }
      case '&&':
      case '||': {
        const [a, b] = n.args;
        const ca = this.cost(a);
        const cb = this.cost(b);
        return { min: ca.min, max: add(ca.max, cb.max) };
      }
      case '?:': {
        const [c, a, b] = n.args;
        const cc = this.cost(c);
        const ca = this.cost(a);
        const cb = this.cost(b);
        this.sizes.set(n, E.union(this.size(a), this.size(b)));
        return E.add(cc, E.union(ca, cb));
      }
      case '!_':
      case '-_':
        return E.add(this.cost(n.args), E.fixed(1));
      case 'call':
        return this.costCall(n, n.args[0], undefined, n.args[1]);
      case 'rcall':
        return this.costCall(n, n.args[0], n.args[1], n.args[2]);
      default: {
        const [a, b] = n.args as [ASTNode, ASTNode];
        const ca = this.cost(a);
        const cb = this.cost(b);
        const args = E.add(ca, cb);
        const ta = this.typeOf(a);
        switch (n.op) {
          case '==':
          case '!=':
            return E.add(this.equalityCost(a, b), args);
          case '<':
          case '<=':
          case '>':
          case '>=':
            if (ta && (ta.kind === 'string' || ta.kind === 'bytes')) return E.add(this.equalityCost(a, b), args);
            return E.add(args, E.fixed(1));
          case '+':
            if (ta && (ta.kind === 'string' || ta.kind === 'bytes' || ta.kind === 'list')) {
              const rs = E.add(this.size(a), this.size(b));
              this.sizes.set(n, rs);
              const ea = this.entry(a);
              const eb = this.entry(b);
              if (ea || eb) this.entries.set(n, { val: ea && eb ? E.union(ea.val, eb.val) : (ea ?? eb)!.val });
              if (ta.kind === 'list') return E.add(E.fixed(1), args);
              return E.add(E.factor(rs, STRING_TRAVERSAL), args);
            }
            return E.add(args, E.fixed(1));
          case 'in': {
            const tb = this.typeOf(b);
            if (tb?.kind === 'list') return E.add(E.factor(this.size(b), 1), args);
            return E.add(args, E.fixed(1));
          }
          default:
            return E.add(args, E.fixed(1));
        }
      }
    }
  }

  private equalityCost(a: ASTNode, b: ASTNode): Est {
    const la = this.size(a);
    const lb = this.size(b);
    const smallestMax = Math.min(la.max, lb.max);
    return E.factor({ min: smallestMax > 0 ? 1 : 0, max: smallestMax }, STRING_TRAVERSAL);
  }

  private listElemSize(target: ASTNode): { size: Est; kind?: string } | undefined {
    const t = this.typeOf(target);
    if (t?.kind !== 'list') return undefined;
    const ent = this.entry(target);
    const p = this.pathOf(target);
    const sz = ent?.val ?? this.estimateSize(p ? [...p, '@items'] : undefined) ?? UNKNOWN;
    return { size: sz, kind: t.elem.kind };
  }

  private costCall(n: ASTNode, name: string, target: ASTNode | undefined, args: ASTNode[]): Est {
    if (!target && name === 'has') {
      const sel = args[0];
      // The API server's base env sets PresenceTestHasCost(false): has() costs only its operand.
      if (sel && (sel.op === '.' || sel.op === '.?')) return this.cost(sel.args[0]);
      return ZERO;
    }
    if (target && COMPREHENSIONS.has(name) && args.length >= 2 && args[0].op === 'id') return this.costComprehension(n, name, target, args);
    if (!target && name === 'dyn' && args.length === 1) {
      const c = this.cost(args[0]);
      const s = this.sizes.get(args[0]);
      if (s) this.sizes.set(n, s);
      const p = this.pathOf(args[0]);
      if (p) this.paths.set(n, p);
      return E.add(c, E.fixed(1));
    }
    // Namespaced global (optional.of, sets.contains): the receiver is not evaluated.
    const isNamespace = target && target.op === 'id' && /^(optional|sets|lists|strings|format|ip|math)$/.test(target.args) && !this.peek(target.args) && target.args !== 'self' && target.args !== 'oldSelf';
    let argSum = ZERO;
    if (target && !isNamespace) argSum = E.add(argSum, this.cost(target));
    for (const a of args) argSum = E.add(argSum, this.cost(a));
    const fn = isNamespace ? `${target!.args}.${name}` : name;
    const tgt = isNamespace ? undefined : target;
    const sizeOf = (x: ASTNode) => this.size(x);
    switch (fn) {
      case 'startsWith':
      case 'endsWith':
        if (tgt && args.length === 1) return E.add(E.factor(sizeOf(args[0]), STRING_TRAVERSAL), argSum);
        break;
      case 'contains':
        if (tgt && args.length === 1) return E.add(E.mul(E.factor(sizeOf(tgt), STRING_TRAVERSAL), E.factor(sizeOf(args[0]), STRING_TRAVERSAL)), argSum);
        break;
      case 'matches': {
        const s = tgt ?? args[0];
        const r = tgt ? args[0] : args[1];
        if (s && r) {
          const strCost = E.factor(E.add(sizeOf(s), E.fixed(1)), STRING_TRAVERSAL);
          return E.add(E.mul(strCost, E.factor(sizeOf(r), REGEX_STRING_LENGTH)), argSum);
        }
        break;
      }
      case 'string':
      case 'bytes':
        if (!tgt && args.length === 1) {
          const at = this.typeOf(args[0]);
          const dyn = at?.kind === 'dyn';
          if ((fn === 'string' && at?.kind === 'bytes') || (fn === 'bytes' && at?.kind === 'string') || dyn) {
            const sz = sizeOf(args[0]);
            this.sizes.set(n, fn === 'bytes' ? { min: sz.min, max: mulN(sz.max, 4) } : { min: Math.floor(sz.min / 4), max: sz.max });
            // A dyn argument keeps every overload: cel-go unions their costs (the others are fixed 1) and
            // takes the result size from the only one that has it (bytes_to_string / string_to_bytes).
            const cost = E.factor(sz, STRING_TRAVERSAL);
            return E.add(dyn ? E.union(E.fixed(1), cost) : cost, argSum);
          }
        }
        break;
      case 'isSorted':
      case 'sum':
      case 'max':
      case 'min':
      case 'indexOf':
      case 'lastIndexOf':
        if (tgt) {
          const el = this.listElemSize(tgt);
          if (el) {
            let elCost = E.fixed(1);
            if (el.kind === 'string' || el.kind === 'bytes') elCost = E.add(elCost, E.factor(el.size, STRING_TRAVERSAL));
            return E.add(E.mul(sizeOf(tgt), elCost), argSum);
          }
          return E.add(E.factor(sizeOf(tgt), STRING_TRAVERSAL), argSum);
        }
        break;
      case 'url':
        if (args.length === 1) {
          const sz = sizeOf(args[0]);
          this.sizes.set(n, sz);
          return E.add(E.factor(sz, STRING_TRAVERSAL), argSum);
        }
        break;
      case 'lowerAscii':
      case 'upperAscii':
      case 'substring':
      case 'trim':
        if (tgt) {
          const sz = sizeOf(tgt);
          this.sizes.set(n, sz);
          return E.add(E.factor(sz, STRING_TRAVERSAL), argSum);
        }
        break;
      case 'replace':
      case 'split':
        if (tgt) return E.add(E.factor(sizeOf(tgt), 2 * STRING_TRAVERSAL), argSum);
        break;
      case 'join':
        if (tgt) {
          const el = this.listElemSize(tgt);
          const sz = el ? E.mul(sizeOf(tgt), el.size) : ZERO;
          this.sizes.set(n, sz);
          return E.add(E.factor(sz, STRING_TRAVERSAL), argSum);
        }
        break;
      case 'find':
      case 'findAll':
        if (tgt && args.length >= 1) {
          const sz = sizeOf(tgt);
          const strCost = E.factor(E.add(sz, E.fixed(1)), STRING_TRAVERSAL);
          return E.add(E.mul(strCost, E.factor(sizeOf(args[0]), REGEX_STRING_LENGTH)), argSum);
        }
        break;
      case 'cidr':
      case 'isIP':
      case 'isCIDR':
      case 'ip':
      case 'quantity':
      case 'isQuantity':
      case 'semver':
      case 'isSemver':
        if (args.length >= 1) return E.add(E.factor(sizeOf(args[0]), STRING_TRAVERSAL), argSum);
        break;
    }
    return E.add(E.fixed(1), argSum);
  }

  private costComprehension(n: ASTNode, name: string, range: ASTNode, args: ASTNode[]): Est {
    let sum = this.cost(range);
    const rt = this.typeOf(range);
    const rangePath = this.pathOf(range);
    const rangeEntry = this.entry(range);
    const twoVar = args.length >= 3 && args[1].op === 'id' && (name !== 'map' && name !== 'filter' && name !== 'optMap' && name !== 'optFlatMap');
    const v1 = (args[0] as ASTNode & { op: 'id' }).args;
    const body = args.slice(twoVar ? 2 : 1);
    if (name === 'optMap' || name === 'optFlatMap') {
      this.push(v1, { path: undefined });
      const c = this.cost(body[0]);
      this.pop(v1);
      return E.add(E.add(sum, c), E.fixed(1));
    }
    const isMap = rt?.kind === 'map';
    const rp = rangePath ?? [];
    if (twoVar) {
      const v2 = (args[1] as ASTNode & { op: 'id' }).args;
      this.push(v1, { path: [...rp, isMap ? '@keys' : '@indices'] });
      this.push(v2, { path: [...rp, isMap ? '@values' : '@items'], size: rangeEntry?.val });
    } else {
      this.push(v1, { path: [...rp, isMap ? '@keys' : '@items'], size: isMap ? undefined : rangeEntry?.val });
    }
    const bodyCosts = body.map((b) => this.cost(b));
    this.pop(v1);
    if (twoVar) this.pop((args[1] as ASTNode & { op: 'id' }).args);
    const last = bodyCosts[bodyCosts.length - 1] ?? ZERO;
    let init = ZERO;
    let cond = ZERO;
    let step = ZERO;
    let result = E.fixed(1);
    switch (name) {
      case 'all':
        cond = E.fixed(2);
        step = E.add(E.fixed(1), last);
        break;
      case 'exists':
        cond = E.fixed(3);
        step = E.add(E.fixed(1), last);
        break;
      case 'exists_one':
      case 'existsOne':
        step = E.add(last, E.fixed(2));
        result = E.fixed(2);
        break;
      case 'map':
      case 'transformList':
      case 'transformMap':
      case 'transformMapEntry':
      case 'sortBy':
        init = E.fixed(LIST_CREATE_BASE);
        if (bodyCosts.length === 2) step = E.add(bodyCosts[0], E.add(E.fixed(12), last));
        else step = E.add(E.fixed(12), last);
        this.sizes.set(n, this.size(range));
        break;
      case 'filter':
        init = E.fixed(LIST_CREATE_BASE);
        step = E.add(last, E.fixed(13));
        this.sizes.set(n, this.size(range));
        if (rangeEntry) this.entries.set(n, rangeEntry);
        break;
    }
    sum = E.add(E.add(sum, init), result);
    const cnt = this.size(range);
    return E.add(sum, E.mul(cnt, E.add(step, cond)));
  }
}

const COMPREHENSIONS = new Set(['all', 'exists', 'exists_one', 'existsOne', 'map', 'filter', 'transformList', 'transformMap', 'transformMapEntry', 'optMap', 'optFlatMap', 'sortBy']);

/** Worst-case cost of an expression (CostEstimate.Max) for rules whose self has type root. */
export function estimateCost(ast: ASTNode, root: DeclType, typeOf: (n: ASTNode) => CelType | undefined): number {
  try {
    return new Coster(root, typeOf).cost(ast).max;
  } catch {
    return 0;
  }
}

