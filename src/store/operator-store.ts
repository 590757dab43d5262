// The operator's side of the store: one review's state and the decisions on it (remove, restore, verify,
// unverify), each in one transaction with its line in the log; the log itself; and the figures `status` shows.
import { sql, type Kysely } from 'kysely';
import type { VerificationMethod } from '../reviews/schemas.js';
import { localDate } from '../reviews/dates.js';
import { readVersion, REVIEW_STATE, storedTimeZone, type ReviewRow } from './rows.js';
import { readLog, writeLog, type LogEntry, type OperatorAction, type OperatorLogRow } from './operator-log.js';
import { inTransaction } from './transaction.js';
import { isPostgres, notifyChange } from './dialect.js';

type OperatorTables = {
  reviews: ReviewRow;
  operator_log: OperatorLogRow;
  store_state: { id: number; revision: number; published_at: string | null };
  insights_documents: { as_of: string };
};

export type ReviewState = 'published' | 'unpublished' | 'removed' | 'withdrawn';

/** One stored review as the operator sees it (never its private reference). */
export interface ReviewStatus {
  id: string;
  source: string | null;
  feed: string;
  date: string;
  state: ReviewState;
  verification: { method: VerificationMethod; date: string } | null;
  /** An operator's verify or unverify: imports leave it. */
  decided: boolean;
  removed?: { at: string; reason: string | null };
  withdrawnAt?: string;
  /** What the last matching run found where the ledger decides; ambiguous: the completion dates of the jobs that fit. */
  match?: { state: 'matched' | 'none' | 'ambiguous' | 'anonymous' | 'unnamed'; candidates: string[] };
}

export type Decision = 'remove' | 'restore' | 'verify' | 'unverify';

export type DecisionResult =
  | { ok: true; review: ReviewStatus; publishedChanged: boolean }
  | { ok: false; error: 'not-found' | 'refused'; message: string };

export interface StoreFigures {
  /** Reviews by source (the platform written on; `own` without one) and state. */
  bySource: Record<string, Record<ReviewState, number> & { newest: string | null }>;
  lastImports: Record<
    string,
    { at: string; files: string[]; added: number; updated: number; withdrawn: number; removed: number }
  >;
  /** Published reviews by what their verification rests on; waiting reviews by why. */
  verification: {
    byMethod: Record<VerificationMethod, number>;
    waiting: { none: number; ambiguous: number };
    unverifiedByOperator: number;
  };
  /** The job ledger: jobs by source, and the last job import of each. */
  ledger: {
    jobs: Record<string, number>;
    lastImports: Record<string, { at: string; files: string[]; added: number; updated: number }>;
  };
  revision: number;
  publishedAt: string | null;
  /** The data the newest stored insights document describes. */
  insightsAsOf: string | null;
  schemaVersion: string | null;
  sizeBytes: number | null;
}

function stateOf(row: Pick<ReviewRow, 'removed_at' | 'withdrawn_at' | 'published'>): ReviewState {
  if (row.removed_at !== null) return 'removed';
  if (row.withdrawn_at !== null) return 'withdrawn';
  return row.published === 1 ? 'published' : 'unpublished';
}

function statusOf(row: ReviewRow): ReviewStatus {
  return {
    id: row.id,
    source: row.source,
    feed: row.feed,
    date: row.date,
    state: stateOf(row),
    verification:
      row.verification_method !== null
        ? { method: row.verification_method as VerificationMethod, date: row.verification_date ?? row.date }
        : null,
    decided: row.verification_locked === 1,
    ...(row.removed_at !== null ? { removed: { at: row.removed_at, reason: row.removed_reason } } : {}),
    ...(row.withdrawn_at !== null ? { withdrawnAt: row.withdrawn_at } : {}),
    ...(row.match_state !== null
      ? {
          match: {
            state: matchStateOf(row),
            candidates: row.match_candidates ? (JSON.parse(row.match_candidates) as string[]) : [],
          },
        }
      : {}),
  };
}

function matchStateOf(row: ReviewRow): NonNullable<ReviewStatus['match']>['state'] {
  if (row.match_state === 'matched' || row.match_state === 'ambiguous') return row.match_state;
  return row.author_anonymous === 1 ? 'anonymous' : row.name_key === null ? 'unnamed' : 'none';
}

