// Keeps the current view: notices store changes made by any process, builds a view per data version off the
// request path, swaps it atomically, and swaps in the view's insights once they are stored.
import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { DocumentName } from '../reviews/catalogue.js';
import type { Links } from '../reviews/links.js';
import type { DataVersion, PublishedData } from '../reviews/published.js';
import { ReviewSet } from '../reviews/review-set.js';
import { SearchIndex } from '../reviews/search.js';
import { buildSnapshot } from '../reviews/snapshot.js';
import type { Store, StoredInsights, StoredRepresentation } from '../store/types.js';
import { renderKey } from '../reviews/render-key.js';
import type { RepresentationWrites } from '../store/representation-worker.js';
import {
  carriedOver,
  InsightsCatchUp,
  pendingInsights,
  servedFromStore,
  type InsightsBuilds,
  type ServedInsights,
} from './insights.js';
import { startPolling } from '../poll.js';
import { RepresentationCache } from './query-cache.js';
import { SinceListings } from './since.js';
import { sharesLastModified, succeeding, type CompressedCopies } from './representation.js';
import { renderDocuments, representationsOf, turn, type RenderedDocuments, type View } from './view.js';

export interface PublisherEvents {
  /** A new version is being served; `changed` names the documents whose bytes differ from the previous one. */
  published: [view: View, changed: DocumentName[]];
  /** The insights of the current version are being served; `analysed` reviews were analysed for them here. */
  insights: [view: View, analysed: number];
}

const REFRESH_FAILED = 'rebuilding the published view failed';

/** The longest the documents of a new version wait for its insights before they are compressed. */
const INSIGHTS_HEAD_START_MS = 1000;

/** How long stopping waits for a write of rendered documents under way. */
const RENDERINGS_STOP_WAIT_MS = 3000;

/** How long after a heard write the store is looked at: the writer's commit is complete by then. */
const HINT_DELAY_MS = 10;

export class Publisher extends EventEmitter<PublisherEvents> {
  private view: View | undefined;
  private stopPolling: () => void = () => undefined;
  private stopWatching: () => void = () => undefined;
  private hinted = false;
  private refreshing: Promise<void> | undefined;
  private followUp: Promise<void> | undefined;
  private readonly catchUp: InsightsCatchUp | undefined;
  /** How long the last view took, from noticing the change to serving it (for metrics). */
  lastViewMs = 0;
  /** The published reviews of the newest data read, kept in step with the store's changes. */
  private readonly reviews = new ReviewSet();
  /** The newest data read from the store (served, or being rendered). */
  private latest: PublishedData | undefined;
  /** The last write of rendered documents or compressed copies: the next waits for it (a copy needs its document stored). */
  private representationsSaved: Promise<unknown> = Promise.resolve();
  /** Insights of the newest data that were ready before the first view was. */
  private early: { data: PublishedData; insights: ServedInsights; analysed: number } | undefined;

  constructor(
    private readonly store: Store,
    private readonly links: Links,
    private readonly log: FastifyBaseLogger,
    private readonly intervalMs: number,
    /** Without one, the insights are only ever read from the store (tools that build none themselves). */
    private readonly insightsWorker?: InsightsBuilds,
    /** Where rendered documents and compressed copies are written (a thread of their own, in a server). */
    private readonly representationWrites: RepresentationWrites = store.representations,
  ) {
    super();
    this.catchUp = insightsWorker && new InsightsCatchUp(store, insightsWorker, log, intervalMs);
  }

  /** Builds the first view, then polls the store for changes made by any process. */
  async start(): Promise<void> {
    this.stopPolling = await startPolling(() => this.refresh(), this.intervalMs, this.log, REFRESH_FAILED);
    // Writes the store hears of are looked at within milliseconds; the poll stays for whatever a watch misses.
    // An ended MCP session changes nothing served.
    this.stopWatching = this.store.watch((change) => {
      if (change.kind !== 'revoked') this.hint();
    });
  }

  /** A write was heard: look soon, and once for a burst of them (an import writes many pages). */
  private hint(): void {
    if (this.hinted) return;
    this.hinted = true;
    setTimeout(() => {
      this.hinted = false;
      this.refresh().catch((error: unknown) => this.log.error({ err: error }, REFRESH_FAILED));
    }, HINT_DELAY_MS).unref();
  }

  /** Stops polling, and the insights process once it has closed its store. */
  async stop(): Promise<void> {
    this.stopPolling();
    this.stopWatching();
    this.catchUp?.stop();
    await this.insightsWorker?.stop();
    // A write of rendered documents under way gets a moment to finish (one at 300k reviews takes about a second); one
    // waiting on another process's lock is left to end with the process: its transaction rolls back, and the next
    // start renders what it would have stored.
    await Promise.race([
      this.representationsSaved,
      new Promise((done) => setTimeout(done, RENDERINGS_STOP_WAIT_MS).unref()),
    ]);
  }

