// Insights are stored data: served whole from the first request after a restart, rebuilt incrementally after an
// import, built once per version however many processes see it, and never citing a review no longer published.
import { afterAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { engineVersions } from '../src/insights/version.js';
import type { InsightsDocument } from '../src/reviews/insights-document.js';
import { openStore } from '../src/store/open.js';
import type { ImportPlan } from '../src/store/types.js';
import { publish, runCli, startServer, tempDir, writeJson, type RunningServer } from './support/server.js';
import { until } from './support/wait.js';
import { openSqlite } from './support/sqlite.js';

const dir = tempDir();
afterAll(() => dir.remove());
const demo = generateDemo({ seed: 11, reviews: 400 });

async function fetchInsights(server: RunningServer, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/insights.json`, { headers });
  const text = await response.text();
  return { response, text, body: text ? (JSON.parse(text) as InsightsDocument) : undefined };
}

/** Every review id the document cites, in id lists and quotes. */
function citedIds(text: string): Set<string> {
  const ids = new Set<string>();
  JSON.parse(text, (key, value: unknown) => {
    if (key === 'reviewId' && typeof value === 'string') ids.add(value);
    if (
      (key === 'reviewIds' || key === 'examples' || /^(positive|negative|neutral)$/.test(key)) &&
      Array.isArray(value)
    ) {
      for (const v of value) if (typeof v === 'string') ids.add(v);
    }
    return value;
  });
  return ids;
}

/** A server that looks at the store only when told to (publisher.refresh()), so a test decides what it sees when. */
const startQuietServer = (dbPath: string) => startServer(dbPath, { RELOAD_INTERVAL_MS: '600000' });

/**
 * Imports as another process would and holds the new version's insights build as another process would: until
 * `release`, the server serves the new reviews but can only carry its last insights over. Then it takes the build.
 */
async function importHoldingBuild(server: RunningServer, plan: ImportPlan): Promise<{ release: () => Promise<void> }> {
  const { version } = await server.store.applyImport(plan);
  const key = `${engineVersions().document}|${version.publishedAt}`;
  const now = Date.now();
  expect(
    await server.store.insights.claimBuild(
      key,
      'another process',
      new Date(now).toISOString(),
      new Date(now + 60_000).toISOString(),
    ),
  ).toBe(true);
  await server.app.publisher.refresh();
  return { release: () => server.store.insights.releaseBuild(key, 'another process') };
}

/** The analyses stored at one build (the rows it wrote), read from the SQLite file itself. */
function analysesWrittenAt(dbPath: string, generatedAt: string): string[] {
  const db = openSqlite(dbPath, { readonly: true });
  try {
    return (
      db.prepare('SELECT review_id FROM review_analyses WHERE analysed_at = ?').all(generatedAt) as {
        review_id: string;
      }[]
    ).map((r) => r.review_id);
  } finally {
    db.close();
  }
}

describe('stored insights', () => {
  const dbPath = `${dir.path}/restart.db`;

  it('serves the same complete document, ETag and Last-Modified from the first request after a restart', async () => {
    const first = await startServer(dbPath);
    await publish(first, { business: demo.business, reviews: demo.reviews, replace: true });
    await first.app.publisher.insightsReady();
    const before = await fetchInsights(first);
    const beforeBr = await fetchInsights(first, { 'accept-encoding': 'br' });
    expect(before.body?.status).toBe('ready');
    expect(before.response.headers.get('last-modified')).not.toBeNull();
    await first.close();

    const second = await startServer(dbPath);
    try {
      const after = await fetchInsights(second);
      expect(after.body?.status).toBe('ready');
      expect(after.text).toBe(before.text);
      expect(after.response.headers.get('etag')).toBe(before.response.headers.get('etag'));
      expect(after.response.headers.get('last-modified')).toBe(before.response.headers.get('last-modified'));
      const revalidated = await fetch(`${second.url}/insights.json`, {
        headers: { 'if-none-match': before.response.headers.get('etag')! },
      });
      expect(revalidated.status).toBe(304);
      const revalidatedBr = await fetch(`${second.url}/insights.json`, {
        headers: { 'accept-encoding': 'br', 'if-none-match': beforeBr.response.headers.get('etag')! },
      });
      expect(revalidatedBr.status).toBe(304);
      const byDate = await fetch(`${second.url}/insights.json`, {
        headers: { 'if-modified-since': before.response.headers.get('last-modified')! },
      });
      expect(byDate.status).toBe(304);
      // Nothing changed, so nothing was built again.
      await second.app.publisher.insightsReady();
      expect((await fetchInsights(second)).text).toBe(before.text);
    } finally {
      await second.close();
    }
  });

  it('builds a store larger than one part of a delta sent to the thread (12,000 reviews), then one review more', async () => {
    const large = generateDemo({ seed: 12, reviews: 12_000 });
    const server = await startServer(`${dir.path}/large.db`);
    try {
      await publish(server, { business: large.business, reviews: large.reviews, replace: true });
      await server.app.publisher.insightsReady();
      const published = large.reviews.filter((r) => r.verified).length;
      expect((await fetchInsights(server)).body!.reviewCount).toBe(published);
      await publish(server, {
        reviews: [
          {
            id: 'zz-large-one-more',
            date: '2026-11-20',
            rating: 5,
            text: 'On time.',
            author: 'O M.',
            technicians: [],
            services: [],
            verified: true,
          },
        ],
        replace: false,
      });
      await server.app.publisher.insightsReady();
      expect((await fetchInsights(server)).body!.reviewCount).toBe(published + 1);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('analyses only the imported review again, and the new document lands', async () => {
    const server = await startServer(dbPath);
    try {
      const before = await fetchInsights(server);
      const analysed: number[] = [];
      server.app.publisher.on('insights', (_view, count) => analysed.push(count));
      const file = writeJson(`${dir.path}/one.json`, {
        reviews: [
          {
            id: 'zz-one-more',
            date: '2026-11-20',
            rating: 5,
            text: 'Zoë showed up on time and fixed the AC fast. Fair price.',
            author: 'O M.',
            verified: true,
          },
        ],
      });
      expect((await runCli(['import', file], server.databaseUrl)).code).toBe(0);
      await server.app.publisher.refresh();
      await server.app.publisher.insightsReady();
      const after = await fetchInsights(server);
      expect(analysed).toEqual([1]);
      expect(after.body!.reviewCount).toBe(before.body!.reviewCount + 1);
      expect(after.body!.asOf).toBe(server.app.publisher.current().snapshot.version.publishedAt);
      expect(after.response.headers.get('etag')).not.toBe(before.response.headers.get('etag'));
      expect(analysesWrittenAt(dbPath, after.body!.generatedAt!)).toEqual(['zz-one-more']);
      // Its Last-Modified is that of the data it describes, as for every document of the data.
      expect(after.response.headers.get('last-modified')).toBe(
        server.app.publisher.current().lastModified!.toUTCString(),
      );
      expect(citedIds(after.text).has('zz-one-more')).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('keeps serving the last complete insights, bytes and validators unchanged, until the new version is built', async () => {
    const server = await startQuietServer(dbPath);
    try {
      const before = await fetchInsights(server);
      const held = await importHoldingBuild(server, {
        reviews: [
          {
            id: 'zz-stale',
            date: '2026-11-19',
            rating: 4,
            text: 'On time and tidy.',
            author: 'S T.',
            technicians: [],
            services: [],
            verified: true,
          },
        ],
        replace: false,
      });
      const carried = await fetchInsights(server);
      expect(carried.response.headers.get('etag')).toBe(before.response.headers.get('etag'));
      expect(carried.response.headers.get('last-modified')).toBe(before.response.headers.get('last-modified'));
      expect(carried.text).toBe(before.text);
      // The document says which data it describes: older than the reviews now served.
      expect(Date.parse(carried.body!.asOf!)).toBeLessThan(
        Date.parse(server.app.publisher.current().snapshot.version.publishedAt!),
      );
      await held.release();
      await server.app.publisher.insightsReady();
      const fresh = await fetchInsights(server);
      expect(fresh.body!.asOf).toBe(server.app.publisher.current().snapshot.version.publishedAt);
      expect(fresh.body!.reviewCount).toBe(server.app.publisher.current().snapshot.reviews.length);
      expect(fresh.response.headers.get('last-modified')).toBe(
        server.app.publisher.current().lastModified!.toUTCString(),
      );
    } finally {
      await server.close();
    }
  });

  it('drops a review from the served insights as soon as the import that unpublishes it is served', async () => {
    const server = await startQuietServer(dbPath);
    try {
      const before = await fetchInsights(server);
      const quoted = before.body!.aspects.flatMap((a) => [...a.quotes.positive, ...a.quotes.negative])[0]!.reviewId;
      const record = demo.reviews.find((r) => r.id === quoted)!;
      const held = await importHoldingBuild(server, { reviews: [{ ...record, verified: false }], replace: false });
      // The new version's insights are not built yet: what is served is the last document without the review.
      const carried = await fetchInsights(server);
      expect(carried.body!.asOf).toBe(before.body!.asOf);
      expect(citedIds(before.text).has(quoted)).toBe(true);
      expect(citedIds(carried.text).has(quoted)).toBe(false);
      expect(carried.text).not.toContain(`"${quoted}"`);
      expect(carried.response.headers.get('etag')).not.toBe(before.response.headers.get('etag'));
      // Its bytes changed with that import: Last-Modified moves to it.
      expect(carried.response.headers.get('last-modified')).toBe(
        server.app.publisher.current().lastModified!.toUTCString(),
      );
      await held.release();
      await server.app.publisher.insightsReady();
      expect((await fetchInsights(server)).text).not.toContain(`"${quoted}"`);
      // Its analysis does not outlive its publication either.
      expect((await server.store.insights.readAnalyses([quoted])).length).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe('an engine upgrade', () => {
  it("serves the previous engine's document until the new engine has built its own, which moves Last-Modified", async () => {
    const dbPath = `${dir.path}/upgrade.db`;
    const first = await startServer(dbPath);
    await publish(first, { business: demo.business, reviews: demo.reviews.slice(0, 120), replace: true });
    await first.app.publisher.insightsReady();
    const before = await fetchInsights(first);
    await first.close();
    // As if an earlier release of the engine had built what is stored.
    const db = openSqlite(dbPath);
    db.prepare("UPDATE insights_documents SET engine_version = 'an earlier engine'").run();
    db.close();

    const second = await startServer(dbPath);
    try {
      const served = await fetchInsights(second);
      expect(served.text).toBe(before.text);
      expect(served.response.headers.get('etag')).toBe(before.response.headers.get('etag'));
      await second.app.publisher.insightsReady();
      const rebuilt = await fetchInsights(second);
      expect(rebuilt.body!.asOf).toBe(before.body!.asOf);
      expect(rebuilt.body!.generatedAt).not.toBe(before.body!.generatedAt);
      expect(rebuilt.response.headers.get('etag')).not.toBe(before.response.headers.get('etag'));
      // The bytes of the same data changed now, so an If-Modified-Since revalidation must not keep the old ones
      // (also when the rebuild came within the second of the old document: that date then names neither).
      const lastModified = rebuilt.response.headers.get('last-modified')!;
      expect(lastModified).toBe(
        new Date(Math.floor(Date.parse(rebuilt.body!.generatedAt!) / 1000) * 1000).toUTCString(),
      );
      expect(Date.parse(lastModified)).toBeGreaterThanOrEqual(
        Date.parse(before.response.headers.get('last-modified')!),
      );
      const revalidated = await fetch(`${second.url}/insights.json`, {
        headers: { 'if-modified-since': before.response.headers.get('last-modified')! },
      });
      expect(revalidated.status).toBe(200);
      expect(await revalidated.text()).toBe(rebuilt.text);
    } finally {
      await second.close();
    }
  });
});

describe('a store whose insights were never built', () => {
  it('answers the pending document with Retry-After while another process holds the build, then the built one', async () => {
    const dbPath = `${dir.path}/claimed.db`;
    const server = await startQuietServer(dbPath);
    try {
      // Another process holds the build of the version about to be published, and keeps it for now.
      const held = await importHoldingBuild(server, {
        business: demo.business,
        reviews: demo.reviews.slice(0, 60),
        replace: true,
      });
      const { version } = server.app.publisher.current().snapshot;
      const pending = await fetchInsights(server);
      expect(pending.response.status).toBe(200);
      expect(pending.body).toMatchObject({ status: 'building', asOf: null, aspects: [], faq: [] });
      expect(pending.response.headers.get('retry-after')).toBe('5');
      expect(pending.response.headers.get('cache-control')).toBe('no-store');
      expect(pending.response.headers.get('last-modified')).toBeNull();
      // The other process gives up its claim: this one takes the build over.
      await held.release();
      await server.app.publisher.insightsReady();
      const built = await fetchInsights(server);
      expect(built.body).toMatchObject({ status: 'ready', asOf: version.publishedAt });
      expect(built.response.headers.get('retry-after')).toBeNull();
    } finally {
      await server.close();
    }
  });

  it('is built by one process when two serve the same store', async () => {
    const dbPath = `${dir.path}/two.db`;
    const store = await openStore(`sqlite:${dbPath}`);
    await store.applyImport({ business: demo.business, reviews: demo.reviews, replace: true });
    await store.close();
    // Both start on reviews without insights; each begins catching up as it starts.
    const analysed: number[] = [];
    const [a, b] = await Promise.all([startServer(dbPath), startServer(dbPath)]);
    try {
      for (const s of [a, b]) s.app.publisher.on('insights', (_view, count) => analysed.push(count));
      await Promise.all([a.app.publisher.insightsReady(), b.app.publisher.insightsReady()]);
      const published = a.app.publisher.current().snapshot.reviews.length;
      expect(analysed.sort((x, y) => x - y)).toEqual([0, published]);
      expect((await fetchInsights(a)).text).toBe((await fetchInsights(b)).text);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('stopping mid-build', () => {
  it('gives the build up, releases its claim and leaves no lock on the store behind', async () => {
    const dbPath = `${dir.path}/stopping.db`;
    const seed = await openStore(`sqlite:${dbPath}`);
    const large = generateDemo({ seed: 12, reviews: 4000 });
    const { version } = await seed.applyImport({ business: large.business, reviews: large.reviews, replace: true });
    await seed.close();
    // It starts building at once (4,000 reviews take seconds to analyse); it is stopped once it holds the claim.
    const server = await startServer(dbPath);
    const reader = openSqlite(dbPath, { readonly: true });
    await until(
      () => reader.prepare('SELECT owner FROM insights_builds').get() !== undefined,
      30_000,
      'the build to be claimed',
    );
    reader.close();
    await server.close();
    // No write lock left: with no busy timeout at all, a write transaction starts at once.
    const db = openSqlite(dbPath, { timeout: 0 });
    try {
      expect(() => db.exec('BEGIN IMMEDIATE; ROLLBACK')).not.toThrow();
    } finally {
      db.close();
    }
    const store = await openStore(`sqlite:${dbPath}`);
    try {
      const now = Date.now();
      const key = `${engineVersions().document}|${version.publishedAt}`;
      expect(
        await store.insights.claimBuild(
          key,
          'next process',
          new Date(now).toISOString(),
          new Date(now + 60_000).toISOString(),
        ),
      ).toBe(true);
    } finally {
      await store.close();
    }
  });
});
