// The insights document's types as aggregation builds them (inferred from its one schema) and the aspect labels
// it prints; shared by the aggregation and the FAQ and summary written from it.
import type { AspectId } from '../../reviews/schemas.js';
import type { InsightsDocument, TechnicianInsight } from '../../reviews/insights-document.js';

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

/** The document as aggregation builds it: complete (`status: ready`), with the summary's figures filled in. */
export type Insights = Omit<InsightsDocument, 'status' | 'asOf'> & { status: 'ready' };

export type { AspectInsight, Quote, Tally } from '../../reviews/insights-document.js';

/** What technicians, services and areas share: the figures of the reviews that name them. */
export type EntityInsight = Omit<TechnicianInsight, 'name'>;
