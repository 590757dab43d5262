// Aggregates per-review analyses into the insights dataset: aspects, entities, topics, FAQ and summary, each
// figure with the review ids behind it. Pure and deterministic: the same reviews give the same bytes.
import type { AspectId, Business } from '../../reviews/schemas.js';
import { AspectId as AspectIds } from '../../reviews/schemas.js';
import type { PublishedReview } from '../../store/types.js';
import type { AspectJudgement, ReviewAnalysis } from '../analysis/analyzer.js';
import { foldedText } from '../analysis/fold.js';
import { buildFaq } from './faq.js';
import { averageRating, quarterOf, round2 } from './figures.js';
import { ASPECT_LABELS, type AspectInsight, type EntityInsight, type Insights, type Quote, type Tally } from './insights.js';
import { buildSummary } from './summary.js';
import { findTopics } from './topics.js';

export type { Insights } from './insights.js';

/** Nothing is reported about an aspect, entity or topic with fewer mentions than this. */
const MIN_MENTIONS = 5;
const QUOTES = 3;

/** One judgement per review and aspect: several mentions in a review add up. */
interface ReviewAspect {
  review: PublishedReview;
  aspect: AspectId;
  score: number;
  evidence: AspectJudgement;
}

/** Judgements that cancel out (0.8 − 0.8) are neutral, floating-point dust included. */
const sign = (score: number) => (Math.abs(score) < 1e-9 ? 0 : Math.sign(score));

function tally(scores: readonly number[]): Tally {
  const positive = scores.filter((s) => sign(s) > 0).length;
  const negative = scores.filter((s) => sign(s) < 0).length;
  const mentions = scores.length;
  return { mentions, positive, negative, neutral: mentions - positive - negative, score: mentions >= MIN_MENTIONS ? round2((positive - negative) / mentions) : null };
}

/** Combines a review's judgements of each aspect into one, keeping the strongest as its evidence. */
function perReviewAspects(review: PublishedReview, analysis: ReviewAnalysis): ReviewAspect[] {
  const byAspect = new Map<AspectId, ReviewAspect>();
  for (const j of analysis.aspects) {
    const current = byAspect.get(j.aspect);
    if (!current) byAspect.set(j.aspect, { review, aspect: j.aspect, score: j.score, evidence: j });
    else {
      current.score += j.score;
      if (Math.abs(j.score) > Math.abs(current.evidence.score)) current.evidence = j;
    }
  }
  return [...byAspect.values()];
}

/** Stronger first, then newer, then the larger id: a total order, so the same reviews give the same quotes. */
function stronger(a: ReviewAspect, b: ReviewAspect): number {
  return Math.abs(b.score) - Math.abs(a.score) || (a.review.date < b.review.date ? 1 : a.review.date > b.review.date ? -1 : 0) || (a.review.id < b.review.id ? 1 : -1);
}

function quotes(items: readonly ReviewAspect[], direction: 1 | -1): Quote[] {
  // The best few in one pass: sorting tens of thousands of items for three quotes would dominate the build.
  const best: ReviewAspect[] = [];
  for (const item of items) {
    if (sign(item.score) !== direction) continue;
    if (best.length === QUOTES && stronger(item, best[QUOTES - 1]!) >= 0) continue;
    best.push(item);
    best.sort(stronger);
    if (best.length > QUOTES) best.pop();
  }
  return best
    .map((a) => ({ reviewId: a.review.id, date: a.review.date, rating: a.review.rating, text: a.evidence.evidence, score: Math.round(Math.max(-1, Math.min(1, a.score)) * 100) / 100 }));
}

function entity(reviews: readonly PublishedReview[], aspects: readonly ReviewAspect[]): EntityInsight {
  const byAspect = new Map<AspectId, number[]>();
  for (const a of aspects) push(byAspect, a.aspect, a.score);
  return {
    mentions: reviews.length,
    averageRating: averageRating(reviews),
    aspects: AspectIds.options.filter((id) => byAspect.has(id)).map((aspect) => ({ aspect, ...tally(byAspect.get(aspect)!) })),
    quotes: { positive: quotes(aspects, 1), negative: quotes(aspects, -1) },
    reviewIds: reviews.map((r) => r.id),
  };
}