  /** The last insights build this process made (for metrics). */
  get lastInsightsBuild(): { ms: number; analysed: number } | undefined {
    return this.catchUp?.lastBuild;
  }

  current(): View {
    if (!this.view) throw new Error('the publisher has not started');
    return this.view;
  }

  /** Resolves once /insights.json describes the version being served. */
  async insightsReady(): Promise<void> {
    while (this.catchUp && !this.catchUp.isCurrent(this.current().insights, this.current().snapshot.version)) {
      await new Promise<void>((done) => {
        const settle = () => {
          this.off('insights', settle);
          this.off('published', settle);
          done();
        };
        this.on('insights', settle);
        this.on('published', settle);
      });
    }
  }

  /**
   * Rebuilds if the store moved on. A call during a rebuild waits for one more check after it, since the
   * running rebuild may have read the store before the caller's change committed; callers meanwhile share it.
   */
  refresh(): Promise<void> {
    if (!this.refreshing) {
      this.refreshing = this.rebuildIfChanged().finally(() => {
        this.refreshing = undefined;
      });
      return this.refreshing;
    }
    this.followUp ??= this.refreshing
      .catch(() => undefined)
      .then(() => {
        this.followUp = undefined;
        return this.refresh();
      });
    return this.followUp;
  }

  private async rebuildIfChanged(): Promise<void> {
    const previous = this.view;
    const version = await this.store.currentVersion();
    if (this.latest && version.revision === this.latest.version.revision) return;
    if (previous && this.latest && version.publishedAt === this.latest.version.publishedAt) {
      // Only unpublished records changed (unverified reviews): the same view serves the new revision as it is.
      this.latest = { ...this.latest, version };
      this.view = { ...previous, snapshot: Object.freeze({ ...previous.snapshot, version }) };
      this.log.info({ revision: version.revision }, 'new revision without published changes');
      return;
    }
    const started = performance.now();
    const data = await this.read();
    this.latest = data;
    const read = performance.now();
    try {
      await this.publish(data, previous, started, read);
    } catch (error) {
      // Read afresh next time: the view still serves older data than the reviews kept here.
      this.latest = undefined;
      throw error;
    }
  }

  private async publish(data: PublishedData, previous: View | undefined, started: number, read: number): Promise<void> {
    // The new version's insights are built in their thread while its documents are made here, and served as soon as
    // they are stored. After an import the insights go first: the documents (the whole dataset, 43 MB at 100k
    // reviews, rendered and hashed on this thread, then compressed) wait until the insights are served, or
    // INSIGHTS_HEAD_START_MS at most, so that this thread is free to take the build's answer and serve it, and the
    // build has the CPU. Not at start: the first view serves the stored insights and waits for no build.
    const insightsServed = this.followInsights(data, started);
    if (previous)
      await Promise.race([insightsServed, new Promise((done) => setTimeout(done, INSIGHTS_HEAD_START_MS).unref())]);
    const snapshot = buildSnapshot(
      data,
      await SearchIndex.build(data.reviews, turn, (error) =>
        this.log.error({ err: error }, 'making the word index failed; text search reads the texts'),
      ),
    );
    // At start the bytes stored for this data are served as they were; after that only changed documents render.
    const stored = previous ? undefined : await this.storedRepresentations(data.version.publishedAt);
    const { lastModified, documents, changed, rendered, rejected } = await renderDocuments(data, this.links, previous, {
      stored,
      copies: this.copies,
    });
    if (rejected.length > 0)
      this.log.warn({ documents: rejected }, 'stored documents did not fit their data; rendered them again');
    // Read now: the insights may have landed during the awaits above.
    const served = this.view?.insights;
    const early = this.early?.data === data ? this.early : undefined;
    this.early = undefined;
    const isPublished = (id: string) => snapshot.index.get(id) !== undefined;
    const insights =
      early?.insights ??
      (served
        ? await carriedOver(served, snapshot.version, isPublished)
        : await this.storedInsights(snapshot.version, isPublished));
    const before = this.view;
    const lastModifiedShared = sharesLastModified(
      lastModified,
      before?.lastModified ?? null,
      data.version.publishedAt !== before?.snapshot.version.publishedAt,
      before?.lastModifiedShared,
    );
    const representations = Object.fromEntries(
      Object.entries({ ...documents, insights: insights.representation }).map(([name, rep]) => [
        name,
        succeeding(rep, before?.representations[name as DocumentName]),
      ]),
    ) as View['representations'];
    this.view = {
      snapshot,
      lastModified,
      lastModifiedShared,
      representations,
      insights,
      queries: new RepresentationCache(),
      since: new SinceListings(snapshot.index),
    };
    this.lastViewMs = Math.round(performance.now() - started);
    this.log.info(
      {
        revision: data.version.revision,
        reviews: data.reviews.length,
        changed,
        rendered,
        readMs: Math.round(read - started),
        ms: this.lastViewMs,
      },
      'serving a new data version',
    );
    // The words of the texts are made now, between requests: text searches read the texts until then. The first
    // version's are made once the server listens (src/app.ts), not between the steps of its start.
    if (previous) {
      snapshot.index.makeWords();
      this.emit('published', this.view, changed);
    }
    if (early) this.emit('insights', this.view, early.analysed);
    if (rendered.length > 0) this.keepRepresentations(data.version.publishedAt, documents, new Set(rejected));
  }

