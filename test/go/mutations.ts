/**
 * The mutation run of the Go tier (issue 26): mistakes injected one at a time into the kubebuilder types of
 * real projects from the module proxy (gateway-api apis/, jobset api/, kueue apis/), each sent to the
 * generator as an overlay (the files on disk stay as published), and where the finding it causes lands:
 * on the marker line that was changed ("marker"), on the struct field the marker is about ("field"), or
 * not at all / elsewhere ("missed"). Also used by test/go/mutations.test.ts (the gate: >= 95 % on the
 * marker line).
 *
 *   node --import tsx test/go/mutations.ts [--per-kind N]
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LanguageService } from '../../server/src/service/languageService';
import type { Finding } from '../../server/src/service/finding';
import { defaultCacheDir, GoGenerator } from '../../server/src/workspace/goGenerator';

/** The projects and tags (../shared/crd-releases: the newest tag the module proxy serves). */
export const PROJECTS = [
  { module: 'sigs.k8s.io/gateway-api', version: 'v1.6.0', api: 'apis' },
  { module: 'sigs.k8s.io/jobset', version: 'v0.12.0', api: 'api' },
  { module: 'sigs.k8s.io/kueue', version: 'v0.17.0', api: 'apis' },
];

export interface Mutation {
  kind: 'celTypo' | 'badPattern' | 'defaultAboveMaximum' | 'defaultNotInEnum' | 'misspelledMarker' | 'listMapKeyUnknown' | 'listMapKeyOptional';
  file: string;
  /** 0-based line changed (or inserted). */
  line: number;
  text: string;
  /** Another mistake than one line: the file's whole new text, and the marker line the finding belongs on. */
  newText?: string;
  expect?: { file: string; line: number };
}

export interface Outcome {
  mutation: Mutation;
  where: 'marker' | 'field' | 'missed';
  found?: string;
}

/** A writable copy of a module from the module cache (downloaded through the proxy first), without its go.work. */
export function moduleCopy(module: string, version: string, into: string): string {
  const r = spawnSync('go', ['mod', 'download', '-json', `${module}@${version}`], { encoding: 'utf8', env: { ...process.env, GOFLAGS: '-mod=mod' } });
  const dir = (JSON.parse(r.stdout) as { Dir?: string; Error?: string }).Dir;
  if (!dir) throw new Error(`${module}@${version}: ${r.stdout} ${r.stderr}`);
  const out = path.join(into, `${path.basename(module)}@${version}`);
  if (!fs.existsSync(out)) {
    fs.cpSync(dir, out, { recursive: true });
    spawnSync('chmod', ['-R', 'u+w', out]);
    fs.rmSync(path.join(out, 'go.work'), { force: true });
  }
  return out;
}

function goFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...goFiles(p));
    else if (e.name.endsWith('.go') && !e.name.endsWith('_test.go') && !e.name.startsWith('zz_generated')) out.push(p);
  }
  return out.sort();
}

