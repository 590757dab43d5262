// An import is all or none, on either engine: the CLI killed with SIGKILL while it writes 100,000 reviews leaves the
// store exactly as it was (same reviews, same revision; on SQLite an intact file, on PostgreSQL no transaction left
// behind), and the same import run again then completes.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { testEngines, type TestEngine } from './support/engines.js';
import { POSTGRES_URL, schemaOf, withPostgres } from './support/postgres.js';
import { CLI, inheritedEnv, runCli, tempDir, writeJson } from './support/server.js';
import { openSqlite } from './support/sqlite.js';
import { until } from './support/wait.js';

const dir = tempDir();
afterAll(() => dir.remove());
const engines = testEngines('crash');

/** What an import changes: the reviews (ids, content hashes) and the store's revision; `integrity` is SQLite's own check. */
interface StoreState {
  reviews: number;
  fingerprint: string;
  revision: number;
  integrity?: string;
}

const fingerprintOf = (rows: { id: string; content_hash: string }[]) =>
  rows.map((r) => `${r.id}:${r.content_hash}`).join(',');

function sqliteState(databaseUrl: string): StoreState {
  const db = openSqlite(databaseUrl.slice('sqlite:'.length), { readonly: true });
  try {
    const rows = db.prepare('SELECT id, content_hash FROM reviews ORDER BY id').all() as {
      id: string;
      content_hash: string;
    }[];
    const { revision } = db.prepare('SELECT revision FROM store_state WHERE id = 1').get() as { revision: number };
    const { integrity_check: integrity } = db.prepare('PRAGMA integrity_check').get() as { integrity_check: string };
    return { reviews: rows.length, fingerprint: fingerprintOf(rows), revision, integrity };
  } finally {
    db.close();
  }
}

async function postgresState(databaseUrl: string): Promise<StoreState> {
  return withPostgres(databaseUrl, async (client) => {
    // Byte order, as SQLite's: the database's collation is not what the fingerprint is about.
    const { rows } = await client.query<{ id: string; content_hash: string }>(
      'SELECT id, content_hash FROM reviews ORDER BY id COLLATE "C"',
    );
    const state = await client.query<{ revision: string }>('SELECT revision FROM store_state WHERE id = 1');
    return { reviews: rows.length, fingerprint: fingerprintOf(rows), revision: Number(state.rows[0]!.revision) };
  });
}

/** The backends holding a write lock on the schema's reviews table: an import's transaction, open and uncommitted. */
async function reviewWriters(databaseUrl: string): Promise<number[]> {
  return withPostgres(databaseUrl, async (client) => {
    const { rows } = await client.query<{ pid: number }>(
      `SELECT DISTINCT l.pid FROM pg_locks l JOIN pg_class c ON c.oid = l.relation JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND c.relname = 'reviews' AND l.mode = 'RowExclusiveLock' AND l.granted`,
      [schemaOf(databaseUrl)],
    );
    return rows.map((r) => r.pid);
  });
}

