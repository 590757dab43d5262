// Each published review's public JSON, encoded once per review object, and reviews read from the store that keep
// their text only there once it is encoded: at 100,000 reviews the texts are some 32 MB of strings, the same
// characters the dataset's bytes already hold.
import type { PublishedReview } from './published.js';
import type { Review } from './schemas.js';

/** The public JSON of reviews made elsewhere than the store (a review read from the store keeps its own). */
const entries = new WeakMap<PublishedReview, Buffer>();

/** Whether the public JSON of `review` is encoded. */
export function isEncoded(review: PublishedReview): boolean {
  return review instanceof StoredReview ? review.hasEntry() : entries.has(review);
}

/** The public JSON of `review`, if encoded. */
export function entryOf(review: PublishedReview): Buffer | undefined {
  return review instanceof StoredReview ? review.entry() : entries.get(review);
}

/** How many bytes the public JSON of `review` takes, if encoded (without making a view of them). */
export function entryLength(review: PublishedReview): number | undefined {
  return review instanceof StoredReview ? review.entryLength() : entries.get(review)?.length;
}

/**
 * Keeps `bytes` as the public JSON of `review`: after a dataset is rendered, a view of that dataset's bytes (no copy
 * of its own). A review read from the store reads its text from them from now on.
 */
export function setEntry(review: PublishedReview, bytes: Buffer): void {
  if (review instanceof StoredReview) review.keepEntry(bytes);
  else entries.set(review, bytes);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Where the JSON string whose opening quote is at `at` ends: the index of its closing quote, or the length of `json`
 * if it is cut. Only `"` and `\` matter inside, and no byte of a multi-byte UTF-8 character is either.
 */
export function endOfString(json: Buffer, at: number): number {
  let i = at + 1;
  while (i < json.length && json[i] !== QUOTE) i += json[i] === BACKSLASH ? 2 : 1;
  return Math.min(i, json.length);
}

/**
 * The key of a review's text in its public JSON. It cannot occur inside a string before it (a quote inside a string
 * is escaped, and this one follows a letter), and the text comes before the owner's response, which has one too.
 */
const TEXT_KEY = Buffer.from('"text":"');

/** The text of a review from its public JSON. */
export function textOf(entry: Buffer): string {
  const key = entry.indexOf(TEXT_KEY);
  if (key < 0) throw new Error('a review entry without its text');
  const open = key + TEXT_KEY.length - 1;
  const end = endOfString(entry, open);
  if (end >= entry.length) throw new Error('a review entry with its text cut');
  const escape = entry.indexOf(BACKSLASH, open);
  return escape >= 0 && escape < end
    ? (JSON.parse(entry.toString('utf8', open, end + 1)) as string)
    : entry.toString('utf8', open + 1, end);
}

/**
 * A published review as read from the store. Its text is an enumerable property like the others (spread, JSON,
 * structured clone and equality see it), held as a string until the review's public JSON is encoded, then read from
 * those bytes when asked: by a text search before the word index is made, a page, a feed, or the insights process.
 */
export class StoredReview implements PublishedReview {
  declare readonly id: string;
  declare readonly date: string;
  declare readonly rating: number;
  declare readonly text: string;
  declare readonly author: string;
  declare readonly technicians: string[];
  declare readonly services: string[];
  declare readonly serviceArea?: string;
  declare readonly source?: string;
  declare readonly title?: string;
  declare readonly response?: { date: string; text: string };
  declare readonly language: string;
  declare readonly translation?: { language: string; text: string };
  declare readonly verification: Review['verification'];
  declare readonly updatedAt: string;
  /** The text until the public JSON is kept, then where those bytes lie: a dataset's memory, and a range of it. */
  #text: string | undefined;
  #memory: ArrayBufferLike | undefined;
  #start = 0;
  #end = 0;

  /** One getter for every review: reviews with the same fields share their hidden class. */
  static readonly #textProperty: PropertyDescriptor = {
    enumerable: true,
    get(this: StoredReview): string {
      return this.#text ?? textOf(this.entry()!);
    },
  };

  /** `fields` in the public order (then `updatedAt`); optional fields absent, not undefined. */
  constructor(fields: PublishedReview) {
    const self = this as Record<string, unknown>;
    self.id = fields.id;
    self.date = fields.date;
    self.rating = fields.rating;
    Object.defineProperty(this, 'text', StoredReview.#textProperty);
    this.#text = fields.text;
    self.author = fields.author;
    self.technicians = fields.technicians;
    self.services = fields.services;
    if (fields.serviceArea !== undefined) self.serviceArea = fields.serviceArea;
    if (fields.source !== undefined) self.source = fields.source;
    if (fields.title !== undefined) self.title = fields.title;
    if (fields.response !== undefined) self.response = fields.response;
    self.language = fields.language;
    if (fields.translation !== undefined) self.translation = fields.translation;
    self.verification = fields.verification;
    self.updatedAt = fields.updatedAt;
  }

  /** The review's public JSON, if kept: a view made when asked (a view kept per review would cost some 100 bytes). */
  entry(): Buffer | undefined {
    return this.#memory && Buffer.from(this.#memory, this.#start, this.#end - this.#start);
  }

  /** How many bytes the public JSON takes, if kept. */
  entryLength(): number | undefined {
    return this.#memory && this.#end - this.#start;
  }

  /** Whether the review's public JSON is kept. */
  hasEntry(): boolean {
    return this.#memory !== undefined;
  }

  /** Keeps the review's public JSON, where `bytes` lie; its text is read from there from now on. */
  keepEntry(bytes: Buffer): void {
    this.#memory = bytes.buffer;
    this.#start = bytes.byteOffset;
    this.#end = bytes.byteOffset + bytes.length;
    this.#text = undefined;
  }
}

/** The public shape, fields in the schema's order: the stored record without store bookkeeping. */
export function toPublic(review: PublishedReview): Review {
  const published: Review = {
    id: review.id,
    date: review.date,
    rating: review.rating,
    text: review.text,
    author: review.author,
    technicians: review.technicians,
    services: review.services,
  } as Review;
  if (review.serviceArea !== undefined) published.serviceArea = review.serviceArea;
  if (review.source !== undefined) published.source = review.source;
  if (review.title !== undefined) published.title = review.title;
  if (review.response !== undefined) published.response = review.response;
  published.language = review.language;
  if (review.translation !== undefined) published.translation = review.translation;
  published.verification = review.verification;
  return published;
}
