// `npm run bench`: import, startup, memory and size figures, and throughput as ratios against a baseline run side by side.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generateDemo } from '../src/demo/generate.js';
import { growthOf, growthTable } from './growth.js';
import { IDLE_MS, rssAtRestMiB, rssMiB, treeRssMiB, until, waitFor } from './process.js';
import { benchAbuse } from './abuse.js';
import { benchSources } from './sources.js';
import { benchLedger } from './ledger.js';
import { benchImportStall } from './import-stall.js';
import { benchReplicas } from './replicas.js';
import { benchRestart } from './restart.js';
import { benchWebSub } from './websub.js';
import { benchServing, SEARCH_MIX } from './serving.js';
import { load, measureCeiling, type Load } from './side-by-side.js';
import { ensureWrk, pin, SERVER_CORE } from './wrk.js';
import { numericKeys, parseQuery } from '../src/http/query.js';
import { SearchIndex, SearchParams } from '../src/reviews/search.js';
import { fold, technicianKeys } from '../src/reviews/text.js';
import { openStore } from '../src/store/open.js';
import type { PublishedReview } from '../src/reviews/published.js';

// Every process started here runs with the allocator setting the service ships with (package.json's start script,
// the Dockerfile): a fixed glibc mmap threshold, so that memory freed after a build goes back to the system.
process.env.MALLOC_MMAP_THRESHOLD_ ??= '131072';

const root = resolve(import.meta.dirname, '../..');
const cli = join(root, 'dist/src/cli/main.js');
const main = join(root, 'dist/src/main.js');

const { values } = parseArgs({
  options: {
    reviews: { type: 'string', default: '10000,100000,300000' },
    duration: { type: 'string', default: '5' },
    subscribers: { type: 'string', default: '1000' },
    only: { type: 'string' },
    /** Reviews in the file imported by `--only stall` (330,000: about 150 MB). */
    stall: { type: 'string', default: '330000' },
  },
});
const sizes = values.reviews!.split(',').map(Number);
/** The parts to run (`--only core,restart`); all but `stall` when not given. */
const parts = values.only?.split(',');
const runs = (part: string) => (parts ? parts.includes(part) : part !== 'stall');
const duration = Number(values.duration);
/** Stores whose insights are built and stored, by size (made by `core`), which `abuse` starts again without a build. */
const built = new Map<number, string>();
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

/** Resident memory at rest is read this long after the first build: the bound is "within 30 s". */
const REST_AFTER_BUILD_MS = 30_000;

/**
 * The first build of a new store's insights, on every core: how long until they are served, the peak and at-rest
 * RSS, and the search latency while it runs (the server must keep answering).
 */
async function firstBuild(base: string, pid: number, start: number, size: number): Promise<void> {
  let peak = 0;
  // The service with its insights process, sampled until the reading at rest: the build stores its analyses after
  // the document is served, and that is part of it.
  const sampler = setInterval(() => (peak = Math.max(peak, treeRssMiB(pid))), 100);
  const ready = async () =>
    ((await (await fetch(`${base}/insights.json`)).json()) as { status: string }).status === 'ready';
  try {
    if (!(await ready())) {
      const during = await load(work, base, 5, {
        paths: SEARCH_MIX.map((qs) => `/api/reviews/search?${qs}`),
        connections: 10,
      });
      const still = !(await ready());
      row(
        size,
        'search mix during the first build, wrk 10 connections, req/s (p99 ms)',
        `${during.rps.toFixed(0)} (${during.p99.toFixed(2)})`,
        still ? 'the build ran throughout' : 'the build ended within the load',
        during.refused > 0 ? `void: ${during.refused} answers outside 2xx/3xx` : '',
      );
    }
    await until(ready, 600_000, 'the insights', 100);
    row(size, 'first start: complete /insights.json (first build)', `${Math.round(performance.now() - start)} ms`);
    row(size, 'RSS when the first build is served (with the insights process)', `${treeRssMiB(pid).toFixed(0)} MiB`);
    await new Promise((done) => setTimeout(done, REST_AFTER_BUILD_MS));
  } finally {
    clearInterval(sampler);
  }
  row(size, 'RSS peak during the first build (with the insights process)', `${peak.toFixed(0)} MiB`, 'bound 600 MiB');
  row(size, 'RSS 30 s after the first build is served', `${treeRssMiB(pid).toFixed(0)} MiB`, 'bound 300 MiB');
}

