// Field types the platforms share: their times, and the newest of several.
import { z } from 'zod';
import { parseInstant } from '../reviews/dates.js';

/** An RFC 3339 time (0–9 fractional digits; no zone means UTC), read as an ISO time to the millisecond. */
export const Instant = z.string().transform((value, ctx) => {
  const at = parseInstant(value);
  if (at === undefined) {
    ctx.addIssue({ code: 'custom', message: `"${value.slice(0, 40)}" is not an RFC 3339 time (e.g. 2025-06-01T17:04:05Z)` });
    return z.NEVER;
  }
  return at;
});

/** The latest of some ISO times (all at millisecond precision, so they order as text). */
export function latest(...times: (string | null | undefined)[]): string | undefined {
  let newest: string | undefined;
  for (const t of times) if (t && (newest === undefined || t > newest)) newest = t;
  return newest;
}

/** Text as the customer wrote it, with only the ends' white space trimmed: never edited otherwise. */
export const trimmed = (text: string | null | undefined): string => (text ?? '').trim();
