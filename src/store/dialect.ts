// What differs between the engines inside the shared Kysely code: row locks, column types and change notices.
import { PostgresAdapter, sql, type ColumnDataType, type Expression, type QueryExecutorProvider } from 'kysely';

/** The PostgreSQL channel every process sharing a database listens on; payloads say which schema and what changed. */
export const CHANGE_CHANNEL = 'reviews_store';

/**
 * What a change notice says: published data (an import), a stored insights document, an ended MCP session, due
 * WebSub deliveries; `write` is a write of unknown kind (SQLite's file watch), `resumed` follows a lost connection
 * to the notices (anything may have changed meanwhile).
 */
export type StoreChange =
  { kind: 'data' | 'insights' | 'outbox' | 'write' | 'resumed' } | { kind: 'revoked'; id: string };

export function isPostgres(db: QueryExecutorProvider): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Binary columns: SQLite's blob is PostgreSQL's bytea. */
export function binaryType(db: QueryExecutorProvider): ColumnDataType | Expression<unknown> {
  return isPostgres(db) ? sql`bytea` : 'blob';
}

/**
 * Tells every other process sharing a PostgreSQL store, once the surrounding transaction commits (NOTIFY is
 * delivered at commit and dropped on rollback). SQLite needs none: its processes hear the file change.
 */
export async function notifyChange(db: QueryExecutorProvider, change: StoreChange): Promise<void> {
  if (!isPostgres(db)) return;
  const payload = change.kind === 'revoked' ? `revoked ${change.id}` : change.kind;
  await sql`SELECT pg_notify(${CHANGE_CHANNEL}, current_schema() || ' ' || ${payload})`.execute(db);
}

/** The change a notice's payload names, if it is about `schema`. */
export function parseChange(payload: string | undefined, schema: string): StoreChange | undefined {
  const [about, kind, id] = (payload ?? '').split(' ');
  if (about !== schema) return undefined;
  if (kind === 'revoked') return id ? { kind, id } : undefined;
  return kind === 'data' || kind === 'insights' || kind === 'outbox' ? { kind } : undefined;
}
