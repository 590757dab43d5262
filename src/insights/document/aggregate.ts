// Aggregates per-review analyses into the insights dataset: aspects, entities, topics, FAQ and summary, each
// figure with the review ids behind it. The aggregation is kept: reviews are put and removed as they change, each
// section counts the change in or out, and the document is printed from the counts. Deterministic: the same reviews
// give the same bytes, whatever was put and removed before (the reviews are listed newest first).
import type { Business } from '../../reviews/schemas.js';
import type { PublishedReview } from '../../reviews/published.js';
import type { ReviewAnalysis } from '../analysis/analyzer.js';
import { contributionOf, type Contribution } from './contribution.js';
import { buildFaq } from './faq.js';
import { MIN_MENTIONS, type Insights } from './insights.js';
import { OrderedReviews } from './ordered.js';
import { AspectSections, EntityGroups } from './sections.js';
import { buildSummary, type QuarterRatings } from './summary.js';
import { Topics } from './topics.js';

export type { Insights } from './insights.js';

/** The parts of printing a document, in the order they run. */
export type AggregatePart = 'aspects' | 'entities' | 'topics' | 'faq' | 'summary';

/** Each review's analysis by review id (a Map will do). */
export type AnalysisLookup = Pick<ReadonlyMap<string, ReviewAnalysis>, 'get'>;

export interface DocumentMeta {
  generatedAt: string | null;
  lexiconVersion: string;
}

export class Aggregation {
  private readonly contributions = new Map<string, Contribution>();
  private readonly all = new OrderedReviews();
  /** The reviews that describe emergency, after-hours or same-day work. */
  private readonly urgent = new OrderedReviews();
  private readonly quarters = new Map<string, QuarterRatings>();
  private readonly aspects = new AspectSections();
  private readonly technicians = new EntityGroups((c) => c.analysis.technicians);
  private readonly services = new EntityGroups((c) => c.analysis.services);
  private readonly areas = new EntityGroups((c) => (c.review.serviceArea ? [c.review.serviceArea] : []));
  private readonly topics = new Topics();

  /** A review and its analysis, new or in place of the review's earlier version. */
  put(review: PublishedReview, analysis: ReviewAnalysis): void {
    const features = this.topics.features(review);
    const before = this.contributions.get(review.id);
    if (before) this.count(before, -1);
    const contribution = contributionOf(review, analysis, features);
    this.contributions.set(review.id, contribution);
    this.count(contribution, 1);
  }

  remove(reviewId: string): void {
    const contribution = this.contributions.get(reviewId);
    if (!contribution) return;
    this.count(contribution, -1);
    this.contributions.delete(reviewId);
    this.topics.forget(reviewId);
  }

  /** The document of the reviews held now; `mark` is called as each part is done (bench/aggregate.ts times them). */
  document(business: Business | null, meta: DocumentMeta, mark: (part: AggregatePart) => void = () => {}): Insights {
    const aspects = this.aspects.sections();
    mark('aspects');
    const technicians = this.technicians
      .sections((business?.technicians ?? []).map((t) => t.name))
      .map(([name, insight]) => ({ name, ...insight }));
    const catalogue = business?.services ?? [];
    const services = this.services.sections(catalogue.map((s) => s.id)).map(([id, insight]) => {
      const service = catalogue.find((s) => s.id === id);
      return { id, name: service?.name ?? id, category: service?.category ?? null, ...insight };
    });
    const serviceAreas = this.areas
      .sections(business?.areaServed ?? [])
      .map(([name, insight]) => ({ name, ...insight }));
    mark('entities');
    const topics = this.topics.sections(this.all.contributions(), business);
    mark('topics');
    const urgent = this.urgent.contributions().map((c) => c.review);
    const faq = buildFaq({ urgent, aspects, technicians, services }, MIN_MENTIONS);
    mark('faq');
    const quarters = [...this.quarters.values()].sort((a, b) => (a.quarter < b.quarter ? -1 : 1));
    const summary = buildSummary({ quarters, aspects, technicians }, MIN_MENTIONS);
    mark('summary');
    return {
      status: 'ready',
      generatedAt: meta.generatedAt,
      reviewCount: this.contributions.size,
      lexiconVersion: meta.lexiconVersion,
      minMentions: MIN_MENTIONS,
      aspects,
      entities: { technicians, services, serviceAreas },
      topics,
      faq,
      summary,
    };
  }

  /** Counts a contribution in (1) or out (−1) of every section. */
  private count(c: Contribution, by: 1 | -1): void {
    const change = by > 0 ? 'add' : 'remove';
    for (const part of [this.all, this.aspects, this.technicians, this.services, this.areas, this.topics])
      part[change](c);
    if (c.features.urgent) this.urgent[change](c);
    let quarter = this.quarters.get(c.quarter);
    if (!quarter) this.quarters.set(c.quarter, (quarter = { quarter: c.quarter, reviews: 0, ratings: 0 }));
    quarter.reviews += by;
    quarter.ratings += by * c.review.rating;
    if (quarter.reviews === 0) this.quarters.delete(c.quarter);
  }
}

/** The document of these reviews, aggregated from nothing. */
export function aggregate(
  business: Business | null,
  reviews: readonly PublishedReview[],
  analyses: AnalysisLookup,
  meta: DocumentMeta,
): Insights {
  const aggregation = new Aggregation();
  for (const review of reviews) aggregation.put(review, analyses.get(review.id)!);
  return aggregation.document(business, meta);
}
