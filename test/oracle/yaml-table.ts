/**
 * The YAML table of the oracle tier: inputs whose reading by kubectl is easy to get wrong, each answered
 * by the Go program yamlconv (sigs.k8s.io/yaml, as kubectl decodes a file) and by the YAML layer. The
 * first part is scalars (`v: <scalar>`): YAML 1.1 words, numbers in every notation go-yaml v2 knows,
 * numbers JSON cannot carry, tags and quoting. The second part is keys, merges, aliases, escapes and
 * what kubectl's stream reader does with `---`, directives and `...`.
 */

export interface YamlRow {
  /** The file text. */
  yaml: string;
  /** Read as a file with several documents (kubectl's StreamVisitor) instead of as one document. */
  stream?: boolean;
}

/** Scalars, each as the value of `v`. */
export const SCALARS: string[] = [
  // YAML 1.1 booleans and nulls (go-yaml v2's resolve table), and words that are not.
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
  'yES',
  'n',
  'N',
  'no',
  'NO',
  'on',
  'On',
  'ON',
  'off',
  'Off',
  'OFF',
  'oN',
  'true',
  'True',
  'TRUE',
  'tRUE',
  'false',
  'FALSE',
  '~',
  'null',
  'Null',
  'NULL',
  'nULL',
  '',
  // Integers: decimal, signs, underscores, octal, hex, binary, Go's prefixes, leading zeros.
  '0',
  '-0',
  '+1',
  '-1',
  '1_000',
  '1__0',
  '_1',
  '0755',
  '08',
  '0o17',
  '0O17',
  '0x1F',
  '0X1f',
  '-0x1F',
  '+0x1F',
  '0x_1F',
  '0x',
  '0b101',
  '0B11',
  '-0b101',
  '0b',
  '017_7',
  // Integers at and beyond int64 and uint64, and far beyond.
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775808',
  '-9223372036854775809',
  '18446744073709551615',
  '18446744073709551616',
  '0xFFFFFFFFFFFFFFFF',
  '100000000000000000000000',
  '12345678901234567890',
  // Floats: fractions, exponents, integral floats (int after the JSON round trip below 1e21, float above).
  '1.0',
  '1.',
  '3.',
  '0.',
  '-0.0',
  '.5',
  '+.5',
  '-.5',
  '.',
  '1.5',
  '1e5',
  '1E5',
  '1e+2',
  '1.0e+5',
  '6.02e+23',
  '4.5e15',
  '1e20',
  '1e21',
  '1e22',
  '1.5e300',
  '0.1e-5',
  '1e-7',
  '1_000.5',
  '.1_0',
  '.1__0',
  '._1',
  '.1e1_0',
  '1e400',
  '-1e400',
  '.5e400',
  '1e-400',
  '1.7976931348623157e308',
  // Infinities and NaN: JSON cannot carry them.
  '.inf',
  '.Inf',
  '.INF',
  '+.inf',
  '-.inf',
  '-.Inf',
  '.nan',
  '.NaN',
  '.NAN',
  '.infinity',
  'inf',
  'NaN',
  // Timestamps and sexagesimal numbers stay strings.
  '2001-12-14',
  '2001-12-14t21:59:43.10-05:00',
  '2001-12-14 21:59:43.10',
  '2002-1-1',
  '2001-13-01',
  '1:20',
  '190:20:30',
  // Tags.
  '!!str 1',
  '!!str true',
  '!!int "12"',
  '!!int 012',
  '!!int 0x10',
  '!!int "1_0"',
  '!!int 1.5',
  '!!float 1',
  '!!float "1.5"',
  '!!float 08',
  '!!float 1e400',
  '!!float .inf',
  '!!bool yes',
  '!!bool "on"',
  '!!bool x',
  '!!null',
  '!!null ~',
  '!!null ""',
  '!!null foo',
  '!!timestamp 2001-12-14',
  '!!timestamp foo',
  '!!binary aGVsbG8=',
  '!!binary "aGVs\\nbG8="',
  '!!binary gA==',
  '!!binary "!!!"',
  '!!binary aGVsbG8',
  '!!map x',
  '!!seq [1]',
  '!!str [1]',
  '! 12',
  '!foo bar',
  '!<tag:yaml.org,2002:str> 12',
  '!!merge <<',
  // Quoting and block scalars keep strings.
  '"yes"',
  "'no'",
  '"1"',
  "'0x1F'",
  '"~"',
  '|\n  .inf',
  '>-\n  12',
  // Double-quoted escapes: YAML 1.2's \/ is unknown to go-yaml, its \' is not.
  '"\\/"',
  '"\\\'"',
  '"\\x27"',
  '"\\e\\N\\_\\L\\P"',
  '"\\ud800"',
  '"\\U0010FFFF"',
  '"\\U00110000"',
  '"\\x80"',
  '"\\q"',
  '"a\\\n  b"',
  '"a\n\n  b"',
  '"a\\u00e9b"',
];

