/**
 * Random inputs for the robustness tests: a seeded PRNG (so a failure reproduces from the printed seed),
 * text mutations of real files, pathological YAML, and grammar-based CEL expressions and regex patterns.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { needsShared, sharedPath } from '../shared';
import { crdYaml } from '../crd';

export const ROOT = join(__dirname, '..', '..');
export const REALWORLD = sharedPath('realworld', 'crds');

/** Iterations scale: CRD_YAML_FUZZ_ITERATIONS overrides each test's default count (longer runs). */
export function iterations(defaultCount: number): number {
  const v = Number(process.env.CRD_YAML_FUZZ_ITERATIONS);
  return Number.isFinite(v) && v > 0 ? Math.floor(v) : defaultCount;
}

/**
 * The run's seed: CRD_YAML_FUZZ_SEED to reproduce; in CI (CI=true) a fixed one, so that a landing is never
 * decided by chance; else a fresh one each run (printed by the tests on failure).
 */
export function seed(): number {
  const v = Number(process.env.CRD_YAML_FUZZ_SEED);
  if (Number.isFinite(v) && process.env.CRD_YAML_FUZZ_SEED) return v >>> 0;
  if (process.env.CI === 'true') return 20261122;
  return (Math.random() * 2 ** 32) >>> 0;
}

/** A small seeded PRNG (mulberry32) with the helpers the generators need. */
export class Rng {
  private s: number;
  constructor(readonly seed: number) {
    this.s = seed >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }
}

/** Real CRD files of at most `maxBytes` (sorted, so a seed picks the same files on every machine). */
export function realCrdFiles(maxBytes: number): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir).sort()) {
      const p = join(dir, e);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(e) && st.size <= maxBytes) out.push(p);
    }
  };
  // Without the shared corpus (a fresh clone) the examples still run; CI requires it (needsShared throws).
  needsShared('realworld', 'crds');
  try {
    walk(REALWORLD);
  } catch {
    // The shared corpus may be absent elsewhere: the examples still run.
  }
  return out;
}

/** The example files of the repository (CRDs and CRs). */
export function exampleFiles(): string[] {
  const dir = join(ROOT, 'examples');
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => join(dir, f));
}

export function readText(file: string): string {
  return readFileSync(file, 'utf8');
}

/** Fragments that tend to break YAML parsers and our path/offset mapping. */
const JUNK = [
  '{',
  '}',
  '[',
  ']',
  ':',
  ': ',
  '- ',
  '-',
  '"',
  "'",
  '\n',
  '\r\n',
  '\r',
  '  ',
  '\t',
  '&a ',
  '*a',
  '*nope',
  '!!binary ',
  '!!str ',
  '!custom ',
  '---\n',
  '...\n',
  '|',
  '|-\n',
  '>+\n',
  '#',
  '? ',
  '%YAML 1.2\n',
  '<<: *a\n',
  '\u0000',
  '\ufeff',
  '💥',
  'é',
  '\u2028',
  'null',
  '~',
  'true',
  '1e309',
  '-0',
  '0x1F',
  '.inf',
  '9223372036854775808',
  '1.0',
  '"\\u00',
  "'it''s'",
  'x-kubernetes-validations:\n- rule: self.',
  'type: object\n',
  'properties:\n',
  'default: {}\n',
  'pattern: "("\n',
  'x-kubernetes-preserve-unknown-fields: true\n',
  'apiVersion: v1\n',
  'kind: \n',
];

