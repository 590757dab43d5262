// Chooses the store engine from DATABASE_URL: `sqlite:<path>` (default) or `postgres://…`.
import type { Store } from './types.js';
import { openSqliteStore, type SqliteOptions } from './sqlite/open.js';

/** What a serving process opens its store with: a lock another process holds never stalls its event loop for long. */
export const SERVING: SqliteOptions = { busyTimeoutMs: 20 };

export async function openStore(databaseUrl: string, options: SqliteOptions = {}): Promise<Store> {
  if (databaseUrl.startsWith('sqlite:')) return openSqliteStore(databaseUrl.slice('sqlite:'.length), options);
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('PostgreSQL support is not available in this version; use DATABASE_URL=sqlite:<path>');
  }
  throw new Error(`DATABASE_URL must be sqlite:<path> or postgres://…, got "${databaseUrl}"`);
}
