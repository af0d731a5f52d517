/**
 * cel-go's HomogeneousAggregateLiterals check, done by us after type-checking so that, as in cel-go's
 * string-format validator, list/map literals inside a `format()` call are exempt (cel-js can only turn
 * its own check on or off for the whole expression).
 */

interface Node {
  op: string;
  args: unknown;
  checkedType?: { name: string; kind?: string; valueType?: { name: string } };
}

function isNode(x: unknown): x is Node {
  return typeof x === 'object' && x !== null && typeof (x as Node).op === 'string' && 'args' in (x as object);
}

function typeName(n: Node): string | undefined {
  const t = n.checkedType;
  if (!t) return undefined;
  return t.name.startsWith('dyn<') ? 'dyn' : t.name;
}

/** cel-go's FormatCELType spelling of a cel-js type name: list(int), map(string, int). */
export function celGoType(name: string): string {
  return name.replace(/</g, '(').replace(/>/g, ')');
}

/** First heterogeneous literal, worded as cel-go: "expected type 'int' but found 'string'". */
export function validateHomogeneousLiterals(root: unknown): string | undefined {
  let found: string | undefined;
  const seen = new Set<unknown>();
  const compare = (nodes: Node[]) => {
    let first: string | undefined;
    for (const n of nodes) {
      if (found) return;
      const t = typeName(n);
      if (t === undefined || (n.checkedType as { hasPlaceholderType?: boolean }).hasPlaceholderType) continue;
      if (first === undefined) first = t;
      else if (t !== first) found = `expected type '${celGoType(first)}' but found '${celGoType(t)}'`;
    }
  };
  const go = (x: unknown): void => {
    if (found || x === null || typeof x !== 'object' || seen.has(x)) return;
    seen.add(x);
    if (Array.isArray(x)) {
      for (const y of x) go(y);
      return;
    }
    if (!isNode(x)) {
      if (Object.getPrototypeOf(x) === Object.prototype) for (const y of Object.values(x)) go(y);
      return;
    }
    if (x.op === 'rcall' && Array.isArray(x.args) && typeof x.args[0] === 'string' && x.args[0].startsWith('format')) {
      go(x.args[1]);
      return;
    }
    if (x.op === 'list' && Array.isArray(x.args)) compare(x.args.filter(isNode));
    if (x.op === 'map' && Array.isArray(x.args)) {
      const pairs = x.args.filter((p): p is [Node, Node] => Array.isArray(p) && isNode(p[0]) && isNode(p[1]));
      compare(pairs.map((p) => p[0]));
      compare(pairs.map((p) => p[1]));
    }
    go(x.args);
  };
  go(root);
  return found;
}
