// An import staged on one connection, then applied in one transaction. Validated reviews go into a temporary
// table as the file is read, so memory stays bounded whatever the file's size: the staged ids find duplicates,
// and the apply compares and writes with set-wise statements (no review set held in memory). Nothing staged
// touches the stored data until `apply`; a discarded staging leaves the store as it was.
import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Business, ImportedReview } from '../reviews/schemas.js';
import { localDate } from '../reviews/dates.js';
import { detectLanguage } from '../reviews/language.js';
import {
  OWN_FEED,
  type MatchSummary,
  type ApplyOptions,
  type CompleteScope,
  type Duplicate,
  type ImportProgress,
  type ImportStaging,
  type ImportSummary,
  type LocatedReview,
  type StagedReview,
} from './types.js';
import { inTransaction } from './transaction.js';
import {
  readVersion,
  REVIEW_CONTENT_COLUMNS,
  REVIEW_STATE,
  storedTimeZone,
  type ReviewContent,
  type ReviewRow,
} from './rows.js';
import { isPostgres, notifyChange } from './dialect.js';
import { writeLog, type OperatorLogRow } from './operator-log.js';
import { keyedHash, ledgerKey, normalReference } from './ledger-hash.js';
import { runMatch } from './matching.js';

type StagingTables = {
  import_staging: ReviewContent & { seq: number; location: string };
  import_retained: { id: string };
  reviews: ReviewRow;
  business: { id: number; document: string; updated_at: string };
  store_state: { id: number; revision: number; published_at: string | null };
  operator_log: OperatorLogRow;
};

/** Rows per statement: well under SQLite's and PostgreSQL's bound-parameter limits (24 columns each). */
export const WRITE_BATCH = 400;
/** Staged rows written per statement when applying, between progress reports. */
const APPLY_RANGE = 5000;

const CONTENT_COLUMNS = [
  ...REVIEW_CONTENT_COLUMNS,
  'feed',
  'upstream_updated_at',
  'author_anonymous',
  'reference',
  'name_key',
  'content_hash',
] as const;

/** Columns an import rewrites on a changed review; verification and the feed's bookkeeping are decided apart. */
const REWRITTEN = CONTENT_COLUMNS.filter((c) => c !== 'id' && c !== 'verification_method');

function canonicalRecord(r: StagedReview, reference: string | null): string {
  // Fixed key order, so the hash says "same content" regardless of how the file ordered its fields. The feed and
  // the upstream time are not content: one review re-served by another tool, or touched upstream, is unchanged.
  return JSON.stringify([
    r.id,
    r.date,
    r.rating,
    r.text,
    r.author,
    r.technicians,
    r.services,
    r.serviceArea ?? null,
    r.source ?? null,
    r.title ?? null,
    r.response?.date ?? null,
    r.response?.text ?? null,
    r.verification,
    r.language,
    r.translation?.language ?? null,
    r.translation?.text ?? null,
    r.anonymous ?? false,
    reference,
  ]);
}

/** The review's columns; its reference (a job's id, private) is kept only as the ledger's keyed hash of it. */
function toContent(r: StagedReview, hashKey: string): ReviewContent {
  const reference = r.reference ? keyedHash(hashKey, normalReference(r.reference)) : null;
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
    language: r.language,
    translation_language: r.translation?.language ?? null,
    translation_text: r.translation?.text ?? null,
    verification_method: r.verification,
    feed: r.feed,
    upstream_updated_at: r.upstreamUpdatedAt ?? null,
    author_anonymous: r.anonymous ? 1 : 0,
    reference,
    name_key: r.nameKey ?? null,
    content_hash: createHash('sha256').update(canonicalRecord(r, reference)).digest('base64url'),
  };
}

/** A record of the service's own format as a staged review, its language as the record gives it (if it does). */
export function ownFields(review: ImportedReview): Omit<StagedReview, 'language'> & { language?: string } {
  const { verified, ...fields } = review;
  return { ...fields, verification: verified ? 'operator' : null, feed: OWN_FEED };
}