/** Schema keywords and CR-ish keys, with values of every kind (most of them wrong somewhere). */
const KEYWORDS = [
  'type',
  'format',
  'default',
  'enum',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'required',
  'items',
  'properties',
  'additionalProperties',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'nullable',
  'x-kubernetes-int-or-string',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
  'x-kubernetes-validations',
  '$ref',
  'description',
  'example',
  'dependencies',
  'served',
  'storage',
  'scope',
  'name',
  'kind',
  'apiVersion',
  'replicas',
  'image',
  'metadata',
  'spec',
  'status',
  'labels',
  'finalizers',
  'conversion',
  'subresources',
  'scale',
  'selectableFields',
  'additionalPrinterColumns',
  'jsonPath',
  'messageExpression',
  'rule',
  'fieldPath',
  'reason',
  'optionalOldSelf',
];
const VALUES = [
  'string',
  'integer',
  'number',
  'object',
  'array',
  'boolean',
  'null',
  'true',
  'false',
  '0',
  '-1',
  '1.5',
  '9223372036854775808',
  '""',
  '[]',
  '{}',
  '[a, b]',
  '{a: 1}',
  'int-or-string',
  'date-time',
  'atomic',
  'map',
  'set',
  'granular',
  '[name]',
  '"^a$"',
  '"("',
  '{type: string}',
  '[{type: string}]',
  '[{rule: "self.x > 0"}]',
  '[{rule: "self == oldSelf", optionalOldSelf: true}]',
  '{status: {}, scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}}',
  '"#/definitions/x"',
  'Namespaced',
  'Cluster',
  'v1',
  '{strategy: Webhook}',
  '[{jsonPath: .spec.x}]',
  '.spec.nope',
  "'1h'",
  '&x {}',
  '*x',
  '!!int "3"',
];

/** One random edit: [start, deleteCount, insertText] on `text`. */
export function randomEdit(r: Rng, text: string): [number, number, string] {
  const len = text.length;
  const at = r.int(len + 1);
  switch (r.int(10)) {
    case 8:
    case 9: {
      // A keyword line at the indentation of the line here (a plausible, often wrong, schema edit),
      // or the value of this line replaced.
      const s = text.lastIndexOf('\n', at - 1) + 1;
      const indent = /^[ -]*/.exec(text.slice(s, s + 200))![0].replace(/-/g, ' ');
      const colon = text.indexOf(': ', s);
      const eol = text.indexOf('\n', s);
      const e = eol < 0 ? len : eol;
      if (r.chance(0.5) && colon >= 0 && colon < e) return [colon + 2, e - colon - 2, r.pick(VALUES)];
      return [s, 0, `${indent}${r.pick(KEYWORDS)}: ${r.pick(VALUES)}\n`];
    }
    case 0: // insert junk
      return [at, 0, r.pick(JUNK)];
    case 1: // delete a few characters
      return [at, Math.min(len - at, 1 + r.int(20)), ''];
    case 2: // replace a character with a random printable one
      return [at, Math.min(len - at, 1), String.fromCharCode(32 + r.int(95))];
    case 3: {
      // delete whole lines
      const s = text.lastIndexOf('\n', at - 1) + 1;
      let e = s;
      for (let k = 1 + r.int(4); k > 0 && e < len; k--) {
        const n = text.indexOf('\n', e);
        e = n < 0 ? len : n + 1;
      }
      return [s, e - s, ''];
    }
    case 4: {
      // duplicate a block of lines somewhere else
      const s = text.lastIndexOf('\n', at - 1) + 1;
      let e = text.indexOf('\n', Math.min(len, s + r.int(400)));
      e = e < 0 ? len : e + 1;
      const block = text.slice(s, e);
      return [text.lastIndexOf('\n', r.int(len + 1) - 1) + 1, 0, block];
    }
    case 5: // change indentation of a line
      return [text.lastIndexOf('\n', at - 1) + 1, 0, r.pick([' ', '  ', '    ', '\t'])];
    case 6: // insert a random character
      return [at, 0, String.fromCharCode(r.chance(0.9) ? 32 + r.int(95) : r.int(0x3000))];
    default: {
      // move a line
      const s = text.lastIndexOf('\n', at - 1) + 1;
      const n = text.indexOf('\n', s);
      const e = n < 0 ? len : n + 1;
      return [s, e - s, r.chance(0.5) ? '' : text.slice(s, e) + text.slice(s, e)];
    }
  }
}

export function applyEdit(text: string, [at, del, ins]: [number, number, string]): string {
  return text.slice(0, at) + ins + text.slice(at + del);
}

/** `text` after `n` random edits. */
export function mutate(r: Rng, text: string, n: number): string {
  for (let i = 0; i < n; i++) text = applyEdit(text, randomEdit(r, text));
  return text;
}

/**
 * Pathological whole-file inputs: deep nesting, huge scalars, long lines, many documents. `long` ones
 * (several MB of YAML each) run only in the long run (CRD_YAML_FUZZ_ITERATIONS set).
 */
