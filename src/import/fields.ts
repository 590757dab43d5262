// What imports share: the platforms' field types (their times, the newest of several), trimmed text, and the check that every file is there.
import { access } from 'node:fs/promises';
import { z } from 'zod';
import { parseInstant } from '../reviews/dates.js';

/** An RFC 3339 time (0–9 fractional digits; no zone means UTC), read as an ISO time to the millisecond. */
export const Instant = z.string().transform((value, ctx) => {
  const at = parseInstant(value);
  if (at === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `"${value.slice(0, 40)}" is not an RFC 3339 time (e.g. 2025-06-01T17:04:05Z)`,
    });
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

/** Why the first of these files cannot be read, if one cannot: an import reads none before it knows all are there. */
export async function unreadable(files: readonly string[]): Promise<string | undefined> {
  for (const file of files) {
    try {
      await access(file);
    } catch {
      return `cannot read ${file}: no such file`;
    }
  }
  return undefined;
}

/** Text as the customer wrote it, with only the ends' white space trimmed: never edited otherwise. */
export const trimmed = (text: string | null | undefined): string => (text ?? '').trim();