/** Groups reviews by a key (technician, service, area); reviews stay newest first within a group. */
function groupBy(reviews: readonly PublishedReview[], keys: (r: PublishedReview) => readonly string[]): Map<string, PublishedReview[]> {
  const groups = new Map<string, PublishedReview[]>();
  for (const r of reviews) for (const k of new Set(keys(r))) push(groups, k, r);
  return groups;
}

/** The parts of a build, in the order they run. */
export type AggregatePart = 'aspects' | 'entities' | 'topics' | 'faq' | 'summary';

export interface AggregateOptions {
  /** Called as each part finishes (bench/aggregate.ts times them); it sees nothing of the result. */
  mark?: (part: AggregatePart) => void;
}

export function aggregate(
  business: Business | null,
  reviews: readonly PublishedReview[],
  analyses: ReadonlyMap<string, ReviewAnalysis>,
  meta: { generatedAt: string | null; lexiconVersion: string },
  options: AggregateOptions = {},
): Insights {
  const mark = options.mark ?? (() => {});
  const analysisOf = (r: PublishedReview) => analyses.get(r.id)!;
  const reviewAspects = new Map<string, ReviewAspect[]>(reviews.map((r) => [r.id, perReviewAspects(r, analysisOf(r))]));
  const aspectsOf = (group: readonly PublishedReview[]) => group.flatMap((r) => reviewAspects.get(r.id)!);

  const all = aspectsOf(reviews);
  const aspects: AspectInsight[] = AspectIds.options.map((id) => {
    const items = all.filter((a) => a.aspect === id);
    const byQuarter = new Map<string, number[]>();
    for (const a of items) push(byQuarter, quarterOf(a.review.date), a.score);
    return {
      id,
      label: ASPECT_LABELS[id],
      ...tally(items.map((a) => a.score)),
      trend: [...byQuarter.keys()].sort().map((quarter) => ({ quarter, ...tally(byQuarter.get(quarter)!) })),
      quotes: { positive: quotes(items, 1), negative: quotes(items, -1) },
      reviewIds: {
        positive: items.filter((a) => sign(a.score) > 0).map((a) => a.review.id),
        negative: items.filter((a) => sign(a.score) < 0).map((a) => a.review.id),
        neutral: items.filter((a) => sign(a.score) === 0).map((a) => a.review.id),
      },
    };
  });
  mark('aspects');

  const enough = <T>(groups: Map<string, T[]>) => [...groups].filter(([, g]) => g.length >= MIN_MENTIONS);
  const technicianOrder = (business?.technicians ?? []).map((t) => t.name);
  const technicians = enough(groupBy(reviews, (r) => analysisOf(r).technicians))
    .sort(([a, ga], [b, gb]) => rank(technicianOrder, a, b) || gb.length - ga.length || (a < b ? -1 : 1))
    .map(([name, group]) => ({ name, ...entity(group, aspectsOf(group)) }));
  const catalogue = business?.services ?? [];
  const services = enough(groupBy(reviews, (r) => analysisOf(r).services))
    .sort(([a, ga], [b, gb]) => rank(catalogue.map((s) => s.id), a, b) || gb.length - ga.length || (a < b ? -1 : 1))
    .map(([id, group]) => {
      const service = catalogue.find((s) => s.id === id);
      return { id, name: service?.name ?? id, category: service?.category ?? null, ...entity(group, aspectsOf(group)) };
    });
  const areaOrder = business?.areaServed ?? [];
  const serviceAreas = enough(groupBy(reviews, (r) => (r.serviceArea ? [r.serviceArea] : [])))
    .sort(([a, ga], [b, gb]) => rank(areaOrder, a, b) || gb.length - ga.length || (a < b ? -1 : 1))
    .map(([name, group]) => ({ name, ...entity(group, aspectsOf(group)) }));
  mark('entities');

  const folded = new Map(reviews.map((r) => [r.id, foldedText(r.text)]));
  const topics = findTopics(reviews, analyses, folded, business, MIN_MENTIONS);
  mark('topics');
  const base = { reviews, folded, aspects, technicians, services };
  const faq = buildFaq(base, MIN_MENTIONS);
  mark('faq');
  const summary = buildSummary(base, MIN_MENTIONS);
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

/** Catalogue order first (unknown names after), so the output is stable whatever the counts. */
function rank(order: readonly string[], a: string, b: string): number {
  const ia = order.indexOf(a);
  const ib = order.indexOf(b);
  return (ia < 0 ? Infinity : ia) - (ib < 0 ? Infinity : ib) || 0;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
