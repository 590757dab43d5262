// The published data of one version: what the service shows, as read from the store in one transaction.
import type { Business, Review } from './schemas.js';

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
  /** Verified reviews only, newest first (date descending, then id descending). */
  reviews: readonly PublishedReview[];
}

/** Newest first, as the store reads published reviews: date descending, then id descending. */
export function compareNewestFirst(a: { date: string; id: string }, b: { date: string; id: string }): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
