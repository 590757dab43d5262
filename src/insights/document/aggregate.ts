// Aggregates per-review analyses into the insights dataset: aspects, entities, topics, FAQ and summary, each
// figure with the review ids behind it. Pure and deterministic: the same reviews give the same bytes.
import type { Business } from '../../reviews/schemas.js';
import type { PublishedReview } from '../../reviews/published.js';
import { buildFaq } from './faq.js';
import { MIN_MENTIONS, type EntityInsight, type Insights } from './insights.js';
import { Judged, type AnalysisLookup } from './judged.js';
import { aspectInsights, entityInsight } from './sections.js';
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

/**
 * Keeps the groups (technician, service, area → review indices) of at least MIN_MENTIONS reviews, ordered by the
 * catalogue (unknown keys after), then by size, then by key: stable whatever the counts.
 */
function entities(judged: Judged, groups: ReadonlyMap<string, Int32Array>, order: readonly string[]): [string, EntityInsight][] {
  const position = (key: string) => {
    const i = order.indexOf(key);
    return i < 0 ? Infinity : i;
  };
  return [...groups]
    .filter(([, group]) => group.length >= MIN_MENTIONS)
    .sort(([a, ga], [b, gb]) => position(a) - position(b) || gb.length - ga.length || (a < b ? -1 : 1))
    .map(([key, group]) => [key, entityInsight(judged, group)]);
}

export function aggregate(
  business: Business | null,
  reviews: readonly PublishedReview[],
  analyses: AnalysisLookup,
  meta: { generatedAt: string | null; lexiconVersion: string },
  options: AggregateOptions = {},
): Insights {
  const mark = options.mark ?? (() => {});
  const judged = new Judged(reviews, analyses);
  const aspects = aspectInsights(judged);
  mark('aspects');

  const technicians = entities(judged, judged.technicians, (business?.technicians ?? []).map((t) => t.name))
    .map(([name, insight]) => ({ name, ...insight }));
  const catalogue = business?.services ?? [];
  const services = entities(judged, judged.services, catalogue.map((s) => s.id))
    .map(([id, insight]) => {
      const service = catalogue.find((s) => s.id === id);
      return { id, name: service?.name ?? id, category: service?.category ?? null, ...insight };
    });
  const serviceAreas = entities(judged, judged.areas, business?.areaServed ?? [])
    .map(([name, insight]) => ({ name, ...insight }));
  mark('entities');

  const texts = options.texts ?? new TextIndex();
  const features = texts.read(reviews);
  const topics = findTopics(judged, features, texts, business, MIN_MENTIONS);
  mark('topics');
  const urgent = reviews.filter((_, i) => features[i]!.urgent);
  const faq = buildFaq({ urgent, aspects, technicians, services }, MIN_MENTIONS);
  mark('faq');
  const summary = buildSummary({ ratings: judged.ratings, quarters: judged.quarters, quarterOf: judged.quarterOf, aspects, technicians }, MIN_MENTIONS);
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
