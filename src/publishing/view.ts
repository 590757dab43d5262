// One served version: the snapshot of the published data and every catalogue document encoded once, with the
// insights that go with it.
import { DOCUMENTS, type DocumentName } from '../reviews/catalogue.js';
import type { Links } from '../reviews/links.js';
import type { PublishedData } from '../reviews/published.js';
import type { ReviewsSnapshot } from '../reviews/snapshot.js';
import type { ServedInsights } from './insights.js';
import { RepresentationCache } from './query-cache.js';
import type { SinceListings } from './since.js';
import { contentTag, encodeRepresentation, withLastModified, type Representation } from './representation.js';

export interface View {
  readonly snapshot: ReviewsSnapshot;
  /** When the published data last changed (second precision); null when nothing was ever published. */
  readonly lastModified: Date | null;
  /** Older published data was served under the same Last-Modified second (see Representation.lastModifiedShared). */
  readonly lastModifiedShared: boolean;
  /** Every catalogue document, the insights included. */
  readonly representations: Readonly<Record<DocumentName, Representation>>;
  readonly insights: ServedInsights;
  /** Search answers of this version, encoded once and reused. */
  readonly queries: RepresentationCache;
  /** Since-date listings of this version, rendered once per position. */
  readonly since: SinceListings;
}

/** The documents rendered from the published data; the insights come from the store. */
export type RenderedDocuments = Omit<Record<DocumentName, Representation>, 'insights'>;

/** Lets the event loop handle what arrived (requests, answers from the insights thread) before going on. */
export const turn = () => new Promise<void>((done) => setImmediate(done));

/**
 * Renders and encodes the documents of a data version. Documents whose bytes did not change keep their encoded
 * variants (only compression of changed ones costs time); `changed` names the others.
 */
export async function renderDocuments(
  data: PublishedData,
  links: Links,
  previous: View | undefined,
): Promise<{ lastModified: Date | null; documents: RenderedDocuments; changed: DocumentName[] }> {
  const lastModified = data.version.publishedAt ? new Date(data.version.publishedAt) : null;
  const rendered = [];
  for (const document of DOCUMENTS) {
    if (!document.render) continue;
    // Rendering (in slices, turns of the event loop between them) and hashing in turns of their own: requests that
    // arrive meanwhile are answered between them.
    const body = await document.render(data, links, `${links.baseUrl}${document.path}`, turn);
    await turn();
    const tag = contentTag(body);
    const before = previous?.representations[document.name];
    rendered.push({ document, body, tag, before: before?.variants.identity.etag === `"${tag}"` ? before : undefined });
  }
  const changed = rendered.filter((r) => !r.before).map((r) => r.document.name);
  const documents: Partial<Record<DocumentName, Representation>> = {};
  for (const { document, body, tag, before } of rendered) {
    documents[document.name] = before
      ? withLastModified(before, lastModified)
      : await encodeRepresentation(body, { contentType: document.mediaType, cacheControl: document.cacheControl, lastModified, effort: 'best', tag });
  }
  return { lastModified, documents: documents as RenderedDocuments, changed };
}
