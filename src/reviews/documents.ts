// Renders the published documents (reviews dataset, JSON Feed 1.1, Atom feed) from the published data; pure and deterministic.
import { permalink, ROUTES, type Links } from './links.js';
import { meanRating } from './rating.js';
import type { PublishedData, PublishedReview } from './published.js';
import { ruleSentence, verificationSummary, type VerificationCounts } from './verification.js';
import type { AggregateRating, Business, JsonFeedDocument, Review, ReviewsDataset } from './schemas.js';
import { endOfString, entryLength, entryOf, isEncoded, setEntry, toPublic } from './encoded-reviews.js';

export const FEED_SIZE = 50;

export function aggregateRating(reviews: readonly PublishedReview[]): AggregateRating {
  const distribution = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 };
  let sum = 0;
  for (const r of reviews) {
    distribution[String(r.rating) as keyof typeof distribution]++;
    sum += r.rating;
  }
  return {
    ratingValue: reviews.length ? meanRating(sum, reviews.length) : null,
    reviewCount: reviews.length,
    bestRating: 5,
    worstRating: 1,
    distribution,
  };
}

/** What a reviews dataset says before its reviews: the business and the verification figures. */
export type DatasetHead = Pick<PublishedData, 'business' | 'verification'>;

export function reviewsDataset(head: DatasetHead, reviews: readonly PublishedReview[]): ReviewsDataset {
  return {
    business: head.business,
    aggregateRating: aggregateRating(reviews),
    verification: verificationSummary(head.verification),
    reviews: reviews.map(toPublic),
  };
}

const COMMA = Buffer.from(',');
/** Reviews encoded at once by `renderReviewsDataset` between pauses (some 20 ms of work). */
const SLICE = 5000;

/** Where the JSON object or array starting at `at` ends (the index after it). */
function endOfValue(json: Buffer, at: number): number {
  let depth = 0;
  for (let i = at; i < json.length; i++) {
    const byte = json[i]!;
    if (byte === 0x22) i = endOfString(json, i);
    else if (byte === 0x7b || byte === 0x5b) depth++;
    else if ((byte === 0x7d || byte === 0x5d) && --depth === 0) return i + 1;
  }
  throw new Error('unterminated JSON value');
}

/** Encodes the reviews not encoded yet as one JSON array, and finds each review's bytes in it (no copy per review). */
function encodeNew(reviews: readonly PublishedReview[]): void {
  const fresh = reviews.filter((review) => !isEncoded(review));
  if (fresh.length === 0) return;
  const block = Buffer.from(JSON.stringify(fresh.map(toPublic)), 'utf8');
  let at = 1;
  for (const review of fresh) {
    const end = endOfValue(block, at);
    setEntry(review, block.subarray(at, end));
    at = end + COMMA.length;
  }
}

/** The bytes of `JSON.stringify(reviews.map(toPublic))`, as parts to concatenate. */
export function reviewsJson(reviews: readonly PublishedReview[]): Buffer[] {
  encodeNew(reviews);
  const parts: Buffer[] = [Buffer.from('[')];
  reviews.forEach((review, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(entryOf(review)!);
  });
  parts.push(Buffer.from(']'));
  return parts;
}

/**
 * The bytes of `JSON.stringify(reviewsDataset(business, reviews))`. New reviews are encoded SLICE at a time with
 * `pause` awaited between slices, so a server answers requests meanwhile (330,000 new reviews are 150 MB of JSON).
 */
export async function renderReviewsDataset(
  head: DatasetHead,
  reviews: readonly PublishedReview[],
  pause: () => Promise<void> = async () => undefined,
): Promise<Buffer> {
  for (let from = 0; from < reviews.length; from += SLICE) {
    encodeNew(reviews.slice(from, from + SLICE));
    await pause();
  }
  const opening = datasetOpening(head, reviews);
  let size = opening.length + Math.max(0, reviews.length - 1) * COMMA.length + 2;
  for (const review of reviews) size += entryLength(review)!;
  // Copied in slices too; each review's entry becomes a view of its bytes in the body, and the block it was in can go.
  const body = Buffer.allocUnsafe(size);
  let at = opening.copy(body, 0);
  for (let i = 0; i < reviews.length; i++) {
    if (i > 0) at += COMMA.copy(body, at);
    const bytes = entryOf(reviews[i]!)!;
    bytes.copy(body, at);
    setEntry(reviews[i]!, body.subarray(at, at + bytes.length));
    at += bytes.length;
    if (i % SLICE === SLICE - 1) await pause();
  }
  body.write(']}', at, 'utf8');
  return body;
}

