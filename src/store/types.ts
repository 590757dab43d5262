// The store contract: the source of truth behind every engine (SQLite, PostgreSQL); the read path never queries it per request.
import type { Business, ImportedReview, Review } from '../reviews/schemas.js';

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

export interface ImportPlan {
  /** Replaces the stored business when given; an import without one keeps it. */
  business?: Business;
  reviews: ImportedReview[];
  /** Make the stored reviews equal the plan's: ids absent from it (and from `retainIds`) are removed. */
  replace: boolean;
  /** Ids kept under `replace` though not in `reviews` (records rejected by validation are not deletions). */
  retainIds?: string[];
}

export interface ImportSummary {
  added: number;
  updated: number;
  unchanged: number;
  removed: number;
  businessChanged: boolean;
  /** What the store holds after the import. */
  stored: { verified: number; unverified: number };
  version: DataVersion;
}

export type ImportProgress = (done: number, total: number) => void;

export interface Store {
  readonly engine: 'sqlite' | 'postgres';
  /** Cheap: polled to notice changes made by another process. */
  currentRevision(): Promise<number>;
  readPublished(): Promise<PublishedData>;
  readBusiness(): Promise<Business | null>;
  /** Applies the whole plan in one transaction: all of it or, on error, nothing. */
  applyImport(plan: ImportPlan, onProgress?: ImportProgress): Promise<ImportSummary>;
  /** Records an ended MCP session until its expiry (ISO time); expired records are pruned. */
  revokeSession(id: string, expiresAt: string): Promise<void>;
  /** Ended MCP sessions that have not expired yet. */
  revokedSessions(now: string): Promise<{ id: string; expiresAt: string }[]>;
  close(): Promise<void>;
}
