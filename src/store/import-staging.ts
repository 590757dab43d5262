// An import staged on one connection, then applied in one transaction. Validated reviews go into a temporary
// table as the file is read, so memory stays bounded whatever the file's size: the staged ids find duplicates,
// and the apply compares and writes with set-wise statements (no review set held in memory). Nothing staged
// touches the stored data until `apply`; a discarded staging leaves the store as it was.
import { createHash } from 'node:crypto';
import { sql, type Kysely, type QueryExecutorProvider, type Transaction } from 'kysely';
import type { Business, ImportedReview } from '../reviews/schemas.js';
import type { LocatedReview } from '../reviews/import-file.js';
import type { DataVersion } from '../reviews/published.js';
import type { Duplicate, ImportProgress, ImportStaging, ImportSummary } from './types.js';
import { inTransaction } from './transaction.js';
import { isPostgres, notifyChange } from './engine.js';

/** The columns an import writes from a review; the rest (times, revision) are the import's own. */
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
  verified: number;
  content_hash: string;
}

export interface ReviewRow extends ReviewContent {
  imported_at: string;
  updated_at: string;
  /** The store revision that last wrote the row. */
  revision: number;
}

type StagingTables = {
  import_staging: ReviewContent & { seq: number; location: string };
  import_retained: { id: string };
  reviews: ReviewRow;
  business: { id: number; document: string; updated_at: string };
  store_state: { id: number; revision: number; published_at: string | null };
};

/** Rows per statement: well under SQLite's and PostgreSQL's bound-parameter limits (16 columns each). */
export const WRITE_BATCH = 500;
/** Staged rows written per statement when applying, between progress reports. */
const APPLY_RANGE = 5000;

const CONTENT_COLUMNS = [
  'id', 'date', 'rating', 'text', 'author', 'technicians', 'services', 'service_area', 'source', 'title',
  'response_date', 'response_text', 'verified', 'content_hash',
] as const;

function canonicalRecord(r: ImportedReview): string {
  // Fixed key order, so the hash says "same content" regardless of how the file ordered its fields.
  return JSON.stringify([
    r.id, r.date, r.rating, r.text, r.author, r.technicians, r.services, r.serviceArea ?? null,
    r.source ?? null, r.title ?? null, r.response?.date ?? null, r.response?.text ?? null, r.verified,
  ]);
}

function toContent(r: ImportedReview): ReviewContent {
  return {
    id: r.id,
    date: r.date,
    rating: r.rating,
    text: r.text,
    author: r.author,
    technicians: JSON.stringify(r.technicians),
    services: JSON.stringify(r.services),
    service_area: r.serviceArea ?? null,
    source: r.source ?? null,
    title: r.title ?? null,
    response_date: r.response?.date ?? null,
    response_text: r.response?.text ?? null,
    verified: r.verified ? 1 : 0,
    content_hash: createHash('sha256').update(canonicalRecord(r)).digest('base64url'),
  };
}

/** The store's revision and publication time, on any connection or transaction of the store's database. */
export async function readVersion(db: QueryExecutorProvider): Promise<DataVersion> {
  const { rows } = await sql<{ revision: number; published_at: string | null }>`SELECT revision, published_at FROM store_state WHERE id = 1`.execute(db);
  const state = rows[0];
  if (!state) throw new Error('the store has no state row: were its migrations applied?');
  return { revision: Number(state.revision), publishedAt: state.published_at };
}

/** Runs `work` with a staging on one connection of `db`; the temporary tables are dropped after, whatever happens. */
export async function withImportStaging<DB, T>(db: Kysely<DB>, work: (staging: ImportStaging) => Promise<T>): Promise<T> {
  return db.connection().execute(async (connection) => {
    const conn = connection.withTables<StagingTables>() as unknown as Kysely<StagingTables>;
    await dropTables(conn);
    await sql`CREATE TEMPORARY TABLE import_staging (
      seq integer PRIMARY KEY, location text NOT NULL, id text NOT NULL UNIQUE, date text NOT NULL,
      rating integer NOT NULL, text text NOT NULL, author text NOT NULL, technicians text NOT NULL,
      services text NOT NULL, service_area text, source text, title text, response_date text, response_text text,
      verified integer NOT NULL, content_hash text NOT NULL)`.execute(conn);
    await sql`CREATE TEMPORARY TABLE import_retained (id text PRIMARY KEY)`.execute(conn);
    try {
      return await work(new Staging(conn));
    } finally {
      await dropTables(conn);
    }
  });
}

