// Opens the embedded SQLite store (WAL, busy timeout) and applies pending migrations.
import { mkdirSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { KyselyStore, type Database } from '../kysely-store.js';
import { migrateToLatest } from '../migrate.js';

export interface SqliteOptions {
  /**
   * How long a statement waits, blocking its thread, for another connection's write lock before SQLITE_BUSY.
   * Long for the CLI and the insights process; short for the server, whose writes retry asynchronously instead.
   */
  busyTimeoutMs?: number;
}

export async function openSqliteStore(path: string, options: SqliteOptions = {}): Promise<KyselyStore> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = keepingStatements(new SqliteDatabase(path));
  // WAL lets the server read while the CLI writes; the busy timeout makes a second writer wait, not fail.
  sqlite.exec('PRAGMA busy_timeout = 10000');
  if (path !== ':memory:') await switchToWal(sqlite);
  sqlite.exec('PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  // Pending migrations wait for the file's write lock (migrate.ts) under the long timeout; then the connection's own.
  await migrateToLatest(db);
  if (options.busyTimeoutMs !== undefined)
    sqlite.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.round(options.busyTimeoutMs))}`);
  return new KyselyStore(
    'sqlite',
    db,
    path === ':memory:' ? undefined : (listener) => watchWrites(path, () => listener({ kind: 'write' })),
  );
}

/** How long opening a new file tries to switch it to WAL while other processes are opening it too. */
const WAL_SWITCH_MS = 10_000;

/**
 * Switching a new file to WAL needs it to itself. The busy timeout makes that wait for a reader, but when several
 * processes open one new file at once SQLite can answer SQLITE_BUSY at once instead (a CI run on Node 24 saw it, in
 * test/sqlite-migrate-together.test.ts), so the switch is tried again until it succeeds. Once one process has
 * switched, the file stays in WAL and the others' switch is a no-op.
 */
async function switchToWal(sqlite: SqliteDatabase.Database): Promise<void> {
  const deadline = Date.now() + WAL_SWITCH_MS;
  for (;;) {
    try {
      sqlite.exec('PRAGMA journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
      await delay(10 + Math.random() * 40);
    }
  }
}

/** Every connection opened, closed or not: see keepingStatements. */
const connections: SqliteDatabase.Database[] = [];

/**
 * The connection with each prepared statement kept for the connection's life and reused for the same SQL, and the
 * connection itself kept for the process's life. On Node 24, better-sqlite3 12 aborts the process when the garbage
 * collector destroys one of its objects, a statement or a connection, from a collection outside JavaScript
 * (`RemoveEnvironmentCleanupHook`, WiseLibs/better-sqlite3#1515); its 13 fixes that but needs Node 22 or later.
 * So none of them ever becomes garbage: kept statements are finalized when their connection closes, and a closed
 * connection is a few hundred bytes. Their number is bounded by the code: queries are built from a fixed set of
 * shapes, whose IN lists and multi-row VALUES hold at most 500 items; a process opens a handful of connections
 * (tests open more, still bounded). (Pragmas go through `exec`, which makes no statement object; `pragma()` would.)
 */
export function keepingStatements(sqlite: SqliteDatabase.Database): SqliteDatabase.Database {
  connections.push(sqlite);
  const statements = new Map<string, SqliteDatabase.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = prepare(sql)));
    return statement;
  }) as typeof sqlite.prepare;
  return sqlite;
}

/**
 * Every commit appends to the write-ahead log (`<file>-wal`) and checkpoints write the file itself: a watch on
 * their folder hears both from any process on this machine. Where watching fails (no inotify, a network file
 * system) only polling notices changes.
 */
function watchWrites(path: string, listener: () => void): () => void {
  const file = basename(path);
  try {
    const watcher = watch(dirname(path), { persistent: false }, (_event, name) => {
      if (name === file || name === `${file}-wal`) listener();
    });
    watcher.on('error', () => watcher.close());
    return () => watcher.close();
  } catch {
    return () => undefined;
  }
}
