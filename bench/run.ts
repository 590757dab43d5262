// `npm run bench`: import, startup, memory and size figures, and throughput as ratios against a baseline run side by side.
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { generateDemo } from '../src/demo/generate.js';
import { rssMiB, until, waitFor } from './process.js';
import { benchImportStall } from './import-stall.js';
import { benchReplicas } from './replicas.js';
import { benchRestart } from './restart.js';
import { benchWebSub } from './websub.js';
import { SearchIndex, type SearchParams } from '../src/reviews/search.js';
import { fold, technicianKeys } from '../src/reviews/text.js';
import { openStore } from '../src/store/open.js';
import type { PublishedReview } from '../src/reviews/published.js';

const root = resolve(import.meta.dirname, '../..');
const cli = join(root, 'dist/src/cli/main.js');
const main = join(root, 'dist/src/main.js');

const { values } = parseArgs({
  options: {
    reviews: { type: 'string', default: '1500,100000' },
    duration: { type: 'string', default: '5' },
    subscribers: { type: 'string', default: '1000' },
    only: { type: 'string' },
    /** Reviews in the file imported by `--only stall` (330,000: about 150 MB). */
    stall: { type: 'string', default: '330000' },
  },
});
const sizes = values.reviews!.split(',').map(Number);
const duration = Number(values.duration);
const work = mkdtempSync(join(tmpdir(), 'reviews-bench-'));
const rows: string[][] = [];
const row = (...cells: (string | number)[]) => {
  rows.push(cells.map(String));
  process.stderr.write(`  ${cells.join('  ')}\n`);
};
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const env = (extra: Record<string, string>) => {
  const e: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent', ...extra };
  return e;
};

/** The rate limits raised out of the way: the bench measures serving, not the allowance. */
const UNLIMITED = { RATE_LIMIT_QUERIES_PER_MINUTE: '1000000000', RATE_LIMIT_MCP_PER_MINUTE: '1000000000' };