async function dropTables(conn: Kysely<StagingTables>): Promise<void> {
  await sql`DROP TABLE IF EXISTS import_staging`.execute(conn);
  await sql`DROP TABLE IF EXISTS import_retained`.execute(conn);
}

class Staging implements ImportStaging {
  private seq = 0;

  constructor(private readonly conn: Kysely<StagingTables>) {}

  async add(reviews: LocatedReview[]): Promise<Duplicate[]> {
    const duplicates: Duplicate[] = [];
    for (let i = 0; i < reviews.length; i += WRITE_BATCH) {
      const batch = reviews.slice(i, i + WRITE_BATCH);
      const first = new Map<string, string>();
      const staged = await this.conn.selectFrom('import_staging').select(['id', 'location']).where('id', 'in', batch.map((r) => r.review.id)).execute();
      for (const row of staged) first.set(row.id, row.location);
      const rows = [];
      for (const { review, location } of batch) {
        const seen = first.get(review.id);
        if (seen !== undefined) duplicates.push({ id: review.id, location, first: seen });
        else {
          first.set(review.id, location);
          rows.push({ seq: ++this.seq, location, ...toContent(review) });
        }
      }
      if (rows.length) await this.conn.insertInto('import_staging').values(rows).execute();
    }
    return duplicates;
  }

  async retain(ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += WRITE_BATCH) {
      const rows = [...new Set(ids.slice(i, i + WRITE_BATCH))].map((id) => ({ id }));
      await this.conn.insertInto('import_retained').values(rows).onConflict((oc) => oc.column('id').doNothing()).execute();
    }
  }

  async *pages(): AsyncIterable<{ id: string; location: string; services: string[] }[]> {
    for (let after = 0; ; ) {
      const page = await this.conn.selectFrom('import_staging').select(['seq', 'id', 'location', 'services']).where('seq', '>', after).orderBy('seq').limit(WRITE_BATCH * 4).execute();
      if (!page.length) return;
      after = page.at(-1)!.seq;
      yield page.map((r) => ({ id: r.id, location: r.location, services: JSON.parse(r.services) as string[] }));
    }
  }

  async unstage(ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += WRITE_BATCH) {
      await this.conn.deleteFrom('import_staging').where('id', 'in', ids.slice(i, i + WRITE_BATCH)).execute();
    }
  }

  apply(options: { business?: Business; replace: boolean }, onProgress?: ImportProgress): Promise<ImportSummary> {
    return inTransaction(this.conn, (trx) => applyStaged(trx, options, this.seq, onProgress));
  }
}

/** A staged review is written when the store lacks it or holds other content; `r` is the stored row, if any. */
const CHANGED = sql<boolean>`(r.id IS NULL OR r.content_hash <> s.content_hash)`;
/** A stored review the import removes under `replace`: neither staged nor retained. */
const ABSENT = sql`NOT EXISTS (SELECT 1 FROM import_staging s WHERE s.id = reviews.id)
  AND NOT EXISTS (SELECT 1 FROM import_retained k WHERE k.id = reviews.id)`;

