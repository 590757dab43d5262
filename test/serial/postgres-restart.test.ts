// PostgreSQL restarted under two replicas: while it is down both keep serving the last data they built (and stay
// ready, naming the store that does not answer); once it is back each reconnects its change notices (LISTEN) and
// looks for what changed meanwhile, so a change committed before it listens again, and every later one, is served
// within seconds although the fallback poll is a minute away.
// It stops and starts the machine's PostgreSQL cluster, which breaks every other test using it: it runs alone, under
// vitest.serial.config.ts, and leaves PostgreSQL running whatever happens.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../../src/demo/generate.js';
import {
  dropPostgresSchema,
  freshPostgresUrl,
  POSTGRES_URL,
  postgres,
  postgresReachable,
} from '../support/postgres.js';
import { runCli, tempDir, writeJson } from '../support/server.js';
import { ServiceProcess, stopAllServices } from '../support/service-process.js';
import { sleep, until } from '../support/wait.js';

const execFileAsync = promisify(execFile);

const PG_CTLCLUSTER = '/usr/bin/pg_ctlcluster';

/**
 * The local cluster serving POSTGRES_URL, as Debian's pg_ctlcluster names it (version and name, e.g. 15 main), found
 * by its port; TEST_POSTGRES_CLUSTER="15 main" names it instead. Undefined where it cannot be controlled from here.
 */
function localCluster(): string[] | undefined {
  if (process.env.TEST_POSTGRES_CLUSTER) return process.env.TEST_POSTGRES_CLUSTER.split(' ');
  const url = new URL(POSTGRES_URL);
  if (
    !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) ||
    !existsSync(PG_CTLCLUSTER) ||
    process.getuid?.() !== 0
  )
    return undefined;
  try {
    const port = url.port || '5432';
    const line = execFileSync('pg_lsclusters', ['--no-header'], { encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .find((fields) => fields[2] === port);
    return line && [line[0]!, line[1]!];
  } catch {
    return undefined;
  }
}

const CLUSTER = postgres ? localCluster() : undefined;
/** Restarting needs the cluster on this machine and the right to control it (root, as on CI). Under CI it must run. */
const runs = postgres && (CLUSTER !== undefined || Boolean(process.env.CI));
if (postgres && !CLUSTER)
  process.stderr.write(
    `\n!!! postgres-restart: cannot restart the PostgreSQL of ${POSTGRES_URL} from here (needs root, ${PG_CTLCLUSTER} and its cluster)${runs ? '' : '; SKIPPED'}\n\n`,
  );

/**
 * How long the fallback poll waits: far longer than the test, so no replica polls during it and only the notices and
 * their reconnection explain any pickup. How long each took is reported, not asserted (these machines are noisy).
 */
const RELOAD_INTERVAL_MS = 600_000;
/** How long a change may take to be served before the test gives up: a reconnection pause (at most 5 s) and a rebuild, with room. */
const SERVED_WITHIN_MS = 30_000;

const dir = tempDir('reviews-restart-');
let databaseUrl: string | undefined;

async function cluster(action: 'start' | 'stop'): Promise<void> {
  if (!CLUSTER) throw new Error(`no local PostgreSQL cluster to ${action} (set TEST_POSTGRES_CLUSTER, e.g. "15 main")`);
  await execFileAsync(PG_CTLCLUSTER, ['--skip-systemctl-redirect', ...CLUSTER, action]);
}

async function accepting(): Promise<boolean> {
  return (await postgresReachable()) === undefined;
}

afterAll(async () => {
  // The rest of CI needs PostgreSQL: up again whatever happened, and answering, before anything else runs.
  await stopAllServices();
  if (CLUSTER && !(await accepting())) {
    await cluster('start').catch((error: unknown) =>
      process.stderr.write(`postgres-restart: starting PostgreSQL failed: ${String(error)}\n`),
    );
    await until(accepting, 60_000, 'PostgreSQL to accept connections again');
  }
  if (databaseUrl) await dropPostgresSchema(databaseUrl);
  dir.remove();
}, 120_000);

interface LogLine {
  time: number;
  msg: string;
  level: number;
}

/** The replica's pino lines about its store notices, in order. */
function noticeLines(replica: ServiceProcess): LogLine[] {
  return replica
    .logged()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine)
    .filter((line) => typeof line.msg === 'string' && line.msg.startsWith('store notices:'));
}

const lost = (line: LogLine) => line.msg.startsWith('store notices: connection to PostgreSQL lost');
const listening = (line: LogLine) => line.msg.startsWith('store notices: listening again');

interface Dataset {
  aggregateRating: { reviewCount: number };
  reviews: { id: string }[];
}

async function get(url: string): Promise<{ status: number; etag: string | null; body: string }> {
  const res = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
  return { status: res.status, etag: res.headers.get('etag'), body: await res.text() };
}

