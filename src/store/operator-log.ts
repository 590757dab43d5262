// The operator log: every change an operator made (imports, removals, restores, verification decisions), with its
// reason, written in the transaction that made the change.
import { sql, type QueryExecutorProvider } from 'kysely';

export interface OperatorLogRow {
  id?: number;
  at: string;
  action: string;
  review_id: string | null;
  reason: string | null;
  details: string | null;
}

export type OperatorAction = 'import' | 'import-jobs' | 'remove' | 'restore' | 'verify' | 'unverify';

export interface LogEntry {
  at: string;
  action: OperatorAction;
  reviewId?: string;
  reason?: string;
  details?: Record<string, unknown>;
}

/** Writes one entry, on any connection or transaction of the store's database (the change's own, so both commit or neither). */
export async function writeLog(db: QueryExecutorProvider, entry: LogEntry): Promise<void> {
  const details = entry.details ? JSON.stringify(entry.details) : null;
  await sql`INSERT INTO operator_log (at, action, review_id, reason, details)
    VALUES (${entry.at}, ${entry.action}, ${entry.reviewId ?? null}, ${entry.reason ?? null}, ${details})`.execute(db);
}

/** The newest entries first, at most `limit`, optionally of one action. */
export async function readLog(db: QueryExecutorProvider, limit: number, action?: OperatorAction): Promise<LogEntry[]> {
  const which = action === undefined ? sql`` : sql`WHERE action = ${action}`;
  const { rows } = await sql<OperatorLogRow>`SELECT at, action, review_id, reason, details FROM operator_log ${which}
    ORDER BY id DESC LIMIT ${limit}`.execute(db);
  return rows.map((row) => ({
    at: row.at,
    action: row.action as OperatorAction,
    ...(row.review_id !== null ? { reviewId: row.review_id } : {}),
    ...(row.reason !== null ? { reason: row.reason } : {}),
    ...(row.details !== null ? { details: JSON.parse(row.details) as Record<string, unknown> } : {}),
  }));
}
