/**
 * Regenerates server/src/engine/discovery/builtin-kinds.json: every kind a real kube-apiserver serves
 * (all API versions enabled, `--runtime-config=api/all=true`), read from its discovery endpoints, for
 * each emulated minor version the build supports. Run: node --import tsx scripts/builtin-kinds.ts
 * (needs the kube-apiserver of ../shared/kube-apiserver, see test/apiserver/kapi.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startApiServer } from '../test/apiserver/kapi';

interface Entry {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  /** Kubernetes minor versions (of those generated) that serve it. */
  served: string[];
}

const MINORS = ['1.34', '1.35', '1.36', '1.37'];
const byKey = new Map<string, Entry>();

async function main(): Promise<void> {
  for (const minor of MINORS) {
    const s = await startApiServer({ flags: ['--runtime-config=api/all=true', `--emulated-version=${minor}`] });
    try {
      const gvs: string[] = [];
      const core = await s.request('GET', '/api');
      for (const v of core.body.versions as string[]) gvs.push(v);
      const groups = await s.request('GET', '/apis');
      for (const g of groups.body.groups as { versions: { groupVersion: string }[] }[]) for (const v of g.versions) gvs.push(v.groupVersion);
      for (const gv of gvs) {
        const r = await s.request('GET', gv.includes('/') ? `/apis/${gv}` : `/api/${gv}`);
        const [group, version] = gv.includes('/') ? gv.split('/') : ['', gv];
        for (const res of r.body.resources as { name: string; kind: string; namespaced: boolean }[]) {
          if (res.name.includes('/')) continue; // subresources
          const key = `${group}/${version}/${res.kind}`;
          const e = byKey.get(key) ?? { group, version, kind: res.kind, plural: res.name, namespaced: res.namespaced, served: [] };
          e.served.push(minor);
          byKey.set(key, e);
        }
      }
      console.error(`${minor}: ${gvs.length} group versions`);
    } finally {
      s.stop();
    }
  }
  const entries = [...byKey.values()].sort((a, b) => a.group.localeCompare(b.group) || a.version.localeCompare(b.version) || a.kind.localeCompare(b.kind));
  const out = {
    generatedBy: 'scripts/builtin-kinds.ts: discovery of kube-apiserver v1.37.2 with --runtime-config=api/all=true and --emulated-version=' + MINORS.join('|'),
    minors: MINORS,
    kinds: entries.map((e) => [e.group, e.version, e.kind, e.plural, e.namespaced ? 1 : 0, e.served.length === MINORS.length ? '' : e.served.join(',')]),
  };
  const file = join(__dirname, '..', 'server', 'src', 'engine', 'discovery', 'builtin-kinds.json');
  const rows = out.kinds.map((k) => '    ' + JSON.stringify(k)).join(',\n');
  writeFileSync(
    file,
    `{\n  "generatedBy": ${JSON.stringify(out.generatedBy)},\n  "minors": ${JSON.stringify(out.minors)},\n  "columns": ["group", "version", "kind", "plural", "namespaced", "served only in (empty: all minors)"],\n  "kinds": [\n${rows}\n  ]\n}\n`,
  );
  console.error(`${entries.length} kinds written to ${file}`);
}

void main();