  /** The documents stored for the data published at `asOf` by this renderer; none when the store fails to say. */
  private async storedRepresentations(asOf: string | null): Promise<Map<string, StoredRepresentation> | undefined> {
    try {
      return await this.store.representations.find(asOf, renderKey(this.links));
    } catch (error) {
      this.log.warn({ err: error }, 'reading the stored documents failed; rendering them');
      return undefined;
    }
  }

  /** Stores a version's documents for the next start, after the saves before it; a failure costs only that start a render. */
  private keepRepresentations(asOf: string | null, documents: RenderedDocuments, replace: ReadonlySet<string>): void {
    const representations = representationsOf(documents);
    this.representationsSaved = this.representationsSaved
      .then(() => this.representationWrites.save(asOf, renderKey(this.links), representations, replace))
      .catch((error: unknown) => this.log.warn({ err: error }, 'storing the rendered documents failed'));
  }

  /** Large documents' compressed copies, kept beside their stored bytes once made (after those bytes are stored). */
  private readonly copies: CompressedCopies = {
    find: (tag, coding) =>
      this.store.representations.findCopy(tag, coding).catch((error: unknown) => {
        this.log.warn({ err: error, coding }, 'reading a stored compressed copy failed; compressing');
        return undefined;
      }),
    save: (tag, coding, bytes) => {
      this.representationsSaved = this.representationsSaved
        .then(() => this.representationWrites.saveCopy(tag, coding, bytes))
        .catch((error: unknown) => this.log.warn({ err: error, coding }, 'storing a compressed copy failed'));
    },
  };

  /** The whole published data at start; after that, the newest data read with the store's changes since applied. */
  private async read(): Promise<PublishedData> {
    const latest = this.latest;
    if (!latest) {
      const data = await this.store.readPublished();
      return { ...data, reviews: this.reviews.apply({ reset: true, upsert: [...data.reviews], remove: [] }) };
    }
    const { version, business, verification, delta } = await this.store.readChanges(
      latest.version.revision,
      this.reviews.ids,
    );
    return { version, business, verification, reviews: this.reviews.apply(delta) };
  }

  /** At start: the newest document any process stored, else the pending one. */
  private async storedInsights(version: DataVersion, isPublished: (id: string) => boolean): Promise<ServedInsights> {
    const stored = await this.store.insights.latestDocument();
    return stored ? servedFromStore(stored, version, isPublished) : pendingInsights();
  }

  /**
   * Builds or waits for the insights of this data and, while it is the newest read, serves them at once, even
   * before its view (the documents of the data they describe) is ready.
   */
  private async followInsights(data: PublishedData, noticed: number): Promise<void> {
    const catchUp = this.catchUp;
    if (!catchUp) return;
    // Still the newest published data? (A revision that changed only unpublished records keeps the reviews array.)
    const wanted = () => this.latest?.reviews === data.reviews && this.latest.business === data.business;
    // Served when ready (a build here: encoded, not yet stored), or when found in the store; whichever comes first.
    const serve = async (stored: StoredInsights, analysed: number) => {
      if (!wanted() || (this.view && catchUp.isCurrent(this.view.insights, data.version))) return;
      const insights = await servedFromStore(stored, data.version, (id) => this.reviews.has(id));
      const view = this.view;
      if (!wanted() || (view && catchUp.isCurrent(view.insights, data.version))) return;
      if (!view) {
        this.early ??= { data, insights, analysed };
        return;
      }
      this.view = {
        ...view,
        insights,
        representations: {
          ...view.representations,
          insights: succeeding(insights.representation, view.representations.insights),
        },
      };
      this.log.info(
        { asOf: data.version.publishedAt, ms: Math.round(performance.now() - noticed) },
        'serving the insights of a new data version',
      );
      this.emit('insights', this.view, analysed);
    };
    let ready: Promise<void> | undefined;
    try {
      const found = await catchUp.follow(data, wanted, (stored, analysed) => (ready = serve(stored, analysed)));
      await ready;
      if (found) await serve(found.stored, found.analysed);
    } catch (error) {
      this.log.error({ err: error }, 'building insights failed');
    }
  }
}
