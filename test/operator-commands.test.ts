// The operator's commands against a running server: remove/restore (a tombstone no import lifts), verify/unverify
// (the operator's word outlasts imports), the log, status, and an online backup of a live SQLite store.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpRequest, openSession, resultOf, rpc } from './support/mcp-wire.js';
import { postgres, schemasPerFile } from './support/postgres.js';
import { newReview } from './support/reviews.js';
import { runCli, serverPerBlock, startServer, tempDir, writeJson, type RunningServer } from './support/server.js';
import { openSqlite } from './support/sqlite.js';
import { until } from './support/wait.js';

const freshSchema = schemasPerFile();
const dir = tempDir();
afterAll(() => dir.remove());

const FAST = { RATE_LIMIT_QUERIES_PER_MINUTE: '1000000', RATE_LIMIT_MCP_PER_MINUTE: '1000000' };
const business = {
  name: 'Operator Test Plumbing',
  timeZone: 'America/Chicago',
  services: [{ id: 'drain-cleaning', name: 'Drain Cleaning', category: 'plumbing' }],
  technicians: [{ name: 'Sam Lee' }],
};
const lastJson = <T = Record<string, unknown>>(stdout: string): T => JSON.parse(stdout.trim().split('\n').at(-1)!) as T;

interface Dataset {
  aggregateRating: { reviewCount: number };
  reviews: { id: string; verification: { method: string; date: string } }[];
}
const getJson = async <T>(server: RunningServer, path: string): Promise<T> =>
  (await (await fetch(`${server.url}${path}`)).json()) as T;
const dataset = (server: RunningServer) => getJson<Dataset>(server, '/reviews.json');
const servedIds = async (server: RunningServer) => (await dataset(server)).reviews.map((r) => r.id);
/** Waits until the server serves the store's revision `revision` (or a later one): after that, what it serves is final. */
const caughtUp = (server: RunningServer, revision: number) =>
  until(
    () => server.app.publisher.current().snapshot.version.revision >= revision,
    10_000,
    `the server to serve revision ${revision}`,
  );
const status = async (url: string) => {
  const result = await runCli(['status', '--json'], url);
  expect(result.code, result.stderr).toBe(0);
  return lastJson<Status>(result.stdout);
};
interface Status {
  reviews: Record<
    string,
    { published: number; unpublished: number; removed: number; withdrawn: number; newest: string | null }
  >;
  lastImports: Record<
    string,
    { at: string; files: string[]; added: number; updated: number; withdrawn: number; removed: number }
  >;
  insights: { asOf: string | null; dataVersion: string | null; lagging: boolean };
  subscriptions: { pending: number; active: number; rejected: number; lapsed: number };
  pendingDeliveries: number;
  store: { engine: string; sizeBytes: number; schemaVersion: string; revision: number };
}
interface LogEntry {
  at: string;
  action: string;
  reviewId?: string;
  reason?: string;
  details?: Record<string, unknown>;
}
const readLog = async (url: string, ...args: string[]) => {
  const result = await runCli(['log', '--json', ...args], url);
  expect(result.code, result.stderr).toBe(0);
  return lastJson<LogEntry[]>(result.stdout);
};
/** What must not change when a command is refused: the store's version, its log and every stored review, read from the file. */
const fingerprint = (db: string) => {
  const sqlite = openSqlite(db, { readonly: true });
  try {
    return {
      state: sqlite.prepare('SELECT * FROM store_state').all(),
      log: sqlite.prepare('SELECT * FROM operator_log ORDER BY id').all(),
      reviews: sqlite.prepare('SELECT * FROM reviews ORDER BY id').all(),
    };
  } finally {
    sqlite.close();
  }
};

