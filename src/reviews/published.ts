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
  reviews: PublishedReview[];
}

