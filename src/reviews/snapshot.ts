// An immutable view of one data version: reviews newest first, the search index, and every document rendered once.
import type { DataVersion, PublishedData, PublishedReview } from '../store/types.js';
import { atomFeed, emptyInsights, jsonFeed, reviewsDataset, type Links } from './documents.js';
import type { Business } from './schemas.js';
import { SearchIndex } from './search.js';

export type DocumentName = 'reviews' | 'insights' | 'jsonFeed' | 'atomFeed';

export interface ReviewsSnapshot {
  readonly version: DataVersion;
  readonly business: Business | null;
  readonly reviews: readonly PublishedReview[];
  readonly index: SearchIndex;
}

/** The snapshot and its documents; the documents are returned apart so the encoded bytes are all that stays in memory. */
export function buildSnapshot(data: PublishedData, links: Links): { snapshot: ReviewsSnapshot; documents: Record<DocumentName, string> } {
  const { version, business, reviews } = data;
  return {
    snapshot: Object.freeze({ version, business, reviews, index: new SearchIndex(reviews) }),
    documents: {
      reviews: JSON.stringify(reviewsDataset(business, reviews)),
      insights: JSON.stringify(emptyInsights(version.publishedAt, reviews.length)),
      jsonFeed: JSON.stringify(jsonFeed(links, business, reviews)),
      atomFeed: atomFeed(links, business, reviews, version.publishedAt),
    },
  };
}