describe('remove and restore', () => {
  const db = `${dir.path}/remove.db`;
  const url = `sqlite:${db}`;
  const WORD = 'Zanzibarish';
  const REASON = 'customer asked by phone: PRIVATE-REASON-7731';
  const target = newReview({
    id: 'op-target',
    date: '2026-12-05',
    text: `The ${WORD} drain is finally clear, thank you.`,
  });
  const others = [
    newReview({ id: 'op-other-1', date: '2026-11-02' }),
    newReview({ id: 'op-other-2', date: '2026-11-03' }),
  ];
  const file = `${dir.path}/remove.json`;
  let server: RunningServer;
  let mcpSession: string;

  beforeAll(async () => {
    writeJson(file, { business, reviews: [target, ...others] });
    const imported = await runCli(['import', file], url);
    expect(imported.code, imported.stderr).toBe(0);
    server = await startServer(db, FAST);
    mcpSession = (await openSession(server.url)).sessionId;
  });
  afterAll(() => server.close());

  /** Which public outputs show the target review now (every body is also checked for the private reason). */
  async function whereShown(): Promise<string[]> {
    const text = async (path: string) => {
      const res = await fetch(`${server.url}${path}`);
      const body = await res.text();
      expect(body, `${path} leaks the removal reason`).not.toContain('PRIVATE-REASON');
      return { status: res.status, body };
    };
    const shown: string[] = [];
    const reviews = JSON.parse((await text('/reviews.json')).body) as Dataset;
    if (reviews.reviews.some((r) => r.id === target.id)) shown.push('reviews.json');
    if (reviews.aggregateRating.reviewCount !== others.length) shown.push('reviewCount');
    const feed = JSON.parse((await text('/api/feed.json')).body) as { items: { _review: { id: string } }[] };
    if (feed.items.some((i) => i._review.id === target.id)) shown.push('feed.json');
    if ((await text('/feed.xml')).body.includes(WORD)) shown.push('feed.xml');
    const search = JSON.parse((await text(`/api/reviews/search?query=${WORD.toLowerCase()}`)).body) as {
      total: number;
    };
    if (search.total !== 0) shown.push('search');
    const since = JSON.parse((await text(`/api/reviews/since/${target.date}`)).body) as { reviews: { id: string }[] };
    if (since.reviews.some((r) => r.id === target.id)) shown.push('since');
    if ((await text(`/reviews/${target.id}`)).status !== 404) shown.push('permalink');
    if ((await text('/sitemap.xml')).body.includes(`/reviews/${target.id}<`)) shown.push('sitemap');
    if ((await text('/')).body.includes(WORD)) shown.push('home');
    const called = await mcpRequest(server.url, {
      sessionId: mcpSession,
      body: rpc('tools/call', { name: 'search_reviews', arguments: { query: WORD } }),
    });
    expect(called.text).not.toContain('PRIVATE-REASON');
    const mcp = resultOf<{ structuredContent: { reviews: { id: string }[] } }>(called).structuredContent;
    if (mcp.reviews.some((r) => r.id === target.id)) shown.push('mcp');
    return shown;
  }
  const EVERYWHERE = [
    'reviews.json',
    'reviewCount',
    'feed.json',
    'feed.xml',
    'search',
    'since',
    'permalink',
    'sitemap',
    'home',
    'mcp',
  ];

  it('shows the review everywhere before it is removed (so its absence below means something)', async () => {
    expect(await whereShown()).toEqual(EVERYWHERE);
  });

  it('takes a removed review out of every public output as soon as the server notices, reason kept private', async () => {
    const removed = await runCli(['remove', target.id, '--reason', REASON, '--json'], url);
    expect(removed.code, removed.stderr).toBe(0);
    expect(lastJson(removed.stdout)).toMatchObject({ ok: true, review: { id: target.id, state: 'removed' } });
    let shown: string[] = [];
    await until(
      async () => (shown = await whereShown()).length === 0,
      8000,
      () => `the removed review to leave every output (still in ${shown.join(', ')})`,
    );
    expect((await status(url)).reviews.own).toMatchObject({ published: 2, removed: 1 });
  });

  it('keeps it removed when the file that holds it is imported again', async () => {
    const again = await runCli(['import', file, '--json'], url);
    expect(again.code, again.stderr).toBe(0);
    const summary = lastJson<{ keptRemoved: number; version: { revision: number } }>(again.stdout);
    expect(summary.keptRemoved).toBe(1);
    await caughtUp(server, summary.version.revision);
    expect(await whereShown()).toEqual([]);
  });

  it('refuses to remove it twice, changing nothing', async () => {
    const before = fingerprint(db);
    const twice = await runCli(['remove', target.id, '--reason', 'again', '--json'], url);
    expect(twice.code).toBe(1);
    expect(lastJson(twice.stdout)).toMatchObject({ ok: false });
    expect(fingerprint(db)).toEqual(before);
  });

  it('refuses to remove an unknown id (exit 1) and a removal without --reason (exit 2), changing nothing', async () => {
    const before = fingerprint(db);
    const unknown = await runCli(['remove', 'no-such-review', '--reason', 'spam', '--json'], url);
    expect(unknown.code).toBe(1);
    expect(lastJson(unknown.stdout)).toMatchObject({ ok: false, error: 'not-found' });
    const noReason = await runCli(['remove', others[0]!.id, '--json'], url);
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toMatch(/--reason/);
    expect(fingerprint(db)).toEqual(before);
    expect(await servedIds(server)).toEqual(['op-other-2', 'op-other-1']);
  });

  it('brings it back everywhere with restore (no reason needed)', async () => {
    const restored = await runCli(['restore', target.id, '--json'], url);
    expect(restored.code, restored.stderr).toBe(0);
    let shown: string[] = [];
    await until(
      async () => (shown = await whereShown()).length === EVERYWHERE.length,
      8000,
      () => `the restored review everywhere (only in ${shown.join(', ')})`,
    );
    expect(shown).toEqual(EVERYWHERE);
  });
});