export const STRUCTURES: YamlRow[] = [
  // Keys that are not strings.
  { yaml: 'yes: 1\non: 2\n1: a\n0x10: b\n1.5: c\n12345678.0: d\n.inf: e\n2001-12-14: f\n' },
  { yaml: '~: 1\n' },
  { yaml: '? \n: 1\n' },
  { yaml: '18446744073709551615: x\n' },
  { yaml: '[a]: 1\n' },
  { yaml: '{a: 1}: 2\n' },
  { yaml: '? [a, b]\n: 1\n' },
  { yaml: 'a: &k [1]\n*k : 2\n' },
  { yaml: '!!binary aGVsbG8=: x\n' },
  // Merge keys: the merge sets its keys at its place; in a list the earlier map wins.
  { yaml: 'b: &x {a: 1, c: 3}\nd:\n  a: 2\n  <<: *x\n' },
  { yaml: 'b: &x {a: 1}\nd:\n  <<: *x\n  a: 2\n' },
  { yaml: '<<: [{a: 1}, {a: 2, b: 2}]\n' },
  { yaml: '<<: 1\n' },
  { yaml: 'x: &s [1]\n<<: *s\n' },
  { yaml: '"<<": {a: 1}\n' },
  { yaml: 'x: &m {a: 1}\n<<: [*m, {b: 2}]\nb: 3\n' },
  // Aliases.
  { yaml: 'a: &x [1, 2]\nb: *x\n' },
  { yaml: 'a: *y\n' },
  { yaml: 'a: &x [*x]\n' },
  { yaml: 'a: &x 1\na2: &x 2\nb: *x\n' },
  { yaml: 'a: &a\nb: *a\n' },
  { yaml: 'k: &i .inf\nv: {*i : 1}\n' },
  { yaml: `a: &a [${Array.from({ length: 20 }, () => 'x').join(', ')}]\nb: &b [${Array.from({ length: 20 }, () => '*a').join(', ')}]\nc: [${Array.from({ length: 20 }, () => '*b').join(', ')}]\n` },
  { yaml: `a: &a [${Array.from({ length: 12 }, () => 'x').join(', ')}]\nb: [${Array.from({ length: 80 }, () => '*a').join(', ')}]\n` },
  { yaml: `a: &a [${Array.from({ length: 12 }, () => 'x').join(', ')}]\nb: [${Array.from({ length: 90 }, () => '*a').join(', ')}]\n` },
  // Duplicate keys: the last wins.
  { yaml: 'a: 1\na: 2\n' },
  { yaml: 'a: {x: 1}\nb: 2\na: {y: 2}\n' },
  // Characters go-yaml's reader refuses, and line breaks it knows.
  { yaml: 'a: b\u0001\n' },
  { yaml: '# \u007f\na: 1\n' },
  { yaml: 'a: "b\u0085c"\n' },
  { yaml: 'a: "b\u2028c"\n' },
  { yaml: '\ufeffa: 1\n' },
  { yaml: 'a:\tb\n' },
  { yaml: 'a: "x\\/y"\nb: 2\nc: "\\/"\n' },
  { yaml: 'a: !!int x\nb: "\\/"\n' },
  // Quoted scalars over several lines: libyaml checks no indentation inside them (continuation lines at
  // the key's column, left of it, or tabbed), but a key must be on one line and a document marker ends it.
  { yaml: "a:\n  b: 'one two\n  three'\n  c: 1\n" },
  { yaml: 'a:\n  b: "one\\ttwo\nthree\n\n four"\n  c: 1\n' },
  { yaml: "a:\n  - 'it''s\n  x'''\n  - b\n" },
  { yaml: "a: 'x\n\ty'\n" },
  { yaml: "a:\n  'b\n  c': 1\n" },
  { yaml: "a:\n  b: 'x\n...\n  y'\n" },
  { yaml: 'a:\n  b: "x\n  y\n' },
  // Streams as kubectl reads files.
  { yaml: '%YAML 1.1\n---\na: 1\n', stream: true },
  { yaml: '%YAML 1.2\n---\na: 1\n', stream: true },
  { yaml: '# c\n%TAG ! tag:example.com,2000:\n---\na: 1\n', stream: true },
  { yaml: 'a: 1\n--- {b: 2}\n', stream: true },
  { yaml: 'a: 1\n--- # c\nb: 2\n', stream: true },
  { yaml: 'a: 1\n...\nb: 2\n', stream: true },
  { yaml: 'a: 1\n---\n\n---\nb: 2\n', stream: true },
  { yaml: '---\na: 1\n---\nb: "\\/"\n', stream: true },
  { yaml: 'a: 1\n---\nb: 2\nc: "\\/"\n', stream: true },
  { yaml: 'a: 1\n---\nb: 2\n\n\nc: "x\\qy"\n', stream: true },
  { yaml: 'a: 1\n---\nb: .inf\n---\nc: 3\n', stream: true },
  { yaml: 'a: 1\r\n---\r\nb: 2\r\n', stream: true },
  { yaml: '- 1\n---\n[1, 2]\n---\nnull\n', stream: true },
];