/** A record of the service's own format as the store stages it: verified means the operator's word. */
export function stagedFromOwn(review: ImportedReview): StagedReview {
  return { ...ownFields(review), language: review.language ?? detectLanguage(review.text) };
}

/** Runs `work` with a staging on one connection of `db`; the temporary tables are dropped after, whatever happens. */
export async function withImportStaging<DB, T>(
  db: Kysely<DB>,
  work: (staging: ImportStaging) => Promise<T>,
): Promise<T> {
  return db.connection().execute(async (connection) => {
    const conn = connection.withTables<StagingTables>() as unknown as Kysely<StagingTables>;
    await dropTables(conn);
    await sql`CREATE TEMPORARY TABLE import_staging (
      seq integer PRIMARY KEY, location text NOT NULL, id text NOT NULL UNIQUE, date text NOT NULL,
      rating integer NOT NULL, text text NOT NULL, author text NOT NULL, technicians text NOT NULL,
      services text NOT NULL, service_area text, source text, title text, response_date text, response_text text,
      language text NOT NULL, translation_language text, translation_text text, verification_method text,
      feed text NOT NULL, upstream_updated_at text, author_anonymous integer NOT NULL, reference text, name_key text,
      content_hash text NOT NULL)`.execute(conn);
    await sql`CREATE TEMPORARY TABLE import_retained (id text PRIMARY KEY)`.execute(conn);
    try {
      return await work(new Staging(conn, await ledgerKey(conn)));
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

  constructor(
    private readonly conn: Kysely<StagingTables>,
    private readonly hashKey: string,
  ) {}

  async add(reviews: LocatedReview[]): Promise<Duplicate[]> {
    const duplicates: Duplicate[] = [];
    for (let i = 0; i < reviews.length; i += WRITE_BATCH) {
      const batch = reviews.slice(i, i + WRITE_BATCH);
      const first = new Map<string, string>();
      const staged = await this.conn
        .selectFrom('import_staging')
        .select(['id', 'location'])
        .where(
          'id',
          'in',
          batch.map((r) => r.review.id),
        )
        .execute();
      for (const row of staged) first.set(row.id, row.location);
      const rows = [];
      for (const { review, location } of batch) {
        const seen = first.get(review.id);
        if (seen !== undefined) duplicates.push({ id: review.id, location, first: seen });
        else {
          first.set(review.id, location);
          rows.push({ seq: ++this.seq, location, ...toContent(review, this.hashKey) });
        }
      }
      if (rows.length) await this.conn.insertInto('import_staging').values(rows).execute();
    }
    return duplicates;
  }

  async retain(ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += WRITE_BATCH) {
      const rows = [...new Set(ids.slice(i, i + WRITE_BATCH))].map((id) => ({ id }));
      await this.conn
        .insertInto('import_retained')
        .values(rows)
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    }
  }

  async *pages(): AsyncIterable<{ id: string; location: string; services: string[] }[]> {
    for (let after = 0; ;) {
      const page = await this.conn
        .selectFrom('import_staging')
        .select(['seq', 'id', 'location', 'services'])
        .where('seq', '>', after)
        .orderBy('seq')
        .limit(WRITE_BATCH * 4)
        .execute();
      if (!page.length) return;
      after = page.at(-1)!.seq;
      yield page.map((r) => ({ id: r.id, location: r.location, services: JSON.parse(r.services) as string[] }));
    }
  }

  async unstage(ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += WRITE_BATCH) {
      await this.conn
        .deleteFrom('import_staging')
        .where('id', 'in', ids.slice(i, i + WRITE_BATCH))
        .execute();
    }
  }

  apply(options: ApplyOptions, onProgress?: ImportProgress): Promise<ImportSummary> {
    return inTransaction(this.conn, (trx) => applyStaged(trx, options, this.seq, onProgress));
  }
}

/**
 * The stored review wins over the staged one (`r`, when there is one): it was removed by the operator (a tombstone
 * no import brings back), or the platform says it was last edited after the staged copy.
 */
const STORED_WINS = sql<boolean>`(r.removed_at IS NOT NULL OR (s.upstream_updated_at IS NOT NULL
  AND r.upstream_updated_at IS NOT NULL AND s.upstream_updated_at < r.upstream_updated_at))`;
/** A staged review is written when the store lacks it, holds other content, or holds it withdrawn upstream. */
const CHANGED = sql<boolean>`(r.id IS NULL OR (NOT ${STORED_WINS} AND (r.content_hash <> s.content_hash OR r.withdrawn_at IS NOT NULL)))`;
/** A stored review neither staged nor retained (records refused by validation are not deletions). */
const ABSENT = sql`NOT EXISTS (SELECT 1 FROM import_staging s WHERE s.id = reviews.id)
  AND NOT EXISTS (SELECT 1 FROM import_retained k WHERE k.id = reviews.id)`;
/**
 * What `replace` deletes: reviews of the service's own format absent from the file. A platform's reviews are that
 * platform's to withdraw (`--complete`), and a removed review's tombstone stays.
 */
const REPLACED = sql`feed = ${OWN_FEED} AND removed_at IS NULL AND ${ABSENT}`;

/**
 * The verification a changed review ends with: an operator's decision stands; the service's own format says it
 * outright (the operator's word for each record); a platform's import only adds one, never takes one away.
 */
const NEW_METHOD = sql<string | null>`(CASE WHEN reviews.verification_locked = 1 THEN reviews.verification_method
  WHEN excluded.feed = ${OWN_FEED} THEN coalesce(excluded.verification_method,
    CASE WHEN reviews.verification_method IN ('job', 'reference') THEN reviews.verification_method END)
  ELSE coalesce(reviews.verification_method, excluded.verification_method) END)`;

/** The reviews a `--complete` import speaks for: those with its id prefix, or those that arrived through its feed. */
function inScope(scope: CompleteScope) {
  return scope.idPrefix !== undefined
    ? sql`substr(id, 1, ${scope.idPrefix.length}) = ${scope.idPrefix}`
    : sql`feed = ${scope.feed ?? ''}`;
}

/** How the staged reviews compare with the stored ones: new, changed, tombstoned, older than stored; and whether a published one changes. */
async function compareStaged(trx: Transaction<StagingTables>) {
  const compared = await sql<{
    added: number | null;
    updated: number | null;
    kept: number | null;
    older: number | null;
    published: number | null;
  }>`
    SELECT sum(CASE WHEN r.id IS NULL THEN 1 ELSE 0 END) AS added,
           sum(CASE WHEN r.id IS NOT NULL AND ${CHANGED} THEN 1 ELSE 0 END) AS updated,
           sum(CASE WHEN r.removed_at IS NOT NULL THEN 1 ELSE 0 END) AS kept,
           sum(CASE WHEN r.removed_at IS NULL AND ${STORED_WINS} THEN 1 ELSE 0 END) AS older,
           max(CASE WHEN ${CHANGED} AND (s.verification_method IS NOT NULL OR r.verification_method IS NOT NULL OR r.withdrawn_at IS NOT NULL) THEN 1 ELSE 0 END) AS published
    FROM import_staging s LEFT JOIN reviews r ON r.id = s.id`.execute(trx);
  const counts = compared.rows[0]!;
  return {
    added: Number(counts.added ?? 0),
    updated: Number(counts.updated ?? 0),
    keptRemoved: Number(counts.kept ?? 0),
    olderIgnored: Number(counts.older ?? 0),
    published: Number(counts.published ?? 0) === 1,
  };
}

/** Upserts the staged reviews that differ from the stored ones, APPLY_RANGE staged rows a statement; `onProgress` gets the rows written so far. */
async function writeStaged(
  trx: Transaction<StagingTables>,
  { lastSeq, now, today, revision }: { lastSeq: number; now: string; today: string; revision: number },
  onProgress: (done: number) => void,
): Promise<void> {
  let done = 0;
  for (let from = 0; from < lastSeq; from += APPLY_RANGE) {
    const result = await trx
      .insertInto('reviews')
      .columns([...CONTENT_COLUMNS, 'published', 'verification_date', 'imported_at', 'updated_at', 'revision'])
      .expression(
        trx
          .selectFrom('import_staging as s')
          .leftJoin('reviews as r', 'r.id', 's.id')
          .select(CONTENT_COLUMNS.map((c) => `s.${c}` as const))
          .select([
            sql<number>`CASE WHEN s.verification_method IS NULL THEN 0 ELSE 1 END`.as('published'),
            sql<string>`CASE WHEN s.verification_method IS NULL THEN NULL ELSE cast(${today} as text) END`.as(
              'verification_date',
            ),
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
          ...Object.fromEntries(REWRITTEN.map((c) => [c, eb.ref(`excluded.${c}`)])),
          verification_method: NEW_METHOD,
          verification_date: sql<
            string | null
          >`CASE WHEN ${NEW_METHOD} IS NOT DISTINCT FROM reviews.verification_method THEN reviews.verification_date
            WHEN ${NEW_METHOD} IS NULL THEN NULL ELSE cast(${today} as text) END`,
          published: sql<number>`CASE WHEN ${NEW_METHOD} IS NULL THEN 0 ELSE 1 END`,
          withdrawn_at: null,
          updated_at: eb.ref('excluded.updated_at'),
          revision: eb.ref('excluded.revision'),
        })),
      )
      .executeTakeFirst();
    done += Number(result.numInsertedOrUpdatedRows ?? 0);
    onProgress(done);
  }
}