describe('verify and unverify', () => {
  const db = `${dir.path}/verify.db`;
  const url = `sqlite:${db}`;
  const server = serverPerBlock(db, FAST);
  const unverified = newReview({ id: 'op-unverified', date: '2026-12-02', verified: false });
  const verified = newReview({ id: 'op-verified', date: '2026-12-03' });

  beforeAll(async () => {
    const result = await runCli(
      ['import', writeJson(`${dir.path}/verify.json`, { business, reviews: [unverified, verified] }), '--json'],
      url,
    );
    expect(result.code, result.stderr).toBe(0);
    await caughtUp(server(), lastJson<{ version: { revision: number } }>(result.stdout).version.revision);
  });

  it('publishes an unverified review on the operator\'s word, as verified by "operator" with a date', async () => {
    expect(await servedIds(server())).toEqual([verified.id]);
    const result = await runCli(['verify', unverified.id, '--reason', 'called the customer', '--json'], url);
    expect(result.code, result.stderr).toBe(0);
    const review = await until(
      async () => (await dataset(server())).reviews.find((r) => r.id === unverified.id),
      8000,
      'the verified review to be served',
    );
    expect(review.verification).toEqual({
      method: 'operator',
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) as unknown,
    });
    expect((await dataset(server())).aggregateRating.reviewCount).toBe(2);
  });

  it('unpublishes a verified review, and an import saying "verified": true does not publish it again', async () => {
    const result = await runCli(['unverify', verified.id, '--reason', 'not our customer', '--json'], url);
    expect(result.code, result.stderr).toBe(0);
    await until(
      async () => !(await servedIds(server())).includes(verified.id),
      8000,
      'the unverified review to leave /reviews.json',
    );
    const again = await runCli(
      [
        'import',
        writeJson(`${dir.path}/verify-again.json`, {
          reviews: [{ ...verified, text: `${verified.text} Edited.`, verified: true }],
        }),
        '--json',
      ],
      url,
    );
    expect(again.code, again.stderr).toBe(0);
    await caughtUp(server(), lastJson<{ version: { revision: number } }>(again.stdout).version.revision);
    expect(await servedIds(server())).toEqual([unverified.id]);
    expect((await status(url)).reviews.own).toMatchObject({ published: 1, unpublished: 1 });
  });

  it('refuses to unverify a review that is not verified, changing nothing', async () => {
    const before = fingerprint(db);
    const result = await runCli(['unverify', verified.id, '--reason', 'twice', '--json'], url);
    expect(result.code).toBe(1);
    expect(fingerprint(db)).toEqual(before);
  });
});

