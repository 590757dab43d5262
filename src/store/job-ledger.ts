// The job ledger's side of the store: jobs staged on one connection as their files are read, then applied with the
// matching they cause in one transaction; and the reviews the rule could not verify. A job's id, aliases and
// contacts are kept only as keyed hashes; its street address never reaches the store.
import { createHash } from 'node:crypto';
import { sql, type Kysely, type QueryExecutorProvider } from 'kysely';
import { localDate } from '../reviews/dates.js';
import { inTransaction } from './transaction.js';
import { isPostgres, notifyChange } from './dialect.js';
import { readVersion, storedTimeZone } from './rows.js';
import { keyedHash, ledgerKey, normalEmail, normalPhone, normalReference } from './ledger-hash.js';
import { runMatch, type MatchScope } from './matching.js';
import { writeLog } from './operator-log.js';
import type {
  ImportProgress,
  JobImportSummary,
  JobStaging,
  LedgerStore,
  LocatedJob,
  Matcher,
  MatchSummary,
  StagedJob,
  UnmatchedReview,
} from './types.js';

/** Jobs per statement: 12 columns each, well under both engines' bound-parameter limits. */
const WRITE_BATCH = 400;
/** Staged jobs applied per statement, between progress reports. */
const APPLY_RANGE = 5000;

interface JobColumns {
  source: string;
  id_hash: string;
  completed_date: string;
  name_key: string | null;
  last_hash: string | null;
  technicians: string;
  services: string;
  area: string | null;
  contact_hashes: string;
  content_hash: string;
}

function columnsOf(job: StagedJob, key: string): Omit<JobColumns, 'source'> & { ref_hashes: string } {
  const hash = (value: string) => keyedHash(key, value);
  const contacts = [
    ...new Set(
      [...job.emails.map(normalEmail), ...job.phones.map(normalPhone)]
        .filter((v): v is string => v !== undefined)
        .map(hash),
    ),
  ].sort();
  const references = [...new Set([job.id, ...job.aliases].map(normalReference).filter(Boolean).map(hash))].sort();
  const content = {
    completed_date: job.date,
    name_key: job.nameKey,
    last_hash: job.lastName === null ? null : hash(job.lastName),
    technicians: JSON.stringify(job.technicians),
    services: JSON.stringify(job.services),
    area: job.area,
    contact_hashes: JSON.stringify(contacts),
  };
  const ref_hashes = JSON.stringify(references);
  return {
    id_hash: hash(normalReference(job.id)),
    ...content,
    ref_hashes,
    content_hash: createHash('sha256')
      .update(JSON.stringify([content, ref_hashes]))
      .digest('base64url'),
  };
}

export class KyselyLedgerStore implements LedgerStore {
  constructor(private readonly db: Kysely<never>) {}

  stageJobs<T>(work: (staging: JobStaging) => Promise<T>): Promise<T> {
    return this.db.connection().execute(async (conn) => {
      await dropStaging(conn);
      await sql`CREATE TEMPORARY TABLE job_withdrawn (id_hash text PRIMARY KEY)`.execute(conn);
      await sql`CREATE TEMPORARY TABLE job_staging (seq integer PRIMARY KEY, location text NOT NULL,
        id_hash text NOT NULL UNIQUE, completed_date text NOT NULL, name_key text, last_hash text, technicians text NOT NULL, services text NOT NULL,
        area text, contact_hashes text NOT NULL, ref_hashes text NOT NULL, content_hash text NOT NULL)`.execute(conn);
      try {
        return await work(new Staging(conn as Kysely<never>, await ledgerKey(conn)));
      } finally {
        await dropStaging(conn);
      }
    });
  }