async function backendAlive(pid: number): Promise<boolean> {
  return withPostgres(
    POSTGRES_URL,
    async (client) => (await client.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rowCount! > 0,
  );
}

/** How each engine is looked into. */
interface Probe {
  state(databaseUrl: string): Promise<StoreState>;
  /**
   * PostgreSQL only: with the CLI paused (SIGSTOP) at its progress line, proves its write transaction is open and
   * uncommitted, so the kill that follows lands mid-write; answers what to wait for once it is killed.
   */
  openWrite?(databaseUrl: string, before: StoreState): Promise<() => Promise<boolean>>;
}

const probes: Record<TestEngine['name'], Probe> = {
  sqlite: { state: async (url) => sqliteState(url) },
  postgres: {
    state: postgresState,
    async openWrite(url, before) {
      const writers = await reviewWriters(url);
      expect(writers, 'a transaction writing the reviews is open when the CLI is killed').toHaveLength(1);
      // Seen from another connection, the store has not moved yet: the rows written so far are uncommitted.
      expect((await postgresState(url)).revision).toBe(before.revision);
      const backend = writers[0]!;
      // PostgreSQL rolls the transaction back once it sees the client's socket closed; gone when the backend is.
      return async () => !(await backendAlive(backend));
    },
  },
};

// 100,000 reviews: the first 300 ids are the stored ones with other content (updates), the rest are new. Made once,
// for both engines.
let bigFile: string | undefined;
const big = () => (bigFile ??= writeJson(`${dir.path}/big.json`, generateDemo({ seed: 4, reviews: 100_000 })));

/**
 * Runs the import and sends it `signal` at its first progress line of the write phase that is neither its start nor
 * its end, the moment that line is read; answers the line.
 */
function importUntilWriting(
  file: string,
  databaseUrl: string,
  signal: NodeJS.Signals,
): { child: ChildProcessWithoutNullStreams; writing: Promise<string> } {
  const child = spawn(process.execPath, [CLI, 'import', file], {
    env: { ...inheritedEnv(), DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
  });
  let stderr = '';
  let signalled = false;
  const writing = new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const line = stderr
        .split('\n')
        .find((l) => /^written [1-9][\d,]*\/100,000/.test(l) && !l.startsWith('written 100,000/'));
      if (line && !signalled && child.exitCode === null) {
        signalled = true;
        child.kill(signal);
        resolve(line);
      }
    });
    child.once('exit', (code) => reject(new Error(`the import ended (code ${code}) before it was killed:\n${stderr}`)));
  });
  return { child, writing };
}

const exited = (child: ChildProcessWithoutNullStreams) =>
  new Promise((done) =>
    child.exitCode !== null || child.signalCode !== null ? done(undefined) : child.once('exit', done),
  );

for (const engine of engines) {
  const probe = probes[engine.name];
  describe.skipIf(!engine.available)(engine.name, () => {
    describe('an import killed mid-write', () => {
      it('leaves the store as it was, and the import then completes when run again', async () => {
        const databaseUrl = await engine.url();
        const small = generateDemo({ seed: 3, reviews: 300 });
        expect((await runCli(['import', writeJson(`${dir.path}/small.json`, small)], databaseUrl)).code).toBe(0);
        const before = await probe.state(databaseUrl);
        expect(before.reviews).toBe(300);

        // SQLite: killed at once. PostgreSQL: paused where it stands (SIGSTOP), so that its transaction is seen open
        // and uncommitted, then killed.
        const { child, writing } = importUntilWriting(big(), databaseUrl, probe.openWrite ? 'SIGSTOP' : 'SIGKILL');
        let killedAt: string;
        let rolledBack: (() => Promise<boolean>) | undefined;
        try {
          killedAt = await writing;
          rolledBack = await probe.openWrite?.(databaseUrl, before);
        } finally {
          child.kill('SIGKILL');
          await exited(child);
        }
        expect(child.signalCode).toBe('SIGKILL');
        expect(killedAt).toMatch(/^written/);
        if (rolledBack) await until(rolledBack, 30_000, "the killed import's PostgreSQL backend to end");

        // None of it: the same reviews with the same content, the same revision (and a file SQLite finds intact).
        const after = await probe.state(databaseUrl);
        if (engine.name === 'sqlite') expect(after.integrity).toBe('ok');
        expect(after.revision).toBe(before.revision);
        expect(after.reviews).toBe(before.reviews);
        expect(after.fingerprint).toBe(before.fingerprint);
        if (engine.name === 'postgres') expect(await reviewWriters(databaseUrl)).toEqual([]);

        // All of it, when run again.
        const again = await runCli(['import', big()], databaseUrl);
        expect(again.code, again.stderr).toBe(0);
        const done = await probe.state(databaseUrl);
        expect(done.reviews).toBe(100_000);
        expect(done.revision).toBe(before.revision + 1);
        if (engine.name === 'sqlite') expect(done.integrity).toBe('ok');
      }, 180_000);
    });
  });
}
