// The public documents the OpenAPI description lists: the one place in src/http/openapi/ that names a document path.
//
// ┌──────────────────────────────────────────────────────────────────────────────────────────────────────────┐
// │ STAND-IN for the document catalogue (src/reviews/catalogue.ts, being introduced separately). When it      │
// │ lands, replace DOCUMENTS below by an import of the catalogue (mapping field names if they differ); the    │
// │ rest of the OpenAPI code reads documents only through this array.                                         │
// └──────────────────────────────────────────────────────────────────────────────────────────────────────────┘
import { CACHE_CONTROL, CONTENT_TYPES } from '../../publisher.js';
import { FEED_SIZE, paths } from '../../reviews/documents.js';
import type { DocumentName } from '../../reviews/snapshot.js';

export interface PublicDocument {
  name: DocumentName;
  path: string;
  title: string;
  /** One or two sentences for people; Markdown. */
  description: string;
  mediaType: string;
  /** Whether the WebSub hub accepts subscriptions to it (its URL is then a hub.topic). */
  websubTopic: boolean;
  /** The Cache-Control it is served with once ready. */
  cacheControl: string;
  /** The component schema (under #/components/schemas) of its body. */
  schemaComponent: string;
  /** The OpenAPI tag it is listed under. */
  tag: 'datasets' | 'feeds';
}

export const DOCUMENTS: readonly PublicDocument[] = [
  {
    name: 'reviews',
    path: paths.reviews,
    title: 'Reviews dataset',
    description: 'Business metadata, aggregate rating and every verified review, newest first (date descending, then id descending).',
    mediaType: CONTENT_TYPES.reviews,
    websubTopic: true,
    cacheControl: CACHE_CONTROL.documents,
    schemaComponent: 'ReviewsDataset',
    tag: 'datasets',
  },
  {
    name: 'insights',
    path: paths.insights,
    title: 'Insights dataset',
    description:
      'Aspect-based sentiment, entities (technicians, services, service areas), topics, an FAQ and a summary, computed from the verified reviews; every figure names the reviews behind it.',
    mediaType: CONTENT_TYPES.insights,
    websubTopic: false,
    cacheControl: CACHE_CONTROL.documents,
    schemaComponent: 'Insights',
    tag: 'datasets',
  },
  {
    name: 'jsonFeed',
    path: paths.jsonFeed,
    title: 'JSON Feed 1.1',
    description: `The ${FEED_SIZE} newest verified reviews as a JSON Feed 1.1 document, with a \`_review\` extension per item.`,
    mediaType: CONTENT_TYPES.jsonFeed,
    websubTopic: true,
    cacheControl: CACHE_CONTROL.documents,
    schemaComponent: 'JsonFeed',
    tag: 'feeds',
  },
  {
    name: 'atomFeed',
    path: paths.atomFeed,
    title: 'Atom feed',
    description: `The ${FEED_SIZE} newest verified reviews as an RFC 4287 Atom feed.`,
    mediaType: CONTENT_TYPES.atomFeed,
    websubTopic: true,
    cacheControl: CACHE_CONTROL.documents,
    schemaComponent: 'AtomFeed',
    tag: 'feeds',
  },
];
