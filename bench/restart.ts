// Stored insights at scale, one real server process at a time: the first build, a restart (are complete insights
// served from the first request?), a one-review import (how soon are new insights served?), and RSS at rest.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateDemo } from '../src/demo/generate.js';
import { etagOf, IDLE_MS, rssAtRestMiB, rssMiB, stop, until, waitFor } from './process.js';

export interface RestartBenchOptions {
  root: string;
  work: string;
  port: number;
  size: number;
  row: (...cells: (string | number)[]) => void;
}

interface InsightsHead {
  status: number;
  etag: string | null;
  retryAfter: string | null;
}

async function insightsHead(base: string): Promise<InsightsHead> {
  const res = await fetch(`${base}/insights.json`, { method: 'HEAD' });
  return { status: res.status, etag: res.headers.get('etag'), retryAfter: res.headers.get('retry-after') };
}

async function asOf(base: string): Promise<string | null> {
  return ((await (await fetch(`${base}/insights.json`)).json()) as { asOf: string | null }).asOf;
}

/** The server's log lines with this message, parsed. */
function logged<T>(logFile: string, message: string): T[] {
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => line.includes(`"${message}"`))
    .map((line) => JSON.parse(line) as T);
}

/** How long the insights process took for the last insights it built, from the server's log; `exited`: the CLI's exit (epoch ms). */
function lastBuildMs(logFile: string, exited: number): string {
  const last = logged<{ ms: number; roundTripMs: number; parts: Record<string, number> }>(logFile, 'insights built').at(
    -1,
  );
  const served = logged<{ ms: number; time: number }>(logFile, 'serving the insights of a new data version').at(-1);
  return last
    ? `${last.ms} (${Object.entries(last.parts)
        .map(([part, ms]) => `${part} ${ms}`)
        .join(
          ', ',
        )}), answered in ${last.roundTripMs}, served ${served?.ms ?? '?'} ms after the change was noticed, ${served ? served.time - exited : '?'} ms after the CLI exited`
    : '?';
}

/** How long the server took to read the last new version and to serve its documents, from its log. */
function lastViewMs(logFile: string): string {
  const last = logged<{ ms: number; readMs: number }>(logFile, 'serving a new data version').at(-1);
  return last ? `view built in ${last.ms} ms (store read ${last.readMs} ms)` : '?';
}

/** One run's paths and the environment of its server and CLI. */
interface Run extends RestartBenchOptions {
  cli: string;
  main: string;
  env: NodeJS.ProcessEnv;
  logFile: string;
  base: string;
}

async function start(run: Run): Promise<{ server: ChildProcess; started: number }> {
  const started = performance.now();
  const server = spawn(process.execPath, [run.main], {
    env: run.env,
    stdio: ['ignore', openSync(run.logFile, 'a'), 'ignore'],
  });
  await waitFor(`${run.base}/reviews.json`);
  return { server, started };
}

export async function benchRestart(o: RestartBenchOptions): Promise<void> {
  const db = `sqlite:${join(o.work, `restart-${o.size}.db`)}`;
  const run: Run = {
    ...o,
    cli: join(o.root, 'dist/src/cli/main.js'),
    main: join(o.root, 'dist/src/main.js'),
    env: { ...process.env, LOG_LEVEL: 'info', DATABASE_URL: db, PORT: String(o.port), HOST: '127.0.0.1' },
    logFile: join(o.work, `restart-${o.size}.log`),
    base: `http://127.0.0.1:${o.port}`,
  };
  const file = join(o.work, `restart-${o.size}.json`);
  writeFileSync(file, JSON.stringify(generateDemo({ reviews: o.size })));
  execFileSync(process.execPath, [run.cli, 'import', file], {
    env: { ...run.env, LOG_LEVEL: 'silent' },
    stdio: 'ignore',
  });
  await firstStart(run);
  const server = await restart(run);
  // One new review, twice: the first after the restart (the insights process starts cold: it loads the model, the
  // stored analyses and reads every text once), the second with the engine warm.
  for (const [i, engine] of ['cold', 'warm'].entries()) await oneReviewImport(run, i, engine);
  o.row(o.size, 'RSS after the one-review rebuilds', `${rssMiB(server.pid!).toFixed(0)} MiB`);
  await stop(server);
}

/** First start on a store that never had insights: the one full build. */
async function firstStart(run: Run): Promise<void> {
  const { server, started } = await start(run);
  // A complete document has no Retry-After (only the pending one of a store never built carries it).
  await until(async () => (await insightsHead(run.base)).retryAfter === null, 600_000, 'the first insights build', 100);
  run.row(
    run.size,
    'first start: complete /insights.json (full build)',
    `${Math.round(performance.now() - started)} ms`,
  );
  run.row(run.size, 'RSS after the first build', `${rssMiB(server.pid!).toFixed(0)} MiB`);
  await stop(server);
}

/** Restart on the unchanged store: the stored document from the first request, no build, no engine loaded. */
async function restart(run: Run): Promise<ChildProcess> {
  const { server, started } = await start(run);
  const first = await insightsHead(run.base);
  run.row(
    run.size,
    'restart: ready (first 200)',
    `${Math.round(performance.now() - started)} ms`,
    first.retryAfter === null ? 'first /insights.json complete' : 'first /insights.json PENDING',
  );
  await new Promise((r) => setTimeout(r, 2000));
  run.row(run.size, 'RSS 2 s after the first 200 (restart)', `${rssMiB(server.pid!).toFixed(0)} MiB`);
  run.row(
    run.size,
    'RSS at rest after restart',
    `${(await rssAtRestMiB(server.pid!)).toFixed(0)} MiB`,
    `${IDLE_MS / 1000} s idle`,
  );
  return server;
}

/** Import `i` of one new review: how soon the new reviews and the new insights are served. */
async function oneReviewImport({ cli, env, logFile, base, work, size, row }: Run, i: number, engine: string) {
  const before = (await insightsHead(base)).etag;
  const asOfBefore = await asOf(base);
  const reviewsEtag = await etagOf(`${base}/reviews.json`);
  const one = join(work, `one-${size}-${i}.json`);
  writeFileSync(
    one,
    JSON.stringify({
      reviews: [
        {
          id: `bench-one-${i}`,
          date: '2026-11-20',
          rating: 5,
          text: 'On time, fair price, and Zoë explained everything.',
          author: 'B O.',
          verified: true,
        },
      ],
    }),
  );
  const importStarted = performance.now();
  execFileSync(process.execPath, [cli, 'import', one], { env, stdio: 'ignore' });
  const imported = performance.now();
  const exited = Date.now();
  // Watched side by side: the insights may land before the reviews documents, or after.
  const served = (probe: () => Promise<boolean>, what: string) =>
    until(probe, 120_000, what, 10).then(() => performance.now());
  const [reviewsServed, insightsServed] = await Promise.all([
    served(async () => (await etagOf(`${base}/reviews.json`)) !== reviewsEtag, 'the new reviews'),
    served(async () => (await insightsHead(base)).etag !== before, 'the new insights'),
  ]);
  if ((await asOf(base)) === asOfBefore) throw new Error('new insights bytes, but about the same data');
  row(size, `one-review import (${engine} engine): CLI process`, `${Math.round(imported - importStarted)} ms`);
  row(
    size,
    `one-review import (${engine} engine) → new reviews served`,
    `${Math.round(reviewsServed - imported)} ms`,
    lastViewMs(logFile),
  );
  row(
    size,
    `one-review import (${engine} engine) → new insights served`,
    `${Math.round(insightsServed - imported)} ms`,
    `build in the insights process ${lastBuildMs(logFile, exited)}`,
  );
}
