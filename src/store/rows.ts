// The reviews table's row and the reads of the store's state that every part of the store shares.
import { sql, type QueryExecutorProvider } from 'kysely';
import type { DataVersion } from '../reviews/published.js';
import type { Business } from '../reviews/schemas.js';

/** The columns an import writes from a review; the rest (times, revision, state) are the store's own. */
export interface ReviewContent {
  id: string;
  date: string;
  rating: number;
  text: string;
  author: string;
  technicians: string;
  services: string;
  service_area: string | null;
  source: string | null;
  title: string | null;
  response_date: string | null;
  response_text: string | null;
  language: string;
  translation_language: string | null;
  translation_text: string | null;
  /** How the import says the review is verified; null: it does not. */
  verification_method: string | null;
  feed: string;
  upstream_updated_at: string | null;
  author_anonymous: number;
  reference: string | null;
  /** What the verification rule reads of the author (`robert s`); null when the name lacks a first name or last initial. */
  name_key: string | null;
  content_hash: string;
}

/** A review's content columns, as an import writes them and a read publishes them: both lists begin with these. */
export const REVIEW_CONTENT_COLUMNS = [
  'id',
  'date',
  'rating',
  'text',
  'author',
  'technicians',
  'services',
  'service_area',
  'source',
  'title',
  'response_date',
  'response_text',
  'language',
  'translation_language',
  'translation_text',
  'verification_method',
] as const satisfies readonly (keyof ReviewContent)[];

export interface ReviewRow extends ReviewContent {
  /** Verified, not removed, not withdrawn: what the read path serves. */
  published: number;
  verification_date: string | null;
  /** An operator's `verify` or `unverify`: no import changes the review's verification. */
  verification_locked: number;
  removed_at: string | null;
  removed_reason: string | null;
  withdrawn_at: string | null;
  imported_at: string;
  updated_at: string;
  /** The store revision that last wrote the row. */
  revision: number;
  /** What the last matching run found: `matched`, `ambiguous`, `none`; null where the ledger does not decide. */
  match_state: string | null;
  /** The completion dates of the jobs that fit an ambiguous match (JSON). */
  match_candidates: string | null;
  /** What a matched review takes from its job where it names none itself (JSON lists, a city). */
  job_technicians: string | null;
  job_services: string | null;
  job_area: string | null;
}

/** The store's revision and publication time, on any connection or transaction of the store's database. */
export async function readVersion(db: QueryExecutorProvider): Promise<DataVersion> {
  const { rows } = await sql<{
    revision: number;
    published_at: string | null;
  }>`SELECT revision, published_at FROM store_state WHERE id = 1`.execute(db);
  const state = rows[0];
  if (!state) throw new Error('the store has no state row: were its migrations applied?');
  return { revision: Number(state.revision), publishedAt: state.published_at };
}

/** A stored review's state, in SQL: removed (a tombstone), withdrawn (gone upstream), published or unpublished. */
export const REVIEW_STATE = sql<
  'published' | 'unpublished' | 'removed' | 'withdrawn'
>`CASE WHEN removed_at IS NOT NULL THEN 'removed'
  WHEN withdrawn_at IS NOT NULL THEN 'withdrawn' WHEN published = 1 THEN 'published' ELSE 'unpublished' END`;

/** The stored business's time zone (IANA), if it has one: the calendar of review and verification dates. */
export async function storedTimeZone(db: QueryExecutorProvider): Promise<string | undefined> {
  const { rows } = await sql<{ document: string }>`SELECT document FROM business WHERE id = 1`.execute(db);
  return rows[0] ? (JSON.parse(rows[0].document) as Pick<Business, 'timeZone'>).timeZone : undefined;
}
