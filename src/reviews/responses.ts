// Response envelopes of the search and since listings.
import { z } from 'zod';
import { toPublic } from './encoded-reviews.js';
import { IsoDate, Review } from './schemas.js';
import type { SearchIndex, SearchParams } from './search.js';

export const SearchResponse = z
  .object({
    count: z.number().int().describe('Reviews returned'),
    total: z.number().int().describe('Reviews matched before the limit'),
    reviews: z.array(Review).describe('Newest first: date descending, then id descending'),
  })
  .strict();

export const SinceResponse = z
  .object({
    since: IsoDate,
    count: z.number().int(),
    reviews: z.array(Review).describe('Reviews dated on or after `since`, newest first'),
  })
  .strict();

export const SinceParams = z.object({ date: IsoDate.describe('First date included, YYYY-MM-DD') }).strict();

export type SearchResponse = z.infer<typeof SearchResponse>;
export type SinceResponse = z.infer<typeof SinceResponse>;

/** The answer to a search, as REST and MCP give it. */
export function searchResponse(index: SearchIndex, params: SearchParams): SearchResponse {
  const found = index.search(params);
  return { count: found.count, total: found.total, reviews: found.reviews.map(toPublic) };
}
