// Opens a PostgreSQL store (a pool of `pg` connections behind Kysely), applies pending migrations under an advisory
// lock, and hears other processes' writes through LISTEN/NOTIFY.
import pg from 'pg';
import { Kysely, sql } from 'kysely';
import { KyselyStore, type Database } from '../kysely-store.js';
import { migrateToLatest } from '../migrate.js';
import { OwnSchemaPostgresDialect } from './introspector.js';
import { ChangeNotices } from './notices.js';
import { SILENT, type StoreLog } from './log.js';

export interface PostgresOptions {
  /** Connections in the pool (DATABASE_POOL_SIZE). */
  poolSize?: number;
  log?: StoreLog;
}

/** How long a query waits for a connection (PostgreSQL unreachable, or the pool busy) before it fails. */
const CONNECT_TIMEOUT_MS = 10_000;

/** The URL with its password hidden, for messages. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return 'postgres://…';
  }
}

export async function openPostgresStore(url: string, options: PostgresOptions = {}): Promise<KyselyStore> {
  const log = options.log ?? SILENT;
  const connection: pg.ClientConfig = {
    connectionString: url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: 'reviews-service',
  };
  const pool = new pg.Pool({ ...connection, max: options.poolSize ?? 10 });
  // A connection that PostgreSQL ends (a restart, an administrator) is an event, not a crash. `pg` reports it as an
  // 'error' event on the connection, and an 'error' event nobody listens to ends the process; the pool listens only
  // while a connection is idle (and then also tells the pool, heard below), so one in use between two statements (an
  // import holding its connection, a transaction between reads) would end the whole server. Each connection gets a
  // listener of its own for its whole life: what it was doing fails, the pool drops it, and the next query opens another.
  pool.on('connect', (client) => {
    client.on('error', (error) =>
      log.warn({ err: error.message }, 'a PostgreSQL connection was closed; the pool replaces it'),
    );
  });
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new OwnSchemaPostgresDialect({ pool }) });
  let schema: string;
  try {
    await migrateToLatest(db);
    const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db);
    schema = rows[0]!.schema;
  } catch (error) {
    await db.destroy();
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`cannot open the PostgreSQL store at ${redactedUrl(url)}: ${message}`, { cause: error });
  }
  // Named apart from the pool's connections, so an operator (or a test) finds each process's listener.
  const notices = new ChangeNotices(
    { ...connection, application_name: `reviews-service notices ${schema}` },
    schema,
    log,
  );
  return new KyselyStore(
    'postgres',
    db,
    (listener) => notices.watch(listener),
    async () => {
      await notices.close();
      await db.destroy();
    },
  );
}
