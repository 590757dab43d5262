// Which insights a view serves, and the catch-up that builds the missing ones. A view serves the stored document
// of its data version, or else the last complete one (never an empty one), or, in a store that never had insights
// built, a pending document with Retry-After. A review no longer published never appears in what is served.
import type { FastifyBaseLogger } from 'fastify';
import type { DataVersion, PublishedData, PublishedReview } from '../reviews/published.js';
import type { Business } from '../reviews/schemas.js';
import type { InsightsDocument } from '../reviews/insights-document.js';
import type { Store, StoredInsights } from '../store/types.js';
import { documentNamed } from '../reviews/catalogue.js';
import { CACHE_CONTROL, encodeRepresentation, representationOf, type Representation } from './representation.js';
import { overviewOf } from './insights-overview.js';

/**
 * What builds insights documents off the serving thread (insights/build-worker.ts is the one the app passes): publishing
 * asks for a document of a data version and serves what comes back; it knows nothing of how it is made.
 */
export interface InsightsBuilds {
  /** The engine version documents are keyed by. */
  readonly engineVersion: string;
  /** `onReady` gets a built document as soon as it is encoded, before it is stored. */
  build(request: BuildRequest, onReady?: (document: StoredInsights, analysed: number) => void): Promise<BuildOutcome>;
  stop(): Promise<void>;
}

export interface BuildRequest {
  business: Business | null;
  reviews: readonly PublishedReview[];
  /** `publishedAt` of the data to describe. */
  asOf: string | null;
}

export type BuildOutcome =
  /** The document was there already (another process, or an earlier run, built it). */
  | { kind: 'stored'; document: StoredInsights }
  | { kind: 'built'; document: StoredInsights; analysed: number; ms: number; parts: Record<BuildPart, number> }
  /** Another process holds the build's claim: its document will appear in the store. */
  | { kind: 'busy' }
  /** Built, but a document about newer data was stored meanwhile: this one is of no use. */
  | { kind: 'superseded' };

/** Where a build's time goes (ms), for the log: loading stored analyses, analysing and aggregating, encoding as JSON, compressing, storing. */
export type BuildPart = 'load' | 'analyse' | 'build' | 'encode' | 'compress' | 'store';

export interface ServedInsights {
  readonly document: InsightsDocument;
  /**
   * The document for what shows its figures and quotes only (pages): its lists of review ids may be empty. A stored
   * one is read without parsing them.
   */
  readonly overview: InsightsDocument;
  readonly representation: Representation;
  /** What the document was built from; null for the pending document. */
  readonly source: { readonly engineVersion: string; readonly asOf: string | null } | null;
  /** The stored document's Last-Modified (before any reviews were dropped from it); null for the pending one. */
  readonly lastModified: string | null;
}

/** How soon a client should ask again while a store's first insights are being built. */
export const PENDING_RETRY_AFTER_SECONDS = 5;

/** The document of a store that never had insights built: the shape, with nothing in it. */
export function pendingDocument(): InsightsDocument {
  return {
    status: 'building',
    generatedAt: null,
    asOf: null,
    reviewCount: 0,
    aspects: [],
    entities: { technicians: [], services: [], serviceAreas: [] },
    topics: [],
    faq: [],
    summary: { text: '' },
  };
}

export async function pendingInsights(): Promise<ServedInsights> {
  const document = pendingDocument();
  const representation = await encodeRepresentation(JSON.stringify(document), {
    contentType: INSIGHTS.mediaType,
    cacheControl: CACHE_CONTROL.none,
    lastModified: null,
    effort: 'fast',
  });
  return {
    document,
    overview: document,
    representation: { ...representation, retryAfterSeconds: PENDING_RETRY_AFTER_SECONDS },
    source: null,
    lastModified: null,
  };
}

/** Whether a review is published in the data being served. */
export type IsPublished = (reviewId: string) => boolean;

