// Keeps the current published view: builds a snapshot per data version off the request path and swaps it atomically.
import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import { contentTag, encodeRepresentation, withLastModified, type Representation } from './http/representation.js';
import type { InsightsWorker } from './insights/background.js';
import { startPolling } from './poll.js';
import type { Links } from './reviews/documents.js';
import { buildSnapshot, type DocumentName, type RenderedDocument, type ReviewsSnapshot } from './reviews/snapshot.js';
import type { Store } from './store/types.js';

export const CONTENT_TYPES: Record<DocumentName, string> = {
  reviews: 'application/json',
  insights: 'application/json',
  jsonFeed: 'application/feed+json',
  atomFeed: 'application/atom+xml',
};

/**
 * Datasets and feeds change at most a few times a day and revalidate cheaply (ETag → 304), so caches may
 * reuse them for five minutes; WebSub subscribers hear of changes at once anyway.
 */
export const CACHE_CONTROL = {
  documents: 'public, max-age=300',
  queries: 'public, max-age=60',
  static: 'public, max-age=3600',
} as const;

export interface Published {
  readonly snapshot: ReviewsSnapshot;
  readonly lastModified: Date | null;
  readonly representations: Readonly<Record<DocumentName, Representation>>;
  /** Per-request bodies (search, since) of this version, encoded once and reused. */
  readonly queries: RepresentationCache;
}

export interface PublisherEvents {
  /** A new version is being served; `changed` names the documents whose bytes differ from the previous one. */
  published: [published: Published, changed: DocumentName[]];
  /** The insights of the current version are being served. */
  insights: [published: Published];
}

/** A small LRU of encoded query responses, bounded by entries and bytes. */
export class RepresentationCache {
  private readonly entries = new Map<string, Promise<Representation>>();
  private bytes = 0;
  constructor(
    private readonly maxEntries = 2000,
    private readonly maxBytes = 64 << 20,
  ) {}

  get(key: string, make: () => Promise<Representation>): Promise<Representation> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const made = make();
    this.entries.set(key, made);
    made.then(
      (rep) => {
        this.bytes += Object.values(rep.variants).reduce((n, v) => n + v.body.length, 0);
        this.evict();
      },
      () => this.entries.delete(key),
    );
    return made;
  }

  private evict(): void {
    for (const [key, rep] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) return;
      this.entries.delete(key);
      void rep.then((r) => {
        this.bytes -= Object.values(r.variants).reduce((n, v) => n + v.body.length, 0);
      });
    }
  }
}

export class Publisher extends EventEmitter<PublisherEvents> {
  private published: Published | undefined;
  private stopPolling: () => void = () => undefined;
  private refreshing: Promise<void> | undefined;
  private followUp: Promise<void> | undefined;
  private insightsRevision = -1;

  constructor(
    private readonly store: Store,
    private readonly links: Links,
    private readonly log: FastifyBaseLogger,
    private readonly intervalMs: number,
    /** Without one, /insights.json keeps the empty shape (tests of other parts, tools). */
    private readonly insights?: InsightsWorker,
  ) {
    super();
  }

  /** Builds the first view, then polls the store for changes made by any process. */
  async start(): Promise<void> {
    this.stopPolling = await startPolling(() => this.refresh(), this.intervalMs, this.log, 'rebuilding the published view failed');
  }

  stop(): void {
    this.stopPolling();
    void this.insights?.stop();
  }

  current(): Published {
    if (!this.published) throw new Error('the publisher has not started');
    return this.published;
  }

