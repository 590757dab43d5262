// The three WebSub topics: which published document each is, its URL and the Content-Type of its deliveries.
import type { Published } from '../publisher.js';
import { paths } from '../reviews/documents.js';
import type { DocumentName } from '../reviews/snapshot.js';

export interface Topic {
  url: string;
  document: DocumentName;
  contentType: string;
}

export function topicsOf(baseUrl: string): Topic[] {
  return [
    { url: `${baseUrl}${paths.atomFeed}`, document: 'atomFeed', contentType: 'application/atom+xml' },
    { url: `${baseUrl}${paths.jsonFeed}`, document: 'jsonFeed', contentType: 'application/feed+json' },
    { url: `${baseUrl}${paths.reviews}`, document: 'reviews', contentType: 'application/json' },
  ];
}

/** The bytes a delivery carries: the topic's full current content, and its tag. */
export function topicContent(published: Published, topic: Topic): { body: Buffer; tag: string } {
  const identity = published.representations[topic.document].variants.identity;
  return { body: identity.body, tag: identity.etag };
}