  async unmatched(limit: number): Promise<{ reviews: UnmatchedReview[]; total: number }> {
    const waiting = sql`published = 0 AND removed_at IS NULL AND withdrawn_at IS NULL AND verification_locked = 0 AND verification_method IS NULL`;
    const { rows } = await sql<{
      id: string;
      date: string;
      source: string | null;
      match_state: string | null;
      match_candidates: string | null;
      author_anonymous: number;
      name_key: string | null;
    }>`
      SELECT id, date, source, match_state, match_candidates, author_anonymous, name_key FROM reviews WHERE ${waiting}
      ORDER BY CASE WHEN match_state = 'ambiguous' THEN 0 ELSE 1 END, date, id LIMIT ${limit}`.execute(this.db);
    const total = await sql<{ n: number }>`SELECT count(*) AS n FROM reviews WHERE ${waiting}`.execute(this.db);
    return {
      reviews: rows.map((row) => ({
        id: row.id,
        date: row.date,
        source: row.source,
        state:
          row.match_state === 'ambiguous'
            ? 'ambiguous'
            : row.author_anonymous
              ? 'anonymous'
              : row.name_key === null
                ? 'unnamed'
                : 'none',
        candidates: row.match_candidates ? (JSON.parse(row.match_candidates) as string[]) : [],
      })),
      total: Number(total.rows[0]?.n ?? 0),
    };
  }
}

async function dropStaging(conn: QueryExecutorProvider): Promise<void> {
  await sql`DROP TABLE IF EXISTS job_staging`.execute(conn);
  await sql`DROP TABLE IF EXISTS job_withdrawn`.execute(conn);
}

/**
 * Runs the rule over `scope` at the next revision, and commits that revision when a review changed (jobs alone are
 * not published data: a job that changes no review changes no version).
 */
async function matchAndCommit(trx: Kysely<never>, match: Matcher, scope: MatchScope): Promise<MatchSummary> {
  const now = new Date().toISOString();
  const revision = (await readVersion(trx)).revision + 1;
  const run = await runMatch(trx, match, scope, { revision, now, today: localDate(now, await storedTimeZone(trx)) });
  if (run.changed > 0) {
    await sql`UPDATE store_state SET revision = ${revision} ${run.publishedChanged ? sql`, published_at = ${now}` : sql``} WHERE id = 1`.execute(
      trx,
    );
    await notifyChange(trx, { kind: 'data' });
  }
  return run.summary;
}

class Staging implements JobStaging {
  private seq = 0;

  constructor(
    private readonly conn: Kysely<never>,
    private readonly key: string,
  ) {}

  async add(jobs: LocatedJob[]): Promise<{ location: string; first: string }[]> {
    const duplicates: { location: string; first: string }[] = [];
    for (let i = 0; i < jobs.length; i += WRITE_BATCH) {
      const rows = jobs
        .slice(i, i + WRITE_BATCH)
        .map(({ job, location }) => ({ location, ...columnsOf(job, this.key) }));
      const first = new Map<string, string>();
      const { rows: staged } = await sql<{
        id_hash: string;
        location: string;
      }>`SELECT id_hash, location FROM job_staging
        WHERE id_hash IN (${sql.join(rows.map((r) => r.id_hash))})`.execute(this.conn);
      for (const row of staged) first.set(row.id_hash, row.location);
      const fresh = [];
      for (const row of rows) {
        const seen = first.get(row.id_hash);
        if (seen !== undefined) duplicates.push({ location: row.location, first: seen });
        else {
          first.set(row.id_hash, row.location);
          fresh.push({ seq: ++this.seq, ...row });
        }
      }
      if (fresh.length)
        await (this.conn as unknown as Kysely<{ job_staging: (typeof fresh)[number] }>)
          .insertInto('job_staging')
          .values(fresh)
          .execute();
    }
    return duplicates;
  }

  async withdraw(ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += WRITE_BATCH) {
      const values = [
        ...new Set(ids.slice(i, i + WRITE_BATCH).map((id) => keyedHash(this.key, normalReference(id)))),
      ].map((h) => sql`(${h})`);
      await sql`INSERT INTO job_withdrawn (id_hash) VALUES ${sql.join(values)} ON CONFLICT DO NOTHING`.execute(
        this.conn,
      );
    }
  }

  apply(
    options: { source: string; files: string[]; match: Matcher },
    onProgress?: ImportProgress,
  ): Promise<JobImportSummary> {
    return inTransaction(this.conn, (trx) => applyJobs(trx as unknown as Kysely<never>, options, this.seq, onProgress));
  }
}

