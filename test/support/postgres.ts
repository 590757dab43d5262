// The real PostgreSQL for tests: each caller gets a schema of its own in the test database (a DATABASE_URL whose
// search_path names it), so test files run side by side. Where PostgreSQL is not reachable, `postgres` is
// undefined and the tests that need it are skipped, loudly (global-setup.ts); under CI its absence is a failure.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll } from 'vitest';

/** The test database: TEST_POSTGRES_URL, or the one every development and CI machine runs. */
export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Test schemas are named `rt_<unix seconds>_<random>`; ones older than this are leftovers of killed runs. */
const STALE_AFTER_S = 6 * 3600;

export async function postgresReachable(url = POSTGRES_URL): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Runs `work` on a plain connection to `url` (a schema's URL works in that schema), looking in from outside the service. */
export async function withPostgres<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new, empty schema and the DATABASE_URL that works in it (for this process and for child processes). */
export async function freshPostgresUrl(): Promise<string> {
  const schema = `rt_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
  await withPostgres(POSTGRES_URL, (client) => client.query(`CREATE SCHEMA ${schema}`));
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.href;
}

/** The schema a URL of freshPostgresUrl works in. */
export function schemaOf(url: string): string {
  const match = /search_path=(\w+)/.exec(new URL(url).searchParams.get('options') ?? '');
  if (!match) throw new Error(`${url} names no test schema`);
  return match[1]!;
}

export async function dropPostgresSchema(url: string): Promise<void> {
  await withPostgres(POSTGRES_URL, (client) => client.query(`DROP SCHEMA IF EXISTS ${schemaOf(url)} CASCADE`));
}

/**
 * New schemas for the tests of one file, each dropped after the file: call it at the top of the file, before the
 * file's own afterAll (after-hooks run last registered first, so the file's servers are stopped before the drop).
 */
export function schemasPerFile(): () => Promise<string> {
  const made: string[] = [];
  afterAll(async () => {
    await Promise.all(made.map((url) => dropPostgresSchema(url)));
  });
  return async () => {
    const url = await freshPostgresUrl();
    made.push(url);
    return url;
  };
}

/** Removes test schemas left by runs that were killed before they could drop theirs. */
export async function dropStaleSchemas(): Promise<void> {
  await withPostgres(POSTGRES_URL, async (client) => {
    const { rows } = await client.query<{ name: string }>(
      `SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE 'rt\\_%'`,
    );
    const cutoff = Date.now() / 1000 - STALE_AFTER_S;
    for (const { name } of rows) {
      const created = Number(name.split('_')[1]);
      if (Number.isFinite(created) && created < cutoff) await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
    }
  });
}

/**
 * Whether this test process reaches PostgreSQL (once per file): `describe.skipIf(!postgres)` for the tests that
 * need it. Global setup has already failed the run under CI when it is unreachable.
 */
export const postgres: boolean = (await postgresReachable()) === undefined;