describe('log and status', () => {
  const url = `sqlite:${dir.path}/log.db`;
  const file = `${dir.path}/log.json`;
  const reviews = [
    newReview({ id: 'log-a', date: '2026-10-01' }),
    newReview({ id: 'log-b', date: '2026-10-02', verified: false }),
    newReview({ id: 'log-c', date: '2026-10-03', source: 'google' }),
  ];
  let started: string;

  beforeAll(async () => {
    started = new Date().toISOString();
    const steps: string[][] = [
      ['import', writeJson(file, { business, reviews })],
      ['remove', 'log-a', '--reason', 'asked to be forgotten'],
      ['restore', 'log-a', '--reason', 'asked to come back'],
      ['verify', 'log-b', '--reason', 'job card found'],
      ['unverify', 'log-c', '--reason', 'no such job'],
      ['remove', 'log-a', '--reason', 'asked again'],
    ];
    for (const step of steps) {
      const result = await runCli(step, url);
      expect(result.code, `${step.join(' ')}: ${result.stderr}`).toBe(0);
    }
  });

  it("lists every operator change newest first, with reasons, times and the import's details", async () => {
    const log = await readLog(url);
    expect(log.map((e) => [e.action, e.reviewId, e.reason])).toEqual([
      ['remove', 'log-a', 'asked again'],
      ['unverify', 'log-c', 'no such job'],
      ['verify', 'log-b', 'job card found'],
      ['restore', 'log-a', 'asked to come back'],
      ['remove', 'log-a', 'asked to be forgotten'],
      ['import', undefined, undefined],
    ]);
    const times = log.map((e) => e.at);
    for (const at of times) expect(new Date(at).toISOString() >= started, at).toBe(true);
    expect([...times].sort().reverse()).toEqual(times);
    expect(log.at(-1)!.details).toMatchObject({
      files: [file],
      source: 'own',
      added: 3,
      updated: 0,
      removed: 0,
      withdrawn: 0,
    });
  });

  it('limits the log with --limit and filters it with --action; refuses an unknown action with exit 2', async () => {
    expect((await readLog(url, '--limit', '2')).map((e) => e.action)).toEqual(['remove', 'unverify']);
    expect((await readLog(url, '--action', 'remove')).map((e) => e.reason)).toEqual([
      'asked again',
      'asked to be forgotten',
    ]);
    expect((await runCli(['log', '--action', 'delete', '--json'], url)).code).toBe(2);
  });

  it('reports reviews by source and state, the last import, insights, subscriptions and the store', async () => {
    const s = await status(url);
    expect(s.reviews).toEqual({
      own: { published: 1, unpublished: 0, removed: 1, withdrawn: 0, newest: '2026-10-02' },
      google: { published: 0, unpublished: 1, removed: 0, withdrawn: 0, newest: '2026-10-03' },
    });
    expect(s.lastImports).toEqual({
      own: { at: expect.any(String) as unknown, files: [file], added: 3, updated: 0, withdrawn: 0, removed: 0 },
    });
    expect(s.insights).toEqual({ asOf: null, dataVersion: expect.any(String) as unknown, lagging: true });
    expect(s.subscriptions).toEqual({ pending: 0, active: 0, rejected: 0, lapsed: 0 });
    expect(s.pendingDeliveries).toBe(0);
    expect(s.store).toMatchObject({
      engine: 'sqlite',
      schemaVersion: expect.any(String) as unknown,
      revision: expect.any(Number) as unknown,
    });
    expect(s.store.sizeBytes).toBeGreaterThan(0);
  });
});

