// Chooses the store engine from DATABASE_URL: `sqlite:<path>` (default) or `postgres://…`.
import type { Store } from './types.js';
import { openSqliteStore } from './sqlite/open.js';

export async function openStore(databaseUrl: string): Promise<Store> {
  if (databaseUrl.startsWith('sqlite:')) return openSqliteStore(databaseUrl.slice('sqlite:'.length));
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('PostgreSQL support is not available in this version; use DATABASE_URL=sqlite:<path>');
  }
  throw new Error(`DATABASE_URL must be sqlite:<path> or postgres://…, got "${databaseUrl}"`);
}
