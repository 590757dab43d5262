// What only PostgreSQL has to get right, with several processes on one database: migrations started together,
// deliveries claimed by several workers, the same change announced by several replicas, and change notices (sent at
// commit, reconnected after a lost connection).
import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoreChange } from '../src/store/dialect.js';
import { ownFields } from '../src/store/import-staging.js';
import { openStore } from '../src/store/open.js';
import type { Store } from '../src/store/types.js';
import {
  dropPostgresSchema,
  freshPostgresUrl,
  POSTGRES_URL,
  postgres,
  schemaOf,
  schemasPerFile,
  withPostgres,
} from './support/postgres.js';
import { newReview } from './support/reviews.js';
import { until } from './support/wait.js';

const freshUrl = schemasPerFile();
let stores: Store[] = [];

async function open(url: string): Promise<Store> {
  const store = await openStore(url);
  stores.push(store);
  return store;
}

afterEach(async () => {
  await Promise.all(stores.map((s) => s.close()));
  stores = [];
});

const query = <T extends object>(text: string, values: unknown[] = []): Promise<T[]> =>
  withPostgres(POSTGRES_URL, async (client) => (await client.query<T & pg.QueryResultRow>(text, values)).rows);

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();
const TOPIC = 'https://reviews.example/reviews.json';

/** `n` active subscriptions of TOPIC with a day's lease. */
async function subscribers(store: Store, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await store.websub.activate(
      TOPIC,
      `https://s${i}.example/cb`,
      { secret: null, leaseSeconds: 86_400, expiresAt: at(86_400_000) },
      at(0),
    );
  }
}

/** Collects the changes a store hears. */
function heard(store: Store): StoreChange[] {
  const changes: StoreChange[] = [];
  store.watch((change) => changes.push(change));
  return changes;
}

