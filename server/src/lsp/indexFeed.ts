/**
 * The check worker's side of the index feed (workerProtocol.ts IndexFeed): the query worker's copy of the
 * CRD index, of what each open file is, of its baseline and of its last test run. Only what changed since
 * the last message is sent: CRDs by their ids per source, contexts by their content.
 */
import type { LanguageService } from '../service/languageService';
import type { FileContext } from '../service/context';
import type { CrdSourceKind } from '../workspace/crdIndex';
import { namesOf } from '../workspace/lightIndex';
import type { IndexFeed } from './workerProtocol';

export class IndexFeeder {
  /** What the query worker last got of each source (CRD ids), so that unchanged CRDs are not sent again. */
  private readonly fed = new Map<string, string>();
  /** What the query worker last got of each open document's context. */
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
    if ((this.fed.get(key) ?? '') === ids) return;
    if (ids) this.fed.set(key, ids);
    else this.fed.delete(key);
    this.send({ t: 'crds', uri, source, version, crds: crds.map(namesOf) });
  }

  /** Every disk and external source that changed (after the repository features touched the index). */
  all(): void {
    for (const source of ['disk', 'external'] as const) {
      const uris = new Set(source === 'disk' ? this.service.index.diskSources() : this.service.index.externalSources());
      for (const key of this.fed.keys()) if (key.startsWith(`${source} `)) uris.add(key.slice(source.length + 1));
      for (const uri of uris) this.crds(uri, source);
    }
  }

  /** What an open document is (a chart template, a patch), when that changed. */
  context(uri: string, context: FileContext): void {
    const key = JSON.stringify(context);
    if (this.contexts.get(uri) === key) return;
    this.contexts.set(uri, key);
    this.send({ t: 'context', uri, context });
  }

  /** An open file's baseline, as the service now holds it. */
  baseline(uri: string): void {
    this.send({ t: 'baseline', uri, baseline: this.service.baselineOf(uri) });
  }

  /** A CRD rule test file's last run. */
  testRun(uri: string): void {
    this.send({ t: 'testRun', uri, run: this.service.testRunOf(uri) });
  }

  /** A closed document: its context is sent again if it opens again. */
  forget(uri: string): void {
    this.contexts.delete(uri);
  }
}