/** Load with autocannon; every answer must have the expected status, or the figure would measure refusals. */
async function load(url: string, options: { headers?: Record<string, string>; requests?: autocannon.Request[]; method?: 'POST'; body?: string; status?: number } = {}) {
  const { status = 200, ...rest } = options;
  const result = await autocannon({ url, connections: 10, duration, ...rest });
  const other = Object.entries(result.statusCodeStats ?? {}).filter(([code]) => Number(code) !== status);
  if (other.length > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${url}: expected only ${status}, got ${JSON.stringify(result.statusCodeStats)}, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return { rps: result.requests.average, p99: result.latency.p99 };
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** tools/call search_reviews in a 2025-06-18 session (initialize once, then every call carries the session id). */
async function loadMcpSession(base: string, args: Record<string, unknown>) {
  const init = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: MCP_HEADERS,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }),
  });
  const session = init.headers.get('mcp-session-id')!;
  const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_reviews', arguments: args } });
  return load(`${base}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }, body });
}

const MODERN_META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };

/** A 2026-07-28 tools/list, one connection (the time one answer takes). */
async function loadMcpList(base: string) {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: MODERN_META } });
  const headers = { ...MCP_HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };
  const result = await autocannon({ url: `${base}/mcp`, connections: 1, duration, method: 'POST', headers, body });
  if (result.non2xx > 0) throw new Error(`tools/list: ${result.non2xx} answers were not 200`);
  return { rps: result.requests.average, mean: result.latency.mean };
}

/** The same call as a self-contained 2026-07-28 request (no session; version and client in `_meta`). */
async function loadMcpStateless(base: string, args: Record<string, unknown>) {
  const _meta = MODERN_META;
  const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_reviews', arguments: args, _meta } });
  const probe = await fetch(`${base}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'search_reviews' }, body });
  const answer = (await probe.json()) as { result?: { structuredContent?: unknown } };
  if (!answer.result?.structuredContent) throw new Error(`2026-07-28 tools/call did not answer a result: ${JSON.stringify(answer).slice(0, 300)}`);
  return load(`${base}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'search_reviews' }, body });
}

function bruteForce(reviews: readonly PublishedReview[], p: SearchParams): number {
  const q = p.query === undefined ? undefined : fold(p.query);
  const tech = p.mentions_technician === undefined ? undefined : fold(p.mentions_technician);
  let total = 0;
  for (const r of reviews) {
    if (p.rating !== undefined && r.rating !== p.rating) continue;
    if (p.min_rating !== undefined && r.rating < p.min_rating) continue;
    if (p.since !== undefined && r.date < p.since) continue;
    if (p.until !== undefined && r.date > p.until) continue;
    if (p.mentions_service !== undefined && !r.services.includes(p.mentions_service)) continue;
    if (tech !== undefined && !r.technicians.some((t) => technicianKeys(t).includes(tech))) continue;
    if (q !== undefined && !fold(r.text).includes(q)) continue;
    total++;
  }
  return total;
}

function opsPerSecond(fn: () => void, ms = 1500): number {
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    fn();
    n++;
  }
  return n / ((performance.now() - start) / 1000);
}

async function benchSize(size: number, port: number): Promise<void> {
  process.stderr.write(`\n${size.toLocaleString('en-US')} reviews\n`);
  const file = join(work, `demo-${size}.json`);
  const demo = generateDemo({ reviews: size });
  writeFileSync(file, JSON.stringify(demo));
  const db = `sqlite:${join(work, `bench-${size}.db`)}`;

  let start = performance.now();
  execFileSync(process.execPath, [cli, 'import', file], { env: env({ DATABASE_URL: db }), stdio: 'ignore' });
  row(size, 'import (CLI, whole process)', `${Math.round(performance.now() - start)} ms`);

  start = performance.now();
  const server = spawn(process.execPath, [main], { env: env({ DATABASE_URL: db, PORT: String(port), HOST: '127.0.0.1', ...UNLIMITED }), stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${base}/reviews.json`);
    row(size, 'startup to first 200', `${Math.round(performance.now() - start)} ms`);
    row(size, 'RSS after startup', `${rssMiB(server.pid!).toFixed(0)} MiB`);
    // The insights of a new store are built in a thread of their own: measured once they are served, so that the
    // build does not share the CPU with the load below.
    await until(async () => ((await (await fetch(`${base}/insights.json`)).json()) as { status: string }).status === 'ready', 600_000, 'the insights', 1000);
    row(size, 'insights served after startup (first build)', `${Math.round(performance.now() - start)} ms`);
    for (const coding of ['identity', 'gzip', 'br']) {
      const res = await fetch(`${base}/reviews.json`, { headers: { 'accept-encoding': coding } });
      row(size, `/reviews.json ${coding}`, kb(Number(res.headers.get('content-length'))));
    }

    // The same bytes from a bare node:http server: the floor that the service's overhead is measured against.
    const feed = await fetch(`${base}/api/feed.json`, { headers: { 'accept-encoding': 'gzip' }, decompress: false } as RequestInit);
    const feedBytes = join(work, 'feed.gz');
    writeFileSync(feedBytes, Buffer.from(await feed.arrayBuffer()));
    const baseline = await startBaseline(feedBytes, port + 1);
    try {
      const ours = await load(`${base}/api/feed.json`, { headers: { 'accept-encoding': 'gzip' } });
      const floor = await load(`http://127.0.0.1:${port + 1}/api/feed.json`);
      row(size, 'GET /api/feed.json gzip req/s (p99 ms)', `${ours.rps.toFixed(0)} (${ours.p99})`, `baseline ${floor.rps.toFixed(0)} (${floor.p99})`, `ratio ${(ours.rps / floor.rps).toFixed(2)}`);
      const etag = feed.headers.get('etag')!;
      const revalidate = await load(`${base}/api/feed.json`, { headers: { 'accept-encoding': 'gzip', 'if-none-match': etag }, status: 304 });
      row(size, '304 revalidation req/s (p99 ms)', `${revalidate.rps.toFixed(0)} (${revalidate.p99})`, `baseline ${floor.rps.toFixed(0)}`, `ratio ${(revalidate.rps / floor.rps).toFixed(2)}`);
      const searches = ['rating=5&limit=20', 'query=water%20heater&limit=20', 'mentions_technician=zoe&min_rating=4', 'since=2025-01-01&until=2025-03-31&mentions_service=ac-repair']
        .map((qs) => ({ method: 'GET' as const, path: `/api/reviews/search?${qs}` }));
      const search = await load(`${base}/api/reviews/search`, { requests: searches });
      row(size, 'GET search (4 queries, cached) req/s (p99 ms)', `${search.rps.toFixed(0)} (${search.p99})`, `baseline ${floor.rps.toFixed(0)}`, `ratio ${(search.rps / floor.rps).toFixed(2)}`);

      // MCP tools/call search_reviews against the REST search for the same query, side by side, in both revisions.
      const query = { mentions_technician: 'zoe', min_rating: 4, limit: 20 };
      // Three alternating rounds, each figure their median: the machine's noise moves single rounds by ±20%.
      const rounds: Record<'rest' | 'session' | 'stateless', { rps: number; p99: number }[]> = { rest: [], session: [], stateless: [] };
      for (let round = 0; round < 3; round++) {
        rounds.rest.push(await load(`${base}/api/reviews/search?mentions_technician=zoe&min_rating=4&limit=20`));
        rounds.session.push(await loadMcpSession(base, query));
        rounds.stateless.push(await loadMcpStateless(base, query));
      }
      const median = (runs: { rps: number; p99: number }[]) => {
        const middle = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
        return { rps: middle(runs.map((r) => r.rps)), p99: middle(runs.map((r) => r.p99)) };
      };
      const [rest, session, stateless] = [median(rounds.rest), median(rounds.session), median(rounds.stateless)];
      const ratio = (m: { rps: number; p99: number }) => `ratio ${(m.rps / rest.rps).toFixed(2)}, p99 ${(m.p99 / Math.max(rest.p99, 1)).toFixed(1)}×`;
      row(size, 'MCP tools/call search_reviews, 2025-06-18 session, req/s (p99 ms), median of 3', `${session.rps.toFixed(0)} (${session.p99})`, `REST ${rest.rps.toFixed(0)} (${rest.p99})`, ratio(session));
      row(size, 'MCP tools/call search_reviews, 2026-07-28 stateless, req/s (p99 ms), median of 3', `${stateless.rps.toFixed(0)} (${stateless.p99})`, `REST ${rest.rps.toFixed(0)} (${rest.p99})`, ratio(stateless));
      const list = await loadMcpList(base);
      row(size, 'MCP tools/list, 2026-07-28, one connection, req/s (mean ms)', `${list.rps.toFixed(0)} (${list.mean})`);
    } finally {
      baseline.kill();
    }
  } finally {
    server.kill('SIGTERM');
  }

  // The search index against a brute-force scan of the same reviews, in one process, uncached.
  const store = await openStore(db);
  const { reviews } = await store.readPublished();
  await store.close();
  const index = new SearchIndex(reviews);
  const params: SearchParams[] = [
    { rating: 5, limit: 20 },
    { query: 'water heater', limit: 20 },
    { mentions_technician: 'zoe', min_rating: 4, limit: 20 },
    { since: '2025-01-01', until: '2025-03-31', mentions_service: 'ac-repair', limit: 20 },
  ];
  let i = 0;
  const indexed = opsPerSecond(() => index.evaluate(params[i++ % params.length]!));
  const brute = opsPerSecond(() => bruteForce(reviews, params[i++ % params.length]!));
  row(size, 'search in-process ops/s, uncached (index vs brute force)', indexed.toFixed(0), `baseline ${brute.toFixed(0)}`, `ratio ${(indexed / brute).toFixed(1)}`);
}

