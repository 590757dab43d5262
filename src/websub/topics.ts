// The hub's topics: the catalogue documents marked as WebSub topics, with their URLs under this BASE_URL.
import type { View } from '../publishing/view.js';
import { DOCUMENTS, type PublicDocument } from '../reviews/catalogue.js';

export interface HubTopic {
  url: string;
  document: PublicDocument;
}

export function topicsOf(baseUrl: string): HubTopic[] {
  return DOCUMENTS.filter((d) => d.topic).map((document) => ({ url: `${baseUrl}${document.path}`, document }));
}

/** The bytes a delivery carries: the topic's full current content, and its tag. */
export function topicContent(view: View, topic: HubTopic): { body: Buffer; tag: string } {
  const identity = view.representations[topic.document.name].variants.identity;
  return { body: identity.body, tag: identity.etag };
}
