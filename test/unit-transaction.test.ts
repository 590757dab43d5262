// A transaction that loses a race with another connection's write is run again rather than failing.
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { inTransaction } from '../src/store/transaction.js';
import { tempDir } from './support/server.js';
import { openSqlite } from './support/sqlite.js';

const dir = tempDir();
afterAll(() => dir.remove());

it('runs a read-then-write transaction again when another connection wrote in between', async () => {
  const path = `${dir.path}/race.db`;
  const other = openSqlite(path);
  other.exec('PRAGMA journal_mode = WAL');
  other.exec('CREATE TABLE t (n INTEGER)');
  const db = new Kysely<{ t: { n: number } }>({ dialect: new SqliteDialect({ database: openSqlite(path) }) });
  try {
    let attempts = 0;
    await inTransaction(db, async (trx) => {
      attempts++;
      const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM t`.execute(trx);
      // Another process writes after this transaction read: its write below must not go ahead on stale data.
      if (attempts === 1) other.exec('INSERT INTO t VALUES (100)');
      await trx.insertInto('t').values({ n: rows[0]!.n }).execute();
    });
    expect(attempts).toBe(2);
    // The second run saw the other write (count 1), so what it wrote is consistent with it.
    expect(other.prepare('SELECT n FROM t ORDER BY rowid').all()).toEqual([{ n: 100 }, { n: 1 }]);
  } finally {
    await db.destroy();
    other.close();
  }
});

it('does not run a transaction again for any other error', async () => {
  const db = new Kysely<{ t: { n: number } }>({
    dialect: new SqliteDialect({ database: openSqlite(`${dir.path}/plain.db`) }),
  });
  try {
    let attempts = 0;
    await expect(
      inTransaction(db, async () => {
        attempts++;
        throw new Error('not a race');
      }),
    ).rejects.toThrow('not a race');
    expect(attempts).toBe(1);
  } finally {
    await db.destroy();
  }
});