/** The replica's reviews_store_up gauge (whether the store answered its last check), or what /metrics answered instead. */
async function storeUp(replica: ServiceProcess): Promise<number | string> {
  const metrics = await get(`${replica.url}/metrics`);
  const line = metrics.body.split('\n').find((l) => l.startsWith('reviews_store_up '));
  return metrics.status === 200 && line
    ? Number(line.split(' ')[1])
    : `${metrics.status} ${metrics.body.slice(0, 300)}`;
}

async function serves(replica: ServiceProcess, id: string): Promise<boolean> {
  const res = await get(`${replica.url}/reviews.json`);
  return res.status === 200 && (JSON.parse(res.body) as Dataset).reviews.some((r) => r.id === id);
}

/** A one-review import file. */
function oneReview(id: string, date: string): string {
  return writeJson(`${dir.path}/${id}.json`, {
    reviews: [
      {
        id,
        date,
        rating: 5,
        text: `Review ${id}, imported around a PostgreSQL restart.`,
        author: 'Restart R.',
        verified: true,
      },
    ],
  });
}

/** Imports one review with the CLI; answers when it committed (the CLI's exit). */
async function importOne(id: string, date: string): Promise<number> {
  const result = await runCli(['import', oneReview(id, date)], databaseUrl!);
  expect(result.code, `import of ${id}: ${result.stderr}`).toBe(0);
  return Date.now();
}

/** Waits until both replicas serve review `id`; answers how long each took after `since`. */
async function servedByBoth(
  replicas: ServiceProcess[],
  id: string,
  since: number,
  logs: () => string,
): Promise<number[]> {
  return Promise.all(
    replicas.map(async (replica) => {
      await until(
        () => serves(replica, id),
        SERVED_WITHIN_MS,
        () => `${replica.url} to serve ${id}\n${logs()}`,
      );
      return Date.now() - since;
    }),
  );
}

