// An import is all or none: the CLI killed with SIGKILL while it writes 100,000 reviews leaves the store exactly as
// it was (same reviews, same revision, an intact file), and the same import run again then completes.
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { CLI, inheritedEnv, runCli, tempDir, writeJson } from './support/server.js';
import { openSqlite } from './support/sqlite.js';

const dir = tempDir();
afterAll(() => dir.remove());

/** What an import changes: the reviews (ids, content hashes) and the store's revision. */
function storeState(dbPath: string): { reviews: number; fingerprint: string; revision: number; integrity: string } {
  const db = openSqlite(dbPath, { readonly: true });
  try {
    const rows = db.prepare('SELECT id, content_hash FROM reviews ORDER BY id').all() as { id: string; content_hash: string }[];
    const { revision } = db.prepare('SELECT revision FROM store_state WHERE id = 1').get() as { revision: number };
    const { integrity_check: integrity } = db.prepare('PRAGMA integrity_check').get() as { integrity_check: string };
    return { reviews: rows.length, fingerprint: rows.map((r) => `${r.id}:${r.content_hash}`).join(','), revision, integrity };
  } finally {
    db.close();
  }
}

describe('an import killed mid-write', () => {
  it('leaves the store as it was, and the import then completes when run again', async () => {
    const dbPath = `${dir.path}/store.db`;
    const databaseUrl = `sqlite:${dbPath}`;
    const small = generateDemo({ seed: 3, reviews: 300 });
    expect((await runCli(['import', writeJson(`${dir.path}/small.json`, small)], databaseUrl)).code).toBe(0);
    const before = storeState(dbPath);
    expect(before.reviews).toBe(300);

    // 100,000 reviews: the first 300 ids are the stored ones with other content (updates), the rest are new.
    const big = writeJson(`${dir.path}/big.json`, generateDemo({ seed: 4, reviews: 100_000 }));
    const child = spawn(process.execPath, [CLI, 'import', big], { env: { ...inheritedEnv(), DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' } });
    let stderr = '';
    // Killed at the first progress line of the write phase that is neither its start nor its end.
    const killedAt = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        const writing = stderr.split('\n').find((line) => /^written [1-9][\d,]*\/100,000/.test(line) && !line.startsWith('written 100,000/'));
        if (writing && child.exitCode === null && !child.killed) {
          child.kill('SIGKILL');
          resolve(writing);
        }
      });
      child.once('exit', (code) => reject(new Error(`the import ended (code ${code}) before it was killed:\n${stderr}`)));
    });
    await new Promise((done) => (child.exitCode !== null || child.signalCode !== null ? done(undefined) : child.once('exit', done)));
    expect(child.signalCode).toBe('SIGKILL');
    expect(killedAt).toMatch(/^written/);

    // None of it: the same reviews with the same content, the same revision, and a file SQLite finds intact.
    const after = storeState(dbPath);
    expect(after.integrity).toBe('ok');
    expect(after.revision).toBe(before.revision);
    expect(after.reviews).toBe(before.reviews);
    expect(after.fingerprint).toBe(before.fingerprint);

    // All of it, when run again.
    const again = await runCli(['import', big], databaseUrl);
    expect(again.code).toBe(0);
    const done = storeState(dbPath);
    expect(done.reviews).toBe(100_000);
    expect(done.revision).toBe(before.revision + 1);
    expect(done.integrity).toBe('ok');
  }, 180_000);
});
