// An immutable view of one data version: reviews newest first, the search index, and every document rendered once.
import type { DataVersion, PublishedData, PublishedReview } from '../store/types.js';
import { atomFeed, emptyInsights, jsonFeed, reviewsDataset, type Links } from './documents.js';
import type { AggregateRating, Business } from './schemas.js';
import { SearchIndex } from './search.js';

export type DocumentName = 'reviews' | 'insights' | 'jsonFeed' | 'atomFeed';

export interface ReviewsSnapshot {
  readonly version: DataVersion;
  readonly business: Business | null;
  readonly reviews: readonly PublishedReview[];
  readonly aggregateRating: AggregateRating;
  readonly index: SearchIndex;
  /** The insights dataset as served at /insights.json. */
  readonly insights: Readonly<Record<string, unknown>>;
}

/** The snapshot and its documents; the documents are returned apart so the encoded bytes are all that stays in memory. */
/** The documents rendered with the snapshot; the insights follow from the engine, in the background. */
export type RenderedDocument = Exclude<DocumentName, 'insights'>;

/** `insights` starts as the empty shape; the publisher carries the latest computed ones over, then replaces them. */
export function buildSnapshot(data: PublishedData, links: Links): { snapshot: ReviewsSnapshot; documents: Record<RenderedDocument, string> } {
  const insights = emptyInsights(data.version.publishedAt, data.reviews.length);
  const { version, business, reviews } = data;
  const dataset = reviewsDataset(business, reviews);
  return {
    snapshot: Object.freeze({ version, business, reviews, aggregateRating: dataset.aggregateRating, index: new SearchIndex(reviews), insights }),
    documents: {
      reviews: JSON.stringify(dataset),
      jsonFeed: JSON.stringify(jsonFeed(links, business, reviews)),
      atomFeed: atomFeed(links, business, reviews, version.publishedAt),
    },
  };
}