describe.skipIf(!runs)('PostgreSQL restarted under two replicas', () => {
  it('keeps serving while it is down, then both replicas listen again and serve every change promptly', async () => {
    databaseUrl = await freshPostgresUrl();
    const demo = generateDemo({ seed: 21, reviews: 200 });
    const demoImport = await runCli(['import', writeJson(`${dir.path}/demo.json`, demo)], databaseUrl);
    expect(demoImport.code, demoImport.stderr).toBe(0);
    const a = await ServiceProcess.create(databaseUrl, { RELOAD_INTERVAL_MS: String(RELOAD_INTERVAL_MS) });
    const b = await ServiceProcess.create(databaseUrl, {
      RELOAD_INTERVAL_MS: String(RELOAD_INTERVAL_MS),
      BASE_URL: a.url,
    });
    const replicas = [a, b];
    const logs = () => replicas.map((r, i) => `replica ${'AB'[i]} (${r.url}, ${r.ended}):\n${r.log(25)}`).join('\n');
    await Promise.all(replicas.map((r) => r.start()));

    // Before: the notices work (a CLI import is served at once) and both replicas serve the same bytes.
    const warmedUp = await importOne('before-restart', '2026-11-16');
    const beforeMs = await servedByBoth(replicas, 'before-restart', warmedUp, logs);
    const served = await Promise.all(replicas.map((r) => get(`${r.url}/reviews.json`)));
    expect(served.map((r) => r.status)).toEqual([200, 200]);
    expect(served[1]!.etag).toBe(served[0]!.etag);
    const lastTag = served[0]!.etag;
    const lastCount = (JSON.parse(served[0]!.body) as Dataset).aggregateRating.reviewCount;

    // Down.
    const stoppingAt = Date.now();
    await cluster('stop');
    const downAt = Date.now();
    let startingAt: number;
    try {
      expect(await accepting()).toBe(false);
      // Neither replica stops serving the data it built: documents, search and liveness answer, for several seconds.
      for (const started = Date.now(); Date.now() - started < 3000; await sleep(250)) {
        for (const replica of replicas) {
          for (const path of [
            '/reviews.json',
            '/api/feed.json',
            '/feed.xml',
            '/api/reviews/search?rating=5&limit=3',
            '/healthz',
          ]) {
            const res = await get(`${replica.url}${path}`).catch((error: unknown) => {
              throw new Error(`${replica.url}${path} while PostgreSQL is down: ${String(error)}\n${logs()}`);
            });
            expect(
              res.status,
              `${replica.url}${path} while PostgreSQL is down: ${res.body.slice(0, 200)}\n${logs()}`,
            ).toBe(200);
            if (path === '/reviews.json') {
              expect(res.etag).toBe(lastTag);
              expect((JSON.parse(res.body) as Dataset).aggregateRating.reviewCount).toBe(lastCount);
            }
          }
        }
      }
      // Still ready, so that a load balancer keeps the replicas in rotation: /readyz names the store that does not
      // answer, and reviews_store_up says 0 (README, Operations).
      for (const replica of replicas) {
        const ready = await get(`${replica.url}/readyz`);
        expect(ready.status, ready.body).toBe(200);
        const body = JSON.parse(ready.body) as { status: string; store: string };
        expect(body.status).toBe('ready');
        expect(body.store).not.toBe('ok');
        // Soft: the rest of the outage and the recovery are still checked when this fails.
        expect
          .soft(await storeUp(replica), `${replica.url}/metrics while PostgreSQL is down\n${replica.log(4)}`)
          .toBe(0);
      }
      // The CLI cannot import meanwhile, and says so.
      const refused = await runCli(['import', oneReview('while-down', '2026-11-17')], databaseUrl);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).not.toBe('');
      // Both have noticed that their notice connection is gone.
      await until(
        () => replicas.every((r) => noticeLines(r).some(lost)),
        10_000,
        () => `both replicas to log the lost notice connection\n${logs()}`,
      );
    } finally {
      // B is frozen (SIGSTOP) across the start and the next commit: it cannot listen again before that change
      // commits, so it can only find the change by looking once it listens again. A reconnects after its own pause.
      // (Should anything fail, afterAll's SIGKILL ends a frozen process too; a process already gone is not signalled,
      // so that what failed is what the test reports.)
      if (b.running) process.kill(b.pid!, 'SIGSTOP');
      startingAt = Date.now();
      await cluster('start');
    }
    await until(accepting, 60_000, 'PostgreSQL to accept connections after its start');
    const upAt = Date.now();

    // (b) A change committed right after PostgreSQL is back, before B (at least) listens again.
    const committed = await importOne('right-after-restart', '2026-11-18');
    const aListenedFirst = noticeLines(a).some(listening);
    expect(noticeLines(b).some(listening), 'B listened again while frozen').toBe(false);
    process.kill(b.pid!, 'SIGCONT');
    const missedMs = await servedByBoth(replicas, 'right-after-restart', committed, logs);

    // (a) Each replica logged the loss, then that it listens again (and looked for changes made meanwhile).
    await until(
      () => replicas.every((r) => noticeLines(r).some(listening)),
      15_000,
      () => `both replicas to log that they listen again\n${logs()}`,
    );
    const relistenedAt: number[] = [];
    for (const replica of replicas) {
      const lines = noticeLines(replica);
      const firstLost = lines.findIndex(lost);
      const again = lines.findIndex(listening);
      expect(firstLost, logs()).toBeGreaterThanOrEqual(0);
      expect(again, logs()).toBeGreaterThan(firstLost);
      expect(lines[firstLost]!.time).toBeGreaterThanOrEqual(stoppingAt);
      expect(lines[again]!.time).toBeGreaterThanOrEqual(startingAt);
      relistenedAt.push(lines[again]!.time);
    }

    // (c) LISTEN is really back: a later import is served at once by both, with no reconnection to explain it.
    await sleep(500);
    const later = await importOne('later-import', '2026-11-19');
    const laterMs = await servedByBoth(replicas, 'later-import', later, logs);
    // Nothing was lost again meanwhile: exactly one recovery per replica.
    for (const replica of replicas) expect(noticeLines(replica).filter(listening), logs()).toHaveLength(1);

    // (d) Ready with a store that answers, and live, on the same data.
    for (const replica of replicas) {
      const ready = await get(`${replica.url}/readyz`);
      expect(ready.status, `${replica.url}/readyz: ${ready.body}\n${logs()}`).toBe(200);
      expect(JSON.parse(ready.body)).toMatchObject({ status: 'ready', store: 'ok' });
      expect.soft(await storeUp(replica), `${replica.url}/metrics once PostgreSQL is back`).toBe(1);
      const live = await get(`${replica.url}/healthz`);
      expect(live.status, `${replica.url}/healthz: ${live.body}`).toBe(200);
    }
    const final = await Promise.all(replicas.map((r) => get(`${r.url}/reviews.json`)));
    expect(final[1]!.etag).toBe(final[0]!.etag);
    expect((JSON.parse(final[0]!.body) as Dataset).aggregateRating.reviewCount).toBe(lastCount + 2);

    process.stdout.write(
      `postgres-restart: before ${beforeMs.join('/')} ms; down ${upAt - downAt} ms; committed after the restart, served in ${missedMs.join('/')} ms ` +
        `(A listened again ${relistenedAt[0]! - startingAt} ms after the start began, ${aListenedFirst ? 'before' : 'after'} the commit; B when thawed); later import served in ${laterMs.join('/')} ms\n`,
    );
  }, 120_000);
});
