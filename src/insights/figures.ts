// How the insights write figures: rounding, percentages, counts in prose, average ratings. One definition for all.
import type { PublishedReview } from '../store/types.js';

export const round2 = (x: number) => Math.round(x * 100) / 100;

/** Whole percent of `part` in `whole` (0 of nothing). */
export const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 100));

/** A count as prose shows it: 1,460. */
export const count = (x: number) => x.toLocaleString('en-US');

/** Mean star rating to two decimals. */
export const averageRating = (reviews: readonly PublishedReview[]) => round2(reviews.reduce((sum, r) => sum + r.rating, 0) / reviews.length);
