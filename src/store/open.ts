// Chooses the store engine from DATABASE_URL: `sqlite:<path>` (default) or `postgres://…`.
import type { Store } from './types.js';
import { openSqliteStore, type SqliteOptions } from './sqlite/open.js';
import { openPostgresStore, type PostgresOptions } from './postgres/open.js';

/** What a serving process opens its store with: a lock another process holds never stalls its event loop for long. */
export const SERVING: SqliteOptions = { busyTimeoutMs: 20 };

export type StoreOptions = SqliteOptions & PostgresOptions;

export function isPostgresUrl(databaseUrl: string): boolean {
  return /^postgres(ql)?:\/\//.test(databaseUrl);
}

export async function openStore(databaseUrl: string, options: StoreOptions = {}): Promise<Store> {
  if (databaseUrl.startsWith('sqlite:')) return openSqliteStore(databaseUrl.slice('sqlite:'.length), options);
  if (isPostgresUrl(databaseUrl)) return openPostgresStore(databaseUrl, options);
  throw new Error(`DATABASE_URL must be sqlite:<path> or postgres://…, got "${databaseUrl}"`);
}