describe.skipIf(!postgres)('PostgreSQL with several processes', () => {
  it('migrates once when six processes open a new database at the same moment', async () => {
    const url = await freshUrl();
    await Promise.all(Array.from({ length: 6 }, () => open(url)));
    const applied = await query<{ name: string; n: string }>(
      `SELECT name, count(*) AS n FROM ${schemaOf(url)}.kysely_migration GROUP BY name`,
    );
    expect(applied.length).toBeGreaterThanOrEqual(7);
    expect(applied.every((row) => Number(row.n) === 1)).toBe(true);
    expect((await stores[5]!.currentVersion()).revision).toBe(0);
  });

  it('migrates in its own schema while other schemas of the database are dropped', async () => {
    // Kysely's stock introspection read every schema's tables, and failed when one was dropped meanwhile.
    for (let round = 0; round < 3; round++) {
      const others = await Promise.all(Array.from({ length: 24 }, () => freshPostgresUrl()));
      await Promise.all(
        others.map((other) =>
          withPostgres(other, (client) =>
            client.query(
              Array.from({ length: 8 }, (_, i) => `CREATE TABLE t${i} (id serial PRIMARY KEY, v text)`).join(';'),
            ),
          ),
        ),
      );
      const opening = Promise.all(Array.from({ length: 4 }, async () => open(await freshUrl())));
      await Promise.all([opening, ...others.map((other) => dropPostgresSchema(other))]);
    }
  });

  it('gives each due delivery to one of several workers claiming at once', async () => {
    const url = await freshUrl();
    const [a, b, c] = await Promise.all([open(url), open(url), open(url)]);
    await subscribers(a!, 60);
    expect(await a!.websub.announce(TOPIC, 'tag-1', 1, at(0))).toBe(60);
    const claims = await Promise.all(
      [a!, b!, c!, a!, b!, c!].map((store) => store.websub.claimDue(15, at(1), at(60_000), 1)),
    );
    const ids = claims.flat().map((d) => d.subscription.id);
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
    // A claim that lapsed (its worker died) goes to the next worker, once.
    const retaken = await Promise.all([b!, c!].map((store) => store.websub.claimDue(100, at(60_001), at(120_000), 1)));
    expect(retaken.flat()).toHaveLength(60);
    expect(new Set(retaken.flat().map((d) => d.subscription.id)).size).toBe(60);
  });

  it('queues a change announced by several replicas at once for each subscriber once', async () => {
    const url = await freshUrl();
    const replicas = await Promise.all([open(url), open(url), open(url)]);
    await subscribers(replicas[0]!, 20);
    for (let revision = 1; revision <= 5; revision++) {
      const queued = await Promise.all(
        replicas.map((store) => store.websub.announce(TOPIC, `tag-${revision}`, revision, at(revision))),
      );
      expect(queued.sort()).toEqual([0, 0, 20]);
      const due = await replicas[1]!.websub.claimDue(100, at(revision), at(revision), revision);
      expect(due).toHaveLength(20);
      expect(due.every((d) => d.revision === revision)).toBe(true);
    }
  });

  it('numbers two imports committed side by side one after the other, so a reader that read the first also gets the second', async () => {
    const url = await freshUrl();
    const [a, b, reader] = await Promise.all([open(url), open(url), open(url)]);
    for (let round = 0; round < 5; round++) {
      const seen = await reader.readPublished();
      const known = new Map(seen.reviews.map((r) => [r.id, r]));
      const [first, second] = await Promise.all([
        a.applyImport({
          reviews: Array.from({ length: 300 }, (_, i) => newReview({ id: `a-${round}-${i}` })),
          replace: false,
        }),
        b.applyImport({
          reviews: Array.from({ length: 300 }, (_, i) => newReview({ id: `b-${round}-${i}` })),
          replace: false,
        }),
      ]);
      expect([first.version.revision, second.version.revision].sort((x, y) => x - y)).toEqual([
        seen.version.revision + 1,
        seen.version.revision + 2,
      ]);
      const rows = await query<{ revision: number; n: string }>(
        `SELECT revision, count(*) AS n FROM ${schemaOf(url)}.reviews WHERE revision > $1 GROUP BY revision ORDER BY revision`,
        [seen.version.revision],
      );
      expect(rows.map((r) => [r.revision, Number(r.n)])).toEqual([
        [seen.version.revision + 1, 300],
        [seen.version.revision + 2, 300],
      ]);
      const changes = await reader.readChanges(seen.version.revision, known);
      expect(changes.delta.upsert).toHaveLength(600);
      expect(changes.version.revision).toBe(seen.version.revision + 2);
    }
  });

  it('renews the statistics after a large import, so that reading the published reviews a page at a time walks the index', async () => {
    const url = await freshUrl();
    const store = await open(url);
    const day = (i: number) => new Date(Date.UTC(2020, 0, 1) + (i % 2000) * 86_400_000).toISOString().slice(0, 10);
    await store.applyImport({
      reviews: Array.from({ length: 20_000 }, (_, i) => newReview({ id: `big-${i}`, date: day(i) })),
      replace: false,
    });
    // The query of each page after the first (src/store/kysely-store.ts, readPublished), from the middle.
    const plan = await query<{ 'QUERY PLAN': unknown }>(
      `EXPLAIN (FORMAT JSON) SELECT * FROM ${schemaOf(url)}.reviews WHERE published = 1 AND (date, id) < ($1, $2) ORDER BY date DESC, id DESC LIMIT 2000`,
      [day(1000), 'big-1000'],
    );
    const text = JSON.stringify(plan[0]!['QUERY PLAN']);
    // Without statistics the planner took a bitmap scan of every row left and sorted them, at every page.
    expect(text).not.toContain('"Node Type":"Sort"');
    expect(text).toContain('reviews_published_order');
    const [table] = await query<{ reltuples: number }>(
      `SELECT reltuples FROM pg_class WHERE oid = '${schemaOf(url)}.reviews'::regclass`,
    );
    expect(Number(table!.reltuples)).toBeGreaterThan(10_000);
    expect((await store.readPublished()).reviews).toHaveLength(20_000);
  });

  it('tells every process what another committed, once per import, and nothing of another schema', async () => {
    const url = await freshUrl();
    const [writer, reader] = await Promise.all([open(url), open(url)]);
    const other = await open(await freshUrl());
    const changes = heard(reader);
    const elsewhere = heard(other);
    // The listener connects when the first watcher comes.
    await until(
      async () =>
        (
          await query(`SELECT 1 FROM pg_stat_activity WHERE application_name = $1`, [
            `reviews-service notices ${schemaOf(url)}`,
          ])
        ).length === 1,
      5000,
      () => 'the listener to connect',
    );

    await writer.applyImport({ reviews: [newReview({ id: 'r1' })], replace: false });
    await until(
      async () => changes.some((c) => c.kind === 'data'),
      2000,
      () => `the import to be heard: ${JSON.stringify(changes)}`,
    );
    expect(changes.filter((c) => c.kind === 'data')).toHaveLength(1);

    await writer.revokeSession('session-1', at(86_400_000));
    await until(
      async () => changes.some((c) => c.kind === 'revoked' && c.id === 'session-1'),
      2000,
      () => 'the revocation to be heard',
    );
    await writer.insights.saveDocument({
      engineVersion: 'e',
      asOf: at(1),
      generatedAt: at(2),
      lastModified: at(1),
      reviewCount: 1,
      document: '{}',
      compressed: null,
    });
    await until(
      async () => changes.some((c) => c.kind === 'insights'),
      2000,
      () => 'the stored insights to be heard',
    );
    expect(elsewhere).toEqual([]);
  });

  it('survives PostgreSQL ending its connections, idle or in use between two statements: that work fails, the next succeeds', async () => {
    // `pg` reports an ended connection as an 'error' event, which ends the process when nobody listens (here, vitest
    // reports it as an unhandled error). An import holds one connection from its first statement to its last.
    const url = new URL(await freshUrl());
    const name = `reviews-ended-${schemaOf(url.href)}`;
    url.searchParams.set('application_name', name);
    const logged: string[] = [];
    const log = {
      info: () => undefined,
      warn: (fields: object, message: string) => logged.push(`${message} ${JSON.stringify(fields)}`),
    };
    const store = await openStore(url.href, { log });
    stores.push(store);
    const backends = () =>
      query<{ pid: number; state: string }>(`SELECT pid, state FROM pg_stat_activity WHERE application_name = $1`, [
        name,
      ]);
    const import_ = store.stageImport(async (staging) => {
      await staging.add([
        { review: { ...ownFields(newReview({ id: 'in-flight' })), language: 'en' }, location: 'reviews[0]' },
      ]);
      // Every connection of this store ends: the import's own, checked out and between two statements, and those idle in the pool.
      const ended = await backends();
      expect(ended.length).toBeGreaterThanOrEqual(1);
      await query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [name]);
      await until(async () => (await backends()).length === 0, 5000, 'the connections to end');
      return staging.apply({ replace: false });
    });
    await expect(import_).rejects.toThrow();
    expect(logged.some((m) => m.startsWith('a PostgreSQL connection was closed'))).toBe(true);
    // Nothing of it landed, and the store goes on with new connections.
    expect((await store.currentVersion()).revision).toBe(0);
    await store.applyImport({ reviews: [newReview({ id: 'after' })], replace: false });
    expect((await store.currentVersion()).revision).toBe(1);
  });

  it('listens again after its connection is killed, says so, and tells its watchers to look for what they missed', async () => {
    const url = await freshUrl();
    const logged: string[] = [];
    const log = {
      info: (_: object, message: string) => logged.push(message),
      warn: (_: object, message: string) => logged.push(message),
    };
    const reader = await openStore(url, { log });
    stores.push(reader);
    const writer = await open(url);
    const changes = heard(reader);
    const listener = `reviews-service notices ${schemaOf(url)}`;
    const backend = () =>
      query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE application_name = $1`, [listener]);
    await until(
      async () => (await backend()).length === 1,
      5000,
      () => 'the listener to connect',
    );
    const [{ pid }] = (await backend()) as [{ pid: number }];

    await query('SELECT pg_terminate_backend($1)', [pid]);
    // Committed while nobody listened: its notice is lost, and `resumed` stands for it.
    await writer.applyImport({ reviews: [newReview({ id: 'while-away' })], replace: false });
    await until(
      async () => changes.some((c) => c.kind === 'resumed'),
      10_000,
      () => `the listener to come back: ${logged.join(' | ')}`,
    );
    expect(logged.some((m) => m.startsWith('store notices: connection to PostgreSQL lost'))).toBe(true);
    expect(logged.some((m) => m.startsWith('store notices: listening again'))).toBe(true);
    expect((await backend())[0]?.pid).not.toBe(pid);

    const before = changes.length;
    await writer.applyImport({ reviews: [newReview({ id: 'after' })], replace: false });
    await until(
      async () => changes.slice(before).some((c) => c.kind === 'data'),
      2000,
      () => 'the next import to be heard',
    );
  });
});
