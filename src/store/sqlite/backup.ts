// A consistent copy of a live SQLite store, by SQLite's online backup: it copies the pages a step at a time and
// starts again from the changed pages when another connection writes meanwhile, so the server keeps serving and an
// import keeps importing while it runs. The copy is checked (`PRAGMA integrity_check`) before it is called done.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { keepingStatements } from './open.js';

export type BackupResult = { ok: true; pages: number; bytes: number } | { ok: false; message: string };

/** Pages copied a step: small enough that a writer waits at most a few milliseconds between steps. */
const PAGES_PER_STEP = 1000;

export async function backupSqlite(
  path: string,
  target: string,
  onProgress?: (done: number, total: number) => void,
): Promise<BackupResult> {
  if (!existsSync(path)) return { ok: false, message: `no store at ${path}` };
  if (resolve(path) === resolve(target))
    return { ok: false, message: 'the backup must go to another file than the store' };
  if (existsSync(target))
    return { ok: false, message: `${target} exists: name a new file (a backup never overwrites one)` };
  const source = keepingStatements(new SqliteDatabase(path, { fileMustExist: true }));
  source.exec('PRAGMA busy_timeout = 10000');
  try {
    const { totalPages } = await source.backup(target, {
      progress({ totalPages: total, remainingPages }) {
        onProgress?.(total - remainingPages, total);
        return PAGES_PER_STEP;
      },
    });
    const copy = keepingStatements(new SqliteDatabase(target, { fileMustExist: true }));
    try {
      const rows = copy.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[];
      const answer = rows.map((r) => r.integrity_check).join('; ');
      if (answer !== 'ok') {
        await rm(target, { force: true });
        return { ok: false, message: `the copy failed its integrity check (${answer}); it was deleted` };
      }
      const { page_size: pageSize } = copy.prepare('PRAGMA page_size').get() as { page_size: number };
      return { ok: true, pages: totalPages, bytes: totalPages * pageSize };
    } finally {
      copy.close();
    }
  } finally {
    source.close();
  }
}