/** Marks withdrawn the reviews of the scope that the files no longer hold (`--complete`); answers how many. */
async function withdrawAbsent(
  trx: Transaction<StagingTables>,
  scope: CompleteScope,
  now: string,
  revision: number,
): Promise<number> {
  const gone = sql`${inScope(scope)} AND withdrawn_at IS NULL AND removed_at IS NULL AND ${ABSENT}`;
  const absent = await sql<{ n: number }>`SELECT count(*) AS n FROM reviews WHERE ${gone}`.execute(trx);
  const withdrawn = Number(absent.rows[0]!.n);
  if (withdrawn)
    await sql`UPDATE reviews SET withdrawn_at = ${now}, published = 0, updated_at = ${now}, revision = ${revision} WHERE ${gone}`.execute(
      trx,
    );
  return withdrawn;
}

/** Commits the next revision, stamping the published data's time when it changed, and tells the other processes. */
async function commitRevision(trx: Transaction<StagingTables>, now: string, publishedChanged: boolean): Promise<void> {
  await trx
    .updateTable('store_state')
    .set((eb) => ({
      revision: eb('revision', '+', 1),
      ...(publishedChanged ? { published_at: now } : {}),
    }))
    .where('id', '=', 1)
    .execute();
  await notifyChange(trx, { kind: 'data' });
}

