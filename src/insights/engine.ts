// Builds the insights dataset from the published reviews, analysing only reviews it has not seen in this form.
import { createHash } from 'node:crypto';
import type { Business } from '../reviews/schemas.js';
import type { PublishedReview } from '../store/types.js';
import { aggregate, type Insights } from './document/aggregate.js';
import { Analyzer, type ReviewAnalysis } from './analysis/analyzer.js';
import { LEXICON_VERSION } from './analysis/lexicon.js';

export interface InsightsInput {
  business: Business | null;
  reviews: readonly PublishedReview[];
  generatedAt: string | null;
}

export class InsightsEngine {
  /** Review id → its analysis and what it was computed from (text, fields, catalogue, lexicon). */
  private cache = new Map<string, { key: string; analysis: ReviewAnalysis }>();
  private analyzer: Analyzer | undefined;
  private businessKey = '';

  build(input: InsightsInput): { insights: Insights; analysed: number } {
    const businessKey = createHash('sha256').update(JSON.stringify(input.business)).digest('base64url');
    if (!this.analyzer || businessKey !== this.businessKey) {
      this.analyzer = new Analyzer(input.business);
      this.businessKey = businessKey;
    }
    const next = new Map<string, { key: string; analysis: ReviewAnalysis }>();
    let analysed = 0;
    for (const review of input.reviews) {
      const key = `${LEXICON_VERSION}|${businessKey}|${review.updatedAt}|${review.text.length}`;
      let entry = this.cache.get(review.id);
      if (entry?.key !== key) {
        entry = { key, analysis: this.analyzer.analyze(review) };
        analysed++;
      }
      next.set(review.id, entry);
    }
    this.cache = next;
    const analyses = new Map([...next].map(([id, e]) => [id, e.analysis]));
    return { insights: aggregate(input.business, input.reviews, analyses, { generatedAt: input.generatedAt, lexiconVersion: LEXICON_VERSION }), analysed };
  }
}
