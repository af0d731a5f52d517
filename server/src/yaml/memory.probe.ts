/**
 * Run in a child process by bounds.test.ts: builds a hostile text, parses it with the YAML layer
 * (values and errors of every document), and prints the peak memory the parse added (the process's
 * peak resident set size less the one before parsing) with the layer's verdicts. A separate process
 * keeps the measurement free of the test runner's own memory.
 */
import { parseYamlDocuments } from './index';

const kind = process.argv[2];

function repeat(size: number, unit: (i: number) => string, head = ''): string {
  const parts = [head];
  let n = head.length;
  for (let i = 0; n < size; i++) {
    const s = unit(i);
    parts.push(s);
    n += s.length;
  }
  return parts.join('');
}

const INPUTS: Record<string, () => string> = {
  // One 20 MB document of list items, each a few keys with a flow map and a flow list.
  'document-20mb': () => repeat(20e6, (i) => `- name: item-${i}\n  value: "${'x'.repeat(20)}"\n  labels: {a: b, c: d}\n  ports: [80, 443]\n`, 'apiVersion: v1\nkind: List\nitems:\n'),
  // A 2 MB one-line list of numbers.
  'list-2mb': () => `a: [${repeat(2e6, () => '1,')}1]\n`,
  // 100,000 small documents.
  'documents-100k': () => Array.from({ length: 100_000 }, (_, i) => `---\na: ${i}\n`).join(''),
  // 200 different one-line lists of 30 KB each (each alone is small).
  'lists-200x30kb': () => Array.from({ length: 200 }, (_, i) => `---\na: [${'1,'.repeat(15_000)}${i}]\n`).join(''),
  // 40,000 keys in one map (550 KB): parsed, not refused.
  'map-40k': () => Array.from({ length: 40_000 }, (_, i) => `key${i}: v${i}\n`).join(''),
};

const text = INPUTS[kind]();
global.gc?.();
const before = process.memoryUsage().rss;
const file = parseYamlDocuments(text);
let unparsed = 0;
let parsed = 0;
for (const d of file.documents) {
  void d.value;
  if (d.errors.some((e) => e.code === 'RESOURCE_EXHAUSTION')) unparsed++;
  else parsed++;
}
const peak = process.resourceUsage().maxRSS * 1024 - before;
process.stdout.write(JSON.stringify({ chars: text.length, peak, parsed, unparsed, firstMessage: file.documents.find((d) => d.errors.length)?.errors[0].message }) + '\n');