/** A stored document as a data version may serve it: without the reviews it no longer publishes. */
export async function servedFromStore(
  stored: StoredInsights,
  version: DataVersion,
  isPublished: IsPublished,
): Promise<ServedInsights> {
  const source = { engineVersion: stored.engineVersion, asOf: stored.asOf };
  // A document of older data may cite reviews unpublished since; one of this very data cannot.
  if (stored.asOf !== version.publishedAt) {
    const filtered = withoutUnpublished(JSON.parse(stored.document) as InsightsDocument, isPublished);
    if (filtered)
      return encodeServed(filtered, source, stored.lastModified, lastModifiedOf(stored.lastModified, version));
  }
  // As stored: the same bytes, so the same ETags, and the copies compressed by the process that built it.
  const body = Buffer.from(stored.document, 'utf8');
  const compressed = stored.compressed && {
    gzip: asBuffer(stored.compressed.gzip),
    br: asBuffer(stored.compressed.br),
  };
  const representation = representationOf(body, compressed ?? undefined, {
    contentType: INSIGHTS.mediaType,
    cacheControl: INSIGHTS.cacheControl,
    lastModified: lastModifiedOf(stored.lastModified, undefined),
  });
  // Parsed when first asked for (MCP reads it; HTTP serves the bytes): publishing a new document need not wait.
  let document: InsightsDocument | undefined;
  let overview: InsightsDocument | undefined;
  return {
    get document() {
      return (document ??= JSON.parse(body.toString('utf8')) as InsightsDocument);
    },
    get overview() {
      return document ?? (overview ??= overviewOf(body));
    },
    representation,
    source,
    lastModified: stored.lastModified,
  };
}

/** Bytes that crossed from the insights process arrive as plain Uint8Arrays: a Buffer view of the same memory. */
const asBuffer = (bytes: Uint8Array) =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

const INSIGHTS = documentNamed('insights');

/** The insights served so far, carried over to a new data version until its own are built. */
export async function carriedOver(
  served: ServedInsights,
  version: DataVersion,
  isPublished: IsPublished,
): Promise<ServedInsights> {
  if (!served.source) return served;
  const filtered = withoutUnpublished(served.document, isPublished);
  if (!filtered) return served;
  return encodeServed(filtered, served.source, served.lastModified, lastModifiedOf(served.lastModified, version));
}

/** The stored Last-Modified; when reviews had to be dropped, the bytes changed with the data: whichever is later. */
function lastModifiedOf(stored: string | null, droppedFor: DataVersion | undefined): Date | null {
  const times = [stored, droppedFor?.publishedAt].filter((t): t is string => !!t).map((t) => Date.parse(t));
  return times.length ? new Date(Math.max(...times)) : null;
}

async function encodeServed(
  document: InsightsDocument,
  source: ServedInsights['source'],
  storedLastModified: string | null,
  lastModified: Date | null,
): Promise<ServedInsights> {
  const body = Buffer.from(JSON.stringify(document), 'utf8');
  const representation = await encodeRepresentation(body, {
    contentType: INSIGHTS.mediaType,
    cacheControl: INSIGHTS.cacheControl,
    lastModified,
    effort: body.length > 1 << 20 ? 'fast' : 'best',
  });
  return { document, overview: document, representation, source, lastModified: storedLastModified };
}

/**
 * The document without quotes and ids of reviews no longer published (unpublished or removed since it was built);
 * undefined when it cites none. Ids stand in `reviewIds` and `examples` lists and as `reviewId` of quotes.
 */
export function withoutUnpublished(document: InsightsDocument, isPublished: IsPublished): InsightsDocument | undefined {
  let dropped = false;
  const published = (id: unknown) => {
    const keep = typeof id !== 'string' || isPublished(id);
    if (!keep) dropped = true;
    return keep;
  };
  const walk = (value: unknown, ids: boolean): unknown => {
    if (Array.isArray(value)) {
      return value
        .filter((item) =>
          ids && typeof item === 'string'
            ? published(item)
            : !(isRecord(item) && 'reviewId' in item) || published(item.reviewId),
        )
        .map((item) => walk(item, ids));
    }
    if (!isRecord(value)) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => [key, walk(v, ids || key === 'reviewIds' || key === 'examples')]),
    );
  };
  const result = walk(document, false) as InsightsDocument;
  return dropped ? result : undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * Brings a view's insights up to its data version: the stored document when some process built it, else a build
 * here (claimed in the store, so one process builds each version), else waiting for the process that holds the claim.
 */