export function pathologicalInputs(): Array<{ name: string; text: string; long?: boolean }> {
  const deep = 10_000;
  const big = 'x'.repeat(10 * 1024 * 1024);
  return [
    { name: '10k [', text: '['.repeat(deep) },
    { name: '10k [ closed', long: true, text: '['.repeat(deep) + ']'.repeat(deep) },
    { name: '10k {a:', long: true, text: '{a: '.repeat(deep) + '1' + '}'.repeat(deep) },
    // Block nesting costs its indentation (n levels are n²/2 characters): 2,000 levels is 2 MB already.
    { name: '2k block "- " levels', long: true, text: Array.from({ length: 2000 }, (_, i) => ' '.repeat(i) + '- ').join('\n') },
    { name: '2k block map levels', long: true, text: Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n') + ' x' },
    { name: '10k "- " on one line', text: '- '.repeat(deep) + 'x' },
    // Just under the YAML layer's depth limit (400): composed, so every feature sees 399 levels.
    { name: '399 [ closed', text: '['.repeat(399) + ']'.repeat(399) },
    { name: '399 block levels', text: Array.from({ length: 399 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n') + ' x' },
    {
      name: 'CR with 390 nested lists',
      text: `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: x\nspec:\n  image: ${'['.repeat(390)}${']'.repeat(390)}\n  x: ${'{a: '.repeat(390)}1${'}'.repeat(390)}\n`,
    },
    { name: 'CR with 10k nested lists', text: `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: x\nspec:\n  image: ${'['.repeat(deep)}${']'.repeat(deep)}\n` },
    { name: 'CR with 10k nested maps', long: true, text: `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: x\nspec:\n  x: ${'{a: '.repeat(deep)}1${'}'.repeat(deep)}\n` },
    { name: 'CRD with 10k nested schema', text: nestedSchemaCrd(3000) },
    { name: 'CRD with 10k nested block schema', long: true, text: nestedBlockSchemaCrd(600) },
    { name: '10 MB scalar value', text: `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: x\nspec:\n  cronSpec: ${big}\n  image: "${big.slice(0, 1024 * 1024)}"\n` },
    { name: '10 MB plain scalar', long: true, text: big },
    { name: '10 MB comment', long: true, text: `# ${big}\napiVersion: v1\n` },
    { name: '10 MB key', long: true, text: `${big.slice(0, 1024 * 1024)}: 1\n` },
    { name: '2k documents', text: '---\na: 1\n'.repeat(2000) },
    { name: '20k documents', long: true, text: '---\na: 1\n'.repeat(20_000) },
    { name: '50k aliases (billion laughs)', text: laughs() },
    { name: 'long line of flow items', long: true, text: `[${Array.from({ length: 200_000 }, (_, i) => i).join(',')}]` },
    { name: 'CRD with 10 MB description', long: true, text: nestedSchemaCrd(1).replace('type: object', `type: object\n            description: "${big}"`) },
  ];
}

function laughs(): string {
  let s = 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n';
  for (let i = 1; i < 10; i++)
    s += `a${i}: &a${i} [${Array(10)
      .fill(`*a${i - 1}`)
      .join(', ')}]\n`;
  return `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: x\nspec:\n  image: x\n  extra:\n    ${s.replace(/\n/g, '\n    ')}`;
}

/** The names of the fuzz runs' CRD (test/crd.ts crdYaml). */
export const FUZZ_CRD = { kind: 'Fuzz', group: 'fuzz.example.com' };

function nestedSchemaCrd(depth: number): string {
  // Flow style so the depth is not limited by indentation width.
  const open = '{type: object, properties: {a: '.repeat(depth);
  const close = '}}'.repeat(depth);
  return crdYaml(`type: object\nproperties:\n  spec: ${open}{type: string}${close}`, FUZZ_CRD);
}

function nestedBlockSchemaCrd(depth: number): string {
  let s = 'type: object\nproperties:\n';
  let ind = '  ';
  for (let i = 0; i < depth; i++) {
    s += `${ind}a:\n${ind}  type: object\n${ind}  x-kubernetes-validations:\n${ind}  - rule: "has(self.a) || true"\n${ind}  properties:\n`;
    ind += '    ';
  }
  s += `${ind}leaf:\n${ind}  type: string\n`;
  return crdYaml(s, FUZZ_CRD);
}

// ---------------------------------------------------------------- CEL

/** Random CEL expressions, typed loosely after a small schema (self.s string, self.n int, self.l list of strings, self.m map). */
export function celExpr(r: Rng, depth = 0): string {
  const leaf = () =>
    r.pick([
      'self.s',
      'self.n',
      'self.l',
      'self.m',
      'self.o',
      'self.o.x',
      'self',
      '1',
      '0',
      '-1',
      '9223372036854775807',
      '-9223372036854775808',
      '1u',
      '2.5',
      '"a"',
      "'b'",
      '""',
      'true',
      'false',
      'null',
      '[]',
      '{}',
      '[1, 2, 3]',
      "{'a': 1}",
      'b"xyz"',
      'r"\\d+"',
      'x',
      'oldSelf',
      'duration("1h")',
      'timestamp("2024-01-01T00:00:00Z")',
      'self.l[0]',
      "self.m['k']",
      'int',
      'string',
      'dyn(self)',
      'self.?o',
      '"\\u00e9"',
    ]);
  if (depth > 5 || r.chance(0.25 + depth * 0.1)) return leaf();
  const e = () => celExpr(r, depth + 1);
  const v = r.pick(['x', 'y', 'z', 'e', 'k']);
  switch (r.int(22)) {
    case 0:
      return `${e()} ${r.pick(['+', '-', '*', '/', '%', '==', '!=', '<', '<=', '>', '>=', '&&', '||', 'in'])} ${e()}`;
    case 1:
      return `${r.pick(['!', '-', '!!', '--'])}${e()}`;
    case 2:
      return `${e()} ? ${e()} : ${e()}`;
    case 3:
      return `(${e()})`;
    case 4:
      return `${e()}.${r.pick(['all', 'exists', 'exists_one', 'map', 'filter'])}(${v}, ${e()})`;
    case 5:
      return `${e()}.map(${v}, ${e()}, ${e()})`;
    case 6:
      return `size(${e()})`;
    case 7:
      return `has(${r.pick(['self.s', 'self.o.x', 'self.m.k', 'self.l', 'self.nope', 'x.y', 'self'])})`;
    case 8:
      return `${e()}.${r.pick(['startsWith', 'endsWith', 'contains', 'matches', 'split', 'lowerAscii', 'upperAscii', 'indexOf', 'replace', 'substring', 'find', 'findAll', 'join', 'trim', 'charAt'])}(${e()}${r.chance(0.3) ? `, ${e()}` : ''})`;
    case 9:
      return `${r.pick(['int', 'uint', 'double', 'string', 'bytes', 'bool', 'dyn', 'type', 'duration', 'timestamp', 'quantity', 'isQuantity', 'url', 'isURL', 'ip', 'isIP', 'cidr', 'isCIDR', 'format.named', 'semver', 'isSemver'])}(${e()})`;
    case 10:
      return `[${e()}, ${e()}${r.chance(0.5) ? `, ${e()}` : ''}]`;
    case 11:
      return `{${e()}: ${e()}}`;
    case 12:
      return `${e()}[${e()}]`;
    case 13:
      return `${e()}.${r.pick(['s', 'n', 'l', 'm', 'o', 'x', 'nope', 'all', 'size'])}`;
    case 14:
      return `${e()}.${r.pick(['isSorted', 'sum', 'min', 'max', 'reverse', 'distinct', 'size'])}()`;
    case 15:
      return `${e()}.${r.pick(['indexOf', 'lastIndexOf', 'slice', 'flatten', 'sortBy'])}(${e()})`;
    case 16:
      return `${e()}.${r.pick(['getHours', 'getFullYear', 'getSeconds'])}()`;
    case 17:
      // comprehension blow-up: nested quantifiers over the same list
      return `self.l.all(${v}, self.l.all(w, self.l.exists(q, ${e()})))`;
    case 18:
      // quadratic/exponential string building
      return `self.l.map(${v}, self.l.map(w, ${v} + w + self.s)).size() > ${r.int(100)}`;
    case 19:
      return `optional.of(${e()}).orValue(${e()})`;
    case 20:
      return `${e()}.${r.pick(['isLessThan', 'compareTo', 'add', 'sub', 'isGreaterThan', 'major', 'asInteger', 'asApproximateFloat', 'sign'])}(${r.chance(0.5) ? e() : ''})`;
    default:
      return `${e()}${r.pick(['.', '(', ')', '[', ']', ',', '?', ':', '"', '\\', '#', ' @', '$'])}${r.chance(0.5) ? e() : ''}`;
  }
}

/** Expressions known to be expensive when cost limits are not enforced. */
export const CEL_BLOWUPS = [
  'self.l.all(a, self.l.all(b, self.l.all(c, self.l.all(d, self.l.all(e, self.l.all(f, a + b + c + d + e + f != "x"))))))',
  '[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, [1,2,3,4,5,6,7,8,9,10].all(f, a+b+c+d+e+f > 0))))))',
  'self.s.matches("(a+)+$")',
  'self.s.matches("(a|aa)*c") && self.s.matches("(.*a){25}")',
  'self.l.map(x, self.l.map(y, self.l.map(z, x + y + z))).size() > 0',
  "self.s.replace('a', self.s + self.s).replace('a', self.s + self.s).size() > 0",
  "self.s.split('').map(x, self.s.split('')).size() > 0",
  'self.l.sortBy(x, x).all(x, true)',
  'self.m.all(k, self.m.all(j, self.m[k] == self.m[j]))',
  '[0,1,2,3,4,5,6,7,8,9].map(a, [0,1,2,3,4,5,6,7,8,9].map(b, [0,1,2,3,4,5,6,7,8,9].map(c, [0,1,2,3,4,5,6,7,8,9].map(d, [0,1,2,3,4,5,6,7,8,9].map(e, a))))).size() == 10',
  `${'('.repeat(5000)}1${')'.repeat(5000)} == 1`,
  `${Array(20000).fill('1').join(' + ')} > 0`,
  `${Array(20000).fill('true').join(' && ')}`,
  // dyn() escapes the cost estimate's bounds: only the runtime cost budget and deadline stop these.
  'dyn(self).x.all(a, dyn(self).x.all(b, dyn(self).x.all(c, a + b + c != "-")))',
  'dyn(self).x.map(a, dyn(self).x.map(b, a + b)).size() > 0',
  'dyn(self).x.all(a, a.matches("^(s+)+$")) && dyn(self).x.join(",").size() > 0',
];

/** Blow-ups made of huge literals (a few hundred ms of parsing each): the long run only. */
export const CEL_LONG_BLOWUPS = [
  `[${Array(20000).fill('1').join(',')}].all(x, x == 1)`,
  `"${'a'.repeat(200000)}".matches("${'a?'.repeat(500)}${'a'.repeat(500)}")`,
  `${Array(3000).fill('self.s').join(' + ')} != ""`,
  `${'!'.repeat(20000)}true`,
];

// ---------------------------------------------------------------- regex

/** Random regex patterns (RE2 and not-RE2 syntax, catastrophic-backtracking shapes included). */
export function regexPattern(r: Rng, depth = 0): string {
  const atom = () =>
    r.pick([
      'a',
      'b',
      '.',
      '\\d',
      '\\w',
      '\\s',
      '[a-z]',
      '[^a]',
      '\\p{L}',
      '\\p{Greek}',
      '\\pN',
      '[[:alpha:]]',
      '\\b',
      '^',
      '$',
      '\\\\',
      '\\.',
      'é',
      '\\x{10FFFF}',
      '\\Q.*\\E',
      '\\1',
      '(?=a)',
      '(?<n>a)',
      '(?P<n>a)',
      '(?i)a',
      '\\z',
      '\\Z',
      '[',
      ')',
      '(',
      '*',
      '\\',
      '{2}',
      '[z-a]',
      '\\C',
      '\\X',
    ]);
  if (depth > 4 || r.chance(0.3)) return atom();
  const p = () => regexPattern(r, depth + 1);
  switch (r.int(8)) {
    case 0:
      return `(${p()})${r.pick(['*', '+', '?', '{2,}', '{0,5}', '{1000}', '{1001}', '*?', '++', ''])}`;
    case 1:
      return `${p()}|${p()}`;
    case 2:
      return `${p()}${p()}`;
    case 3:
      return `(?:${p()})${r.pick(['{100}', '{1000}', '{10,1000}', '*'])}`;
    case 4:
      return `(${p()}+)+${r.pick(['$', 'b', '!'])}`;
    case 5:
      return `[${r.pick(['a-z', '^\\s', '\\d-z', ':alpha:', '\\p{Han}', ']'])}]${r.pick(['*', '+', '{3}'])}`;
    case 6:
      return `(${p()}|${p()})*${p()}`;
    default:
      return `${p()}${r.pick(['*', '+', '?', '{1,3}'])}`;
  }
}

export const REGEX_BLOWUPS = [
  '(a+)+$',
  '(a|aa)+$',
  '(.*a){20}',
  '(a*)*b',
  '^(([a-z])+.)+[A-Z]([a-z])+$',
  '(x+x+)+y',
  '((a{1000}){1000}){1000}',
  '(?:a{1000}){1000}',
  '(\\w+\\s?)+$',
  `${'(a?)'.repeat(1000)}${'a'.repeat(1000)}`,
];

/** A YAML double-quoted scalar of any string. */
export function yq(s: string): string {
  return JSON.stringify(s);
}

// ---------------------------------------------------------------- schema mutations

type Json = unknown;

/** A random JSON value (any kind), small. */
export function randomJson(r: Rng, depth = 0): Json {
  switch (r.int(depth > 2 ? 6 : 8)) {
    case 0:
      return null;
    case 1:
      return r.chance(0.5);
    case 2:
      return r.pick([0, 1, -1, 1.5, 2 ** 53, -(2 ** 63), 1e308, 0.1]);
    case 3:
      return r.pick(['', 'a', 'x-y', '1', 'true', '2024-01-01T00:00:00Z', '10Gi', '*', 'é']);
    case 4:
      return r.pick(['string', 'integer', 'number', 'boolean', 'object', 'array']);
    case 5:
      return r.pick(['set', 'map', 'atomic', 'granular', 'int-or-string', 'date-time', 'byte', 'uuid']);
    case 6:
      return Array.from({ length: r.int(3) }, () => randomJson(r, depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: r.int(3) }, () => [r.pick(['a', 'name', 'type', 'x', 'key']), randomJson(r, depth + 1)]));
  }
}

/** A value for a schema keyword: mostly of the right shape, sometimes not. */
function keywordValue(r: Rng, kw: string): Json {
  if (r.chance(0.15)) return randomJson(r);
  switch (kw) {
    case 'type':
      return r.pick(['string', 'integer', 'number', 'boolean', 'object', 'array', '', 'null']);
    case 'format':
      return r.pick(['int32', 'int64', 'date-time', 'date', 'byte', 'uuid', 'hostname', 'ipv4', 'cidr', 'duration', 'quantity', 'email', 'nope']);
    case 'pattern':
      return r.chance(0.5) ? '^[a-z]+$' : regexPattern(r);
    case 'enum':
      return Array.from({ length: r.int(4) }, () => randomJson(r, 2));
    case 'required':
    case 'x-kubernetes-list-map-keys':
      return Array.from({ length: r.int(3) }, () => r.pick(['name', 'a', 'key', 'port', '']));
    case 'properties':
      return Object.fromEntries(Array.from({ length: 1 + r.int(3) }, () => [r.pick(['name', 'a', 'key', 'port', 'x']), { type: r.pick(['string', 'integer', 'object']) }]));
    case 'items':
    case 'additionalProperties':
    case 'not':
      return r.chance(0.2) ? r.chance(0.5) : { type: r.pick(['string', 'integer', 'object', 'array']), ...(r.chance(0.3) ? { items: { type: 'string' } } : {}) };
    case 'allOf':
    case 'anyOf':
    case 'oneOf':
      return Array.from({ length: 1 + r.int(2) }, () => r.pick([{ required: ['a'] }, { type: 'string' }, { properties: { a: { minimum: 1 } } }, { pattern: 'x' }, {}]));
    case 'x-kubernetes-validations':
      return Array.from({ length: 1 + r.int(2) }, () => ({
        rule: celExpr(r),
        ...(r.chance(0.3) ? { message: 'm' } : {}),
        ...(r.chance(0.2) ? { messageExpression: celExpr(r) } : {}),
        ...(r.chance(0.2) ? { fieldPath: r.pick(['.a', '.spec', "['x']", 'bad']) } : {}),
        ...(r.chance(0.1) ? { reason: r.pick(['FieldValueInvalid', 'Nope']) } : {}),
        ...(r.chance(0.1) ? { optionalOldSelf: true } : {}),
      }));
    case 'x-kubernetes-list-type':
      return r.pick(['atomic', 'set', 'map', 'nope']);
    case 'x-kubernetes-map-type':
      return r.pick(['atomic', 'granular', 'nope']);
    case 'minimum':
    case 'maximum':
    case 'multipleOf':
      return r.pick([0, 1, -5, 2.5, 1e20]);
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
    case 'minProperties':
    case 'maxProperties':
      return r.pick([0, 1, 3, 100, -1]);
    default:
      return r.chance(0.6) ? r.chance(0.5) : randomJson(r);
  }
}

const SCHEMA_KEYWORDS = [
  'type',
  'format',
  'pattern',
  'enum',
  'required',
  'properties',
  'items',
  'additionalProperties',
  'not',
  'allOf',
  'anyOf',
  'oneOf',
  'x-kubernetes-validations',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
  'minimum',
  'maximum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'uniqueItems',
  'nullable',
  'default',
  'x-kubernetes-int-or-string',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  '$ref',
  'description',
  'example',
];

/** Every object node of a JSON value (iteratively), with a way to replace or delete it in its parent. */
function objectNodes(root: Json): Array<{ node: Record<string, Json>; parent?: Record<string, Json> | Json[]; key?: string | number }> {
  const out: Array<{ node: Record<string, Json>; parent?: Record<string, Json> | Json[]; key?: string | number }> = [];
  const stack: Array<{ v: Json; parent?: Record<string, Json> | Json[]; key?: string | number }> = [{ v: root }];
  while (stack.length) {
    const { v, parent, key } = stack.pop()!;
    if (Array.isArray(v)) v.forEach((x, i) => stack.push({ v: x, parent: v, key: i }));
    else if (v && typeof v === 'object') {
      out.push({ node: v as Record<string, Json>, parent, key });
      for (const [k, x] of Object.entries(v)) stack.push({ v: x, parent: v as Record<string, Json>, key: k });
    }
  }
  return out;
}

/**
 * Mutates a CRD object in place, `n` times: a schema keyword set (right or wrong shape), a key deleted, a
 * subtree copied elsewhere, or a value replaced by a random one; mostly inside the schemas.
 */
export function mutateCrdObject(r: Rng, crd: Json, n: number): void {
  for (let i = 0; i < n; i++) {
    const all = objectNodes(crd);
    if (!all.length) return;
    const versions = (crd as { spec?: { versions?: Array<{ schema?: { openAPIV3Schema?: Json } }> } })?.spec?.versions;
    const schemas = Array.isArray(versions) ? versions.map((v) => v?.schema?.openAPIV3Schema).filter((s) => s && typeof s === 'object') : [];
    const pool = schemas.length && r.chance(0.85) ? objectNodes(r.pick(schemas)) : all;
    // A schema replaced by an array of scalars by an earlier mutation has no object nodes.
    const nodes = pool.length ? pool : all;
    const t = r.pick(nodes);
    const keys = Object.keys(t.node);
    switch (r.int(5)) {
      case 0:
      case 1: {
        const kw = r.pick(SCHEMA_KEYWORDS);
        t.node[kw] = keywordValue(r, kw);
        break;
      }
      case 2:
        if (keys.length) delete t.node[r.pick(keys)];
        break;
      case 3: {
        // A subtree copied under another node (recursion-ish shapes, duplicated rules).
        const src = r.pick(nodes).node;
        if (keys.length) t.node[r.pick(keys)] = structuredClone(src);
        break;
      }
      default:
        if (keys.length) t.node[r.pick(keys)] = randomJson(r);
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Hostile inputs by class (issue 11): each generator gives documents of a chosen size, deterministic
// for a seed, so that a bound that fails is reproduced from the printed seed.

/** A Widget custom resource (the test fixture's CRD) with `extra` YAML lines under spec. */
export function widgetCr(name: string, extra = ''): string {
  return `apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: ${name}\nspec:\n  size: small\n  replicas: 2\n${extra}`;
}

/** Wide map: one mapping of `keys` keys (the issue's 40,000 keys are 549 KB), under an unknown field. */
export function wideMapCr(r: Rng, keys: number): string {
  let s = '  labels:\n';
  for (let i = 0; i < keys; i++) s += `    k${i.toString(36)}_${r.int(1000)}: v${i}\n`;
  return widgetCr('wide', s);
}

/**
 * Alias width: one anchored map of `keys` keys, aliased `uses` times. The YAML library's alias limit counts
 * aliases inside the target, so a plain wide target passes it at any number of uses: keys × uses nodes
 * once expanded (the issue's 290 KB became about 2 million keys).
 */
export function aliasWidthCr(keys: number, uses: number): string {
  let s = '  base: &a {' + Array.from({ length: keys }, (_, i) => `k${i}: v`).join(', ') + '}\n  copies:\n';
  s += '  - *a\n'.repeat(uses);
  return widgetCr('aliases', s);
}

/** The issue's pattern: `.{1000}` ten times then `$` (71 characters), 10,003 instructions. */
export const EXPENSIVE_PATTERN = '.{1000}'.repeat(10) + '$';

/** A CRD whose string field has an expensive pattern and a default of `defaultLength` characters. */
export function expensivePatternCrd(pattern: string, defaultLength: number): string {
  return crdYaml(
    `type: object\nproperties:\n  spec:\n    type: object\n    properties:\n      value:\n        type: string\n        pattern: ${yq(pattern)}\n        default: ${yq('d'.repeat(defaultLength))}\n      name:\n        type: string\n        pattern: '^[a-z]+$'\n`,
    { kind: 'Patterned', group: 'patterns.example.com' },
  );
}

/** A CR of expensivePatternCrd with a value of `length` characters (and one plain pattern error). */
export function expensivePatternCr(length: number): string {
  return `apiVersion: patterns.example.com/v1\nkind: Patterned\nmetadata:\n  name: p\nspec:\n  value: ${yq('v'.repeat(length))}\n  name: Not-Lower\n`;
}

/**
 * Integers beyond 2^53 in a Widget CR: `replicas` (an integer field) between 2^53 and 2^62, others up to
 * far beyond int64 (and floats of those).
 */
export function hugeIntegerCr(r: Rng, name = 'huge'): { text: string; replicas: bigint } {
  const big = (bits: number) => BigInt(2) ** BigInt(bits) + BigInt(r.int(1_000_000));
  const replicas = big(53 + r.int(10));
  const text = widgetCr(name, `  extra:\n    a: ${big(53 + r.int(400))}\n    b: [${big(64 + r.int(100))}, -${big(53 + r.int(400))}]\n    c: ${big(53 + r.int(400))}.0\n`).replace('replicas: 2', `replicas: ${replicas}`);
  return { text, replicas };
}

/**
 * `n` valid Widget custom resources in one file (named `<prefix>-<i>`): enough checking for the check
 * worker to be busy while a small attack rides along (the hover's order is then observable).
 */
export function widgetFile(n: number, prefix: string): string {
  return Array.from({ length: n }, (_, i) => widgetCr(`${prefix}-${i}`)).join('---\n');
}

/** A range edit whose numbers are out of the document or not numbers at all. */
export function outOfRangeChange(r: Rng, lines: number): { range: unknown; text: string } {
  const n = () => r.pick([-1, -1000, lines, lines + 1, lines + 1000, 2 ** 31, 1.5, 0, 1]);
  const junk = () => r.pick<unknown>([null, undefined, 'x', NaN, {}, [], Infinity]);
  const num = () => (r.chance(0.8) ? n() : junk());
  const range = r.chance(0.05) ? r.pick<unknown>([null, 'range', { start: { line: 0, character: 0 } }]) : { start: { line: num(), character: num() }, end: { line: num(), character: num() } };
  return { range, text: r.pick(['', 'x', 'spec:\n', '\n\n', 'a: [']) };
}

/** A list on one line of `bytes` bytes (the issue's 2 MB one-line list), in the Widget's `tags` set. */
export function oneLineListCr(r: Rng, bytes: number): string {
  const items: string[] = [];
  for (let n = 0; n < bytes; ) {
    const t = `t${r.int(1e9).toString(36)}`;
    items.push(t);
    n += t.length + 2;
  }
  return widgetCr('oneline', `  tags: [${items.join(', ')}]\n`);
}

/** `n` small documents in one file (the issue's 100,000 documents). */
export function manyDocuments(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += `---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${i}\ndata:\n  k: v${i}\n`;
  return s;
}

/** A custom resource of about `bytes` bytes: many fields of long strings (the issue's 20 MB input). */
export function hugeCr(r: Rng, bytes: number): string {
  let s = '  notes:\n';
  const line = 'x'.repeat(1000);
  for (let i = 0; s.length < bytes; i++) s += `    n${i}: ${line}${r.int(10)}\n`;
  return widgetCr('huge-input', s);
}