async function benchSize(size: number, port: number): Promise<void> {
  process.stderr.write(`\n${size.toLocaleString('en-US')} reviews\n`);
  const file = join(work, `demo-${size}.json`);
  // Not kept in a variable: the in-process search rows below run in this process, and a live demo of 100,000
  // generated reviews would slow every collection there (a scavenge visits the old generation's pages).
  writeFileSync(file, JSON.stringify(generateDemo({ reviews: size })));
  const db = `sqlite:${join(work, `bench-${size}.db`)}`;

  let start = performance.now();
  execFileSync(process.execPath, [cli, 'import', file], { env: env({ DATABASE_URL: db }), stdio: 'ignore' });
  row(size, 'import (CLI, whole process)', `${Math.round(performance.now() - start)} ms`);

  start = performance.now();
  const server = spawn(process.execPath, [main], {
    env: env({ DATABASE_URL: db, PORT: String(port), HOST: '127.0.0.1', ...UNLIMITED }),
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${base}/readyz`);
    row(size, 'first start: ready (/readyz 200)', `${Math.round(performance.now() - start)} ms`);
    await firstBuild(base, server.pid!, start, size);
    built.set(size, db);
    for (const coding of ['identity', 'gzip', 'br']) {
      const res = await fetch(`${base}/reviews.json`, { headers: { 'accept-encoding': coding } });
      row(size, `/reviews.json ${coding}`, kb(Number(res.headers.get('content-length'))));
    }

    // The loads: the service on one core, wrk on the other, as the twin and the ceiling server.
    pin(server.pid!, SERVER_CORE);
    await benchServing({ root, work, base, twinPort: port + 1, size, duration, ceiling: ceiling!, row });
    row(size, 'RSS after the loads', `${rssMiB(server.pid!).toFixed(0)} MiB`);
    row(
      size,
      'RSS at rest after the loads',
      `${(await rssAtRestMiB(server.pid!)).toFixed(0)} MiB`,
      `${IDLE_MS / 1000} s idle`,
    );
  } finally {
    server.kill('SIGTERM');
  }

  // Each query of the served mix, in process and uncached: its latency (the issue's bound: p99 under 2 ms), and the
  // index against a brute-force scan of the same reviews.
  const store = await openStore(db);
  const { reviews } = await store.readPublished();
  await store.close();
  const index = new SearchIndex(reviews);
  for (const qs of SEARCH_MIX) {
    const parsed = parseQuery(SearchParams, numericKeys(SearchParams), Object.fromEntries(new URLSearchParams(qs)));
    if (!parsed.ok) throw new Error(`the bench's query ${qs} is invalid`);
    const params = parsed.value;
    const times = latencies(() => index.evaluate(params));
    const brute = opsPerSecond(() => bruteForce(reviews, params), 500);
    const ops = 1000 / times.mean;
    row(
      size,
      `search in process, uncached: ${qs}, ops/s (p99 ms)`,
      `${ops.toFixed(0)} (${times.p99.toFixed(3)})`,
      `brute force ${brute.toFixed(0)}`,
      `ratio ${(ops / brute).toFixed(1)}`,
    );
  }
}

/** Mean and 99th percentile (ms) of `fn`'s run time over some 1.5 s of runs (at least 200). */
function latencies(fn: () => void, ms = 1500): { mean: number; p99: number } {
  const times: number[] = [];
  const start = performance.now();
  while (times.length < 200 || performance.now() - start < ms) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { mean: times.reduce((a, b) => a + b, 0) / times.length, p99: times[Math.floor(times.length * 0.99)]! };
}

let failure: string | undefined;
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const command = `node dist/bench/run.js ${process.argv.slice(2).join(' ')}`.trim();

/** The table, with when, where and how it was taken. */
function printTable(): void {
  process.stdout.write(`\n${new Date().toISOString().slice(0, 10)}, ${machine}: \`${command}\`\n`);
  process.stdout.write(`\n| reviews | measure | value | baseline | ratio |\n|---|---|---|---|---|\n`);
  for (const r of rows) process.stdout.write(`| ${[...r, '', '', ''].slice(0, 5).join(' | ')} |\n`);
  const growth = growthOf(rows);
  if (growth.length > 0) process.stdout.write(`\nHow each figure grows with the store:\n\n${growthTable(growth)}\n`);
}

/** The same rows in bench/results.json; a run that failed says so and keeps what it measured. */
function writeResults(): void {
  const results = {
    date: new Date().toISOString(),
    machine,
    command,
    ...(failure ? { failed: failure } : {}),
    rows: rows.map(([reviews, measure, value, baseline, ratio]) => ({ reviews, measure, value, baseline, ratio })),
    growth: growthOf(rows),
  };
  writeFileSync(join(root, 'bench/results.json'), `${JSON.stringify(results, null, 2)}\n`);
}

/** The generator's ceiling, measured once before the loads (measureCeiling). */
let ceiling: Load | undefined;

try {
  let port = 3900;
  if (runs('core')) {
    ensureWrk();
    ceiling = await measureCeiling(root, work, port++, duration);
    row(
      'any',
      "generator's ceiling: wrk against a bare socket answering 100 bytes, req/s (p99 ms)",
      `${ceiling.rps.toFixed(0)} (${ceiling.p99.toFixed(2)})`,
      'rows above 1/1.5 of it are marked generator-bound',
    );
    for (const size of sizes) {
      await benchSize(size, port);
      port += 2;
    }
  }
  if (runs('insights')) {
    process.stderr.write('\nInsights\n');
    for (const size of sizes) {
      const out = execFileSync(process.execPath, [join(root, 'dist/bench/insights.js'), String(size)], {
        maxBuffer: 16 << 20,
      }).toString();
      const r = JSON.parse(out) as {
        reviews: number;
        reviewsPerSecond: number;
        buildMs: number;
        incrementalMs: number;
        incrementalAnalysed: number;
        insightsBytes: number;
        rssMiB: number;
        rssBeforeMiB: number;
      };
      row(size, 'analyzer throughput', `${r.reviewsPerSecond} reviews/s`);
      row(size, 'insights full build (analyse + aggregate)', `${r.buildMs} ms`);
      row(
        size,
        'insights rebuild after one review changed',
        `${r.incrementalMs} ms (${r.incrementalAnalysed} analysed)`,
      );
      row(size, 'insights RSS after build (before: reviews alone)', `${r.rssMiB} MiB (${r.rssBeforeMiB} MiB)`);
      row(size, '/insights.json size', kb(r.insightsBytes));
    }
  }
  if (runs('restart')) {
    process.stderr.write('\nStored insights: first build, restart, one-review import\n');
    for (const size of sizes) await benchRestart({ root, work, port: port++, size, row });
  }
  if (runs('stall')) {
    process.stderr.write('\nA cached GET while the CLI imports a large file\n');
    await benchImportStall({ root, work, port: port++, size: Number(values.stall), row });
  }
  if (runs('replicas')) {
    process.stderr.write('\nPostgreSQL: import, one and two replicas, propagation\n');
    for (const size of sizes) {
      await benchReplicas({ root, work, port, size, duration, row });
      port += 3;
    }
  }
  if (runs('websub')) {
    process.stderr.write('\nWebSub\n');
    for (const concurrency of [32, 128]) {
      await benchWebSub({ root, work, port: port++, subscribers: Number(values.subscribers), concurrency, row });
    }
  }
  if (runs('abuse')) {
    process.stderr.write('\nOne abusive client beside a paced one: completion cost, search latency, listen streams\n');
    for (const size of sizes)
      await benchAbuse({
        root,
        work,
        port: port++,
        size,
        duration,
        store: built.get(size),
        env: (extra) => env({ ...UNLIMITED, ...extra }),
        row,
      });
  }
  if (runs('sources')) {
    process.stderr.write('\nImport from a platform against the own format; backup of a live store\n');
    for (const size of sizes) await benchSources({ root, work, port: port++, size, row });
  }
  if (runs('ledger')) {
    process.stderr.write('\nThe job ledger: import-jobs and matching, 1.5 jobs a review\n');
    for (const size of sizes) await benchLedger({ root, work, size, row });
  }
  printTable();
} catch (error) {
  // The rows taken so far are kept, marked as from a run that did not finish.
  failure = error instanceof Error ? error.message : String(error);
  throw error;
} finally {
  writeResults();
  rmSync(work, { recursive: true, force: true });
}
