// Several processes opening one SQLite file at once (the server starting while an import runs, two CLI commands):
// the schema's migrations run once, every process opens the store, and a current schema waits on nobody's lock.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';

const OPEN = resolve(import.meta.dirname, '../dist/src/store/open.js');

// Spins until the given instant so that every process reaches the migrations together, then opens the store.
const script = `
import { openStore } from ${JSON.stringify(OPEN)};
const [url, at] = process.argv.slice(1);
while (Date.now() < Number(at)) {}
const store = await openStore(url);
await store.close();
process.stdout.write('opened');
`;

function openInProcess(url: string, at: number): Promise<{ stdout: string }> {
  return promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, url, String(at)], {
    cwd: resolve(import.meta.dirname, '..'),
  });
}

const folders: string[] = [];
function newFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'reviews-migrate-'));
  folders.push(folder);
  return folder;
}
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('opening one new SQLite file from several processes at once', () => {
  it('migrates it once and opens it in every process', async () => {
    for (let round = 0; round < 3; round++) {
      const path = join(newFolder(), 'reviews.db');
      // Far enough ahead for four Node processes to start and import the store on two cores.
      const at = Date.now() + 1500;
      const results = await Promise.allSettled([1, 2, 3, 4].map(() => openInProcess(`sqlite:${path}`, at)));
      const failures = results.flatMap((r) =>
        r.status === 'rejected' ? [String((r.reason as { stderr?: string }).stderr ?? r.reason)] : [],
      );
      expect(failures).toEqual([]);
      const db = new Database(path, { readonly: true });
      const applied = db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[];
      db.close();
      expect(applied.length).toBeGreaterThan(0);
      expect(new Set(applied.map((m) => m.name)).size).toBe(applied.length);
    }
  }, 60_000);

  it('opens a migrated file while another process holds its write lock', async () => {
    const path = join(newFolder(), 'reviews.db');
    await openInProcess(`sqlite:${path}`, 0);
    const writer = new Database(path);
    writer.exec('BEGIN IMMEDIATE');
    try {
      // Waiting for the lock would end in SQLITE_BUSY after the store's busy timeout (10 s), not in 'opened'.
      const { stdout } = await openInProcess(`sqlite:${path}`, 0);
      expect(stdout).toBe('opened');
    } finally {
      writer.exec('ROLLBACK');
      writer.close();
    }
  }, 30_000);

  it('waits to switch a new file to WAL while another connection reads it', async () => {
    // A file in SQLite's default journal mode, read by a connection that holds its shared lock for 1.5 s: the switch
    // to WAL needs the file to itself, so the opening process waits for it (and the store opens, in WAL).
    const path = join(newFolder(), 'reviews.db');
    const reader = new Database(path);
    reader.exec('CREATE TABLE other (x); BEGIN');
    reader.prepare('SELECT count(*) FROM other').get();
    const opening = openInProcess(`sqlite:${path}`, 0);
    await new Promise((done) => setTimeout(done, 1500));
    reader.exec('COMMIT');
    reader.close();
    expect((await opening).stdout).toBe('opened');
    const db = new Database(path, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  }, 30_000);
});
