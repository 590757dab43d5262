// Connections and statements opened and closed many times, with the garbage collector busy in between, do not
// abort the process. On Node 24, better-sqlite3 12 aborts when the collector destroys one of its objects outside
// JavaScript (WiseLibs/better-sqlite3#1515); the store keeps every connection and statement it made for the
// process's life (src/store/sqlite/open.ts). On Node 20 this passes either way; CI runs it on Node 24 too.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const OPEN = resolve(import.meta.dirname, '../dist/src/store/sqlite/open.js');

const script = `
import Database from 'better-sqlite3';
import { keepingStatements } from ${JSON.stringify(OPEN)};
for (let round = 0; round < 30; round++) {
  for (let i = 0; i < 200; i++) {
    const db = keepingStatements(new Database(':memory:'));
    db.prepare('SELECT 1').get();
    db.close();
  }
  const garbage = [];
  for (let j = 0; j < 200000; j++) garbage.push({ j, text: 'x'.repeat(20) });
  await new Promise((done) => setTimeout(done, 100));
}
process.stdout.write('done');
`;

describe('SQLite objects and the garbage collector', () => {
  it(`survive 6,000 connections opened and closed on ${process.version}`, async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: resolve(import.meta.dirname, '..') });
    expect(stdout).toBe('done');
  }, 60_000);
});
