// Aggregates per-review analyses into the insights dataset: aspects, entities, topics, FAQ and summary, each
// figure with the review ids behind it. Pure and deterministic: the same reviews give the same bytes.
import type { Business } from '../../reviews/schemas.js';
import { AspectId as AspectIds } from '../../reviews/schemas.js';
import type { PublishedReview } from '../../store/types.js';
import type { ReviewAnalysis } from '../analysis/analyzer.js';
import { buildFaq } from './faq.js';
import { quarterOf } from './figures.js';
import { MIN_MENTIONS, type EntityInsight, type Insights } from './insights.js';
import { aspectInsight, entityInsight, perReviewAspects, type ReviewAspect, type ReviewRow } from './judgements.js';
import { buildSummary } from './summary.js';
import { TextIndex } from './text-index.js';
import { findTopics } from './topics.js';

export type { Insights } from './insights.js';

/** The parts of a build, in the order they run. */
export type AggregatePart = 'aspects' | 'entities' | 'topics' | 'faq' | 'summary';

export interface AggregateOptions {
  /**
   * The texts as read by earlier builds: pass the same index to every build and only changed texts are read again.
   * It changes no byte of the result; without it, every text is read.
   */
  texts?: TextIndex;
  /** Called as each part finishes (bench/aggregate.ts times them); it sees nothing of the result. */
  mark?: (part: AggregatePart) => void;
}

/** Each review once: its analysis, quarter and per-aspect judgements; the aspects' judgements in review order. */
function rowsOf(reviews: readonly PublishedReview[], analyses: ReadonlyMap<string, ReviewAnalysis>) {
  // Reviews share a few hundred dates: one quarter string per date.
  const quarters = new Map<string, string>();
  const byAspect = new Map(AspectIds.options.map((id) => [id, [] as ReviewAspect[]]));
  const rows = reviews.map((review): ReviewRow => {
    const analysis = analyses.get(review.id)!;
    let quarter = quarters.get(review.date);
    if (quarter === undefined) quarters.set(review.date, (quarter = quarterOf(review.date)));
    const aspects = perReviewAspects(review, analysis, quarter);
    for (const a of aspects) byAspect.get(a.aspect)!.push(a);
    return { review, analysis, quarter, aspects };
  });
  return { rows, byAspect };
}

/**
 * Groups reviews by a key (technician, service, area), keeps groups of at least MIN_MENTIONS reviews, and orders
 * them by the catalogue (unknown keys after), then by size, then by key: stable whatever the counts.
 */
function entities(rows: readonly ReviewRow[], keys: (row: ReviewRow) => readonly string[], order: readonly string[]): [string, EntityInsight][] {
  const groups = new Map<string, ReviewRow[]>();
  for (const row of rows) {
    const own = keys(row);
    for (const key of own.length > 1 ? new Set(own) : own) {
      const group = groups.get(key);
      if (group) group.push(row);
      else groups.set(key, [row]);
    }
  }
  const position = (key: string) => {
    const i = order.indexOf(key);
    return i < 0 ? Infinity : i;
  };
  return [...groups]
    .filter(([, group]) => group.length >= MIN_MENTIONS)
    .sort(([a, ga], [b, gb]) => position(a) - position(b) || gb.length - ga.length || (a < b ? -1 : 1))
    .map(([key, group]) => [key, entityInsight(group)]);
}

export function aggregate(
  business: Business | null,
  reviews: readonly PublishedReview[],
  analyses: ReadonlyMap<string, ReviewAnalysis>,
  meta: { generatedAt: string | null; lexiconVersion: string },
  options: AggregateOptions = {},
): Insights {
  const mark = options.mark ?? (() => {});
  const { rows, byAspect } = rowsOf(reviews, analyses);
  const aspects = AspectIds.options.map((id) => aspectInsight(id, byAspect.get(id)!));
  mark('aspects');

  const technicians = entities(rows, (r) => r.analysis.technicians, (business?.technicians ?? []).map((t) => t.name))
    .map(([name, insight]) => ({ name, ...insight }));
  const catalogue = business?.services ?? [];
  const services = entities(rows, (r) => r.analysis.services, catalogue.map((s) => s.id))
    .map(([id, insight]) => {
      const service = catalogue.find((s) => s.id === id);
      return { id, name: service?.name ?? id, category: service?.category ?? null, ...insight };
    });
  const serviceAreas = entities(rows, (r) => (r.review.serviceArea ? [r.review.serviceArea] : []), business?.areaServed ?? [])
    .map(([name, insight]) => ({ name, ...insight }));
  mark('entities');

  const texts = options.texts ?? new TextIndex();
  const features = texts.read(reviews);
  const topics = findTopics(rows, features, texts, business, MIN_MENTIONS);
  mark('topics');
  const urgent = reviews.filter((_, i) => features[i]!.urgent);
  const faq = buildFaq({ urgent, aspects, technicians, services }, MIN_MENTIONS);
  mark('faq');
  const summary = buildSummary({ reviews, quarters: rows.map((r) => r.quarter), aspects, technicians }, MIN_MENTIONS);
  mark('summary');
  return {
    status: 'ready',
    generatedAt: meta.generatedAt,
    reviewCount: reviews.length,
    lexiconVersion: meta.lexiconVersion,
    minMentions: MIN_MENTIONS,
    aspects,
    entities: { technicians, services, serviceAreas },
    topics,
    faq,
    summary,
  };
}
