// The editorial paragraph, written from the figures it cites (and only from them).
import type { SummaryInsight } from '../../reviews/insights-document.js';
import { meanRating } from '../../reviews/rating.js';
import { count, percent } from './figures.js';
import { ASPECT_LABELS, type AspectInsight, type EntityInsight, type Insights } from './insights.js';

/** The reviews of one calendar quarter: how many, and the sum of their star ratings. */
export interface QuarterRatings {
  quarter: string;
  reviews: number;
  ratings: number;
}

export interface SummaryInput {
  /** Every quarter that has reviews, oldest first. */
  quarters: readonly QuarterRatings[];
  aspects: readonly AspectInsight[];
  technicians: readonly ({ name: string } & EntityInsight)[];
}

export function buildSummary(input: SummaryInput, minMentions: number): Insights['summary'] {
  // The last four quarters against the four before them: rating sums and counts of all, recent and earlier reviews.
  const last = input.quarters.length;
  const sums = { all: 0, recent: 0, earlier: 0 };
  const counts = { all: 0, recent: 0, earlier: 0 };
  input.quarters.forEach(({ reviews, ratings }, q) => {
    sums.all += ratings;
    counts.all += reviews;
    const period = q >= last - 4 ? 'recent' : q >= last - 8 ? 'earlier' : undefined;
    if (period) {
      sums[period] += ratings;
      counts[period] += reviews;
    }
  });
  const reviewCount = counts.all;
  if (reviewCount === 0) return { text: 'No verified reviews yet.', figures: { reviewCount: 0 } };
  const overall = meanRating(sums.all, reviewCount);
  const figures: NonNullable<SummaryInsight['figures']> = { reviewCount, averageRating: overall };
  const sentences = [
    `Across ${count(reviewCount)} verified reviews, customers rate the business ${overall.toFixed(2)} out of 5.`,
  ];

  const reported = input.aspects.filter((a) => a.mentions >= minMentions);
  const praised = [...reported].sort(
    (a, b) => b.positive / b.mentions - a.positive / a.mentions || b.mentions - a.mentions,
  )[0];
  const criticised = [...reported].sort(
    (a, b) => b.negative / b.mentions - a.negative / a.mentions || b.mentions - a.mentions,
  )[0];
  if (praised) {
    figures.mostPraised = { aspect: praised.id, positive: praised.positive, mentions: praised.mentions };
    sentences.push(
      `They praise ${ASPECT_LABELS[praised.id].toLowerCase()} most consistently: ${percent(praised.positive, praised.mentions)}% positive across ${count(praised.mentions)} mentions.`,
    );
  }
  if (criticised && criticised.negative > 0 && criticised !== praised) {
    figures.mostCriticised = { aspect: criticised.id, negative: criticised.negative, mentions: criticised.mentions };
    sentences.push(
      `The most frequent complaint concerns ${ASPECT_LABELS[criticised.id].toLowerCase()}: ${percent(criticised.negative, criticised.mentions)}% of ${count(criticised.mentions)} mentions are negative.`,
    );
  }
  const best = [...input.technicians].sort((a, b) => b.averageRating - a.averageRating || b.mentions - a.mentions)[0];
  if (best) {
    figures.bestTechnician = { name: best.name, averageRating: best.averageRating, reviews: best.mentions };
    sentences.push(
      `${best.name} is the best-reviewed technician, at ${best.averageRating.toFixed(2)} stars over ${count(best.mentions)} reviews.`,
    );
  }
  if (counts.recent >= minMentions && counts.earlier >= minMentions) {
    const now = meanRating(sums.recent, counts.recent);
    const then = meanRating(sums.earlier, counts.earlier);
    const quarters = input.quarters.map((q) => q.quarter).reverse();
    figures.trend = {
      recentQuarters: quarters.slice(0, 4),
      recentAverage: now,
      recentReviews: counts.recent,
      earlierAverage: then,
      earlierReviews: counts.earlier,
    };
    const direction = now > then + 0.05 ? 'up from' : now < then - 0.05 ? 'down from' : 'level with';
    sentences.push(
      `Over the last four quarters the average is ${now.toFixed(2)}, ${direction} ${then.toFixed(2)} in the four before.`,
    );
  }
  return { text: sentences.join(' '), figures };
}