/** The bytes before the reviews array of a dataset: `{"business":…,"aggregateRating":…,"reviews":[`. */
function datasetOpening({ business, verification }: DatasetHead, reviews: readonly PublishedReview[]): Buffer {
  const head = JSON.stringify({
    business,
    aggregateRating: aggregateRating(reviews),
    verification: verificationSummary(verification),
  } satisfies Omit<ReviewsDataset, 'reviews'>);
  return Buffer.from(`${head.slice(0, -1)},"reviews":[`, 'utf8');
}

/**
 * Takes a dataset rendered earlier from this same data (stored bytes) as if `renderReviewsDataset` had made it here:
 * each review's entry becomes a view of its bytes, so later renders and since listings encode only new reviews.
 * Returns false, taking nothing, when the bytes do not have the layout of this data's dataset (an entry too many or
 * too few); the caller renders then.
 */
export async function adoptReviewsDataset(
  head: DatasetHead,
  reviews: readonly PublishedReview[],
  body: Buffer,
  pause: () => Promise<void> = async () => undefined,
): Promise<boolean> {
  const opening = datasetOpening(head, reviews);
  if (body.length < opening.length + 2 || !body.subarray(0, opening.length).equals(opening)) return false;
  // Where each entry lies, as numbers: a view per review held across the pauses would outlive them as garbage.
  const starts = new Int32Array(reviews.length);
  const ends = new Int32Array(reviews.length);
  let at = opening.length;
  try {
    for (let i = 0; i < reviews.length; i++) {
      if (i > 0) {
        if (body[at] !== COMMA[0]) return false;
        at += COMMA.length;
      }
      // Every entry starts with its review's id (toPublic writes it first): the order is checked too.
      const start = `{"id":${JSON.stringify(reviews[i]!.id)}`;
      if (body.toString('utf8', at, at + Buffer.byteLength(start)) !== start) return false;
      const end = endOfValue(body, at);
      starts[i] = at;
      ends[i] = end;
      at = end;
      if (i % SLICE === SLICE - 1) await pause();
    }
  } catch {
    return false;
  }
  if (at + 2 !== body.length || body.toString('utf8', at) !== ']}') return false;
  reviews.forEach((review, i) => setEntry(review, body.subarray(starts[i], ends[i])));
  return true;
}

/**
 * A feed entry's id. It names the review's anchor on the home page, as it did before reviews had pages of their own:
 * feed readers that hold an entry keep knowing it (its link is the permalink).
 */
export function entryId(links: Links, review: Review): string {
  return `${links.baseUrl}/#review-${encodeURIComponent(review.id)}`;
}

function feedTitle(business: Business | null): string {
  return business ? `${business.name}: customer reviews` : 'Customer reviews';
}

function serviceName(business: Business | null, id: string): string {
  return business?.services.find((s) => s.id === id)?.name ?? id;
}

function itemTitle(business: Business | null, review: Review): string {
  if (review.title) return review.title;
  const service = review.services[0];
  return `${review.rating}★ from ${review.author}${service ? ` on ${serviceName(business, service)}` : ''}`;
}

/** The words of a feed entry: the customer's (or what a rating alone says), the platform's translation labelled, the reply. */
function itemText(review: Review): string {
  const parts = [review.text || ratingOnlyText(review)];
  if (review.translation)
    parts.push(
      `Translation by ${review.source ?? 'the platform'} (${review.translation.language}): ${review.translation.text}`,
    );
  if (review.response) parts.push(`Response from the owner (${review.response.date}): ${review.response.text}`);
  return parts.join('\n\n');
}

/** What stands for the text of a review that is a rating alone. */
export function ratingOnlyText(review: Pick<Review, 'rating'>): string {
  return `${review.rating} out of 5 stars, without a written review.`;
}

function itemTags(business: Business | null, review: Review): string[] {
  const tags = [...review.services.map((id) => serviceName(business, id)), ...review.technicians];
  if (review.serviceArea) tags.push(review.serviceArea);
  return [...new Set(tags)];
}

