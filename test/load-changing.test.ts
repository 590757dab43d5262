// Load while the data changes: 100 clients read every document, search, since and MCP from a real server process
// (or from two replicas on one PostgreSQL schema, half the clients on each) while the CLI imports a batch every few
// seconds. No error, no 5xx, every body parses, and no answer mixes two data versions: each document's bytes hash to
// its own ETag, and each dataset agrees with itself.
// LOAD_TEST_SECONDS sets the duration (20 s by default; the figure is taken with 60).
import { createHash } from 'node:crypto';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { testEngines } from './support/engines.js';
import { mcpRequest, openSession, rpc } from './support/mcp-wire.js';
import { runCli, tempDir, writeJson } from './support/server.js';
import { ServiceProcess, stopAllServices } from './support/service-process.js';
import { until } from './support/wait.js';

const SECONDS = Number(process.env.LOAD_TEST_SECONDS ?? 20);
const CLIENTS = 100;
const dir = tempDir();
const engines = testEngines('load');
afterAll(async () => {
  await stopAllServices();
  dir.remove();
});

const tagOf = (body: Buffer) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

interface Tally {
  requests: number;
  byKind: Map<string, number>;
  problems: string[];
  /** The versions of /reviews.json each server answered with (its ETags), by server URL. */
  reviewsTags: Map<string, Set<string>>;
}

/** One request of a kind, checked; a problem is described, never thrown. */
async function readOnce(url: string, kind: string, sessionId: string, t: Tally): Promise<void> {
  const problem = (what: string) => t.problems.length < 50 && t.problems.push(`${url} ${kind}: ${what}`);
  t.requests++;
  t.byKind.set(kind, (t.byKind.get(kind) ?? 0) + 1);
  try {
    if (kind === 'mcp') {
      const res = await mcpRequest(url, {
        sessionId,
        protocolVersion: '2025-06-18',
        body: rpc('tools/call', { name: 'search_reviews', arguments: { min_rating: 4, limit: 5 } }),
      });
      const result = (
        res.json as { result?: { structuredContent?: { count: number; reviews: unknown[] } } } | undefined
      )?.result;
      if (res.status !== 200 || !result?.structuredContent) problem(`${res.status} ${res.text.slice(0, 200)}`);
      else if (result.structuredContent.count !== result.structuredContent.reviews.length)
        problem('count differs from the reviews listed');
      return;
    }
    const path = {
      reviews: '/reviews.json',
      insights: '/insights.json',
      jsonFeed: '/api/feed.json',
      atomFeed: '/feed.xml',
      search: '/api/reviews/search?min_rating=3&limit=50',
      since: '/api/reviews/since/2026-01-01',
    }[kind]!;
    // Identity, so the bytes can be hashed against the ETag they came with.
    const res = await fetch(`${url}${path}`, { headers: { 'accept-encoding': 'identity' } });
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) return void problem(`status ${res.status}: ${body.toString('utf8').slice(0, 200)}`);
    const etag = res.headers.get('etag');
    if (kind === 'atomFeed') {
      if (XMLValidator.validate(body.toString('utf8')) !== true) problem('the feed is not well-formed XML');
      if (etag !== tagOf(body)) problem('ETag of other bytes');
      return;
    }
    const json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    if (kind === 'search' || kind === 'since') {
      const listed = json as { count: number; reviews: { date: string }[] };
      if (listed.count !== listed.reviews.length) problem('count differs from the reviews listed');
      if (kind === 'since' && listed.reviews.some((r) => r.date < '2026-01-01'))
        problem('a review before the since date');
      return;
    }
    if (etag !== tagOf(body)) problem('ETag of other bytes');
    if (kind === 'reviews') {
      t.reviewsTags.get(url)!.add(etag!);
      const dataset = json as { aggregateRating: { reviewCount: number }; reviews: unknown[] };
      if (dataset.aggregateRating.reviewCount !== dataset.reviews.length)
        problem('aggregate rating of another version');
    }
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    problem(cause?.code ? `${cause.code} (${cause.message})` : (error as Error).message);
  }
}

const KINDS = ['reviews', 'insights', 'jsonFeed', 'atomFeed', 'search', 'since', 'mcp'];
/** Rate limits out of the way: every client comes from 127.0.0.1. */
const UNLIMITED = { RATE_LIMIT_QUERIES_PER_MINUTE: '10000000', RATE_LIMIT_MCP_PER_MINUTE: '10000000' };

/**
 * CLIENTS clients for SECONDS s, spread evenly over `servers` (all serving `databaseUrl`, which holds `demo`), while the
 * CLI imports a batch every 3 s: 25 new reviews, and a new rating for one known review. One MCP session, opened on the
 * first server, is used on all of them (session ids are valid on every replica).
 */
