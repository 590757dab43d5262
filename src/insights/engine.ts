// Builds the insights document from the published reviews, analysing only reviews whose analysis it lacks.
import { createHash } from 'node:crypto';
import type { InsightsDocument } from '../reviews/insights-document.js';
import type { Business } from '../reviews/schemas.js';
import type { PublishedReview } from '../reviews/published.js';
import { Aggregation } from './document/aggregate.js';
import { Analyzer, type ReviewAnalysis } from './analysis/analyzer.js';
import { LEXICON_VERSION } from './analysis/lexicon.js';

export interface InsightsInput {
  business: Business | null;
  reviews: readonly PublishedReview[];
  /** `publishedAt` of the data described. */
  asOf: string | null;
  /** When this build happens: the document's Last-Modified. */
  generatedAt: string;
}

/** An analysis with the key of what it was computed from: the analyzer version, the catalogue and the review. */
export interface KeyedAnalysis {
  inputKey: string;
  analysis: ReviewAnalysis;
}

interface Cached extends KeyedAnalysis {
  /** The review's `updatedAt` when its key was computed: an unchanged record needs no new hash. */
  updatedAt: string;
  /** The last build that found the review published. */
  seen: number;
}

const sha = (text: string) => createHash('sha256').update(text).digest('base64url');

/** The key of an analysis: what it was computed from (the analyzer and business, and what it reads of the review). */
const inputKeyOf = (businessKey: string, review: PublishedReview) =>
  sha(`${businessKey}|${JSON.stringify([review.text, review.rating, review.technicians, review.services])}`);

/** What the analysis reads of a review: its English words, or the platform's English translation; nothing else. */
export function analysedReview(review: PublishedReview): PublishedReview | 'rating-only' | 'other-language' {
  if (!review.text.trim()) return 'rating-only';
  if (isEnglish(review.language)) return review;
  if (review.translation && isEnglish(review.translation.language)) return { ...review, text: review.translation.text };
  return 'other-language';
}

/** English, or a text too short to tell (the business writes, and its customers mostly write, English). */
const isEnglish = (language: string) => language === 'und' || language === 'en' || language.startsWith('en-');

export class InsightsEngine {
  /** Review id → its analysis; reviews no longer published are dropped at each build. */
  private readonly cache = new Map<string, Cached>();
  private builds = 0;
  /** Analyses handed in from the store, used when their key still matches. */
  private known = new Map<string, KeyedAnalysis>();
  /** The document's counts, kept across builds: a build counts in and out only the reviews that changed. */
  private aggregation = new Aggregation();
  private analyzer: Analyzer | undefined;
  private businessKey = '';
  /** Analyses made elsewhere for the next build (analyseInPool), by review id, with the key they were made for. */
  private supplied = new Map<string, KeyedAnalysis>();

  constructor(private readonly analysisVersion: string = LEXICON_VERSION) {}

  knows(reviewId: string): boolean {
    return this.cache.has(reviewId) || this.known.has(reviewId);
  }

  /** Analyses computed earlier, by this process or another: reused wherever their key matches. */
  remember(analyses: Iterable<[reviewId: string, analysis: KeyedAnalysis]>): void {
    for (const [id, a] of analyses) this.known.set(id, a);
  }

  /**
   * The reviews (as the analyzer reads them) a build of these would have to analyse: those with no analysis cached
   * or known under their current key. A caller may analyse them elsewhere and `supply` the analyses.
   */
  toAnalyse(business: Business | null, reviews: readonly PublishedReview[]): PublishedReview[] {
    const businessKey = sha(`${this.analysisVersion}|${JSON.stringify(business)}`);
    const cacheValid = businessKey === this.businessKey;
    const pending: PublishedReview[] = [];
    for (const published of reviews) {
      const review = analysedReview(published);
      if (typeof review === 'string') continue;
      if (cacheValid && this.cache.get(review.id)?.updatedAt === review.updatedAt) continue;
      if (this.known.get(review.id)?.inputKey === inputKeyOf(businessKey, review)) continue;
      pending.push(review);
    }
    return pending;
  }