const startOfDay = (date: string) => `${date}T00:00:00Z`;

/** Both feeds' description: what they hold, and the verification rule every review of them met. */
function feedDescription(business: Business | null, verification: VerificationCounts): string {
  return `The ${FEED_SIZE} newest verified customer reviews${business ? ` of ${business.name}` : ''}. ${ruleSentence(verification.windowDays)}`;
}

export function jsonFeed(
  links: Links,
  selfUrl: string,
  business: Business | null,
  reviews: readonly PublishedReview[],
  verification: VerificationCounts,
): JsonFeedDocument {
  return {
    version: 'https://jsonfeed.org/version/1.1',
    title: feedTitle(business),
    home_page_url: `${links.baseUrl}/`,
    feed_url: selfUrl,
    description: feedDescription(business, verification),
    language: 'en',
    hubs: [{ type: 'WebSub', url: `${links.baseUrl}${ROUTES.hub}` }],
    items: reviews.slice(0, FEED_SIZE).map((r) => ({
      id: entryId(links, r),
      url: permalink(links, r.id),
      title: itemTitle(business, r),
      content_text: itemText(r),
      language: r.language,
      date_published: startOfDay(r.date),
      date_modified: r.updatedAt,
      authors: [{ name: r.author }],
      tags: itemTags(business, r),
      _review: {
        about: `${links.baseUrl}${ROUTES.openapi}`,
        id: r.id,
        rating: r.rating,
        technicians: r.technicians,
        services: r.services,
        ...(r.serviceArea ? { serviceArea: r.serviceArea } : {}),
      },
    })),
  };
}

// XML 1.0 forbids most control characters even when escaped; drop them rather than emit an unparseable feed.
// A literal CR would be normalised away by every parser (XML 1.0 §2.11), so it is written as a reference.
const xmlText = (s: string) =>
  s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\r/g, '&#13;');

/** Attribute values also keep tabs and newlines, which parsers would otherwise turn into spaces (XML 1.0 §3.3.3). */
const xmlAttribute = (s: string) => xmlText(s).replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');

export function atomFeed(
  links: Links,
  selfUrl: string,
  business: Business | null,
  reviews: readonly PublishedReview[],
  publishedAt: string | null,
  verification: VerificationCounts,
): string {
  const b = links.baseUrl;
  const included = reviews.slice(0, FEED_SIZE);
  // The feed changed when one of its entries did: a change to an older review must not touch its bytes.
  const updated = included.reduce<string | null>(
    (latest, r) => (latest === null || r.updatedAt > latest ? r.updatedAt : latest),
    null,
  );
  const entries = included.map((r) => {
    const categories = itemTags(business, r).map((t) => `    <category term="${xmlAttribute(t)}"/>`);
    return [
      `  <entry xml:lang="${xmlAttribute(r.language)}">`,
      `    <id>${xmlText(entryId(links, r))}</id>`,
      `    <title type="text">${xmlText(itemTitle(business, r))}</title>`,
      `    <published>${startOfDay(r.date)}</published>`,
      `    <updated>${r.updatedAt}</updated>`,
      `    <author><name>${xmlText(r.author)}</name></author>`,
      `    <link rel="alternate" type="text/html" href="${xmlAttribute(permalink(links, r.id))}"/>`,
      ...categories,
      `    <content type="text">${xmlText(itemText(r))}</content>`,
      '  </entry>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">',
    `  <id>${xmlText(selfUrl)}</id>`,
    `  <title type="text">${xmlText(feedTitle(business))}</title>`,
    `  <subtitle type="text">${xmlText(feedDescription(business, verification))}</subtitle>`,
    `  <updated>${updated ?? publishedAt ?? '1970-01-01T00:00:00.000Z'}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${xmlAttribute(selfUrl)}"/>`,
    `  <link rel="hub" href="${xmlAttribute(`${b}${ROUTES.hub}`)}"/>`,
    `  <link rel="alternate" type="text/html" href="${xmlAttribute(`${b}/`)}"/>`,
    `  <author><name>${xmlText(business?.name ?? 'Reviews service')}</name></author>`,
    '  <generator>reviews-service</generator>',
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}
