// Builds the insights of one data version once across every process sharing the store: claim the build, analyse
// only what no process analysed before, store the analyses and the document, release the claim.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Store, StoredInsights } from '../store/types.js';
import type { PublishedReview } from '../reviews/published.js';
import { compress } from '../compress.js';
import type { BuildOutcome, BuildPart, BuildRequest } from '../publishing/insights.js';
import type { ReviewAnalysis } from './analysis/analyzer.js';
import { InsightsEngine } from './engine.js';
import { analyseInPool, POOL_FROM_REVIEWS } from './analysis-pool.js';
import type { EngineVersions } from './version.js';

/** How long a claim lasts without renewal: a process that dies mid-build delays the others this long at most. */
export const CLAIM_MS = 60_000;

export class InsightsBuilder {
  private readonly engine: InsightsEngine;
  private analysesLoaded = false;
  private stopping = false;
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

  /** `poolFromReviews`: a build with this many reviews to analyse spreads them over the cores (tests set it low). */
  constructor(
    private readonly store: Store,
    private readonly versions: EngineVersions,
    private readonly poolFromReviews = POOL_FROM_REVIEWS,
  ) {
    this.engine = new InsightsEngine(versions.analysis);
  }

  /** The build under way gives up at its next pause, and no other starts. */
  stop(): void {
    this.stopping = true;
  }

  /**
   * `onReady` gets the document (and how many reviews were analysed for it) as soon as it is encoded, before it is stored (storing 10 MB at 100k reviews takes
   * some 0.1 s): a server can serve it meanwhile. A build whose document turns out superseded was still ready.
   */
  async build(
    request: BuildRequest,
    onReady: (document: StoredInsights, analysed: number) => void = () => undefined,
  ): Promise<BuildOutcome> {
    if (this.stopping) throw new Error('the insights builder is stopping');
    const started = performance.now();
    const insights = this.store.insights;
    const existing = await insights.findDocument(this.versions.document, request.asOf);
    if (existing) return { kind: 'stored', document: existing };
    const key = `${this.versions.document}|${request.asOf ?? ''}`;
    const claim = () => {
      const now = Date.now();
      return insights.claimBuild(key, this.owner, new Date(now).toISOString(), new Date(now + CLAIM_MS).toISOString());
    };
    if (!(await claim())) return { kind: 'busy' };
    try {
      // Between claiming and now another process may have finished the same build.
      const raced = await insights.findDocument(this.versions.document, request.asOf);
      if (raced) return { kind: 'stored', document: raced };
      const parts: Record<BuildPart, number> = { load: 0, analyse: 0, build: 0, encode: 0, compress: 0, store: 0 };
      let lap = performance.now();
      const mark = (part: BuildPart) => {
        const now = performance.now();
        parts[part] += Math.round(now - lap);
        lap = now;
      };
      await this.loadAnalyses(request.reviews);
      mark('load');
      let renewedAt = performance.now();
      const renew = async () => {
        // A turn of the thread's event loop, so a stop request sent meanwhile is heard.
        await new Promise((done) => setImmediate(done));
        if (this.stopping) throw new Error('the insights builder is stopping');
        if (performance.now() - renewedAt < CLAIM_MS / 3) return;
        renewedAt = performance.now();
        if (!(await claim())) throw new Error(`lost the claim on the insights build ${key}`);
      };
      await this.analyseOnEveryCore(request, renew);
      mark('analyse');
      const generatedAt = new Date().toISOString();
      const { insights: built, fresh, dropped } = await this.engine.build({ ...request, generatedAt }, renew);
      mark('build');
      const json = JSON.stringify(built);
      const body = Buffer.from(json, 'utf8');
      mark('encode');
      // Compressed here, once, off the server's thread; above 1 MiB at the fast setting, so a one-review rebuild
      // of a large business is not held up by brotli's best quality.
      const compressed = (await compress(body, body.length > 1 << 20 ? 'fast' : 'best')) ?? null;
      // Another engine's document of the same data means these bytes replace others of that data: they changed now.
      const replaces = await insights.hasDocumentAbout(request.asOf);
      const lastModified = replaces || request.asOf === null ? generatedAt : request.asOf;
      const document: StoredInsights = {
        engineVersion: this.versions.document,
        asOf: request.asOf,
        generatedAt,
        lastModified,
        reviewCount: request.reviews.length,
        document: json,
        compressed,
      };
      mark('compress');
      onReady(document, fresh.size);
      await insights.writeAnalyses(
        [...fresh].map(([reviewId, a]) => ({ reviewId, inputKey: a.inputKey, analysis: JSON.stringify(a.analysis) })),
        dropped,
        generatedAt,
      );
      const saved = await insights.saveDocument(document);
      mark('store');
      if (!saved) return { kind: 'superseded' };
      return { kind: 'built', document, analysed: fresh.size, ms: Math.round(performance.now() - started), parts };
    } finally {
      await insights.releaseBuild(key, this.owner);
    }
  }

  /** A build with many reviews to analyse (a first build) analyses them on every core first (analysis-pool.ts). */
  private async analyseOnEveryCore(request: BuildRequest, renew: () => Promise<void>): Promise<void> {
    const pending = this.engine.toAnalyse(request.business, request.reviews);
    if (pending.length < this.poolFromReviews) return;
    const analyses = await analyseInPool(request.business, pending, { progress: renew });
    this.engine.supply(request.business, analyses, pending);
  }

  /**
   * The analyses other processes stored: all of them at the first build, then those of reviews this engine has
   * not seen (another replica may have analysed them for a version this one only read back).
   */
  private async loadAnalyses(reviews: readonly PublishedReview[]): Promise<void> {
    const unseen = this.analysesLoaded ? reviews.filter((r) => !this.engine.knows(r.id)).map((r) => r.id) : undefined;
    if (unseen?.length === 0) return;
    const stored = await this.store.insights.readAnalyses(unseen);
    this.engine.remember(
      stored.map((s) => [s.reviewId, { inputKey: s.inputKey, analysis: JSON.parse(s.analysis) as ReviewAnalysis }]),
    );
    this.analysesLoaded = true;
  }
}
