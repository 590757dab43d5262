// A better-sqlite3 connection for tests that look into a store directly, keeping its statements as the service does
// (src/store/sqlite/open.ts: a statement the garbage collector finalizes aborts Node 24).
import Database from 'better-sqlite3';
import { keepingStatements } from '../../src/store/sqlite/open.js';

export const openSqlite = (path: string, options?: Database.Options): Database.Database =>
  keepingStatements(new Database(path, options));
