// Per-review aspect judgements and the figures built from them: tallies, trends, strongest quotes, and the aspect
// and entity sections. Each section is one pass over its judgements, in review order.
import type { AspectId } from '../../reviews/schemas.js';
import { AspectId as AspectIds } from '../../reviews/schemas.js';
import type { PublishedReview } from '../../store/types.js';
import type { AspectJudgement, ReviewAnalysis } from '../analysis/analyzer.js';
import { averageRating, round2 } from './figures.js';
import { ASPECT_LABELS, MIN_MENTIONS, type AspectInsight, type EntityInsight, type Quote, type Tally } from './insights.js';

const QUOTES = 3;

/** One judgement per review and aspect: several mentions in a review add up. */
export interface ReviewAspect {
  review: PublishedReview;
  aspect: AspectId;
  score: number;
  evidence: AspectJudgement;
  /** The calendar quarter of the review's date (2026-Q3). */
  quarter: string;
}

/** A published review with what the build needs of it, computed once. */
export interface ReviewRow {
  review: PublishedReview;
  analysis: ReviewAnalysis;
  quarter: string;
  aspects: ReviewAspect[];
}

/** Judgements that cancel out (0.8 − 0.8) are neutral, floating-point dust included. */
const sign = (score: number) => (Math.abs(score) < 1e-9 ? 0 : Math.sign(score));

interface Count {
  mentions: number;
  positive: number;
  negative: number;
}

const newCount = (): Count => ({ mentions: 0, positive: 0, negative: 0 });

function addTo(count: Count, direction: number): void {
  count.mentions++;
  if (direction > 0) count.positive++;
  else if (direction < 0) count.negative++;
}

function tally({ mentions, positive, negative }: Count): Tally {
  return { mentions, positive, negative, neutral: mentions - positive - negative, score: mentions >= MIN_MENTIONS ? round2((positive - negative) / mentions) : null };
}

/** Combines a review's judgements of each aspect into one, keeping the strongest as its evidence. */
export function perReviewAspects(review: PublishedReview, analysis: ReviewAnalysis, quarter: string): ReviewAspect[] {
  const byAspect = new Map<AspectId, ReviewAspect>();
  for (const j of analysis.aspects) {
    const current = byAspect.get(j.aspect);
    if (!current) byAspect.set(j.aspect, { review, aspect: j.aspect, score: j.score, evidence: j, quarter });
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

/** One aspect's section, from its judgements in review order. */
export function aspectInsight(id: AspectId, items: readonly ReviewAspect[]): AspectInsight {
  const all = newCount();
  const byQuarter = new Map<string, Count>();
  const reviewIds: AspectInsight['reviewIds'] = { positive: [], negative: [], neutral: [] };
  for (const item of items) {
    const direction = sign(item.score);
    addTo(all, direction);
    let inQuarter = byQuarter.get(item.quarter);
    if (!inQuarter) byQuarter.set(item.quarter, (inQuarter = newCount()));
    addTo(inQuarter, direction);
    (direction > 0 ? reviewIds.positive : direction < 0 ? reviewIds.negative : reviewIds.neutral).push(item.review.id);
  }
  return {
    id,
    label: ASPECT_LABELS[id],
    ...tally(all),
    trend: [...byQuarter.keys()].sort().map((quarter) => ({ quarter, ...tally(byQuarter.get(quarter)!) })),
    quotes: { positive: quotes(items, 1), negative: quotes(items, -1) },
    reviewIds,
  };
}

const ASPECT_INDEX = new Map(AspectIds.options.map((id, i) => [id, i]));

/** The figures of one technician, service or area, from its reviews in review order. */
export function entityInsight(rows: readonly ReviewRow[]): EntityInsight {
  const counts: (Count | undefined)[] = [];
  const judgements: ReviewAspect[] = [];
  for (const row of rows) {
    for (const a of row.aspects) {
      const i = ASPECT_INDEX.get(a.aspect)!;
      addTo((counts[i] ??= newCount()), sign(a.score));
      judgements.push(a);
    }
  }
  const reviews = rows.map((r) => r.review);
  return {
    mentions: rows.length,
    averageRating: averageRating(reviews),
    aspects: AspectIds.options.flatMap((aspect, i) => (counts[i] ? [{ aspect, ...tally(counts[i]) }] : [])),
    quotes: { positive: quotes(judgements, 1), negative: quotes(judgements, -1) },
    reviewIds: reviews.map((r) => r.id),
  };
}