/** A staged job is written when the ledger lacks it or holds other content for it. */
const CHANGED = sql`(j.id_hash IS NULL OR j.content_hash <> s.content_hash)`;

/** How many staged jobs the ledger lacks, how many it holds with other content, and how many are staged. */
async function countStaged(
  trx: Kysely<never>,
  source: string,
): Promise<{ added: number; updated: number; staged: number }> {
  const counted = await sql<{ added: number | null; updated: number | null; n: number }>`
    SELECT sum(CASE WHEN j.id_hash IS NULL THEN 1 ELSE 0 END) AS added,
           sum(CASE WHEN j.id_hash IS NOT NULL AND j.content_hash <> s.content_hash THEN 1 ELSE 0 END) AS updated, count(*) AS n
    FROM job_staging s LEFT JOIN jobs j ON j.source = ${source} AND j.id_hash = s.id_hash`.execute(trx);
  return {
    added: Number(counted.rows[0]?.added ?? 0),
    updated: Number(counted.rows[0]?.updated ?? 0),
    staged: Number(counted.rows[0]?.n ?? 0),
  };
}

/**
 * Writes the new and changed staged jobs with their references, a range at a time, and gathers the reviews they can
 * change: those of their names and references, as they were and as they are now.
 */
async function writeChanged(
  trx: Kysely<never>,
  source: string,
  now: string,
  bounds: { lastSeq: number; changed: number },
  onProgress: ImportProgress | undefined,
): Promise<{ nameKeys: Set<string>; references: Set<string> }> {
  const { lastSeq, changed } = bounds;
  const nameKeys = new Set<string>();
  const references = new Set<string>();
  let done = 0;
  for (let from = 0; from < lastSeq && changed > 0; from += APPLY_RANGE) {
    const range = sql`s.seq > ${from} AND s.seq <= ${from + APPLY_RANGE} AND ${CHANGED}`;
    const { rows } = await sql<{
      id_hash: string;
      name_key: string | null;
      ref_hashes: string;
      old_name_key: string | null;
    }>`
      SELECT s.id_hash, s.name_key, s.ref_hashes, j.name_key AS old_name_key
      FROM job_staging s LEFT JOIN jobs j ON j.source = ${source} AND j.id_hash = s.id_hash WHERE ${range}`.execute(
      trx,
    );
    if (!rows.length) continue;
    for (const row of rows) {
      if (row.name_key !== null) nameKeys.add(row.name_key);
      if (row.old_name_key !== null) nameKeys.add(row.old_name_key);
      for (const ref of JSON.parse(row.ref_hashes) as string[]) references.add(ref);
    }
    const ids = rows.map((r) => r.id_hash);
    for (let i = 0; i < ids.length; i += WRITE_BATCH) {
      const batch = ids.slice(i, i + WRITE_BATCH);
      const { rows: old } = await sql<{
        ref_hash: string;
      }>`SELECT ref_hash FROM job_references WHERE source = ${source} AND id_hash IN (${sql.join(batch)})`.execute(trx);
      for (const { ref_hash } of old) references.add(ref_hash);
      await sql`DELETE FROM job_references WHERE source = ${source} AND id_hash IN (${sql.join(batch)})`.execute(trx);
    }
    await sql`INSERT INTO jobs (source, id_hash, completed_date, name_key, last_hash, technicians, services, area, contact_hashes, content_hash, imported_at, updated_at)
      SELECT ${source}, s.id_hash, s.completed_date, s.name_key, s.last_hash, s.technicians, s.services, s.area, s.contact_hashes, s.content_hash, ${now}, ${now}
      FROM job_staging s LEFT JOIN jobs j ON j.source = ${source} AND j.id_hash = s.id_hash WHERE ${range}
      ON CONFLICT (source, id_hash) DO UPDATE SET completed_date = excluded.completed_date, name_key = excluded.name_key, last_hash = excluded.last_hash,
        technicians = excluded.technicians, services = excluded.services, area = excluded.area,
        contact_hashes = excluded.contact_hashes, content_hash = excluded.content_hash, updated_at = excluded.updated_at`.execute(
      trx,
    );
    const refs = rows.flatMap((row) =>
      (JSON.parse(row.ref_hashes) as string[]).map((ref) => ({ ref, id: row.id_hash })),
    );
    for (let i = 0; i < refs.length; i += WRITE_BATCH) {
      const values = refs.slice(i, i + WRITE_BATCH).map((r) => sql`(${r.ref}, ${source}, ${r.id})`);
      await sql`INSERT INTO job_references (ref_hash, source, id_hash) VALUES ${sql.join(values)} ON CONFLICT DO NOTHING`.execute(
        trx,
      );
    }
    done += rows.length;
    onProgress?.(done, changed);
  }
  return { nameKeys, references };
}