async function applyStaged(
  trx: Transaction<StagingTables>,
  options: { business?: Business; replace: boolean },
  lastSeq: number,
  onProgress: ImportProgress | undefined,
): Promise<ImportSummary> {
  const now = new Date().toISOString();
  // Rows written here carry the revision this import commits as. On PostgreSQL two imports run side by side: the
  // state row is locked first, so the second waits and numbers its rows after the first's. (SQLite has one writer.)
  if (isPostgres(trx)) await sql`SELECT revision FROM store_state WHERE id = 1 FOR UPDATE`.execute(trx);
  const revision = (await readVersion(trx)).revision + 1;
  const compared = await sql<{ added: number | null; updated: number | null; unchanged: number | null; published: number | null }>`
    SELECT sum(CASE WHEN r.id IS NULL THEN 1 ELSE 0 END) AS added,
           sum(CASE WHEN r.content_hash <> s.content_hash THEN 1 ELSE 0 END) AS updated,
           sum(CASE WHEN r.content_hash = s.content_hash THEN 1 ELSE 0 END) AS unchanged,
           max(CASE WHEN ${CHANGED} AND (s.verified = 1 OR r.verified = 1) THEN 1 ELSE 0 END) AS published
    FROM import_staging s LEFT JOIN reviews r ON r.id = s.id`.execute(trx);
  const counts = compared.rows[0]!;
  const added = Number(counts.added ?? 0);
  const updated = Number(counts.updated ?? 0);
  let publishedChanged = Number(counts.published ?? 0) === 1;

  let removed = 0;
  if (options.replace) {
    const absent = await sql<{ n: number; verified: number | null }>`
      SELECT count(*) AS n, max(verified) AS verified FROM reviews WHERE ${ABSENT}`.execute(trx);
    removed = Number(absent.rows[0]!.n);
    if (Number(absent.rows[0]!.verified ?? 0) === 1) publishedChanged = true;
  }

  const businessChanged = options.business ? await writeBusiness(trx, options.business, now) : false;

  const total = added + updated + removed;
  let done = 0;
  for (let from = 0; from < lastSeq && added + updated > 0; from += APPLY_RANGE) {
    const result = await trx
      .insertInto('reviews')
      .columns([...CONTENT_COLUMNS, 'imported_at', 'updated_at', 'revision'])
      .expression(
        trx
          .selectFrom('import_staging as s')
          .leftJoin('reviews as r', 'r.id', 's.id')
          .select(CONTENT_COLUMNS.map((c) => `s.${c}` as const))
          .select([
            sql<string>`cast(${now} as text)`.as('imported_at'),
            sql<string>`cast(${now} as text)`.as('updated_at'),
            sql<number>`cast(${revision} as integer)`.as('revision'),
          ])
          .where('s.seq', '>', from)
          .where('s.seq', '<=', from + APPLY_RANGE)
          .where(CHANGED),
      )
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          ...Object.fromEntries(CONTENT_COLUMNS.filter((c) => c !== 'id').map((c) => [c, eb.ref(`excluded.${c}`)])),
          updated_at: eb.ref('excluded.updated_at'),
          revision: eb.ref('excluded.revision'),
        })),
      )
      .executeTakeFirst();
    done += Number(result.numInsertedOrUpdatedRows ?? 0);
    onProgress?.(done, total);
  }
  if (removed) {
    await sql`DELETE FROM reviews WHERE ${ABSENT}`.execute(trx);
    onProgress?.(total, total);
  }

  if (total > 0 || businessChanged) {
    await trx
      .updateTable('store_state')
      .set((eb) => ({
        revision: eb('revision', '+', 1),
        ...(publishedChanged || businessChanged ? { published_at: now } : {}),
      }))
      .where('id', '=', 1)
      .execute();
    await notifyChange(trx, { kind: 'data' });
  }

  const stored = await trx.selectFrom('reviews').select(['verified', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('verified').execute();
  const count = (v: number) => Number(stored.find((c) => Number(c.verified) === v)?.n ?? 0);
  // PostgreSQL plans a query from the table's statistics, which only ANALYZE makes (autovacuum runs it up to a minute
  // after a large change). Without them, reading the published reviews a page at a time sorted every row left at
  // each page: 27 s for 290,000 reviews, against 1.5 ms a page with them. An import that changes a tenth of the
  // table or more (autovacuum's own threshold) renews them before it commits.
  if (isPostgres(trx) && total > 0 && 10 * total >= count(0) + count(1)) await sql`ANALYZE reviews`.execute(trx);
  return {
    added,
    updated,
    unchanged: Number(counts.unchanged ?? 0),
    removed,
    businessChanged,
    stored: { verified: count(1), unverified: count(0) },
    version: await readVersion(trx),
  };
}

/** Replaces the stored business when it differs; answers whether it did. */
async function writeBusiness(trx: Transaction<StagingTables>, business: Business, now: string): Promise<boolean> {
  const document = JSON.stringify(business);
  const stored = await trx.selectFrom('business').select('document').where('id', '=', 1).executeTakeFirst();
  if (stored?.document === document) return false;
  await trx
    .insertInto('business')
    .values({ id: 1, document, updated_at: now })
    .onConflict((oc) => oc.column('id').doUpdateSet({ document, updated_at: now }))
    .execute();
  return true;
}