export class InsightsCatchUp {
  /** The last build this process made: how long its thread took, and how many reviews it analysed. */
  lastBuild: { ms: number; analysed: number } | undefined;

  /** Waits of `follow` cut short when the store says a document was stored (by another process, on PostgreSQL). */
  private readonly waking = new Set<() => void>();
  private readonly stopWatching: () => void;

  constructor(
    private readonly store: Store,
    private readonly worker: InsightsBuilds,
    private readonly log: FastifyBaseLogger,
    private readonly pollMs: number,
  ) {
    this.stopWatching = store.watch((change) => {
      if (change.kind !== 'insights' && change.kind !== 'resumed') return;
      for (const wake of [...this.waking]) wake();
    });
  }

  stop(): void {
    this.stopWatching();
  }

  /** Whether the served insights describe this data version, as built by this engine. */
  isCurrent(served: ServedInsights, version: DataVersion): boolean {
    return served.source?.engineVersion === this.worker.engineVersion && served.source.asOf === version.publishedAt;
  }

  /**
   * Resolves with the stored document for the data, or undefined once `wanted()` says newer data was read
   * meanwhile or the build was superseded. A build here hands its document to `onReady` as soon as it is encoded,
   * before it is stored.
   */
  async follow(
    data: PublishedData,
    wanted: () => boolean,
    onReady: (document: StoredInsights, analysed: number) => void = () => undefined,
  ): Promise<{ stored: StoredInsights; analysed: number } | undefined> {
    const asOf = data.version.publishedAt;
    const engineVersion = this.worker.engineVersion;
    let attemptedAt = 0;
    while (wanted()) {
      // Built already (by this process before a restart, or by another)? Then no engine is needed at all.
      const stored = await this.store.insights.findDocument(engineVersion, asOf);
      if (stored) return { stored, analysed: 0 };
      // Another process's build shows up in the store; try again ourselves now and then, in case its claim lapsed.
      if (Date.now() - attemptedAt >= RETRY_BUSY_MS) {
        attemptedAt = Date.now();
        const asked = performance.now();
        const outcome = await this.worker.build({ business: data.business, reviews: data.reviews, asOf }, onReady);
        if (outcome.kind === 'built') {
          // roundTripMs: from asking the thread to its answer here; beyond `ms`, time spent waiting for either thread.
          const roundTripMs = Math.round(performance.now() - asked);
          this.log.info(
            { asOf, analysed: outcome.analysed, ms: outcome.ms, roundTripMs, parts: outcome.parts },
            'insights built',
          );
          this.lastBuild = { ms: outcome.ms, analysed: outcome.analysed };
          return { stored: outcome.document, analysed: outcome.analysed };
        }
        if (outcome.kind === 'stored') return { stored: outcome.document, analysed: 0 };
        if (outcome.kind === 'superseded') return undefined;
        this.log.info({ asOf }, 'another process is building these insights; waiting for them');
      }
      // The store's poll interval, but never longer than the retry: a claim that lapses is taken over promptly. A
      // store that sends notices ends the wait as soon as another process stores a document.
      await new Promise<void>((done) => {
        const wake = () => {
          clearTimeout(timer);
          this.waking.delete(wake);
          done();
        };
        const timer = setTimeout(wake, Math.min(this.pollMs, RETRY_BUSY_MS));
        timer.unref();
        this.waking.add(wake);
      });
    }
    return undefined;
  }
}

/** How often a process waiting on another's build tries to claim it itself (it succeeds once that claim lapses). */
const RETRY_BUSY_MS = 5000;