async function loadWhileImporting(
  databaseUrl: string,
  demo: ReturnType<typeof generateDemo>,
  servers: string[],
): Promise<{ tally: Tally; imports: number }> {
  const { sessionId } = await openSession(servers[0]!);
  const tally: Tally = {
    requests: 0,
    byKind: new Map(),
    problems: [],
    reviewsTags: new Map(servers.map((url) => [url, new Set()])),
  };
  const ends = Date.now() + SECONDS * 1000;
  let imports = 0;
  const importer = (async () => {
    for (let batch = 0; Date.now() < ends - 2000; batch++) {
      const reviews = Array.from({ length: 25 }, (_, i) => ({
        ...demo.reviews[i]!,
        id: `load-${batch}-${i}`,
        verified: true,
      }));
      const changed = {
        ...demo.reviews[100 + batch]!,
        rating: ((demo.reviews[100 + batch]!.rating % 5) + 1) as 1 | 2 | 3 | 4 | 5,
      };
      const result = await runCli(
        ['import', writeJson(`${dir.path}/batch-${batch}.json`, { reviews: [...reviews, changed] })],
        databaseUrl,
      );
      if (result.code !== 0) tally.problems.push(`import ${batch} failed: ${result.stderr}`);
      imports++;
      await new Promise((done) => setTimeout(done, 3000));
    }
  })();
  const clients = Array.from({ length: CLIENTS }, async (_, c) => {
    const url = servers[c % servers.length]!;
    for (let n = c; Date.now() < ends; n++) await readOnce(url, KINDS[n % KINDS.length]!, sessionId, tally);
  });
  await Promise.all([importer, ...clients]);
  const versions = servers.map((url) => tally.reviewsTags.get(url)!.size).join(' + ');
  process.stdout.write(
    `load (${servers.length} server${servers.length > 1 ? 's' : ''}): ${tally.requests} requests in ${SECONDS} s (${Math.round(tally.requests / SECONDS)}/s), ${imports} imports, ${versions} versions of /reviews.json seen\n`,
  );
  return { tally, imports };
}

/** The checks every load run must pass. */
function expectClean({ tally, imports }: { tally: Tally; imports: number }, logs: () => string): void {
  expect(tally.problems, logs()).toEqual([]);
  expect(imports).toBeGreaterThanOrEqual(Math.floor(SECONDS / 8));
  // The data did change under the readers of every server, and every kind was read many times.
  for (const [url, tags] of tally.reviewsTags)
    expect(tags.size, `versions of /reviews.json served by ${url}`).toBeGreaterThan(1);
  for (const kind of KINDS) expect(tally.byKind.get(kind) ?? 0).toBeGreaterThan(SECONDS * 5);
}

async function latestDataset(url: string): Promise<{ count: number; etag: string | null }> {
  const res = await fetch(`${url}/reviews.json`, { headers: { 'accept-encoding': 'identity' } });
  const dataset = (await res.json()) as { aggregateRating: { reviewCount: number } };
  return { count: dataset.aggregateRating.reviewCount, etag: res.headers.get('etag') };
}

describe('load while the data changes', () => {
  it(`answers ${CLIENTS} clients for ${SECONDS} s while batches are imported: no error, every body whole and of one version`, async () => {
    const databaseUrl = `sqlite:${dir.path}/load.db`;
    const demo = generateDemo({ seed: 8, reviews: 2000 });
    expect((await runCli(['import', writeJson(`${dir.path}/demo.json`, demo)], databaseUrl)).code).toBe(0);
    const server = await ServiceProcess.create(databaseUrl, {
      LOG_LEVEL: 'warn',
      RELOAD_INTERVAL_MS: '500',
      ...UNLIMITED,
    });
    try {
      await server.start();
      expectClean(await loadWhileImporting(databaseUrl, demo, [server.url]), () => server.log());
    } finally {
      await server.stop('SIGTERM');
    }
  }, 180_000);

  const postgres = engines.find((e) => e.name === 'postgres')!;
  it.skipIf(!postgres.available)(
    `answers ${CLIENTS} clients on two PostgreSQL replicas for ${SECONDS} s while batches are imported: no error, every body whole and of one version, both replicas end on the same`,
    async () => {
      const databaseUrl = await postgres.url();
      const demo = generateDemo({ seed: 8, reviews: 2000 });
      const imported = await runCli(['import', writeJson(`${dir.path}/demo-pg.json`, demo)], databaseUrl);
      expect(imported.code, imported.stderr).toBe(0);
      // Replicas of one service: one BASE_URL, one MCP session secret. The default poll: LISTEN/NOTIFY brings changes.
      const a = await ServiceProcess.create(databaseUrl, {
        LOG_LEVEL: 'warn',
        RELOAD_INTERVAL_MS: '500',
        ...UNLIMITED,
      });
      const b = await ServiceProcess.create(databaseUrl, {
        LOG_LEVEL: 'warn',
        RELOAD_INTERVAL_MS: '500',
        BASE_URL: a.url,
        ...UNLIMITED,
      });
      const logs = () => `replica A:\n${a.log(30)}\nreplica B:\n${b.log(30)}`;
      try {
        await Promise.all([a.start(), b.start()]);
        const run = await loadWhileImporting(databaseUrl, demo, [a.url, b.url]);
        expectClean(run, logs);
        // Once the imports stop, both replicas serve the last version, byte for byte the same.
        const published = demo.reviews.filter((r) => r.verified).length + 25 * run.imports;
        let seen = '';
        await until(
          async () => {
            const [fromA, fromB] = await Promise.all([a.url, b.url].map((url) => latestDataset(url)));
            seen = `A: ${fromA!.count} reviews ${fromA!.etag}, B: ${fromB!.count} reviews ${fromB!.etag}`;
            return fromA!.count === published && fromB!.count === published && fromA!.etag === fromB!.etag;
          },
          15_000,
          () => `both replicas to serve the last version (${published} reviews); last seen ${seen}\n${logs()}`,
        );
      } finally {
        await Promise.all([a.stop('SIGTERM'), b.stop('SIGTERM')]);
      }
    },
    240_000,
  );
});