describe('backup', () => {
  const db = `${dir.path}/live.db`;
  const url = `sqlite:${db}`;
  const SAME_ORIGIN = { ...FAST, BASE_URL: 'http://reviews.example' };
  let server: RunningServer;
  const opened: RunningServer[] = [];

  beforeAll(async () => {
    const demoFile = `${dir.path}/demo-2000.json`;
    const demo = await runCli(['demo', '--reviews', '2000', '--out', demoFile], url);
    expect(demo.code, demo.stderr).toBe(0);
    const imported = await runCli(['import', demoFile], url);
    expect(imported.code, imported.stderr).toBe(0);
    server = await startServer(db, SAME_ORIGIN);
  }, 120_000);
  afterAll(async () => {
    for (const each of opened) await each.close();
    await server.close();
  });

  const inspect = (copy: string) => {
    const sqlite = openSqlite(copy, { readonly: true });
    try {
      const integrity = (sqlite.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[]).map(
        (r) => r.integrity_check,
      );
      const { n } = sqlite
        .prepare(
          'SELECT count(*) AS n FROM reviews WHERE published = 1 AND removed_at IS NULL AND withdrawn_at IS NULL',
        )
        .get() as { n: number };
      const bulk = (sqlite.prepare("SELECT count(*) AS n FROM reviews WHERE id LIKE 'bulk-%'").get() as { n: number })
        .n;
      return { integrity, published: n, bulk };
    } finally {
      sqlite.close();
    }
  };
  const serve = async (path: string) => {
    const copy = await startServer(path, SAME_ORIGIN);
    opened.push(copy);
    return copy;
  };
  const body = async (at: RunningServer) => {
    const res = await fetch(`${at.url}/reviews.json`, { headers: { 'accept-encoding': 'identity' } });
    return { status: res.status, text: await res.text() };
  };

  it('copies the live store consistently while the server serves and an import writes', async () => {
    const batch = Array.from({ length: 5000 }, (_, i) =>
      newReview({ id: `bulk-${String(i).padStart(5, '0')}`, date: '2026-11-20', rating: 1 + (i % 5) }),
    );
    const bulkFile = writeJson(`${dir.path}/bulk.json`, { reviews: batch });
    const statuses = new Set<number>();
    let reading = true;
    const reader = (async () => {
      while (reading) {
        const res = await fetch(`${server.url}/reviews.json`);
        statuses.add(res.status);
        await res.arrayBuffer();
      }
    })();
    // Backups one after another for as long as the import runs, so at least one overlaps its writing.
    let importDone = false;
    const importing = runCli(['import', bulkFile, '--json'], url).finally(() => (importDone = true));
    const copies: string[] = [];
    do {
      const copyPath = `${dir.path}/during-${copies.length}.db`;
      const backup = await runCli(['backup', copyPath, '--json'], url);
      expect(backup.code, backup.stderr).toBe(0);
      copies.push(copyPath);
    } while (!importDone);
    const imported = await importing;
    reading = false;
    await reader;
    expect(imported.code, imported.stderr).toBe(0);
    expect([...statuses]).toEqual([200]);

    for (const copyPath of copies) {
      const { integrity, published, bulk } = inspect(copyPath);
      expect(integrity, copyPath).toEqual(['ok']);
      expect([0, batch.length], `${copyPath} holds part of the import`).toContain(bulk);
      const copy = await serve(copyPath);
      const served = await body(copy);
      expect(served.status).toBe(200);
      expect((JSON.parse(served.text) as Dataset).reviews, copyPath).toHaveLength(published);
    }
    await caughtUp(server, lastJson<{ version: { revision: number } }>(imported.stdout).version.revision);
  }, 180_000);

  it('copies a quiet store so that the copy serves the same /reviews.json bytes', async () => {
    const copyPath = `${dir.path}/quiet.db`;
    const backup = await runCli(['backup', copyPath, '--json'], url);
    expect(backup.code, backup.stderr).toBe(0);
    expect(inspect(copyPath).integrity).toEqual(['ok']);
    const copy = await serve(copyPath);
    const [original, copied] = [await body(server), await body(copy)];
    expect(original.status).toBe(200);
    expect(copied.status).toBe(200);
    expect(copied.text === original.text, 'the copy serves other /reviews.json bytes than the original').toBe(true);
  }, 60_000);

  it('refuses to overwrite an existing file (exit 1), leaving it as it was', async () => {
    const existing = writeJson(`${dir.path}/existing.db`, { keep: 'me' });
    const result = await runCli(['backup', existing, '--json'], url);
    expect(result.code).toBe(1);
    expect(readFileSync(existing, 'utf8')).toBe('{"keep":"me"}');
  });

  describe.skipIf(!postgres)('on PostgreSQL', () => {
    it('exits non-zero naming pg_dump, and copies nothing', async () => {
      const pgUrl = await freshSchema();
      const target = `${dir.path}/pg-copy.db`;
      const result = await runCli(['backup', target], pgUrl);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/pg_dump/);
      expect(existsSync(target)).toBe(false);
    });
  });
});

describe('a removed review in the insights', () => {
  it('is quoted by no insight once the server has built the insights of the data without it', async () => {
    const path = `${dir.path}/insights-removal.db`;
    const url = `sqlite:${path}`;
    const demo = `${dir.path}/insights-removal.json`;
    expect((await runCli(['demo', '--reviews', '300', '--out', demo], url)).code).toBe(0);
    expect((await runCli(['import', demo], url)).code).toBe(0);
    const server = await startServer(path, FAST);
    try {
      await server.app.publisher.insightsReady();
      const insights = () => getJson<{ asOf: string | null }>(server, '/insights.json');
      // Any review id the document names (in quotes, entities, topics or the FAQ) appears as a JSON string.
      const before = JSON.stringify(await insights());
      const quoted = (await dataset(server)).reviews.map((r) => r.id).find((id) => before.includes(`"${id}"`));
      expect(quoted, 'a review the insights cite').toBeDefined();
      const removed = await runCli(['remove', quoted!, '--reason', 'customer asked', '--json'], url);
      expect(removed.code, removed.stderr).toBe(0);
      await until(async () => !(await servedIds(server)).includes(quoted!), 10_000, 'the removal to be served');
      const { publishedAt } = await server.store.currentVersion();
      await until(
        async () => (await insights()).asOf === publishedAt,
        60_000,
        'the insights of the data without the review',
      );
      expect(JSON.stringify(await insights())).not.toContain(`"${quoted}"`);
    } finally {
      await server.close();
    }
  }, 120_000);
});