/** The mutations of one file's lines, by kind (deterministic: in line order). */
function mutationsOf(file: string, lines: string[]): Mutation[] {
  const out: Mutation[] = [];
  const commentBlockHasDefault = (i: number) => {
    for (let j = i; j < lines.length && /^\s*\/\//.test(lines[j]); j++) if (/\+kubebuilder:default/.test(lines[j])) return true;
    for (let j = i; j >= 0 && /^\s*\/\//.test(lines[j]); j--) if (/\+kubebuilder:default/.test(lines[j])) return true;
    return false;
  };
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    const cel = /(\+kubebuilder:validation:XValidation:.*rule=["`].*?\bself\.)([a-z][A-Za-z0-9]*)/.exec(l);
    if (cel) out.push({ kind: 'celTypo', file, line: i, text: l.replace(cel[0], `${cel[1]}${cel[2]}Typo`) });
    const pat = /\+kubebuilder:validation:Pattern=(`[^`]*`|"(?:[^"\\]|\\.)*")/.exec(l);
    if (pat) out.push({ kind: 'badPattern', file, line: i, text: l.replace(pat[1], '`^(?!x)[a-z]+$`') });
    const max = /^(\s*\/\/\s*)\+kubebuilder:validation:Maximum=(\d+)\s*$/.exec(l);
    if (max && !commentBlockHasDefault(i)) out.push({ kind: 'defaultAboveMaximum', file, line: i + 1, text: `${max[1]}+kubebuilder:default=${Number(max[2]) + 1}` });
    const en = /^(\s*\/\/\s*)\+kubebuilder:validation:Enum=([A-Za-z][^;]*);/.exec(l);
    if (en && !commentBlockHasDefault(i)) out.push({ kind: 'defaultNotInEnum', file, line: i + 1, text: `${en[1]}+kubebuilder:default=NotAnEnumValue` });
    const mis = /\+(kubebuilder:validation:(?:Maximum|Minimum|MaxLength|MinLength|MaxItems|MinItems)|listType|listMapKey|kubebuilder:validation:Enum)\b/.exec(l);
    if (mis) {
      const name = mis[1];
      const typo = name.endsWith('m') ? `${name.slice(0, -1)}n` : name.endsWith('e') ? `${name.slice(0, -1)}r` : `${name.slice(0, -1)}${name.at(-1) === 's' ? 'z' : 's'}`;
      out.push({ kind: 'misspelledMarker', file, line: i, text: l.replace(`+${name}`, `+${typo}`) });
    }
    const lmk = /^(\s*\/\/\s*\+listMapKey=)([A-Za-z]+)\s*$/.exec(l);
    if (lmk) out.push({ kind: 'listMapKeyUnknown', file, line: i, text: `${lmk[1]}${lmk[2]}Missing` });
  }
  return out;
}

/**
 * A list-map key made optional: for `+listMapKey=k` on a field `F []T`, the field of T whose JSON name is k
 * loses `+required` and gets `+optional` and omitempty (when it has no default). The finding belongs on the
 * `+listMapKey` line.
 */
function optionalKeyMutations(files: string[], texts: Map<string, string>): Mutation[] {
  const out: Mutation[] = [];
  for (const file of files) {
    const lines = texts.get(file)!.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const lmk = /^\s*\/\/\s*\+listMapKey=([A-Za-z]+)\s*$/.exec(lines[i]);
      if (!lmk) continue;
      const decl = /^\s*\w+\s+\[\]\*?(\w+)\s/.exec(lines[declarationLine(lines, i)] ?? '');
      if (!decl) continue;
      // The item type, in a file of the same package.
      for (const other of files.filter((f) => path.dirname(f) === path.dirname(file))) {
        const ol = texts.get(other)!.split('\n');
        const start = ol.findIndex((l) => l.startsWith(`type ${decl[1]} struct {`));
        if (start < 0) continue;
        for (let j = start + 1; j < ol.length && ol[j] !== '}'; j++) {
          const tag = new RegExp(`json:"${lmk[1]}(,[^"]*)?"`).exec(ol[j]);
          if (!tag || /^\s*\/\//.test(ol[j])) continue;
          let k = j;
          while (k > 0 && /^\s*\/\//.test(ol[k - 1])) k--;
          const block = ol.slice(k, j);
          if (block.some((l) => /\+kubebuilder:default/.test(l))) break;
          const indent = /^\s*/.exec(ol[j])![0];
          const field = ol[j].replace(tag[0], `json:"${lmk[1]}${tag[1]?.includes('omitempty') ? tag[1] : `${tag[1] ?? ''},omitempty`}"`);
          const kept = block.filter((l) => !/\+(required|kubebuilder:validation:Required)\s*$/.test(l));
          const newLines = [...ol.slice(0, k), ...kept, `${indent}// +optional`, field, ...ol.slice(j + 1)];
          out.push({ kind: 'listMapKeyOptional', file: other, line: j, text: field, newText: newLines.join('\n'), expect: { file, line: i } });
          break;
        }
        break;
      }
    }
  }
  return out;
}

/** The line of the declaration a comment line is about: the first line after its comment block. */
function declarationLine(lines: string[], line: number): number {
  let j = line;
  while (j < lines.length && /^\s*\/\//.test(lines[j])) j++;
  return j;
}

function key(f: Finding): string {
  return `${f.range.start.line}\u0000${f.code}\u0000${f.message}`;
}

/** Runs every mutation of a project (at most `perKind` of each kind, spread over the files). */
export async function runProject(generator: GoGenerator, moduleDir: string, api: string, perKind: number, log: (m: string) => void = () => undefined): Promise<Outcome[]> {
  const service = new LanguageService({ unknownKinds: 'ignore' });
  const files = goFiles(path.join(moduleDir, api));
  const texts = new Map(files.map((f) => [f, fs.readFileSync(f, 'utf8')]));
  const byKind = new Map<string, Mutation[]>();
  for (const f of files) for (const m of mutationsOf(f, texts.get(f)!.split('\n'))) byKind.set(m.kind, [...(byKind.get(m.kind) ?? []), m]);
  byKind.set('listMapKeyOptional', optionalKeyMutations(files, texts));
  const chosen: Mutation[] = [];
  for (const list of byKind.values()) {
    // Spread over the list: every file's mistakes, not only the first file's.
    const step = Math.max(1, list.length / perKind);
    for (let k = 0; k < Math.min(perKind, list.length); k++) chosen.push(list[Math.floor(k * step)]);
  }
  // Each mutation regenerates only its package's CRDs (its version of them): the published text's
  // findings of that package are the baseline.
  const findingsWith = async (pkg: string, overlay?: { file: string; text: string }) => {
    const a = await generator.generate(moduleDir, { packages: [pkg], overlays: overlay ? { [overlay.file]: overlay.text } : {} });
    if (!a.ok) throw new Error(a.problem.message);
    service.setGoGeneration(moduleDir, a.generation, (f) => (overlay && f === overlay.file ? overlay.text : texts.get(f)));
    const out = new Map<string, Finding[]>();
    for (const f of service.goFindingFiles(moduleDir)) out.set(f, service.goFindings(pathToFileURL(f).href));
    return out;
  };
  const bases = new Map<string, Map<string, Finding[]>>();
  const baseOf = async (pkg: string) => {
    let b = bases.get(pkg);
    if (!b) bases.set(pkg, (b = await findingsWith(pkg)));
    return b;
  };
  const outcomes: Outcome[] = [];
  for (const m of chosen) {
    const lines = texts.get(m.file)!.split('\n');
    const inserted = m.kind === 'defaultAboveMaximum' || m.kind === 'defaultNotInEnum';
    const mutated = m.newText ?? (inserted ? [...lines.slice(0, m.line), m.text, ...lines.slice(m.line)] : lines.map((l, i) => (i === m.line ? m.text : l))).join('\n');
    const pkg = `./${path.relative(moduleDir, path.dirname(m.file)).split(path.sep).join('/')}`;
    const base = await baseOf(pkg);
    const after = await findingsWith(pkg, { file: m.file, text: mutated });
    const expectFile = m.expect?.file ?? m.file;
    const expectLine = m.expect?.line ?? m.line;
    const shown = expectFile === m.file ? mutated.split('\n') : texts.get(expectFile)!.split('\n');
    // Findings of the file the finding belongs in that the published text does not have (lines below an insertion moved by one).
    const moved = (f: Finding) => (inserted && f.range.start.line >= m.line ? { ...f, range: { ...f.range, start: { ...f.range.start, line: f.range.start.line + 1 } } } : f);
    const before = new Set((base.get(expectFile) ?? []).map((f) => key(expectFile === m.file ? moved(f) : f)));
    const fresh = (after.get(expectFile) ?? []).filter((f) => !before.has(key(f)));
    const field = declarationLine(shown, expectLine);
    const onMarker = fresh.find((f) => f.range.start.line === expectLine);
    const onField = fresh.find((f) => f.range.start.line === field);
    const o: Outcome = onMarker
      ? { mutation: m, where: 'marker', found: onMarker.message }
      : onField
        ? { mutation: m, where: 'field', found: onField.message }
        : { mutation: m, where: 'missed', found: fresh[0] && `${fresh[0].range.start.line + 1}: ${fresh[0].message}` };
    outcomes.push(o);
    log(`${o.where.padEnd(6)} ${m.kind.padEnd(20)} ${path.relative(moduleDir, expectFile)}:${expectLine + 1}${o.where === 'missed' ? `  (${o.found ?? 'no new finding'})` : ''}`);
  }
  return outcomes;
}

/** Counts by kind and place. */
export function summary(outcomes: Outcome[]): string {
  const kinds = [...new Set(outcomes.map((o) => o.mutation.kind))];
  const row = (os: Outcome[]) =>
    `${os.length} mutations: ${os.filter((o) => o.where === 'marker').length} on the marker line, ${os.filter((o) => o.where === 'field').length} on the field, ${os.filter((o) => o.where === 'missed').length} missed`;
  return [`all: ${row(outcomes)}`, ...kinds.map((k) => `${k}: ${row(outcomes.filter((o) => o.mutation.kind === k))}`)].join('\n');
}

if (require.main === module) {
  const perKind = Number(process.argv[process.argv.indexOf('--per-kind') + 1]) || 16;
  void (async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'crd-yaml-mutations-'));
    const generator = new GoGenerator({ cacheDir: process.env.CRD_YAML_CACHE ?? defaultCacheDir(), bin: process.env.CRD_YAML_CRDGEN || undefined, log: (m) => console.error(m) });
    const all: Outcome[] = [];
    try {
      for (const p of PROJECTS) {
        const dir = moduleCopy(p.module, p.version, work);
        console.error(`${p.module}@${p.version}`);
        all.push(...(await runProject(generator, dir, p.api, perKind, (m) => console.error(`  ${m}`))));
      }
    } finally {
      generator.dispose();
      fs.rmSync(work, { recursive: true, force: true });
    }
    console.log(summary(all));
  })();
}