  /** Resolves once /insights.json describes the version being served (at once without an engine). */
  async insightsReady(): Promise<void> {
    while (this.insights && this.insightsRevision !== this.current().snapshot.version.revision) {
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
    const previous = this.published;
    const version = await this.store.currentVersion();
    if (previous && version.revision === previous.snapshot.version.revision) return;
    if (previous && version.publishedAt === previous.snapshot.version.publishedAt) {
      // Only unpublished records changed (unverified reviews): the same view serves the new revision as it is.
      const insightsCurrent = this.insightsRevision === previous.snapshot.version.revision;
      this.published = { ...previous, snapshot: Object.freeze({ ...previous.snapshot, version }) };
      if (insightsCurrent) this.insightsRevision = version.revision;
      this.log.info({ revision: version.revision }, 'new revision without published changes');
      return;
    }
    const started = performance.now();
    const data = await this.store.readPublished();
    const { snapshot: built, documents } = buildSnapshot(data, this.links);
    const lastModified = data.version.publishedAt ? new Date(data.version.publishedAt) : null;
    const changed: DocumentName[] = [];
    const representations = {} as Record<DocumentName, Representation>;
    for (const name of Object.keys(documents) as RenderedDocument[]) {
      const body = Buffer.from(documents[name], 'utf8');
      const before = previous?.representations[name];
      // Unchanged bytes keep their encoded variants; only compression of changed documents costs time.
      const tag = contentTag(body);
      const same = before?.variants.identity.etag === `"${tag}"`;
      if (!same) changed.push(name);
      representations[name] =
        before && same
          ? withLastModified(before, lastModified)
          : await encodeRepresentation(body, {
              contentType: CONTENT_TYPES[name],
              cacheControl: CACHE_CONTROL.documents,
              lastModified,
              effort: 'best',
              tag,
            });
    }
    // Until the engine catches up, the newest insights computed so far stay served (read now: a catch-up may have
    // landed during the awaits above). They describe an older version, so they carry no Last-Modified: a client
    // revalidating by date must not keep them once the real ones arrive.
    const latest = this.published;
    const insights = latest?.snapshot.insights ?? built.insights;
    representations.insights = latest
      ? withLastModified(latest.representations.insights, null)
      : await encodeRepresentation(JSON.stringify(insights), { contentType: CONTENT_TYPES.insights, cacheControl: CACHE_CONTROL.documents, lastModified: null, effort: 'best' });
    const snapshot: ReviewsSnapshot = Object.freeze({ ...built, insights });
    this.published = { snapshot, lastModified, representations, queries: new RepresentationCache() };
    this.log.info(
      {
        revision: data.version.revision,
        reviews: data.reviews.length,
        changed,
        ms: Math.round(performance.now() - started),
      },
      'serving a new data version',
    );
    if (previous) this.emit('published', this.published, changed);
    if (this.insights) void this.catchUpInsights(this.insights, snapshot);
  }

  /** Builds the insights of a snapshot in the worker and, if that snapshot is still the current one, serves them. */
  private async catchUpInsights(worker: InsightsWorker, snapshot: ReviewsSnapshot): Promise<void> {
    try {
      const built = await worker.build({ business: snapshot.business, reviews: snapshot.reviews, generatedAt: snapshot.version.publishedAt });
      // Still the same published data (a revision that changed only unpublished records keeps the reviews array)?
      const current = this.published;
      if (!current || current.snapshot.reviews !== snapshot.reviews || current.snapshot.business !== snapshot.business) return;
      const insights = JSON.parse(built.json) as Record<string, unknown>;
      const representation = await encodeRepresentation(built.json, {
        contentType: CONTENT_TYPES.insights,
        cacheControl: CACHE_CONTROL.documents,
        lastModified: current.lastModified,
        effort: 'best',
      });
      if (this.published !== current) return;
      this.published = {
        ...current,
        snapshot: Object.freeze({ ...current.snapshot, insights }),
        representations: { ...current.representations, insights: representation },
      };
      this.insightsRevision = current.snapshot.version.revision;
      this.log.info({ revision: snapshot.version.revision, analysed: built.analysed, ms: built.ms }, 'insights built');
      this.emit('insights', this.published);
    } catch (error) {
      this.log.error({ err: error }, 'building insights failed');
    }
  }
}
