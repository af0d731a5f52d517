/**
 * The open documents of the main thread and their copies in the workers: changes checked against the text
 * (clamped or rejected, documents.ts), a document whose text may differ from the client's held back
 * (desynced: no findings, no answers), and texts sent to the workers once no edit of theirs waits on the
 * wire (QueuedEdits): a burst of edits costs one copy to each worker, and a request about a document
 * sends its text first, so a request never sees an older text than it should.
 */
import { TextDocuments } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver-protocol';
import { applyChanges } from './documents';
import type { QueuedEdits } from './queuedEdits';
import type { Workers } from './workers';

/** A misbehaving client's changes are logged this many times (then counted in crdYaml/stats). */
const MAX_CHANGE_LOGS = 20;

/** Turns of the event loop the texts for the workers wait for the messages already read (scheduleFlush). */
const MAX_FLUSH_WAITS = 64;

export class OpenDocuments {
  readonly documents: TextDocuments<TextDocument>;
  /** Documents whose text may differ from the client's (a rejected change): no findings, no answers. */
  private readonly desynced = new Set<string>();
  /** Documents the workers hold (open, in sync). */
  private readonly inWorkers = new Set<string>();
  /** Texts waiting to go to the workers. */
  private readonly unsent = new Map<string, TextDocument>();
  private flushScheduled = false;
  private flushWaits = 0;
  readonly counts = { clampedChanges: 0, rejectedChanges: 0, ignoredChanges: 0, textsSent: 0 };

  constructor(
    private readonly queued: QueuedEdits,
    private readonly workers: Workers,
    private readonly log: (msg: string) => void,
  ) {
    this.documents = new TextDocuments<TextDocument>({
      create: TextDocument.create,
      update: (doc, changes, version) => this.apply(doc, changes, version),
    });
  }

  private apply(doc: TextDocument, changes: TextDocumentContentChangeEvent[], version: number): TextDocument {
    const o = applyChanges(doc, changes, version, this.desynced.has(doc.uri));
    const c = this.counts;
    switch (o.t) {
      case 'rejected':
        c.rejectedChanges++;
        this.desynced.add(doc.uri);
        if (c.rejectedChanges <= MAX_CHANGE_LOGS) {
          this.log(`rejected a change of ${doc.uri} (version ${version}): ${o.why}; the document is out of sync until the client sends its full text or reopens it`);
        }
        return doc;
      case 'ignored':
        c.ignoredChanges++;
        return doc;
      case 'applied':
        if (o.resynced) this.desynced.delete(doc.uri);
        if (o.clamped.length) {
          c.clampedChanges++;
          if (c.clampedChanges <= MAX_CHANGE_LOGS) this.log(`clamped a change of ${doc.uri} (version ${version}) to the document: ${o.clamped.join('; ')}`);
        }
        return doc;
    }
  }

  /** The open, in-sync document at a URI (requests about anything else get their empty answer). */
  inSync(uri: unknown): TextDocument | undefined {
    if (typeof uri !== 'string' || this.desynced.has(uri)) return undefined;
    return this.documents.get(uri);
  }

  /** Whether the document's text may differ from the client's. */
  isDesynced(uri: string): boolean {
    return this.desynced.has(uri);
  }

  /** Whether the workers hold the document. */
  inWorkersHas(uri: string): boolean {
    return this.inWorkers.has(uri);
  }

  /** A document's text changed (or it opened): it goes to the workers once its edits on the wire are handled. */
  changed(d: TextDocument): void {
    this.queued.record(d.uri, d.version);
    this.unsent.set(d.uri, d);
    this.scheduleFlush();
  }

  /** A didChange notification was handled: the last one of a document sends its text. */
  handled(uri: string): void {
    if (this.queued.handled(uri) === 0 && this.unsent.has(uri)) this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    const run = () => {
      // Messages already read go first (one per turn): a hover read behind a large open is answered before
      // the open's text is copied to the workers (at most MAX_FLUSH_WAITS turns: see QueuedEdits.backlog).
      if (this.queued.backlog && this.flushWaits++ < MAX_FLUSH_WAITS) {
        setImmediate(run);
        return;
      }
      this.flushWaits = 0;
      this.flushScheduled = false;
      for (const [uri, d] of this.unsent) {
        if (this.queued.hasUnhandled(uri)) continue; // its last notification schedules the flush again
        this.unsent.delete(uri);
        this.toWorkers(d);
      }
    };
    setImmediate(run);
  }

  /** Sends the waiting texts (of one document, or all) now. */
  flush(uri?: string): void {
    for (const d of uri === undefined ? [...this.unsent.values()] : [this.unsent.get(uri)]) {
      if (!d) continue;
      this.unsent.delete(d.uri);
      this.toWorkers(d);
    }
  }

  private toWorkers(d: TextDocument): void {
    const text = d.getText();
    this.counts.textsSent++;
    this.queued.record(d.uri, d.version);
    if (!this.inWorkers.has(d.uri)) {
      this.inWorkers.add(d.uri);
      const slot = this.queued.slotOf(d.uri) ?? -1;
      this.workers.post('check', { t: 'open', uri: d.uri, languageId: d.languageId, version: d.version, text, slot });
      this.workers.post('query', { t: 'open', uri: d.uri, languageId: d.languageId, version: d.version, text, slot });
    } else {
      this.workers.post('check', { t: 'change', uri: d.uri, version: d.version, text });
      this.workers.post('query', { t: 'change', uri: d.uri, version: d.version, text });
    }
  }

  /** Tells the workers to drop a document; whether they held it. */
  fromWorkers(uri: string): boolean {
    this.unsent.delete(uri);
    if (!this.inWorkers.delete(uri)) return false;
    this.workers.post('check', { t: 'close', uri });
    this.workers.post('query', { t: 'close', uri });
    return true;
  }

  /** A document closed: forgotten here and in the workers. */
  closed(uri: string): void {
    this.desynced.delete(uri);
    this.fromWorkers(uri);
    this.queued.forget(uri);
  }

  /** New workers: every in-sync document is sent to them again. */
  replay(): void {
    this.inWorkers.clear();
    this.unsent.clear();
    for (const d of this.documents.all()) if (!this.desynced.has(d.uri)) this.toWorkers(d);
  }
}
