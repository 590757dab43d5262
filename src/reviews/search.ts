// Review search over an in-memory index: AND of every filter, newest first, count and total.
import { z } from 'zod';
import { IsoDate, ServiceId } from './schemas.js';
import { fold, technicianKeys } from './text.js';
import type { PublishedReview } from './published.js';
import { bitsetOf, combine, countBits, eachBit, intersect, setBit, type Bitset } from './bitset.js';
import { WordIndex } from './word-index.js';

export const SEARCH_LIMIT = { min: 1, max: 100, default: 20 } as const;

/** Results kept per snapshot (first in, first out); a result holds references to reviews, not copies. */
const RESULT_CACHE_ENTRIES = 1000;

/** Search parameters, typed (the HTTP layer turns query strings into these; MCP tools take them as they are). */
export const SearchParams = z
  .object({
    rating: z
      .number({ error: 'rating must be an integer from 1 to 5' })
      .int('rating must be an integer from 1 to 5')
      .min(1, 'rating must be an integer from 1 to 5')
      .max(5, 'rating must be an integer from 1 to 5')
      .optional()
      .describe('Exact star rating, 1 to 5'),
    min_rating: z
      .number({ error: 'min_rating must be a number from 1 to 5' })
      .min(1, 'min_rating must be a number from 1 to 5')
      .max(5, 'min_rating must be a number from 1 to 5')
      .optional()
      .describe('Minimum star rating, inclusive, 1 to 5'),
    since: IsoDate.optional().describe('Only reviews dated on or after this date (YYYY-MM-DD)'),
    until: IsoDate.optional().describe('Only reviews dated on or before this date (YYYY-MM-DD)'),
    query: z
      .string()
      .min(1, 'query must not be empty')
      .max(200, 'query must be at most 200 characters')
      .optional()
      .describe('Case- and accent-insensitive substring of the review text'),
    mentions_technician: z
      .string()
      .min(1, 'mentions_technician must not be empty')
      .max(200)
      .optional()
      .describe('Technician\'s full or first name, case- and accent-insensitive ("zoe" finds "Zoë Martínez")'),
    mentions_service: ServiceId.optional().describe('Service id from the business catalogue'),
    limit: z
      .number({ error: 'limit must be an integer from 1 to 100' })
      .int('limit must be an integer from 1 to 100')
      .min(SEARCH_LIMIT.min, 'limit must be an integer from 1 to 100')
      .max(SEARCH_LIMIT.max, 'limit must be an integer from 1 to 100')
      .default(SEARCH_LIMIT.default)
      .describe('Maximum number of reviews returned, 1 to 100, default 20'),
  })
  .strict()
  .refine((p) => !(p.since && p.until && p.since > p.until), {
    message: 'since must not be after until',
    path: ['since'],
  });

export type SearchParams = z.output<typeof SearchParams>;

/** One key per parameter set, whatever order the parameters came in. */
export function searchKey(params: SearchParams): string {
  return JSON.stringify(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : 1)));
}

export interface SearchResult {
  count: number;
  total: number;
  reviews: PublishedReview[];
}

/**
 * The keys each list of technicians is found by, once per list: the store reads one array per distinct list, so
 * 100,000 reviews share a few hundred of these.
 */
const technicianKeysOf = new WeakMap<readonly string[], readonly string[]>();

function keysOf(technicians: readonly string[]): readonly string[] {
  let keys = technicianKeysOf.get(technicians);
  if (!keys) technicianKeysOf.set(technicians, (keys = [...new Set(technicians.flatMap(technicianKeys))]));
  return keys;
}

/** How many reviews `SearchIndex.build` indexes between pauses (some 10 ms of work). */
const SLICE = 5000;
/**
 * How many texts go into the word index between pauses: some 10–25 ms of work (folding and splitting them is some
 * 20 times the work of indexing a review's filters), which a request arriving meanwhile waits for.
 */
const WORDS_SLICE = 1000;

/** Tries at making a version's word index: a failure is reported and the next text search tries again, this often. */
const WORD_INDEX_TRIES = 3;