export class OperatorStore {
  constructor(private readonly db: Kysely<OperatorTables>) {}

  async find(id: string): Promise<ReviewStatus | undefined> {
    const row = await this.db.selectFrom('reviews').selectAll().where('id', '=', id).executeTakeFirst();
    return row && statusOf(row);
  }

  /** Applies one decision on one review; a refusal changes nothing and says why. */
  decide(
    decision: Decision,
    id: string,
    reason: string | undefined,
    now = new Date().toISOString(),
  ): Promise<DecisionResult> {
    return inTransaction(this.db, async (trx) => {
      // The revision is read and written below: on PostgreSQL an import beside it must not take the same number.
      if (isPostgres(trx)) await sql`SELECT revision FROM store_state WHERE id = 1 FOR UPDATE`.execute(trx);
      const row = await trx.selectFrom('reviews').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) return { ok: false, error: 'not-found', message: `no review "${id}" is stored` };
      const change = changeFor(decision, row, { today: localDate(now, await storedTimeZone(trx)), now, reason });
      if (typeof change === 'string') return { ok: false, error: 'refused', message: change };
      const published = change.removed_at !== undefined ? change.removed_at === null : row.removed_at === null;
      const method = change.verification_method !== undefined ? change.verification_method : row.verification_method;
      const next = { ...change, published: published && method !== null && row.withdrawn_at === null ? 1 : 0 };
      const { revision } = await readVersion(trx);
      await trx
        .updateTable('reviews')
        .set({ ...next, updated_at: now, revision: revision + 1 })
        .where('id', '=', id)
        .execute();
      // A removal or restore moves the counts the verification summary publishes, whatever the review's state.
      const publishedChanged = next.published !== row.published || decision === 'remove' || decision === 'restore';
      await trx
        .updateTable('store_state')
        .set({ revision: revision + 1, ...(publishedChanged ? { published_at: now } : {}) })
        .where('id', '=', 1)
        .execute();
      await writeLog(trx, { at: now, action: decision, reviewId: id, ...(reason !== undefined ? { reason } : {}) });
      await notifyChange(trx, { kind: 'data' });
      const after = await trx.selectFrom('reviews').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return { ok: true, review: statusOf(after), publishedChanged };
    });
  }

  log(limit: number, action?: OperatorAction): Promise<LogEntry[]> {
    return readLog(this.db, limit, action);
  }

  async figures(): Promise<StoreFigures> {
    const rows = await sql<{ source: string; state: ReviewState; n: number; newest: string | null }>`
      SELECT coalesce(source, 'own') AS source, ${REVIEW_STATE} AS state, count(*) AS n, max(date) AS newest
      FROM reviews GROUP BY 1, 2 ORDER BY 1, 2`.execute(this.db);
    const bySource: StoreFigures['bySource'] = {};
    for (const { source, state, n, newest } of rows.rows) {
      const entry = (bySource[source] ??= { published: 0, unpublished: 0, removed: 0, withdrawn: 0, newest: null });
      entry[state] = Number(n);
      if (newest !== null && (entry.newest === null || newest > entry.newest)) entry.newest = newest;
    }
    const lastImports: StoreFigures['lastImports'] = {};
    for (const entry of await readLog(this.db, 1000, 'import')) {
      const details = entry.details ?? {};
      const source = typeof details.source === 'string' ? details.source : 'own';
      if (lastImports[source]) continue;
      const number = (key: string) => (typeof details[key] === 'number' ? (details[key] as number) : 0);
      const files = Array.isArray(details.files) ? details.files.filter((f): f is string => typeof f === 'string') : [];
      lastImports[source] = {
        at: entry.at,
        files,
        added: number('added'),
        updated: number('updated'),
        withdrawn: number('withdrawn'),
        removed: number('removed'),
      };
    }
    const version = await readVersion(this.db);
    const methods = await sql<{ method: VerificationMethod; n: number }>`
      SELECT verification_method AS method, count(*) AS n FROM reviews WHERE published = 1 GROUP BY 1`.execute(this.db);
    const byMethod: Record<VerificationMethod, number> = { job: 0, reference: 0, operator: 0, platform: 0 };
    for (const { method, n } of methods.rows) byMethod[method] = Number(n);
    const waiting = await sql<{ ambiguous: number | null; decided: number | null; n: number }>`
      SELECT sum(CASE WHEN verification_locked = 0 AND match_state = 'ambiguous' THEN 1 ELSE 0 END) AS ambiguous,
             sum(verification_locked) AS decided, count(*) AS n FROM reviews
      WHERE published = 0 AND removed_at IS NULL AND withdrawn_at IS NULL`.execute(this.db);
    const ambiguous = Number(waiting.rows[0]?.ambiguous ?? 0);
    const decided = Number(waiting.rows[0]?.decided ?? 0);
    const jobs = await sql<{
      source: string;
      n: number;
    }>`SELECT source, count(*) AS n FROM jobs GROUP BY 1 ORDER BY 1`.execute(this.db);
    const jobImports: StoreFigures['ledger']['lastImports'] = {};
    for (const entry of await readLog(this.db, 1000, 'import-jobs')) {
      const details = entry.details ?? {};
      const source = typeof details.source === 'string' ? details.source : 'own';
      if (jobImports[source]) continue;
      const number = (key: string) => (typeof details[key] === 'number' ? (details[key] as number) : 0);
      const files = Array.isArray(details.files) ? details.files.filter((f): f is string => typeof f === 'string') : [];
      jobImports[source] = { at: entry.at, files, added: number('added'), updated: number('updated') };
    }
    const insights = await sql<{ as_of: string | null }>`SELECT max(as_of) AS as_of FROM insights_documents`.execute(
      this.db,
    );
    return {
      bySource,
      lastImports,
      verification: {
        byMethod,
        waiting: { none: Number(waiting.rows[0]?.n ?? 0) - ambiguous - decided, ambiguous },
        unverifiedByOperator: decided,
      },
      ledger: { jobs: Object.fromEntries(jobs.rows.map((r) => [r.source, Number(r.n)])), lastImports: jobImports },
      revision: version.revision,
      publishedAt: version.publishedAt,
      insightsAsOf: insights.rows[0]?.as_of ?? null,
      schemaVersion: await this.schemaVersion(),
      sizeBytes: await this.size(),
    };
  }

  private async schemaVersion(): Promise<string | null> {
    try {
      const { rows } = await sql<{
        name: string;
      }>`SELECT name FROM kysely_migration ORDER BY name DESC LIMIT 1`.execute(this.db);
      return rows[0]?.name ?? null;
    } catch {
      return null;
    }
  }

  private async size(): Promise<number | null> {
    const query = isPostgres(this.db)
      ? sql<{
          n: number;
        }>`SELECT sum(pg_total_relation_size(quote_ident(schemaname) || '.' || quote_ident(tablename)))::bigint AS n
          FROM pg_tables WHERE schemaname = current_schema()`
      : sql<{ n: number }>`SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()`;
    const { rows } = await query.execute(this.db);
    return rows[0]?.n === undefined || rows[0].n === null ? null : Number(rows[0].n);
  }
}

/** The columns a decision sets, or why it is refused. */
function changeFor(
  decision: Decision,
  row: ReviewRow,
  at: { today: string; now: string; reason: string | undefined },
): Partial<ReviewRow> | string {
  switch (decision) {
    case 'remove':
      if (row.removed_at !== null) return `review "${row.id}" was removed already (${row.removed_at})`;
      return { removed_at: at.now, removed_reason: at.reason ?? null };
    case 'restore':
      if (row.removed_at === null) return `review "${row.id}" is not removed`;
      return { removed_at: null, removed_reason: null };
    case 'verify':
      if (row.verification_method !== null)
        return `review "${row.id}" is verified already (${row.verification_method}, ${row.verification_date})`;
      return { verification_method: 'operator', verification_date: at.today, verification_locked: 1 };
    case 'unverify':
      if (row.verification_method === null) return `review "${row.id}" is not verified`;
      return { verification_method: null, verification_date: null, verification_locked: 1 };
  }
}
