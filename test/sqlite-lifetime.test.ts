// On Node 24, better-sqlite3 12 aborts the process when the garbage collector destroys one of its objects outside
// JavaScript (WiseLibs/better-sqlite3#1515: a CI run of these tests died so, in ~Database). The store keeps every
// connection and statement it makes for the process's life (src/store/sqlite/open.ts): none is ever collected.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const OPEN = resolve(import.meta.dirname, '../dist/src/store/sqlite/open.js');

// Run with the collector exposed: a closed connection and its statement, referenced only weakly, must outlive
// collections; a plain connection, the control, does not.
const script = `
import Database from 'better-sqlite3';
import { keepingStatements } from ${JSON.stringify(OPEN)};
// Made in functions, so that nothing but the weak references points at them once these return.
function keptAndClosed() {
  const db = keepingStatements(new Database(':memory:'));
  const statement = db.prepare('SELECT 1');
  db.close();
  return { connection: new WeakRef(db), statement: new WeakRef(statement) };
}
function plainAndClosed() {
  const db = new Database(':memory:');
  db.close();
  return new WeakRef(db);
}
const refs = { ...keptAndClosed(), control: plainAndClosed() };
for (let i = 0; i < 3; i++) {
  globalThis.gc();
  await new Promise((done) => setTimeout(done, 20));
}
process.stdout.write(JSON.stringify(Object.fromEntries(Object.entries(refs).map(([k, r]) => [k, r.deref() !== undefined]))));
`;

describe('SQLite objects and the garbage collector', () => {
  it(`keeps closed connections and their statements from being collected (${process.version})`, async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--expose-gc', '--input-type=module', '-e', script],
      { cwd: resolve(import.meta.dirname, '..') },
    );
    expect(JSON.parse(stdout)).toEqual({ connection: true, statement: true, control: false });
  });
});
