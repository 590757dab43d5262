// Load while the data changes: 100 clients read every document, search, since and MCP from a real server process
// while the CLI imports a batch every few seconds. No error, no 5xx, every body parses, and no answer mixes two data
// versions: each document's bytes hash to its own ETag, and each dataset agrees with itself.
// LOAD_TEST_SECONDS sets the duration (20 s by default; the figure is taken with 60).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { mcpRequest, openSession, rpc } from './support/mcp-wire.js';
import { CLI, freePort, inheritedEnv, runCli, tempDir, untilServing, writeJson } from './support/server.js';

const SECONDS = Number(process.env.LOAD_TEST_SECONDS ?? 20);
const CLIENTS = 100;
const dir = tempDir();
afterAll(() => dir.remove());

const tagOf = (body: Buffer) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

interface Tally {
  requests: number;
  byKind: Map<string, number>;
  problems: string[];
  reviewsTags: Set<string>;
}

/** One request of a kind, checked; a problem is described, never thrown. */
async function readOnce(url: string, kind: string, sessionId: string, t: Tally): Promise<void> {
  const problem = (what: string) => t.problems.length < 50 && t.problems.push(`${kind}: ${what}`);
  t.requests++;
  t.byKind.set(kind, (t.byKind.get(kind) ?? 0) + 1);
  try {
    if (kind === 'mcp') {
      const res = await mcpRequest(url, { sessionId, protocolVersion: '2025-06-18', body: rpc('tools/call', { name: 'search_reviews', arguments: { min_rating: 4, limit: 5 } }) });
      const result = (res.json as { result?: { structuredContent?: { count: number; reviews: unknown[] } } } | undefined)?.result;
      if (res.status !== 200 || !result?.structuredContent) problem(`${res.status} ${res.text.slice(0, 200)}`);
      else if (result.structuredContent.count !== result.structuredContent.reviews.length) problem('count differs from the reviews listed');
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
      if (kind === 'since' && listed.reviews.some((r) => r.date < '2026-01-01')) problem('a review before the since date');
      return;
    }
    if (etag !== tagOf(body)) problem('ETag of other bytes');
    if (kind === 'reviews') {
      t.reviewsTags.add(etag!);
      const dataset = json as { aggregateRating: { reviewCount: number }; reviews: unknown[] };
      if (dataset.aggregateRating.reviewCount !== dataset.reviews.length) problem('aggregate rating of another version');
    }
  } catch (error) {
    problem(String((error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message));
  }
}

describe('load while the data changes', () => {
  it(`answers ${CLIENTS} clients for ${SECONDS} s while batches are imported: no error, every body whole and of one version`, async () => {
    const databaseUrl = `sqlite:${dir.path}/load.db`;
    const demo = generateDemo({ seed: 8, reviews: 2000 });
    expect((await runCli(['import', writeJson(`${dir.path}/demo.json`, demo)], databaseUrl)).code).toBe(0);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const limits = { RATE_LIMIT_QUERIES_PER_MINUTE: '10000000', RATE_LIMIT_MCP_PER_MINUTE: '10000000' };
    const child = spawn(process.execPath, [CLI, 'serve'], {
      env: { ...inheritedEnv(), DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...limits },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      await untilServing(url, child, () => stderr, 60_000);
      const { sessionId } = await openSession(url);
      const tally: Tally = { requests: 0, byKind: new Map(), problems: [], reviewsTags: new Set() };
      const kinds = ['reviews', 'insights', 'jsonFeed', 'atomFeed', 'search', 'since', 'mcp'];
      const ends = Date.now() + SECONDS * 1000;

      // Every 3 s a batch: 25 new reviews, and a new rating for one known review.
      let imports = 0;
      const importer = (async () => {
        for (let batch = 0; Date.now() < ends - 2000; batch++) {
          const reviews = Array.from({ length: 25 }, (_, i) => ({ ...demo.reviews[i]!, id: `load-${batch}-${i}`, verified: true }));
          const changed = { ...demo.reviews[100 + batch]!, rating: ((demo.reviews[100 + batch]!.rating % 5) + 1) as 1 | 2 | 3 | 4 | 5 };
          const result = await runCli(['import', writeJson(`${dir.path}/batch-${batch}.json`, { reviews: [...reviews, changed] })], databaseUrl);
          if (result.code !== 0) tally.problems.push(`import ${batch} failed: ${result.stderr}`);
          imports++;
          await new Promise((done) => setTimeout(done, 3000));
        }
      })();
      const clients = Array.from({ length: CLIENTS }, async (_, c) => {
        for (let n = c; Date.now() < ends; n++) await readOnce(url, kinds[n % kinds.length]!, sessionId, tally);
      });
      await Promise.all([importer, ...clients]);

      process.stdout.write(`load: ${tally.requests} requests in ${SECONDS} s (${Math.round(tally.requests / SECONDS)}/s), ${imports} imports, ${tally.reviewsTags.size} versions of /reviews.json seen\n`);
      expect(tally.problems).toEqual([]);
      expect(imports).toBeGreaterThanOrEqual(Math.floor(SECONDS / 8));
      // The data did change under the readers, and every kind was read many times.
      expect(tally.reviewsTags.size).toBeGreaterThan(1);
      for (const kind of kinds) expect(tally.byKind.get(kind) ?? 0).toBeGreaterThan(SECONDS * 5);
    } finally {
      child.kill('SIGTERM');
      await new Promise((done) => child.once('exit', done));
    }
  }, 180_000);
});
