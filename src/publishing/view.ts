// One served version: the snapshot of the published data and every catalogue document encoded once, with the
// insights that go with it.
import { DOCUMENTS, type DocumentName } from '../reviews/catalogue.js';
import type { Links } from '../reviews/links.js';
import type { PublishedData } from '../reviews/published.js';
import type { ReviewsSnapshot } from '../reviews/snapshot.js';
import type { ServedInsights } from './insights.js';
import { RepresentationCache } from './query-cache.js';
import type { SinceListings } from './since.js';
import type { StoredRepresentation } from '../store/types.js';
import {
  asBuffer,
  contentTag,
  encodeRepresentation,
  withLastModified,
  type CompressedCopies,
  type Representation,
} from './representation.js';

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

/** Lets the event loop handle what arrived (requests, answers from the insights process) before going on. */
export const turn = () => new Promise<void>((done) => setImmediate(done));

/** What the documents of a version can be made from besides rendering: bytes stored earlier, and where compressed copies are kept. */
export interface RenderSources {
  /** The documents rendered earlier for this very data (see RepresentationStore.find), by name. */
  stored?: ReadonlyMap<string, StoredRepresentation>;
  copies?: CompressedCopies;
}

/**
 * Renders and encodes the documents of a data version, or takes the bytes stored for it. Documents whose bytes did
 * not change keep their encoded variants (only compression of changed ones costs time); `changed` names the others.
 * `rendered` names the documents rendered here (not taken from the store), `rejected` the stored ones whose bytes
 * did not fit the data (rendered too).
 */
export async function renderDocuments(
  data: PublishedData,
  links: Links,
  previous: View | undefined,
  sources: RenderSources = {},
): Promise<{
  lastModified: Date | null;
  documents: RenderedDocuments;
  changed: DocumentName[];
  rendered: DocumentName[];
  rejected: DocumentName[];
}> {
  const lastModified = data.version.publishedAt ? new Date(data.version.publishedAt) : null;
  const rendered = [];
  const rejected: DocumentName[] = [];
  for (const document of DOCUMENTS) {
    if (!document.render) continue;
    const kept = sources.stored?.get(document.name);
    const keptBody = kept && asBuffer(kept.body);
    const fromStore = keptBody !== undefined && (await (document.adopt?.(data, keptBody, turn) ?? true));
    if (kept && !fromStore) rejected.push(document.name);
    let body: Buffer;
    let tag: string;
    if (fromStore) {
      body = keptBody;
      tag = kept!.tag;
    } else {
      // Rendering (in slices, turns of the event loop between them) and hashing in turns of their own: requests that
      // arrive meanwhile are answered between them.
      body = await document.render(data, links, `${links.baseUrl}${document.path}`, turn);
      await turn();
      tag = contentTag(body);
    }
    const before = previous?.representations[document.name];
    rendered.push({
      document,
      body,
      tag,
      fromStore,
      before: before?.variants.identity.etag === `"${tag}"` ? before : undefined,
    });
  }
  const changed = rendered.filter((r) => !r.before).map((r) => r.document.name);
  const documents: Partial<Record<DocumentName, Representation>> = {};
  for (const { document, body, tag, before } of rendered) {
    documents[document.name] = before
      ? withLastModified(before, lastModified)
      : await encodeRepresentation(body, {
          contentType: document.mediaType,
          cacheControl: document.cacheControl,
          lastModified,
          effort: 'best',
          tag,
          copies: sources.copies,
        });
  }
  const renderedHere = rendered.filter((r) => !r.fromStore).map((r) => r.document.name);
  return { lastModified, documents: documents as RenderedDocuments, changed, rendered: renderedHere, rejected };
}

/** The bytes of rendered documents, as the store keeps them. */
export function representationsOf(documents: RenderedDocuments): Map<string, StoredRepresentation> {
  return new Map(
    Object.entries(documents).map(([name, rep]) => [
      name,
      { tag: rep.variants.identity.etag.slice(1, -1), body: rep.variants.identity.body },
    ]),
  );
}
