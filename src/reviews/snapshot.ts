// An immutable view of one data version's published data: reviews newest first, the aggregate rating and the search index.
import { aggregateRating } from './documents.js';
import type { DataVersion, PublishedData, PublishedReview } from './published.js';
import type { AggregateRating, Business, VerificationSummary } from './schemas.js';
import { verificationSummary } from './verification.js';
import { SearchIndex } from './search.js';

export interface ReviewsSnapshot {
  readonly version: DataVersion;
  readonly business: Business | null;
  readonly reviews: readonly PublishedReview[];
  readonly aggregateRating: AggregateRating;
  /** What the service says of its verification: the rule and the figures. */
  readonly verification: VerificationSummary;
  readonly index: SearchIndex;
}

/** `index` is the search index of `data.reviews` when the caller built it already (see SearchIndex.build). */
export function buildSnapshot(data: PublishedData, index = new SearchIndex(data.reviews)): ReviewsSnapshot {
  const { version, business, reviews } = data;
  return Object.freeze({
    version,
    business,
    reviews,
    aggregateRating: aggregateRating(reviews),
    verification: verificationSummary(data.verification),
    index,
  });
}
