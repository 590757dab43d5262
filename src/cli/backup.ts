// `reviews backup <file> [--json]`: a consistent copy of the live SQLite store named by DATABASE_URL, which
// `DATABASE_URL=sqlite:<file> npm start` serves as it was. PostgreSQL has its own tool for that: pg_dump.
import { isPostgresUrl } from '../store/open.js';
import { backupSqlite } from '../store/sqlite/backup.js';
import { progressReporter } from './progress.js';

export async function runBackup(databaseUrl: string, target: string, options: { json: boolean }): Promise<number> {
  if (isPostgresUrl(databaseUrl)) {
    process.stderr.write(
      'the store is PostgreSQL: back it up with pg_dump (e.g. `pg_dump --format=custom --file=reviews.dump "$DATABASE_URL"`); nothing was copied\n',
    );
    return 1;
  }
  if (!databaseUrl.startsWith('sqlite:')) {
    process.stderr.write(`DATABASE_URL must be sqlite:<path> or postgres://…, got "${databaseUrl}"\n`);
    return 1;
  }
  const started = performance.now();
  const result = await backupSqlite(
    databaseUrl.slice('sqlite:'.length),
    target,
    progressReporter('copied pages', { minTotal: 25_000 }),
  );
  const ms = Math.round(performance.now() - started);
  if (!result.ok) {
    process.stderr.write(`${result.message}\n`);
    return 1;
  }
  if (options.json)
    process.stdout.write(
      `${JSON.stringify({ file: target, pages: result.pages, bytes: result.bytes, ms, integrity: 'ok' })}\n`,
    );
  else
    process.stdout.write(
      `${target}: ${(result.bytes / 2 ** 20).toFixed(1)} MiB copied, integrity check ok (${ms.toLocaleString('en-US')} ms); serve it with DATABASE_URL=sqlite:${target}\n`,
    );
  return 0;
}
