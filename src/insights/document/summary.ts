// The editorial paragraph, written from the figures it cites (and only from them).
import type { PublishedReview } from '../../store/types.js';
import { averageRating, count, percent } from './figures.js';
import { ASPECT_LABELS, type AspectInsight, type EntityInsight, type Insights } from './insights.js';

export interface SummaryInput {
  reviews: readonly PublishedReview[];
  /** The reviews' calendar quarters, sorted, and each review's index into them. */
  quarters: readonly string[];
  quarterOf: Int32Array;
  aspects: readonly AspectInsight[];
  technicians: readonly ({ name: string } & EntityInsight)[];
}

export function buildSummary(input: SummaryInput, minMentions: number): Insights['summary'] {
  const { reviews } = input;
  if (reviews.length === 0) return { text: 'No verified reviews yet.', figures: { reviewCount: 0 } };
  const overall = averageRating(reviews);
  const figures: Record<string, unknown> = { reviewCount: reviews.length, averageRating: overall };
  const sentences = [`Across ${count(reviews.length)} verified reviews, customers rate the business ${overall.toFixed(2)} out of 5.`];

  const reported = input.aspects.filter((a) => a.mentions >= minMentions);
  const praised = [...reported].sort((a, b) => b.positive / b.mentions - a.positive / a.mentions || b.mentions - a.mentions)[0];
  const criticised = [...reported].sort((a, b) => b.negative / b.mentions - a.negative / a.mentions || b.mentions - a.mentions)[0];
  if (praised) {
    figures.mostPraised = { aspect: praised.id, positive: praised.positive, mentions: praised.mentions };
    sentences.push(`They praise ${ASPECT_LABELS[praised.id].toLowerCase()} most consistently: ${percent(praised.positive, praised.mentions)}% positive across ${count(praised.mentions)} mentions.`);
  }
  if (criticised && criticised.negative > 0 && criticised !== praised) {
    figures.mostCriticised = { aspect: criticised.id, negative: criticised.negative, mentions: criticised.mentions };
    sentences.push(`The most frequent complaint concerns ${ASPECT_LABELS[criticised.id].toLowerCase()}: ${percent(criticised.negative, criticised.mentions)}% of ${count(criticised.mentions)} mentions are negative.`);
  }
  const best = [...input.technicians].sort((a, b) => b.averageRating - a.averageRating || b.mentions - a.mentions)[0];
  if (best) {
    figures.bestTechnician = { name: best.name, averageRating: best.averageRating, reviews: best.mentions };
    sentences.push(`${best.name} is the best-reviewed technician, at ${best.averageRating.toFixed(2)} stars over ${count(best.mentions)} reviews.`);
  }
  // The last four quarters against the four before them.
  const quarters = [...input.quarters].reverse();
  const last = input.quarters.length;
  const recent = reviews.filter((_, i) => input.quarterOf[i]! >= last - 4);
  const before = reviews.filter((_, i) => input.quarterOf[i]! >= last - 8 && input.quarterOf[i]! < last - 4);
  if (recent.length >= minMentions && before.length >= minMentions) {
    const now = averageRating(recent);
    const then = averageRating(before);
    figures.trend = { recentQuarters: quarters.slice(0, 4), recentAverage: now, recentReviews: recent.length, earlierAverage: then, earlierReviews: before.length };
    const direction = now > then + 0.05 ? 'up from' : now < then - 0.05 ? 'down from' : 'level with';
    sentences.push(`Over the last four quarters the average is ${now.toFixed(2)}, ${direction} ${then.toFixed(2)} in the four before.`);
  }
  return { text: sentences.join(' '), figures };
}
