// Ended MCP sessions at scale: with 200,000 of them stored, a session is still checked by one lookup, and an idle
// server does not spend its time on them. (Every ended session was once re-read on every poll: at 500,000 one
// re-read took 817 ms, longer than the poll interval, and the server stopped answering.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { mcpRequest, openSession, rpc } from './support/mcp-wire.js';
import { publish, startServer, tempDir, type RunningServer } from './support/server.js';
import { openSqlite } from './support/sqlite.js';
import { sleep, until } from './support/wait.js';

const ENDED = 200_000;
const dir = tempDir('reviews-mcp-ended-');
let server: RunningServer;

beforeAll(async () => {
  server = await startServer(`${dir.path}/ended.db`, { MCP_SESSION_SECRET: 'ended-sessions-test-secret-0123456789' });
  const demo = generateDemo({ seed: 5, reviews: 30 });
  await publish(server, { business: demo.business, reviews: demo.reviews, replace: true });
  // The insights build that follows an import is work of its own, not the idle polling measured below.
  await server.app.publisher.insightsReady();
});
afterAll(async () => {
  await server?.close();
  dir.remove();
});

/** The session's own id inside its signed token (what the store records when it ends). */
const storedIdOf = (sessionId: string) =>
  (JSON.parse(Buffer.from(sessionId.split('.')[0]!, 'base64url').toString('utf8')) as { sid: string }).sid;

describe(`${ENDED.toLocaleString('en-US')} ended sessions`, () => {
  it('leave live sessions working and an idle server idle; one ended elsewhere is refused', async () => {
    const { sessionId, protocolVersion } = await openSession(server.url);
    const { sessionId: endedElsewhere } = await openSession(server.url);
    const db = openSqlite(server.databaseUrl.slice('sqlite:'.length));
    const expires = new Date(Date.now() + 3_600_000).toISOString();
    try {
      const insert = db.prepare('INSERT INTO mcp_revoked_sessions (id, expires_at) VALUES (?, ?)');
      db.transaction(() => {
        for (let i = 0; i < ENDED; i++) insert.run(`bulk-${i}`, expires);
      })();
    } finally {
      db.close();
    }
    expect((await mcpRequest(server.url, { sessionId, protocolVersion, body: rpc('ping') })).status).toBe(200);

    // The server runs in this process, which now only waits: the CPU it uses over 3 s is the server's own
    // background work (its polls). Re-reading every ended session on each poll keeps a core busy.
    await sleep(500);
    const before = process.cpuUsage();
    await sleep(3000);
    const used = process.cpuUsage(before);
    const share = (used.user + used.system) / 3_000_000;
    expect(share, `an idle server used ${(share * 100).toFixed(0)}% of a core`).toBeLessThan(0.25);

    // As another replica would record it: straight into the store.
    const other = openSqlite(server.databaseUrl.slice('sqlite:'.length));
    try {
      other
        .prepare('INSERT INTO mcp_revoked_sessions (id, expires_at) VALUES (?, ?)')
        .run(storedIdOf(endedElsewhere), expires);
    } finally {
      other.close();
    }
    const refused = await until(
      async () =>
        (await mcpRequest(server.url, { sessionId: endedElsewhere, protocolVersion, body: rpc('ping') })).status ===
        404,
      5000,
      'the session ended elsewhere to be refused',
    );
    expect(refused).toBe(true);
    expect((await mcpRequest(server.url, { sessionId, protocolVersion, body: rpc('ping') })).status).toBe(200);
  }, 60_000);
});
