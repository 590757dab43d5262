// Review records for tests: the order the service publishes them in, and a verified record to import.
import type { PublishedReview } from '../../src/reviews/published.js';
import type { ImportedReview } from '../../src/reviews/schemas.js';

interface Dated {
  date: string;
  id: string;
}

/** The published order, written out independently of the service's: date descending, then id descending. */
export function compareNewestFirst(a: Dated, b: Dated): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  return a.id === b.id ? 0 : a.id < b.id ? 1 : -1;
}

/** A sorted copy in the published order. */
export function newestFirst<T extends Dated>(reviews: readonly T[]): T[] {
  return [...reviews].sort(compareNewestFirst);
}

let made = 0;

/**
 * A verified review with a fresh id, dated after every demo review (so it tops every feed and changes every
 * WebSub topic); `overrides` set any field.
 */
export function newReview(overrides: Partial<ImportedReview> = {}): ImportedReview {
  made++;
  const id = overrides.id ?? `test-review-${process.pid}-${made}`;
  return {
    id,
    date: '2026-12-01',
    rating: 5,
    text: `Review ${id}: the technician fixed the AC the same day.`,
    author: 'Test A.',
    technicians: [],
    services: [],
    // Given, as a platform would: a store's import then needs no language detector (some 40 MB in the test's process).
    language: 'en',
    verified: true,
    ...overrides,
  };
}

/** The fields a published review has beyond an imported record's: for reviews made as literals in unit tests. */
export const PUBLIC_FIELDS = {
  language: 'en',
  verification: { method: 'operator', date: '2026-01-01' },
} as const satisfies Pick<PublishedReview, 'language' | 'verification'>;
