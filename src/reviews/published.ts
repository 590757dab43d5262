// The published data of one version: what the service shows, as read from the store in one transaction.
import type { Business, ImportedReview, Review } from './schemas.js';
import type { VerificationCounts } from './verification.js';
import { detectLanguage } from './language.js';

/** A published review plus the time its stored record last changed (Atom's <updated>). */
export interface PublishedReview extends Review {
  updatedAt: string;
}

/** Identifies one state of the store; `publishedAt` moves only when published data changed. */
export interface DataVersion {
  /** Bumped by every committed change, published or not. */
  revision: number;
  /** ISO time the published data (business or verified reviews) last changed; null while nothing was ever published. */
  publishedAt: string | null;
}

/** Everything the service publishes, read in one consistent transaction. */
export interface PublishedData {
  version: DataVersion;
  business: Business | null;
  /** How many reviews were received and published, by source: what the published verification summary says. */
  verification: VerificationCounts;
  /** Verified reviews only, newest first (date descending, then id descending). */
  reviews: readonly PublishedReview[];
}

/** Newest first, as the store reads published reviews: date descending, then id descending. */
export function compareNewestFirst(a: { date: string; id: string }, b: { date: string; id: string }): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * An imported record of the service's own format as the store publishes it once verified (the operator's word,
 * on the day of `updatedAt` unless `verifiedOn` says otherwise); its language detected when the record gives none.
 */
export function publishedFrom(
  review: ImportedReview,
  updatedAt: string,
  verifiedOn = updatedAt.slice(0, 10),
): PublishedReview {
  const { verified: _verified, language, reference: _reference, ...fields } = review;
  return {
    ...fields,
    language: language ?? detectLanguage(review.text),
    verification: { method: 'operator', date: verifiedOn },
    updatedAt,
  };
}
