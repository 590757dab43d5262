// Response envelopes of the search and since listings.
import { z } from 'zod';
import { IsoDate, Review } from './schemas.js';

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