/** The staged reviews the import left as they were: all staged but those it wrote, kept removed or ignored as older. */
async function countUnchanged(
  trx: Transaction<StagingTables>,
  lastSeq: number,
  written: { added: number; updated: number; keptRemoved: number; olderIgnored: number },
): Promise<number> {
  if (lastSeq === 0) return 0;
  const staged = await trx
    .selectFrom('import_staging')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(staged.n) - written.added - written.updated - written.keptRemoved - written.olderIgnored;
}

async function applyStaged(
  trx: Transaction<StagingTables>,
  options: ApplyOptions,
  lastSeq: number,
  onProgress: ImportProgress | undefined,
): Promise<ImportSummary> {
  const now = new Date().toISOString();
  // Rows written here carry the revision this import commits as. On PostgreSQL two imports run side by side: the
  // state row is locked first, so the second waits and numbers its rows after the first's. (SQLite has one writer.)
  if (isPostgres(trx)) await sql`SELECT revision FROM store_state WHERE id = 1 FOR UPDATE`.execute(trx);
  const revision = (await readVersion(trx)).revision + 1;
  const today = localDate(now, options.business ? options.business.timeZone : await storedTimeZone(trx));
  const { added, updated, keptRemoved, olderIgnored, published } = await compareStaged(trx);
  // New reviews change how many the business received, which is published data too.
  let publishedChanged = published || added > 0;

  let removed = 0;
  if (options.replace) {
    const absent = await sql<{ n: number; published: number | null }>`
      SELECT count(*) AS n, max(published) AS published FROM reviews WHERE ${REPLACED}`.execute(trx);
    removed = Number(absent.rows[0]!.n);
    if (removed > 0) publishedChanged = true;
  }

  const businessChanged = options.business ? await writeBusiness(trx, options.business, now) : false;

  const total = added + updated + removed;
  if (added + updated > 0)
    await writeStaged(trx, { lastSeq, now, today, revision }, (done) => onProgress?.(done, total));
  if (removed) {
    await sql`DELETE FROM reviews WHERE ${REPLACED}`.execute(trx);
    onProgress?.(total, total);
  }

  const withdrawn = options.complete ? await withdrawAbsent(trx, options.complete, now, revision) : 0;
  if (withdrawn > 0) publishedChanged = true;

  // The reviews this import wrote meet the ledger before it commits: one that waited for its job is published now.
  let matched: MatchSummary | undefined;
  let matchChanged = 0;
  if (options.match) {
    const run = await runMatch(trx, options.match, { kind: 'revision', revision }, { revision, now, today });
    matched = run.summary;
    matchChanged = run.changed;
    if (run.publishedChanged) publishedChanged = true;
  }

  if (total + withdrawn + matchChanged > 0 || businessChanged)
    await commitRevision(trx, now, publishedChanged || businessChanged);

  const states = await countStates(trx);
  const unchanged = await countUnchanged(trx, lastSeq, { added, updated, keptRemoved, olderIgnored });
  const summary = {
    added,
    updated,
    unchanged,
    removed,
    withdrawn,
    keptRemoved,
    olderIgnored,
    businessChanged,
    stored: states,
    ...(matched ? { match: matched } : {}),
  };
  await writeLog(trx, { at: now, action: 'import', details: { ...options.log, ...summary, stored: undefined } });
  // PostgreSQL plans a query from the table's statistics, which only ANALYZE makes (autovacuum runs it up to a minute
  // after a large change). Without them, reading the published reviews a page at a time sorted every row left at
  // each page: 27 s for 290,000 reviews, against 1.5 ms a page with them. An import that changes a tenth of the
  // table or more (autovacuum's own threshold) renews them before it commits.
  const all = states.verified + states.unverified + states.removed + states.withdrawn;
  if (isPostgres(trx) && total > 0 && 10 * total >= all) await sql`ANALYZE reviews`.execute(trx);
  return { ...summary, version: await readVersion(trx) };
}

/** How many stored reviews are in each state. */
async function countStates(db: Kysely<StagingTables>): Promise<ImportSummary['stored']> {
  const { rows } = await sql<{
    state: string;
    n: number;
  }>`SELECT ${REVIEW_STATE} AS state, count(*) AS n FROM reviews GROUP BY 1`.execute(db);
  const count = (state: string) => Number(rows.find((r) => r.state === state)?.n ?? 0);
  return {
    verified: count('published'),
    unverified: count('unpublished'),
    removed: count('removed'),
    withdrawn: count('withdrawn'),
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
