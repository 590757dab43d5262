// PostgreSQL and replicas: the import on PostgreSQL against SQLite, read throughput of one and of two replicas in one
// run, and how soon both replicas serve what the CLI committed. BENCH_POSTGRES_URL names the database (the test one by
// default); the bench works in a schema of its own and drops it after.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { generateDemo } from '../src/demo/generate.js';
import { etagOf, stop, until, waitFor } from './process.js';

export interface ReplicasBenchOptions {
  root: string;
  work: string;
  port: number;
  size: number;
  duration: number;
  row: (...cells: (string | number)[]) => void;
}

const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECRET = 'bench-replicas-session-secret-0123456789';
/** Imports of one review each, timed from the CLI's exit to both replicas serving the new version. */
const PROPAGATIONS = 7;

async function admin(text: string): Promise<pg.QueryResultRow[]> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

/** Transactions PostgreSQL has committed in the bench's database, by every client (the replicas' polls included). */
async function commits(): Promise<number> {
  const [row] = await admin('SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()');
  return Number(row?.xact_commit ?? 0);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const env = (extra: Record<string, string>): NodeJS.ProcessEnv => ({ ...process.env, LOG_LEVEL: 'silent', ...extra });
const base = (p: number) => `http://127.0.0.1:${p}`;

/** One run's stores and servers: replica A listens on `port`, B on `port + 1`, the SQLite server on `port + 2`. */
interface Run extends ReplicasBenchOptions {
  cli: string;
  databaseUrl: string;
  sqliteUrl: string;
  /** Every server started, stopped at the end. */
  servers: ChildProcess[];
}

export async function benchReplicas(o: ReplicasBenchOptions): Promise<void> {
  const schema = `bench_${Date.now()}`;
  await admin(`CREATE SCHEMA ${schema}`);
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const run: Run = {
    ...o,
    cli: join(o.root, 'dist/src/cli/main.js'),
    databaseUrl: url.href,
    sqliteUrl: `sqlite:${join(o.work, `replicas-${o.size}.db`)}`,
    servers: [],
  };
  try {
    importIntoBoth(run);
    await startBoth(run);
    await throughput(run);
    await propagations(run);
  } finally {
    await stopAll(run.servers);
    await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  }
}

/** The same demo imported into a new SQLite store and into the PostgreSQL schema, each timed. */
function importIntoBoth({ cli, work, size, row, databaseUrl, sqliteUrl }: Run): void {
  const file = join(work, `replicas-${size}.json`);
  writeFileSync(file, JSON.stringify(generateDemo({ reviews: size })));
  for (const [engine, db] of [
    ['SQLite', sqliteUrl],
    ['PostgreSQL', databaseUrl],
  ] as const) {
    const start = performance.now();
    execFileSync(process.execPath, [cli, 'import', file], { env: env({ DATABASE_URL: db }), stdio: 'ignore' });
    row(size, `import into a new ${engine} store (CLI, whole process)`, `${Math.round(performance.now() - start)} ms`);
  }
}

/** Starts a server on `p`; resolves with the ms from its start to its first 200. */
async function startReplica(run: Run, p: number, db = run.databaseUrl, baseUrl = base(run.port)): Promise<number> {
  const child = spawn(process.execPath, [join(run.root, 'dist/src/main.js')], {
    env: env({
      DATABASE_URL: db,
      PORT: String(p),
      HOST: '127.0.0.1',
      BASE_URL: baseUrl,
      MCP_SESSION_SECRET: SECRET,
      RATE_LIMIT_QUERIES_PER_MINUTE: '100000000',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
    }),
    stdio: ['ignore', openSync(join(process.env.BENCH_LOG_DIR ?? run.work, `replica-${p}.log`), 'w'), 'inherit'],
  });
  run.servers.push(child);
  const started = performance.now();
  await waitFor(`${base(p)}/reviews.json`);
  return Math.round(performance.now() - started);
}

/** Replicas A and B on PostgreSQL, each timed to its first 200, then to both serving the data's insights. */
async function startBoth(run: Run): Promise<void> {
  const { port, size, row } = run;
  row(size, 'replica A on PostgreSQL: start to first 200', `${await startReplica(run, port)} ms`);
  row(size, 'replica B on PostgreSQL: start to first 200', `${await startReplica(run, port + 1)} ms`);
  // Throughput is read once the insights are built (by one of them), so no build shares the CPU with the load.
  const insightsCurrent = async (p: number) => {
    const ready = (await (await fetch(`${base(p)}/readyz`)).json()) as { version?: { publishedAt: string | null } };
    const insights = (await (await fetch(`${base(p)}/insights.json`)).json()) as { asOf?: string | null };
    return ready.version !== undefined && insights.asOf === ready.version.publishedAt;
  };
  const waited = performance.now();
  await until(
    async () => (await insightsCurrent(port)) && (await insightsCurrent(port + 1)),
    600_000,
    'both replicas to serve current insights',
    500,
  );
  row(
    size,
    'both replicas serve the insights of the data (built once), after B is up',
    `${Math.round(performance.now() - waited)} ms`,
  );
}

/** The same requests against A alone, then spread over A and B at once, with the same 10 connections in all. */
async function throughput({ port, size, duration, row }: Run): Promise<void> {
  const paths = ['/api/feed.json', '/api/reviews/search?mentions_technician=zoe&min_rating=4&limit=20'];
  for (const path of paths) {
    const load = (p: number, connections: number) =>
      autocannon({ url: `${base(p)}${path}`, connections, duration, headers: { 'accept-encoding': 'gzip' } });
    const one = await load(port, 10);
    const committedBefore = await commits();
    const [a, b] = await Promise.all([load(port, 5), load(port + 1, 5)]);
    // The read path never queries the store: what PostgreSQL commits meanwhile is the replicas' polls.
    const transactions = (await commits()) - committedBefore;
    const two = a.requests.average + b.requests.average;
    const errors = one.non2xx + a.non2xx + b.non2xx + one.errors + a.errors + b.errors;
    row(
      size,
      `GET ${path.split('?')[0]} req/s: two replicas (one)`,
      `${two.toFixed(0)} (p99 ${Math.max(a.latency.p99, b.latency.p99)} ms)`,
      `one ${one.requests.average.toFixed(0)} (p99 ${one.latency.p99} ms)`,
      `ratio ${(two / one.requests.average).toFixed(2)}${errors ? `, ${errors} errors` : ''}`,
    );
    row(
      size,
      `  PostgreSQL transactions during those ${(a.requests.total + b.requests.total).toLocaleString('en-US')} requests`,
      `${transactions}`,
    );
  }
}

/** Propagation to both PostgreSQL replicas, then, with them stopped, to one server over SQLite. */
async function propagations(run: Run): Promise<void> {
  const { cli, work, port, size, row, databaseUrl, sqliteUrl } = run;
  const onPostgres = await propagation(cli, work, databaseUrl, [base(port), base(port + 1)]);
  await stopAll(run.servers.splice(0));
  // The same on one server over SQLite: what a new version costs to serve, whatever the engine.
  await startReplica(run, port + 2, sqliteUrl, base(port + 2));
  const onSqlite = await propagation(cli, work, sqliteUrl, [base(port + 2)]);
  row(
    size,
    `import commit → served, ms (median, max of ${PROPAGATIONS}): both PostgreSQL replicas (one SQLite server)`,
    `${onPostgres}`,
    `SQLite ${onSqlite}`,
  );
}

/**
 * Imports of one review each, timed from the CLI's exit (its transaction committed just before) until every server
 * serves a new reviews ETag: "median, max" in ms.
 */
async function propagation(cli: string, work: string, databaseUrl: string, bases: string[]): Promise<string> {
  const etags = () => Promise.all(bases.map((b) => etagOf(`${b}/reviews.json`)));
  const times: number[] = [];
  for (let i = 0; i < PROPAGATIONS; i++) {
    const before = await etags();
    const one = join(work, `one-${i}.ndjson`);
    const id = `bench-propagation-${Date.now()}-${i}`;
    writeFileSync(
      one,
      `${JSON.stringify({ id, date: '2026-11-01', rating: 5, text: 'Quick and tidy repair.', author: 'B. P.', technicians: [], services: [], verified: true })}\n`,
    );
    execFileSync(process.execPath, [cli, 'import', one], { env: env({ DATABASE_URL: databaseUrl }), stdio: 'ignore' });
    const committed = performance.now();
    await until(
      async () => (await etags()).every((etag, k) => etag !== before[k]),
      60_000,
      'every server to serve the import',
      5,
    );
    times.push(Math.round(performance.now() - committed));
  }
  return `${median(times)}, ${Math.max(...times)}`;
}

async function stopAll(children: ChildProcess[]): Promise<void> {
  await Promise.all(children.map(stop));
}
