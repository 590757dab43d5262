// Writes that survive contention between connections: the server, its insights process and the CLI write to one
// SQLite file. A transaction that read first and writes later fails at once (SQLITE_BUSY) when another connection
// wrote in between; one that meets another writer's lock fails after the connection's busy timeout (short on the
// server, so its event loop never waits long on a lock). Either way it is run again, from the start, on the data
// as it now is, after an asynchronous pause: the server keeps answering while a long import holds the lock.
// PostgreSQL runs concurrent transactions side by side; it fails one of them only on a deadlock or a
// serialization failure, and that one too is run again.
import type { Kysely, Transaction } from 'kysely';

/** How long a write keeps trying before it fails: longer than a large import holds the write lock. */
const RETRY_FOR_MS = 60_000;
/** Pauses between attempts grow from 10 ms to this. */
const MAX_PAUSE_MS = 250;

/** PostgreSQL's SQLSTATEs for a transaction that lost to a concurrent one: serialization_failure, deadlock_detected. */
const POSTGRES_RETRYABLE = new Set(['40001', '40P01']);

function isBusy(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = String(error.code);
  return code.startsWith('SQLITE_BUSY') || POSTGRES_RETRYABLE.has(code);
}

/**
 * Runs `work`, which only reads, on one snapshot of the data. SQLite's transactions are that already; PostgreSQL's
 * default (read committed) lets each statement see what committed before it, so reads of the reviews and of the
 * version they are at could straddle an import.
 */
export function inSnapshot<DB, T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(work);
}

/** Runs `work` in a transaction; when it loses to another (SQLITE_BUSY, a deadlock) it is rolled back and run again until RETRY_FOR_MS have passed. */
export async function inTransaction<DB, T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  const deadline = Date.now() + RETRY_FOR_MS;
  for (let pause = 10; ; pause = Math.min(MAX_PAUSE_MS, pause * 2)) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (!isBusy(error) || Date.now() + pause > deadline) throw error;
      await new Promise((done) => setTimeout(done, pause));
    }
  }
}
