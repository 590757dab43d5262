// The one catalogue of public documents: path, media type, WebSub topic or not, how it is made and cached.
// The routes, the hub's topics, the MCP resources and the OpenAPI document all read it; adding a document is one entry.
import type { z } from 'zod';
import { adoptReviewsDataset, atomFeed, FEED_SIZE, jsonFeed, renderReviewsDataset } from './documents.js';
import type { Links } from './links.js';
import type { PublishedData } from './published.js';
import { InsightsDocument } from './insights-document.js';
import { JsonFeedDocument, ReviewsDataset } from './schemas.js';

export type DocumentName = 'reviews' | 'insights' | 'jsonFeed' | 'atomFeed';

/**
 * Datasets and feeds change at most a few times a day and revalidate cheaply (ETag → 304), so caches may
 * reuse them for five minutes; WebSub subscribers hear of changes at once anyway.
 */
export const DOCUMENT_CACHE_CONTROL = 'public, max-age=300';

export interface PublicDocument {
  name: DocumentName;
  path: string;
  mediaType: string;
  title: string;
  /** One or two sentences for people; Markdown. */
  description: string;
  /** Datasets hold everything; feeds the newest reviews. */
  kind: 'dataset' | 'feed';
  /** The name of its body's schema where the API is described (OpenAPI components). */
  schemaName: string;
  cacheControl: string;
  /** A WebSub topic: subscribers get its full content whenever its bytes change. */
  topic: boolean;
  /**
   * Renders it from the published data; null for the insights, which the insights engine builds and stores per
   * data version.
   */
  render: ((data: PublishedData, links: Links, selfUrl: string, pause?: () => Promise<void>) => Promise<Buffer>) | null;
  /**
   * Takes bytes this renderer made earlier from the same data (stored per data version) in place of rendering them;
   * false when they do not fit that data, and the document is rendered. Without one, stored bytes are taken as they are.
   */
  adopt?: (data: PublishedData, body: Buffer, pause?: () => Promise<void>) => Promise<boolean>;
  /** The body's schema (OpenAPI, MCP); null for XML. */
  schema: z.ZodType | null;
}

export const DOCUMENTS: readonly PublicDocument[] = [
  {
    name: 'reviews',
    path: '/reviews.json',
    mediaType: 'application/json',
    title: 'Reviews dataset',
    description:
      'Business metadata, aggregate rating and every verified review, newest first (date descending, then id descending).',
    kind: 'dataset',
    schemaName: 'ReviewsDataset',
    cacheControl: DOCUMENT_CACHE_CONTROL,
    topic: true,
    render: (data, _links, _self, pause) => renderReviewsDataset(data, data.reviews, pause),
    adopt: (data, body, pause) => adoptReviewsDataset(data, data.reviews, body, pause),
    schema: ReviewsDataset,
  },
  {
    name: 'insights',
    path: '/insights.json',
    mediaType: 'application/json',
    title: 'Insights dataset',
    description:
      'Aspect-based sentiment, entities (technicians, services, service areas), topics, an FAQ and a summary, computed from the verified reviews; every figure names the reviews behind it.',
    kind: 'dataset',
    schemaName: 'Insights',
    cacheControl: DOCUMENT_CACHE_CONTROL,
    topic: false,
    render: null,
    schema: InsightsDocument,
  },
  {
    name: 'jsonFeed',
    path: '/api/feed.json',
    mediaType: 'application/feed+json',
    title: 'JSON Feed 1.1',
    description: `The ${FEED_SIZE} newest verified reviews as a JSON Feed 1.1 document, with a \`_review\` extension per item.`,
    kind: 'feed',
    schemaName: 'JsonFeed',
    cacheControl: DOCUMENT_CACHE_CONTROL,
    topic: true,
    render: async (data, links, self) =>
      Buffer.from(JSON.stringify(jsonFeed(links, self, data.business, data.reviews, data.verification)), 'utf8'),
    schema: JsonFeedDocument,
  },
  {
    name: 'atomFeed',
    path: '/feed.xml',
    mediaType: 'application/atom+xml',
    title: 'Atom feed',
    description: `The ${FEED_SIZE} newest verified reviews as an RFC 4287 Atom feed.`,
    kind: 'feed',
    schemaName: 'AtomFeed',
    cacheControl: DOCUMENT_CACHE_CONTROL,
    topic: true,
    render: async (data, links, self) =>
      Buffer.from(
        atomFeed(links, self, data.business, data.reviews, data.version.publishedAt, data.verification),
        'utf8',
      ),
    schema: null,
  },
];

export function documentNamed(name: DocumentName): PublicDocument {
  const found = DOCUMENTS.find((d) => d.name === name);
  if (!found) throw new Error(`no public document named ${name}`);
  return found;
}
