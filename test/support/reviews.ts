// Review records for tests: the order the service publishes them in, and the factories every test makes its
// reviews with (an imported record, a published review), each with fixed defaults that `overrides` replace.
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

/**
 * A verified record to import, with fixed defaults (id `review-1`, a 4-star review dated 2025-05-05, no
 * technicians or services); `overrides` set any field, and add the optional ones (none is there by default).
 */
export function importedReview(overrides: Partial<ImportedReview> = {}): ImportedReview {
  const id = overrides.id ?? 'review-1';
  return {
    id,
    date: '2025-05-05',
    rating: 4,
    text: `Text of ${id}`,
    author: 'A B.',
    technicians: [],
    services: [],
    verified: true,
    ...overrides,
  };
}

/**
 * A published review for unit tests, with fixed defaults (id `review-1`, a 5-star review dated 2024-05-01, no
 * technicians or services, verified by the operator, updated 2026-01-01); `overrides` set any field, and add the
 * optional ones (none is there by default).
 */
export function publishedReview(overrides: Partial<PublishedReview> = {}): PublishedReview {
  const id = overrides.id ?? 'review-1';
  return {
    id,
    date: '2024-05-01',
    rating: 5,
    text: `Review ${id}.`,
    author: 'A. Customer',
    technicians: [],
    services: [],
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...PUBLIC_FIELDS,
    ...overrides,
  };
}

const SENTENCES = [
  'The technician arrived within the two-hour window and called ahead to say so.',
  'She explained what had failed, showed us the worn part and quoted the price before starting.',
  'The work area was left cleaner than it was when the crew arrived, which we appreciated.',
  'Scheduling took a single phone call and the office followed up the next morning.',
  'The repair has held up through a week of heavy use without any further trouble.',
  'He took the time to answer every question and suggested how to avoid the problem next summer.',
  'The invoice matched the estimate exactly, with no surprise fees added at the end.',
  'We would hire them again and have already recommended them to our neighbours.',
];

/** About 700 bytes of plausible review text, different for every n. */
export function reviewText(n: number): string {
  const parts: string[] = [`Visit number ${n}.`];
  for (let i = 0; i < 9; i++) parts.push(SENTENCES[(n * 3 + i) % SENTENCES.length] ?? '');
  return parts.join(' ');
}
