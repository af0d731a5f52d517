/**
 * The check worker's feed of the query worker: the query worker answers hovers, completions and lenses
 * from its own copy of what the check worker knows (the CRDs of each source, what an open document is,
 * its baseline, its last test run). Each kind of news is sent only when it changed since it was last sent.
 */
import type { FileBaseline, FileContext, LanguageService, TestRun } from '../service';
import type { CrdSourceKind } from '../workspace/crdIndex';
import { namesOf } from '../workspace/lightIndex';
import type { IndexFeed } from './workerProtocol';
import { jsonSafe } from './jsonSafe';

export class QueryWorkerFeed {
  /** What the query worker last got of each source (CRD ids, by `source uri`), so unchanged CRDs are not sent again. */
  private readonly crdIds = new Map<string, string>();
  /** What the query worker last got of each open document's context (as JSON). */
  private readonly contexts = new Map<string, string>();

  constructor(
    private readonly service: LanguageService,
    private readonly send: (m: IndexFeed) => void,
  ) {}

  /** The CRDs a source now holds, when they changed. */
  crds(uri: string, source: CrdSourceKind, version?: number): void {
    const crds = this.service.index.entriesOf(uri, source);
    const key = `${source} ${uri}`;
    const ids = crds.map((c) => c.id).join(',');
    if ((this.crdIds.get(key) ?? '') === ids) return;
    if (ids) this.crdIds.set(key, ids);
    else this.crdIds.delete(key);
    this.send({ t: 'crds', uri, source, version, crds: crds.map(namesOf) });
  }

  /** Every disk and outside source that changed (after the repository features touched the index). */
  allSources(): void {
    for (const source of ['disk', 'external'] as const) {
      const uris = new Set(source === 'disk' ? this.service.index.diskSources() : this.service.index.externalSources());
      for (const key of this.crdIds.keys()) if (key.startsWith(`${source} `)) uris.add(key.slice(source.length + 1));
      for (const uri of uris) this.crds(uri, source);
    }
  }

  /** What an open document is (a chart template, a kustomize patch, ...), when that changed. */
  context(uri: string, context: FileContext): void {
    const key = JSON.stringify(context);
    if (this.contexts.get(uri) === key) return;
    this.contexts.set(uri, key);
    this.send({ t: 'context', uri, context });
  }

  baseline(uri: string, baseline: FileBaseline | undefined): void {
    this.send({ t: 'baseline', uri, baseline });
  }

  testRun(uri: string, run: TestRun | undefined): void {
    // Posted by structured clone: the engine's errors carry symbols (a Required error's omitted value).
    this.send({ t: 'testRun', uri, run: run && { text: run.text, outcomes: new Map([...run.outcomes].map(([i, o]) => [i, jsonSafe(o)])) } });
  }

  /** A closed document: its context is sent again when it is opened again. */
  forget(uri: string): void {
    this.contexts.delete(uri);
  }
}
