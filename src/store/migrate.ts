// Brings any engine's schema to the latest migration; every command that opens the store calls it first.
import { Migrator, sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';
import { migrationProvider } from './migrations/index.js';

export async function migrateToLatest<DB>(db: Kysely<DB>): Promise<void> {
  if (!isPostgres(db)) return migrateSqlite(db as Kysely<unknown>);
  // Replicas starting together: one migrates while the others wait on a session lock of the schema, then find
  // nothing pending. (Kysely's own lock is taken inside the migration transaction, after its bookkeeping tables
  // are created, and two processes creating those at once can collide.)
  await db.connection().execute(async (connection) => {
    const conn = connection as unknown as Kysely<unknown>;
    const key = sql`hashtext('reviews-service migrations ' || current_schema())`;
    await sql`SELECT pg_advisory_lock(${key})`.execute(conn);
    try {
      await migrate(conn);
    } finally {
      await sql`SELECT pg_advisory_unlock(${key})`.execute(conn);
    }
  });
}

/**
 * Processes opening one new file together (the server and an import, say): Kysely runs SQLite's migrations
 * without a transaction or a lock, so each would find them pending and all but one would fail on a table that
 * already exists. Pending migrations run in one IMMEDIATE transaction instead: it takes the file's write lock
 * before reading which migrations ran, so the others wait (the busy timeout) and then find none pending, and a
 * failure leaves the schema as it was. A current schema takes no lock, so starting beside a long import is not
 * held up by it.
 */
async function migrateSqlite(db: Kysely<unknown>): Promise<void> {
  await db.connection().execute(async (connection) => {
    const conn = connection as unknown as Kysely<unknown>;
    const known = await new Migrator({ db: conn, provider: migrationProvider }).getMigrations();
    if (known.every((m) => m.executedAt !== undefined)) return;
    await sql`BEGIN IMMEDIATE`.execute(conn);
    try {
      await migrate(conn);
      await sql`COMMIT`.execute(conn);
    } catch (error) {
      await sql`ROLLBACK`.execute(conn).catch(() => undefined);
      throw error;
    }
  });
}

/** On PostgreSQL, Kysely finds its bookkeeping tables in the store's own schema (OwnSchemaPostgresDialect). */
async function migrate(db: Kysely<unknown>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
