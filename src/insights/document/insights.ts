// The insights document's shape (what /insights.json serves) and the aspect labels it prints; shared by the
// aggregation and the FAQ and summary written from it.
import type { AspectId } from '../../reviews/schemas.js';
import type { Topic } from './topics.js';

/** Nothing is reported about an aspect, entity or topic with fewer mentions than this. */
export const MIN_MENTIONS = 5;

export const ASPECT_LABELS: Record<AspectId, string> = {
  punctuality: 'Punctuality',
  responsiveness: 'Responsiveness',
  price: 'Price',
  quality: 'Quality of work',
  professionalism: 'Professionalism',
  communication: 'Communication',
  cleanliness: 'Cleanliness',
  expertise: 'Expertise',
};

export interface Quote {
  reviewId: string;
  date: string;
  rating: number;
  text: string;
  score: number;
}

export interface Tally {
  mentions: number;
  positive: number;
  negative: number;
  /** Reviews whose judgements of it cancel out. */
  neutral: number;
  /** (positive − negative) / mentions, −1..1, two decimals; null below the minimum mention count. */
  score: number | null;
}

export interface AspectInsight extends Tally {
  id: AspectId;
  label: string;
  trend: ({ quarter: string } & Tally)[];
  quotes: { positive: Quote[]; negative: Quote[] };
  reviewIds: { positive: string[]; negative: string[]; neutral: string[] };
}

export interface EntityInsight {
  mentions: number;
  averageRating: number;
  aspects: ({ aspect: AspectId } & Tally)[];
  quotes: { positive: Quote[]; negative: Quote[] };
  reviewIds: string[];
}

export interface Insights {
  status: 'ready';
  generatedAt: string | null;
  reviewCount: number;
  lexiconVersion: string;
  minMentions: number;
  aspects: AspectInsight[];
  entities: {
    technicians: ({ name: string } & EntityInsight)[];
    services: ({ id: string; name: string; category: string | null } & EntityInsight)[];
    serviceAreas: ({ name: string } & EntityInsight)[];
  };
  topics: Topic[];
  faq: { id: string; question: string; answer: string; figures: Record<string, unknown>; reviewIds: string[] }[];
  summary: { text: string; figures: Record<string, unknown> };
}
