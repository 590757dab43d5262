// Transactions that survive a race between connections: the server, its insights thread and the CLI write to one
// SQLite file. A transaction that read first and writes later fails at once (SQLITE_BUSY) when another connection
// wrote in between; it is run again, from the start, on the data as it now is.
import type { Kysely, Transaction } from 'kysely';

const ATTEMPTS = 5;

function isBusy(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && String(error.code).startsWith('SQLITE_BUSY');
}

/** Runs `work` in a transaction; on SQLITE_BUSY it is rolled back and run again (up to five times, backing off). */
export async function inTransaction<DB, T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (attempt >= ATTEMPTS || !isBusy(error)) throw error;
      await new Promise((done) => setTimeout(done, attempt * 25));
    }
  }
}
