// Keeps the current view: notices store changes made by any process, builds a view per data version off the
// request path, swaps it atomically, and swaps in the view's insights once they are stored.
import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { InsightsWorker } from '../insights/worker.js';
import type { DocumentName } from '../reviews/catalogue.js';
import type { Links } from '../reviews/links.js';
import { buildSnapshot, type ReviewsSnapshot } from '../reviews/snapshot.js';
import type { Store } from '../store/types.js';
import { carriedOver, InsightsCatchUp, pendingInsights, servedFromStore, type ServedInsights } from './insights.js';
import { startPolling } from '../poll.js';
import { RepresentationCache } from './query-cache.js';
import { renderDocuments, type View } from './view.js';

export interface PublisherEvents {
  /** A new version is being served; `changed` names the documents whose bytes differ from the previous one. */
  published: [view: View, changed: DocumentName[]];
  /** The insights of the current version are being served; `analysed` reviews were analysed for them here. */
  insights: [view: View, analysed: number];
}

export class Publisher extends EventEmitter<PublisherEvents> {
  private view: View | undefined;
  private stopPolling: () => void = () => undefined;
  private refreshing: Promise<void> | undefined;
  private followUp: Promise<void> | undefined;
  private readonly catchUp: InsightsCatchUp | undefined;
  /** The newest snapshot read from the store (served, or being rendered). */
  private latest: ReviewsSnapshot | undefined;
  /** Insights of the newest snapshot that were ready before its view was. */
  private early: { snapshot: ReviewsSnapshot; insights: ServedInsights; analysed: number } | undefined;

  constructor(
    private readonly store: Store,
    private readonly links: Links,
    private readonly log: FastifyBaseLogger,
    private readonly intervalMs: number,
    /** Without one, the insights are only ever read from the store (tools that build none themselves). */
    private readonly insightsWorker?: InsightsWorker,
  ) {
    super();
    this.catchUp = insightsWorker && new InsightsCatchUp(store, insightsWorker, log, intervalMs);
  }

  /** Builds the first view, then polls the store for changes made by any process. */
  async start(): Promise<void> {
    this.stopPolling = await startPolling(() => this.refresh(), this.intervalMs, this.log, 'rebuilding the published view failed');
  }

  /** Stops polling, and the insights thread once it has closed its store. */
  async stop(): Promise<void> {
    this.stopPolling();
    await this.insightsWorker?.stop();
  }

  current(): View {
    if (!this.view) throw new Error('the publisher has not started');
    return this.view;
  }

  /** Resolves once /insights.json describes the version being served. */
  async insightsReady(): Promise<void> {
    while (this.catchUp && !this.catchUp.isCurrent(this.current().insights, this.current().snapshot)) {
      await new Promise((done) => this.once('insights', done));
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
    if (previous && version.revision === previous.snapshot.version.revision) return;
    if (previous && version.publishedAt === previous.snapshot.version.publishedAt) {
      // Only unpublished records changed (unverified reviews): the same view serves the new revision as it is.
      this.view = { ...previous, snapshot: Object.freeze({ ...previous.snapshot, version }) };
      this.latest = this.view.snapshot;
      this.log.info({ revision: version.revision }, 'new revision without published changes');
      return;
    }
    const started = performance.now();
    const data = await this.store.readPublished();
    const snapshot = buildSnapshot(data);
    this.latest = snapshot;
    // The engine works on the new version's insights while its documents are encoded, not after.
    void this.followInsights(snapshot);
    const { lastModified, documents, changed } = await renderDocuments(data, this.links, previous);
    // Read now: a catch-up may have landed during the awaits above.
    const served = this.view?.insights;
    const carried = served ? await carriedOver(served, snapshot) : await this.storedInsights(snapshot);
    // Insights of this very version that were ready before its documents win over carried ones.
    const early = this.early?.snapshot === snapshot ? this.early : undefined;
    this.early = undefined;
    const insights = early?.insights ?? carried;
    this.view = { snapshot, lastModified, representations: { ...documents, insights: insights.representation }, insights, queries: new RepresentationCache() };
    this.log.info(
      { revision: data.version.revision, reviews: data.reviews.length, changed, ms: Math.round(performance.now() - started) },
      'serving a new data version',
    );
    if (previous) this.emit('published', this.view, changed);
    if (early) this.emit('insights', this.view, early.analysed);
  }

  /** At start: the newest document any process stored, else the pending one. */
  private async storedInsights(snapshot: ReviewsSnapshot): Promise<ServedInsights> {
    const stored = await this.store.insights.latestDocument();
    return stored ? servedFromStore(stored, snapshot) : pendingInsights();
  }

  /**
   * Builds or waits for the snapshot's insights and, while that snapshot is the newest read, serves them: at once
   * if its view is served already, else with the view when it is.
   */
  private async followInsights(snapshot: ReviewsSnapshot): Promise<void> {
    const catchUp = this.catchUp;
    if (!catchUp) return;
    // Still the same published data? (A revision that changed only unpublished records keeps the reviews array.)
    const sameData = (other: ReviewsSnapshot | undefined) => other?.reviews === snapshot.reviews && other.business === snapshot.business;
    const wanted = () => sameData(this.latest);
    try {
      const found = await catchUp.follow(snapshot, wanted);
      if (!found || !wanted()) return;
      const served = this.view;
      if (served && sameData(served.snapshot) && catchUp.isCurrent(served.insights, snapshot)) return;
      const insights = await servedFromStore(found.stored, snapshot);
      const current = this.view;
      if (!wanted()) return;
      if (!current || !sameData(current.snapshot)) {
        this.early = { snapshot, insights, analysed: found.analysed };
        return;
      }
      this.view = { ...current, insights, representations: { ...current.representations, insights: insights.representation } };
      this.emit('insights', this.view, found.analysed);
    } catch (error) {
      this.log.error({ err: error }, 'building insights failed');
    }
  }
}