function startBaseline(bodyFile: string, port: number): Promise<ChildProcess> {
  return new Promise((done, fail) => {
    const child = fork(join(root, 'dist/bench/baseline-server.js'), [bodyFile, String(port), 'application/feed+json', 'gzip'], { stdio: 'ignore' });
    child.once('message', () => done(child));
    child.once('error', fail);
  });
}

try {
  let port = 3900;
  if (values.only === undefined || values.only === 'core') {
    for (const size of sizes) {
      await benchSize(size, port);
      port += 2;
    }
  }
  if (values.only === undefined || values.only === 'insights') {
    process.stderr.write('\nInsights\n');
    for (const size of sizes) {
      const out = execFileSync(process.execPath, [join(root, 'dist/bench/insights.js'), String(size)], { maxBuffer: 16 << 20 }).toString();
      const r = JSON.parse(out) as { reviews: number; reviewsPerSecond: number; buildMs: number; incrementalMs: number; incrementalAnalysed: number; insightsBytes: number; rssMiB: number; rssBeforeMiB: number };
      row(size, 'analyzer throughput', `${r.reviewsPerSecond} reviews/s`);
      row(size, 'insights full build (analyse + aggregate)', `${r.buildMs} ms`);
      row(size, 'insights rebuild after one review changed', `${r.incrementalMs} ms (${r.incrementalAnalysed} analysed)`);
      row(size, 'insights RSS after build (before: reviews alone)', `${r.rssMiB} MiB (${r.rssBeforeMiB} MiB)`);
      row(size, '/insights.json size', kb(r.insightsBytes));
    }
  }
  if (values.only === undefined || values.only === 'restart') {
    process.stderr.write('\nStored insights: first build, restart, one-review import\n');
    for (const size of sizes) await benchRestart({ root, work, port: port++, size, row });
  }
  if (values.only === 'stall') {
    process.stderr.write('\nA cached GET while the CLI imports a large file\n');
    await benchImportStall({ root, work, port: port++, size: Number(values.stall), row });
  }
  if (values.only === undefined || values.only === 'replicas') {
    process.stderr.write('\nPostgreSQL: import, one and two replicas, propagation\n');
    for (const size of sizes) {
      await benchReplicas({ root, work, port, size, duration, row });
      port += 3;
    }
  }
  if (values.only === undefined || values.only === 'websub') {
    process.stderr.write('\nWebSub\n');
    for (const concurrency of [32, 128]) {
      await benchWebSub({ root, work, port: port++, subscribers: Number(values.subscribers), concurrency, row });
    }
  }
  process.stdout.write(`\n| reviews | measure | value | baseline | ratio |\n|---|---|---|---|---|\n`);
  for (const r of rows) process.stdout.write(`| ${[...r, '', '', ''].slice(0, 5).join(' | ')} |\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