  /** Analyses of `toAnalyse`'s reviews made elsewhere: the next build uses them as its own (and stores them). */
  supply(
    business: Business | null,
    analyses: ReadonlyMap<string, ReviewAnalysis>,
    reviews: readonly PublishedReview[],
  ): void {
    const businessKey = sha(`${this.analysisVersion}|${JSON.stringify(business)}`);
    for (const review of reviews) {
      const analysis = analyses.get(review.id);
      if (analysis) this.supplied.set(review.id, { inputKey: inputKeyOf(businessKey, review), analysis });
    }
  }

  /**
   * The document and the analyses this build had to compute (the ones worth storing). Every `pauseEvery` analyses
   * it awaits `pause`, so a long first build can renew its claim and let its thread answer.
   */
  async build(
    input: InsightsInput,
    pause: () => Promise<void> = async () => undefined,
    pauseEvery = 250,
  ): Promise<{ insights: InsightsDocument; fresh: Map<string, KeyedAnalysis>; dropped: string[] }> {
    const businessKey = sha(`${this.analysisVersion}|${JSON.stringify(input.business)}`);
    if (businessKey !== this.businessKey) {
      // Made when a review needs it: a build whose analyses were all supplied or known never loads the models.
      this.analyzer = undefined;
      this.businessKey = businessKey;
      this.cache.clear();
      this.aggregation = new Aggregation();
    }
    // The cache is updated in place, each entry stamped with the build that saw it: no map of 100,000 entries is
    // made again for a one-review change.
    const build = ++this.builds;
    const fresh = new Map<string, KeyedAnalysis>();
    const languages = { analysed: 0, ratingOnly: 0, notAnalysed: {} as Record<string, number> };
    for (const published of input.reviews) {
      const review = analysedReview(published);
      if (review === 'rating-only') languages.ratingOnly++;
      else if (review === 'other-language')
        languages.notAnalysed[published.language] = (languages.notAnalysed[published.language] ?? 0) + 1;
      if (typeof review === 'string') continue;
      languages.analysed++;
      const cached = this.cache.get(review.id);
      if (cached?.updatedAt === review.updatedAt) {
        cached.seen = build;
        continue;
      }
      const inputKey = inputKeyOf(businessKey, review);
      const known = this.known.get(review.id);
      const supplied = this.supplied.get(review.id);
      const analysis =
        known?.inputKey === inputKey
          ? known.analysis
          : supplied?.inputKey === inputKey
            ? supplied.analysis
            : (this.analyzer ??= new Analyzer(input.business)).analyze(review);
      this.cache.set(review.id, { inputKey, analysis, updatedAt: review.updatedAt, seen: build });
      this.aggregation.put(review, analysis);
      if (analysis !== known?.analysis) {
        fresh.set(review.id, { inputKey, analysis });
        if (fresh.size % pauseEvery === 0) await pause();
      }
    }
    // Reviews this engine knew (analysed, or handed in) that are no longer published.
    const dropped = new Set<string>();
    for (const [id, entry] of this.cache) {
      if (entry.seen === build) continue;
      dropped.add(id);
      this.cache.delete(id);
      this.aggregation.remove(id);
    }
    for (const id of this.known.keys()) if (!this.cache.has(id)) dropped.add(id);
    this.known.clear();
    this.supplied.clear();
    const { status, generatedAt, ...sections } = this.aggregation.document(input.business, {
      generatedAt: input.generatedAt,
      lexiconVersion: LEXICON_VERSION,
    });
    const { reviewCount, ...rest } = sections;
    return {
      insights: { status, generatedAt, asOf: input.asOf, reviewCount, languages, ...rest },
      fresh,
      dropped: [...dropped],
    };
  }
}