/** Where a failed word index goes when `build`'s caller named no place: the process's warnings (stderr unless handled). */
function warnWordIndexFailed(error: unknown): void {
  process.emitWarning(
    `search word index failed, texts are read meanwhile: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    'SearchIndexWarning',
  );
}

/** Positions are indexes into the newest-first review array, so every posting list is already in result order. */
export class SearchIndex {
  private readonly byRating = new Map<number, Bitset>();
  private readonly byTechnician = new Map<string, Bitset>();
  private readonly byService = new Map<string, Bitset>();
  /** The filters' combination, written by each search (one at a time: a search runs to its end on this thread). */
  private readonly combined: Bitset;
  private readonly byId = new Map<string, PublishedReview>();
  private readonly results = new Map<string, SearchResult>();
  /**
   * The words of the texts, for `query`: made at once by the constructor; for `build`'s index, in slices once it is
   * served (`makeWords`). Texts are folded as they are added and not kept: the word index answers every query.
   */
  private words: WordIndex | undefined;
  private wordsMaking = false;
  private wordsTries = 0;
  /** What `build` was given to pause with and to report a failed word index to, for the word index made later. */
  private pause: (() => Promise<void>) | undefined;
  private onWordIndexError: (error: unknown) => void = warnWordIndexFailed;

  /** The index of these reviews (newest first); `build` makes the same index without holding the thread. */
  constructor(
    private readonly reviews: readonly PublishedReview[],
    indexNow = true,
  ) {
    this.combined = bitsetOf(reviews.length);
    if (!indexNow) return;
    this.indexSlice(0, reviews.length);
    const words = new WordIndex(reviews.length);
    this.addTexts(words, 0, reviews.length);
    this.words = words.seal();
  }

  /**
   * Indexes SLICE reviews at a time, awaiting `pause` before each slice, so a server answers requests meanwhile
   * (100k reviews take some 0.1 s). The word index is made the same way when `makeWords` is called or a text search
   * comes first (some 0.6 s at 100k); if that fails, `onWordIndexError` hears of it (by default, a process warning)
   * and texts are read.
   */
  static async build(
    reviews: readonly PublishedReview[],
    pause: () => Promise<void>,
    onWordIndexError: (error: unknown) => void = warnWordIndexFailed,
  ): Promise<SearchIndex> {
    const index = new SearchIndex(reviews, false);
    index.pause = pause;
    index.onWordIndexError = onWordIndexError;
    for (let from = 0; from < reviews.length; from += SLICE) {
      await pause();
      index.indexSlice(from, Math.min(reviews.length, from + SLICE));
    }
    return index;
  }

  private indexSlice(from: number, to: number): void {
    for (let position = from; position < to; position++) {
      const review = this.reviews[position]!;
      this.byId.set(review.id, review);
      this.mark(this.byRating, review.rating, position);
      for (const key of keysOf(review.technicians)) this.mark(this.byTechnician, key, position);
      for (const id of review.services) this.mark(this.byService, id, position);
    }
  }

  /** Adds the texts of reviews [from, to) to `words`, in order. */
  private addTexts(words: WordIndex, from: number, to: number): void {
    for (let p = from; p < to; p++) words.add(fold(this.reviews[p]!.text));
  }

  private mark<K>(map: Map<K, Bitset>, key: K, position: number): void {
    let bits = map.get(key);
    if (!bits) map.set(key, (bits = bitsetOf(this.reviews.length)));
    setBit(bits, position);
  }

  /** The review with this id, if published. */
  get(id: string): PublishedReview | undefined {
    return this.byId.get(id);
  }

  /**
   * Starts making the word index, if it is not made or being made: a server calls it once the version is served (the
   * first one once it listens).
   */
  makeWords(): void {
    this.wordIndex();
  }

  /**
   * The word index, or undefined while it is made (some 0.6 s at 100,000 reviews, in slices between requests): text
   * searches meanwhile fold and read every text the other filters leave. A failed try is reported, and the next text
   * search tries again (up to WORD_INDEX_TRIES), rather than reading every text for the rest of the version without
   * a word said.
   */
  private wordIndex(): WordIndex | undefined {
    if (this.words || this.wordsMaking || this.wordsTries >= WORD_INDEX_TRIES) return this.words;
    this.wordsMaking = true;
    this.wordsTries++;
    const pause = this.pause ?? (async () => undefined);
    void (async () => {
      try {
        const words = new WordIndex(this.reviews.length);
        for (let from = 0; from < this.reviews.length; from += WORDS_SLICE) {
          await pause();
          this.addTexts(words, from, Math.min(this.reviews.length, from + WORDS_SLICE));
        }
        for (const sealing = words.sealing(); !sealing.next().done;) await pause();
        this.words = words;
      } catch (error) {
        this.onWordIndexError(error);
      } finally {
        this.wordsMaking = false;
      }
    })();
    return undefined;
  }

  /** Memoised per parameter set: REST and MCP ask the same questions again and again of one snapshot. */
  search(params: SearchParams): SearchResult {
    const key = searchKey(params);
    const cached = this.results.get(key);
    if (cached) return cached;
    const result = this.evaluate(params);
    if (this.results.size >= RESULT_CACHE_ENTRIES) this.results.delete(this.results.keys().next().value!);
    this.results.set(key, result);
    return result;
  }

  /** The search itself, without the memo (the benchmark measures this). */
  evaluate(params: SearchParams): SearchResult {
    const [from, to] = this.dateRange(params.since, params.until);
    const technician =
      params.mentions_technician === undefined
        ? undefined
        : fold(params.mentions_technician).trim().replace(/\s+/g, ' ');
    const query = params.query === undefined ? undefined : fold(params.query);

    const none: SearchResult = { count: 0, total: 0, reviews: [] };
    // Every filter but `query` is a set of positions; they combine a word (32 reviews) at a time.
    const all: Bitset[] = [];
    const any: Bitset[][] = [];
    for (const [map, key] of [
      [this.byRating, params.rating],
      [this.byTechnician, technician],
      [this.byService, params.mentions_service],
    ] as const) {
      if (key === undefined) continue;
      const bits = (map as Map<typeof key, Bitset>).get(key);
      if (!bits) return none;
      all.push(bits);
    }
    if (params.min_rating !== undefined)
      any.push([...this.byRating].filter(([rating]) => rating >= params.min_rating!).map(([, bits]) => bits));
    if (from >= to) return none;
    const [first, end] = combine(this.combined, from, to, all, any);

    const found: PublishedReview[] = [];
    if (query === undefined) {
      eachBit(this.combined, first, end, (p) => found.push(this.reviews[p]!) < params.limit);
      return { count: found.length, total: countBits(this.combined, first, end), reviews: found };
    }
    // Once the words are made, they tell which texts hold the query (or the few to test); until then, texts are read.
    const match = this.wordIndex()?.match(query, countBits(this.combined, first, end), from, to);
    if (match?.candidates) intersect(this.combined, match.candidates, first, end);
    if (match?.exact) {
      eachBit(this.combined, first, end, (p) => found.push(this.reviews[p]!) < params.limit);
      return { count: found.length, total: countBits(this.combined, first, end), reviews: found };
    }
    const holds = match?.test ?? ((p: number) => fold(this.reviews[p]!.text).includes(query));
    let total = 0;
    eachBit(this.combined, first, end, (p) => {
      if (holds(p) && ++total <= params.limit) found.push(this.reviews[p]!);
      return true;
    });
    return { count: found.length, total, reviews: found };
  }

  /** Reviews dated on or after `since`, newest first. */
  since(date: string): PublishedReview[] {
    return this.newest(this.sinceCount(date));
  }

  /** How many reviews are dated on or after `date`: they are the first ones, newest first. */
  sinceCount(date: string): number {
    return this.dateRange(date, undefined)[1];
  }

  /** The `count` newest reviews. */
  newest(count: number): PublishedReview[] {
    return this.reviews.slice(0, count);
  }

  /** [from, to) positions whose dates lie within [since, until]; dates descend with position. */
  private dateRange(since: string | undefined, until: string | undefined): [number, number] {
    const firstAtOrBefore = (date: string) => this.firstPosition((d) => d <= date);
    const firstBefore = (date: string) => this.firstPosition((d) => d < date);
    return [
      until === undefined ? 0 : firstAtOrBefore(until),
      since === undefined ? this.reviews.length : firstBefore(since),
    ];
  }

  private firstPosition(test: (date: string) => boolean): number {
    let lo = 0;
    let hi = this.reviews.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (test(this.reviews[mid]!.date)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}