async function applyJobs(
  trx: Kysely<never>,
  options: { source: string; files: string[]; match: Matcher },
  lastSeq: number,
  onProgress: ImportProgress | undefined,
): Promise<JobImportSummary> {
  const { source } = options;
  const now = new Date().toISOString();
  // Taken first, as a review import does: two job imports on PostgreSQL then run one after the other, the second
  // comparing with the first's jobs, and their revisions in order.
  if (isPostgres(trx)) await sql`SELECT revision FROM store_state WHERE id = 1 FOR UPDATE`.execute(trx);
  const { added, updated, staged } = await countStaged(trx, source);
  const { nameKeys, references } = await writeChanged(
    trx,
    source,
    now,
    { lastSeq, changed: added + updated },
    onProgress,
  );

  const removed = await removeWithdrawn(trx, source, nameKeys, references);
  const summary = await matchAndCommit(trx, options.match, { kind: 'keys', nameKeys, references });
  await writeLog(trx, {
    at: now,
    action: 'import-jobs',
    details: {
      files: options.files,
      source,
      added,
      updated,
      unchanged: staged - added - updated,
      removed,
      match: summary,
    },
  });
  const jobs = await sql<{ n: number }>`SELECT count(*) AS n FROM jobs`.execute(trx);
  if (isPostgres(trx) && 10 * (added + updated) >= Number(jobs.rows[0]?.n ?? 0) && added + updated > 0)
    await sql`ANALYZE jobs`.execute(trx);
  const version = await readVersion(trx);
  return {
    added,
    updated,
    unchanged: staged - added - updated,
    removed,
    match: summary,
    stored: { jobs: Number(jobs.rows[0]?.n ?? 0) },
    version,
  };
}

/**
 * Takes out of the ledger the jobs of this source that the files hold but not as completed (a copy of the same job
 * staged as completed, from another page, wins), adding the reviews they could have verified to the scope.
 */
async function removeWithdrawn(
  trx: Kysely<never>,
  source: string,
  nameKeys: Set<string>,
  references: Set<string>,
): Promise<number> {
  const gone = sql`source = ${source} AND id_hash IN (SELECT id_hash FROM job_withdrawn) AND id_hash NOT IN (SELECT id_hash FROM job_staging)`;
  const { rows } = await sql<{ name_key: string | null }>`SELECT name_key FROM jobs WHERE ${gone}`.execute(trx);
  if (!rows.length) return 0;
  for (const { name_key } of rows) if (name_key !== null) nameKeys.add(name_key);
  const refs = await sql<{ ref_hash: string }>`SELECT ref_hash FROM job_references WHERE ${gone}`.execute(trx);
  for (const { ref_hash } of refs.rows) references.add(ref_hash);
  await sql`DELETE FROM job_references WHERE ${gone}`.execute(trx);
  await sql`DELETE FROM jobs WHERE ${gone}`.execute(trx);
  return rows.length;
}
