// The one catalogue of public documents: path, media type, WebSub topic or not, how it is made and cached.
// The routes, the hub's topics, the MCP resources and the OpenAPI document all read it; adding a document is one entry.
import type { z } from 'zod';
import { atomFeed, jsonFeed, reviewsDataset } from './documents.js';
import type { Links } from './links.js';
import type { PublishedData } from './published.js';
import { InsightsDocument } from './insights-document.js';
import { JsonFeedDocument, ReviewsDataset } from './schemas.js';

export type DocumentName = 'reviews' | 'insights' | 'jsonFeed' | 'atomFeed';

export interface PublicDocument {
  name: DocumentName;
  path: string;
  mediaType: string;
  title: string;
  description: string;
  /** A WebSub topic: subscribers get its full content whenever its bytes change. */
  topic: boolean;
  /**
   * Renders it from the published data; null for the insights, which the insights engine builds and stores per
   * data version.
   */
  render: ((data: PublishedData, links: Links, selfUrl: string) => string) | null;
  /** The body's schema (OpenAPI, MCP); null for XML. */
  schema: z.ZodType | null;
}

export const DOCUMENTS: readonly PublicDocument[] = [
  {
    name: 'reviews',
    path: '/reviews.json',
    mediaType: 'application/json',
    title: 'Reviews dataset',
    description: 'Business metadata, aggregate rating and every verified review, newest first.',
    topic: true,
    render: (data) => JSON.stringify(reviewsDataset(data.business, data.reviews)),
    schema: ReviewsDataset,
  },
  {
    name: 'insights',
    path: '/insights.json',
    mediaType: 'application/json',
    title: 'Insights dataset',
    description: 'Aspect-based sentiment, technicians, services, areas, topics, FAQ and an editorial summary, computed from the reviews.',
    topic: false,
    render: null,
    schema: InsightsDocument,
  },
  {
    name: 'jsonFeed',
    path: '/api/feed.json',
    mediaType: 'application/feed+json',
    title: 'JSON Feed',
    description: 'The 50 newest reviews as a JSON Feed 1.1 document.',
    topic: true,
    render: (data, links, self) => JSON.stringify(jsonFeed(links, self, data.business, data.reviews)),
    schema: JsonFeedDocument,
  },
  {
    name: 'atomFeed',
    path: '/feed.xml',
    mediaType: 'application/atom+xml',
    title: 'Atom feed',
    description: 'The 50 newest reviews as an RFC 4287 Atom feed.',
    topic: true,
    render: (data, links, self) => atomFeed(links, self, data.business, data.reviews, data.version.publishedAt),
    schema: null,
  },
];

export function documentNamed(name: DocumentName): PublicDocument {
  const found = DOCUMENTS.find((d) => d.name === name);
  if (!found) throw new Error(`no public document named ${name}`);
  return found;
}
