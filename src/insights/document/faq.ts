// Questions a prospective customer asks, answered from the figures, each with the review ids behind the answer.
import type { PublishedReview } from '../../reviews/published.js';
import { count, percent } from './figures.js';
import type { AspectInsight, EntityInsight, Insights } from './insights.js';

export interface FaqInput {
  /** The reviews that describe emergency, after-hours or same-day work, in review order. */
  urgent: readonly PublishedReview[];
  aspects: readonly AspectInsight[];
  technicians: readonly ({ name: string } & EntityInsight)[];
  services: readonly ({ id: string; name: string } & EntityInsight)[];
}

function aspectAnswer(aspect: AspectInsight, yes: string, no: string, subject: string) {
  const share = percent(aspect.positive, aspect.mentions);
  const verdict = share >= 75 ? 'Mostly yes' : share >= 50 ? 'More often than not' : 'Often not';
  return {
    answer: `${verdict}: ${count(aspect.positive)} of ${count(aspect.mentions)} reviews that mention ${subject} (${share}%) say ${yes}; ${count(aspect.negative)} say ${no}.`,
    figures: {
      aspect: aspect.id,
      mentions: aspect.mentions,
      positive: aspect.positive,
      negative: aspect.negative,
      positiveShare: share,
    },
    reviewIds: [...aspect.quotes.positive, ...aspect.quotes.negative].map((q) => q.reviewId),
  };
}

export function buildFaq(input: FaqInput, minMentions: number): Insights['faq'] {
  const faq: Insights['faq'] = [];
  const aspect = (id: string) => input.aspects.find((a) => a.id === id)!;
  const asked = (id: string, question: string, yes: string, no: string, subject: string) => {
    const a = aspect(id);
    if (a.mentions >= minMentions) faq.push({ id: `${id}`, question, ...aspectAnswer(a, yes, no, subject) });
  };
  asked('punctuality', 'Do they show up on time?', 'they arrived on time', 'they were late or did not show', 'timing');
  asked(
    'price',
    'Are their prices fair?',
    'the price was fair',
    'it was too expensive or the bill surprised them',
    'price',
  );
  asked(
    'quality',
    'Is the work done right?',
    'the work was good and lasted',
    'the problem came back or the work was poor',
    'the work itself',
  );

  const { urgent } = input;
  if (urgent.length >= minMentions) {
    const satisfied = urgent.filter((r) => r.rating >= 4).length;
    faq.push({
      id: 'emergency',
      question: 'Do they do emergency or same-day work?',
      answer: `Yes: ${count(urgent.length)} reviews describe emergency, after-hours or same-day jobs, and ${percent(satisfied, urgent.length)}% of them rate 4 or 5 stars.`,
      figures: { reviews: urgent.length, fourOrFiveStars: satisfied, share: percent(satisfied, urgent.length) },
      reviewIds: urgent.slice(0, 10).map((r) => r.id),
    });
  }

  const ranked = [...input.technicians]
    .sort((a, b) => b.averageRating - a.averageRating || b.mentions - a.mentions || (a.name < b.name ? -1 : 1))
    .slice(0, 3);
  if (ranked.length > 0) {
    faq.push({
      id: 'technicians',
      question: 'Who are the best-reviewed technicians?',
      answer: `${ranked.map((t) => `${t.name} (${t.averageRating.toFixed(2)}★ over ${count(t.mentions)} reviews)`).join(', ')}.`,
      figures: {
        technicians: ranked.map((t) => ({ name: t.name, averageRating: t.averageRating, reviews: t.mentions })),
      },
      reviewIds: ranked.flatMap((t) => t.reviewIds.slice(0, 3)),
    });
  }
  asked(
    'cleanliness',
    'Do they clean up after the job?',
    'they left the home clean',
    'they left a mess',
    'cleaning up',
  );

  const popular = [...input.services].sort((a, b) => b.mentions - a.mentions || (a.id < b.id ? -1 : 1)).slice(0, 3);
  if (popular.length > 0) {
    faq.push({
      id: 'services',
      question: 'What do customers hire them for most?',
      answer: `${popular.map((s) => `${s.name} (${count(s.mentions)} reviews, ${s.averageRating.toFixed(2)}★)`).join(', ')}.`,
      figures: { services: popular.map((s) => ({ id: s.id, reviews: s.mentions, averageRating: s.averageRating })) },
      reviewIds: popular.flatMap((s) => s.reviewIds.slice(0, 3)),
    });
  }
  return faq;
}
