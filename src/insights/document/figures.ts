// How the insights write figures: rounding, percentages, counts in prose, quarters, average ratings. One definition for all.
import { aggregateRating } from '../../reviews/documents.js';
import type { PublishedReview } from '../../store/types.js';

export const round2 = (x: number) => Math.round(x * 100) / 100;

/** Whole percent of `part` in `whole` (0 of nothing). */
export const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 100));

/** A count as prose shows it: 1,460. */
export const count = (x: number) => x.toLocaleString('en-US');

/** Mean star rating to two decimals: the reviews dataset's aggregate rating, so both documents agree. */
export const averageRating = (reviews: readonly PublishedReview[]) => aggregateRating(reviews).ratingValue ?? 0;

/** The calendar quarter of an ISO date: 2026-Q3. */
export const quarterOf = (date: string) => `${date.slice(0, 4)}-Q${Math.ceil(Number(date.slice(5, 7)) / 3)}`;