/** A seeded generator (the same rows on every run). */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

/**
 * Random rows from the pieces kubectl reads differently than YAML 1.2 does: scalars glued from number
 * and word fragments (quoted, tagged, as keys), and small documents mixing block and flow collections,
 * anchors, aliases, merge keys, YAML 1.1 words and escapes.
 */
export function randomRows(seed: number, scalars: number, documents: number): YamlRow[] {
  const rnd = prng(seed);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)];
  const frags = [
    '0',
    '1',
    '7',
    '8',
    '9',
    '.',
    'e',
    'E',
    '+',
    '-',
    '_',
    'x',
    'X',
    'o',
    'O',
    'b',
    'B',
    'f',
    'a',
    'n',
    'i',
    'N',
    'y',
    ':',
    'T',
    ' ',
    '~',
    'inf',
    'nan',
    'Inf',
    '0x',
    '0o',
    '0b',
    'true',
    'no',
    '2001-12-14',
    'Z',
    '1e400',
  ];
  const tags = ['', '', '', '', '!!int ', '!!float ', '!!str ', '!!bool ', '!!null ', '!!timestamp ', '!!binary ', '! ', '!x '];
  const rows: YamlRow[] = [];
  for (let i = 0; i < scalars; i++) {
    let s = '';
    for (let n = 1 + Math.floor(rnd() * 6); n > 0; n--) s += pick(frags);
    s = s.trim();
    const q = rnd();
    const v = q < 0.8 ? s : q < 0.9 ? JSON.stringify(s) : `'${s}'`;
    rows.push({ yaml: rnd() < 0.15 ? `${pick(tags)}${v}: v\n` : `v: ${pick(tags)}${v}\n` });
  }
  const anchors: string[] = [];
  const scalar = () => pick(['1', 'a', 'yes', '~', '', '"q\\tx"', "'s''q'", '.inf', '0x1F', '1.5', 'null', '"\\/"', '"\\\'"', 'a b', '-1', '2001-01-01', '!!str 1', '<<', '"<<"', '[]', '{}', '|\n  lit', '>\n  fold']);
  const value = (depth: number, indent: number): string => {
    const r = rnd();
    if (anchors.length && r < 0.12) return `*${pick(anchors)}`;
    let anchor = '';
    if (rnd() < 0.15) {
      const a = `a${Math.floor(rnd() * 4)}`;
      anchors.push(a);
      anchor = `&${a} `;
    }
    if (depth > 2 || r < 0.45) return anchor + scalar().replace(/\n/g, `\n${' '.repeat(indent + 2)}`);
    const flow = () => {
      const v = value(3, 0);
      return v.includes('\n') ? '1' : v;
    };
    if (r < 0.6) return `${anchor}[${Array.from({ length: Math.floor(rnd() * 3) }, flow).join(', ')}]`;
    if (r < 0.7) return `${anchor}{${Array.from({ length: Math.floor(rnd() * 3) }, () => `${pick(['k', 'yes', '1', '"k"', '<<', '~', 'on', '1.0'])}: ${flow()}`).join(', ')}}`;
    if (r < 0.85) return `${anchor}\n${map(depth + 1, indent + 2)}`;
    return `${anchor}\n${Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => `${' '.repeat(indent + 2)}- ${value(depth + 1, indent + 4).replace(/^\n\s*/, '')}`).join('\n')}`;
  };
  const map = (depth: number, indent: number): string =>
    Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => `${' '.repeat(indent)}${pick(['a', 'b', 'c', '<<', 'on', '1', '"a"', 'yes', 'null'])}: ${value(depth, indent)}`).join('\n');
  for (let i = 0; i < documents; i++) {
    anchors.length = 0;
    rows.push({ yaml: `${Array.from({ length: 1 + Math.floor(rnd() * 2) }, () => map(0, 0)).join('\n---\n')}\n`, stream: true });
  }
  return rows;
}
