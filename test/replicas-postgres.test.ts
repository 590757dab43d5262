// Replicas on one PostgreSQL schema: two `reviews serve` processes and the CLI, asserted over HTTP and the CLI only.
// An import is served by both at once and its insights are built by one of them; a WebSub change goes out once, and
// a replica killed with deliveries in flight loses none; an MCP session works and ends on every replica; a replica
// refuses to start without a shared MCP_SESSION_SECRET; two replicas starting at once migrate a new schema safely.
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import type { ImportedReview } from '../src/reviews/schemas.js';
import { cliImport } from './support/cli-import.js';
import { hubRequest } from './support/hub-subscribe.js';
import { mcpRequest, openSession, resultOf, rpc } from './support/mcp-wire.js';
import { postgres, schemasPerFile } from './support/postgres.js';
import { newReview } from './support/reviews.js';
import { CLI, freePort, inheritedEnv, runCli, tempDir } from './support/server.js';
import { ServiceProcess, stopAllServices } from './support/service-process.js';
import { Subscriber } from './support/subscriber.js';
import { sleep, until } from './support/wait.js';

const SECRET = 'replicas-postgres-test-secret-0123456789';
/**
 * Longer than this file runs: no replica polls the store during the tests, so whatever a replica learns of another
 * process's write (an import to serve, an ended MCP session to refuse) PostgreSQL's notices told it. The tests wait
 * for that with generous deadlines and report how long it took; the bench measures the figure.
 */
const RELOAD_INTERVAL_MS = 600_000;
/**
 * A delivery claim lasts WEBSUB_TIMEOUT_MS * 2 + 5 s (claimUntil in src/websub/hub.ts fill()): 9 s here. 2 s rather
 * than 1 s leaves the test room to kill a replica while its attempt still hangs, before the attempt times out.
 */
const WEBSUB_TIMEOUT_MS = 2000;
const CLAIM_MS = WEBSUB_TIMEOUT_MS * 2 + 5000;

const REPLICA_SETTINGS = {
  MCP_SESSION_SECRET: SECRET,
  RELOAD_INTERVAL_MS: String(RELOAD_INTERVAL_MS),
  WEBSUB_TIMEOUT_MS: String(WEBSUB_TIMEOUT_MS),
  WEBSUB_RETRY_DELAYS_MS: '1500',
};

const newSchema = schemasPerFile();
const dir = tempDir('reviews-replicas-pg-');
let subscriber: Subscriber | undefined;
let files = 0;

afterAll(async () => {
  await stopAllServices();
  await subscriber?.close();
  dir.remove();
});

interface Fetched {
  status: number;
  etag: string | null;
  lastModified: string | null;
  contentType: string | null;
  body: Buffer;
  text: string;
}

/** GET without content coding: the bytes a WebSub delivery carries, and one ETag to compare across replicas. */
async function get(base: string, path: string): Promise<Fetched> {
  const response = await fetch(`${base}${path}`, { headers: { 'accept-encoding': 'identity' } });
  const body = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status,
    etag: response.headers.get('etag'),
    lastModified: response.headers.get('last-modified'),
    contentType: response.headers.get('content-type'),
    body,
    text: body.toString('utf8'),
  };
}

interface DataVersion {
  revision: number;
  publishedAt: string | null;
}

async function servedVersion(replica: ServiceProcess): Promise<DataVersion> {
  const ready = await get(replica.url, '/readyz');
  expect(ready.status, ready.text).toBe(200);
  return (JSON.parse(ready.text) as { version: DataVersion }).version;
}

/** Imports through the built CLI, as an operator would while the replicas run; resolves when the CLI has exited. */
const importDocument = (databaseUrl: string, document: { business?: unknown; reviews: ImportedReview[] }) =>
  cliImport(databaseUrl, `${dir.path}/import-${++files}.json`, document);

interface InsightsBody {
  status: string;
  asOf: string | null;
  generatedAt: string | null;
  reviewCount: number;
}

/**
 * Waits until every replica serves the same /insights.json bytes and they describe the data version the replicas
 * serve (its `asOf` is that version's publishedAt).
 */
async function settledInsights(
  replicas: ServiceProcess[],
  timeoutMs = 30_000,
): Promise<{ version: DataVersion; served: Fetched[]; document: InsightsBody }> {
  let last = '';
  return until(
    async () => {
      const versions = await Promise.all(replicas.map(servedVersion));
      const served = await Promise.all(replicas.map((r) => get(r.url, '/insights.json')));
      const documents = served.map((s) => JSON.parse(s.text) as InsightsBody);
      last = replicas
        .map(
          (r, i) =>
            `${r.url}: version ${JSON.stringify(versions[i])}, insights asOf ${documents[i]!.asOf} ${served[i]!.etag}`,
        )
        .join('\n');
      const version = versions[0]!;
      if (versions.some((v) => v.revision !== version.revision)) return undefined;
      if (documents.some((d) => d.asOf !== version.publishedAt)) return undefined;
      if (served.some((s) => s.etag !== served[0]!.etag)) return undefined;
      return { version, served, document: documents[0]! };
    },
    timeoutMs,
    () =>
      `every replica to serve the same insights of the data it serves:\n${last}\n${replicas.map((r) => `--- ${r.url}\n${r.log(10)}`).join('\n')}`,
  );
}

/** A figure for the run's output (the project's lint allows no console; test/load-changing.test.ts prints the same way). */
const report = (line: string): void => void process.stdout.write(`${line}\n`);

/** The pino lines a replica logged with this message (and these fields). */
function logLines(
  replica: ServiceProcess,
  msg: string,
  fields: Record<string, unknown> = {},
): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  for (const line of replica.logged().split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // A line cut in two by a chunk boundary is complete in a later read.
    }
  }
  return lines.filter(
    (entry) => entry.msg === msg && Object.entries(fields).every(([key, value]) => entry[key] === value),
  );
}

describe.skipIf(!postgres)('two replicas and the CLI on one PostgreSQL schema', () => {
  let databaseUrl: string;
  let a: ServiceProcess;
  let b: ServiceProcess;
  /** The public origin both replicas share (A's address): topic URLs, feed ids, links. */
  let base: string;
  const demo = generateDemo({ seed: 11, reviews: 300 });

  /** The WebSub subscriptions as the operator's CLI lists them. */
  async function subscriptions(): Promise<{ topic: string; callback: string; state: string }[]> {
    const result = await runCli(['subscriptions', '--json'], databaseUrl);
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as { topic: string; callback: string; state: string }[];
  }

  async function untilActive(wanted: { topic: string; callback: string }[]): Promise<void> {
    let listed = '';
    await until(
      async () => {
        const list = await subscriptions();
        listed = JSON.stringify(list.map((s) => [s.state, s.topic, s.callback]));
        return wanted.every((w) =>
          list.some((s) => s.topic === w.topic && s.callback === w.callback && s.state === 'active'),
        );
      },
      20_000,
      () => `the subscriptions to be active: ${listed}\n${a.log()}\n${b.log()}`,
    );
  }

  /** Subscribes a callback on the test subscriber to each of the three topics through `hub`'s hub. */
  async function subscribeAll(hub: ServiceProcess, prefix: string, behaviour: Parameters<Subscriber['url']>[1] = {}) {
    const wanted = [
      { topic: `${base}/reviews.json`, path: `/${prefix}-dataset`, contentType: 'application/json' },
      { topic: `${base}/api/feed.json`, path: `/${prefix}-jsonfeed`, contentType: 'application/feed+json' },
      { topic: `${base}/feed.xml`, path: `/${prefix}-atom`, contentType: 'application/atom+xml' },
    ].map((t) => ({ ...t, callback: subscriber!.url(t.path, behaviour) }));
    for (const w of wanted) {
      const answer = await hubRequest(hub.url, {
        'hub.mode': 'subscribe',
        'hub.topic': w.topic,
        'hub.callback': w.callback,
      });
      expect(answer.status, answer.text).toBe(202);
    }
    await untilActive(wanted);
    return wanted;
  }

  const posts = (path: string) => subscriber!.requests(path, 'POST');

  beforeAll(async () => {
    subscriber = await Subscriber.start();
    databaseUrl = await newSchema();
    await importDocument(databaseUrl, { business: demo.business, reviews: demo.reviews });
    a = await ServiceProcess.create(databaseUrl, REPLICA_SETTINGS);
    base = a.url;
    // Replicas share the public origin, as behind one load balancer; requests to B's own port are still accepted.
    b = await ServiceProcess.create(databaseUrl, { ...REPLICA_SETTINGS, BASE_URL: base });
    await Promise.all([a.start(), b.start()]);
    // The demo's insights, built by one of them, before any test measures anything.
    await settledInsights([a, b], 60_000);
  }, 120_000);

  it("serves a CLI import on both replicas before their poll interval is up (the store's notice), and both settle on one insights document built once", async () => {
    const before = await Promise.all([a, b].map((r) => get(r.url, '/reviews.json')));
    expect(before[0]!.etag).toBeTruthy();
    expect(before[1]!.etag).toBe(before[0]!.etag);
    const countBefore = (JSON.parse(before[0]!.text) as { aggregateRating: { reviewCount: number } }).aggregateRating
      .reviewCount;
    expect(countBefore).toBe(demo.reviews.filter((r) => r.verified).length);

    // 20 new reviews and 10 changed ones (another rating and text) in one import.
    const added = Array.from({ length: 20 }, (_, i) =>
      newReview({
        id: `replica-added-${i}`,
        text: `Added ${i}: the plumber arrived late and the price was too high.`,
        rating: 2,
      }),
    );
    const changed = demo.reviews
      .filter((r) => r.verified)
      .slice(0, 10)
      .map((r) => ({ ...r, rating: 1, text: `${r.text} Update: the problem came back a week later.` }));
    await importDocument(databaseUrl, { reviews: [...added, ...changed] });
    const committed = performance.now();

    const delays = await Promise.all(
      [a, b].map((replica) =>
        until(
          async () => {
            const response = await fetch(`${replica.url}/reviews.json`, {
              headers: { 'accept-encoding': 'identity', 'if-none-match': before[0]!.etag! },
            });
            await response.arrayBuffer();
            if (response.status === 304) return undefined;
            expect(response.status).toBe(200);
            return Math.round(performance.now() - committed);
          },
          10_000,
          () => `${replica.url} to serve the import\n${replica.log()}`,
        ),
      ),
    );
    // Heard, not polled for: no replica polls during this file (RELOAD_INTERVAL_MS). 1.1–1.3 s typical here.
    report(`import commit → A ${delays[0]} ms, B ${delays[1]} ms`);

    const after = await Promise.all([a, b].map((r) => get(r.url, '/reviews.json')));
    expect(after[0]!.etag).not.toBe(before[0]!.etag);
    expect(after[1]!.etag).toBe(after[0]!.etag);
    expect(after[1]!.body.equals(after[0]!.body)).toBe(true);
    const dataset = JSON.parse(after[0]!.text) as {
      aggregateRating: { reviewCount: number };
      reviews: { id: string; rating: number; text: string }[];
    };
    expect(dataset.aggregateRating.reviewCount).toBe(countBefore + added.length);
    expect(dataset.reviews).toHaveLength(countBefore + added.length);
    const byId = new Map(dataset.reviews.map((r) => [r.id, r]));
    for (const r of added) expect(byId.has(r.id), r.id).toBe(true);
    for (const r of changed) expect(byId.get(r.id)).toMatchObject({ rating: 1, text: r.text });

    const { version, served, document } = await settledInsights([a, b]);
    expect(await servedVersion(a)).toEqual(version);
    expect(served[1]!.body.equals(served[0]!.body)).toBe(true);
    expect(document.status).toBe('ready');
    expect(document.reviewCount).toBe(dataset.aggregateRating.reviewCount);
    // asOf is the time the published data last changed: the Last-Modified of /reviews.json, to the second.
    expect(version.publishedAt).not.toBeNull();
    expect(Date.parse(after[0]!.lastModified!)).toBe(Math.floor(Date.parse(version.publishedAt!) / 1000) * 1000);

    // Built once across the replicas: one of them logged the build of this data version, the other took it from the store.
    const built = () => [a, b].map((r) => logLines(r, 'insights built', { asOf: version.publishedAt }).length);
    await until(() => built().some((n) => n > 0), 10_000, 'a replica to log its build');
    await sleep(1000);
    expect(built().sort(), `'insights built' with asOf ${version.publishedAt} in A's and B's logs`).toEqual([0, 1]);
    // Each replica's own account: how long it took from noticing the import to serving it, and who built the insights.
    const viewMs = [a, b].map((r) => logLines(r, 'serving a new data version', { revision: version.revision })[0]?.ms);
    report(
      `insights of ${version.publishedAt} built by ${built()[0] === 1 ? 'A' : 'B'}; 'serving a new data version' ms: A ${viewMs[0]}, B ${viewMs[1]}`,
    );
  });

  it('sends one POST per changed topic to a subscriber of B, not one per replica, with the new content', async () => {
    const subscribed = await subscribeAll(b, 'once');
    for (const s of subscribed) expect(posts(s.path)).toHaveLength(0);

    await importDocument(databaseUrl, { reviews: [newReview({ id: 'websub-once-1' })] });
    await until(
      () => subscribed.every((s) => posts(s.path).length >= 1),
      15_000,
      () => `every topic to be delivered\n${a.log()}\n${b.log()}`,
    );
    // Several worker polls (1 s) and far past either replica's notice of the import: a second copy would be here.
    await sleep(3000);
    for (const s of subscribed) {
      expect(posts(s.path), s.path).toHaveLength(1);
      const [delivery] = posts(s.path);
      const fromA = await get(a.url, new URL(s.topic).pathname);
      const fromB = await get(b.url, new URL(s.topic).pathname);
      expect(fromB.body.equals(fromA.body), `${s.topic} is the same on both replicas`).toBe(true);
      expect(delivery!.body.equals(fromA.body), `${s.path}: the delivery is the current ${s.topic}`).toBe(true);
      expect(delivery!.body.toString('utf8')).toContain('websub-once-1');
      expect(delivery!.headers['content-type']?.split(';')[0]).toBe(s.contentType);
      expect(String(delivery!.headers.link)).toContain(`<${s.topic}>; rel="self"`);
    }
  });

  it("uses an MCP session of A on B, and refuses it on B once it ended on A, told by the store's notice", async () => {
    const { sessionId, protocolVersion } = await openSession(a.url, '2025-06-18');
    expect(protocolVersion).toBe('2025-06-18');
    const listed = await mcpRequest(b.url, { sessionId, protocolVersion, body: rpc('tools/list') });
    expect(listed.status, listed.text).toBe(200);
    expect(resultOf<{ tools: { name: string }[] }>(listed).tools.map((t) => t.name)).toContain('search_reviews');
    const called = await mcpRequest(b.url, {
      sessionId,
      protocolVersion,
      body: rpc('tools/call', { name: 'search_reviews', arguments: { query: 'websub-once-1', limit: 5 } }),
    });
    expect(called.status, called.text).toBe(200);
    const found = resultOf<{ isError?: boolean; structuredContent: { count: number; reviews: { id: string }[] } }>(
      called,
    );
    expect(found.isError ?? false).toBe(false);
    // The review imported through the CLI in the test before: B's data, reached with A's session.
    expect(found.structuredContent.reviews.map((r) => r.id)).toEqual(['websub-once-1']);
    // B has just checked the session and remembers it as live for RELOAD_INTERVAL_MS: only a notice makes it look again.
    expect((await mcpRequest(b.url, { sessionId, protocolVersion, body: rpc('ping') })).status).toBe(200);

    const deleted = await mcpRequest(a.url, { method: 'DELETE', sessionId, protocolVersion });
    expect(deleted.status, deleted.text).toBe(204);
    const ended = performance.now();
    const refusedAfter = await until(
      async () =>
        (await mcpRequest(b.url, { sessionId, protocolVersion, body: rpc('ping') })).status === 404
          ? Math.round(performance.now() - ended)
          : undefined,
      5000,
      'B to refuse the ended session',
    );
    report(`MCP session ended on A → refused on B after ${refusedAfter} ms`);
    const refused = await mcpRequest(b.url, { sessionId, protocolVersion, body: rpc('tools/list') });
    expect(refused.status).toBe(404);
  });

  // Deterministic order: B is stopped first, so A alone claims the deliveries of the import; the callbacks hang on
  // their first POST, so A's claims are in flight, unsettled, when A is killed (within WEBSUB_TIMEOUT_MS, before its
  // attempts time out). Had B been running, either replica could have claimed them, and a hanging attempt of B's
  // would time out and be retried instead. A second import lands while B is down, and only then does B start: its
  // first version is the newest, which it announces onto the deliveries (still held by A's dead claims, or lapsed)
  // before its worker claims any, so it sends that version and no older one. (Had B served the older version when
  // A's claims lapsed, it would rightly have sent that one, then the newer: a third POST, by timing.)
  it('delivers every delivery a replica killed with SIGKILL had in flight, from the other replica, with the newest content', async () => {
    const subscribed = await subscribeAll(a, 'killed', { deliveries: ['hang', 200] });
    await b.stop('SIGTERM');

    await importDocument(databaseUrl, { reviews: [newReview({ id: 'while-a-alone' })] });
    await until(
      () => subscribed.every((s) => posts(s.path).length === 1),
      15_000,
      () => `A to send the deliveries\n${a.log()}`,
    );
    await a.stop('SIGKILL');
    const killed = Date.now();
    const firstAttempts = subscribed.map((s) => posts(s.path)[0]!.at);
    // Still in flight when A died: none of A's attempts had reached its timeout (and been settled as failed).
    expect(killed - Math.min(...firstAttempts)).toBeLessThan(WEBSUB_TIMEOUT_MS);

    // A change while A's claims are held joins the pending deliveries: the subscriber gets the newest content once.
    await importDocument(databaseUrl, { reviews: [newReview({ id: 'after-a-died' })] });
    await b.start();
    await until(
      () => subscribed.every((s) => posts(s.path).length >= 2),
      CLAIM_MS + 20_000,
      () => `B to deliver what A held\n${b.log(30)}`,
    );
    // Several worker polls (1 s) past B's deliveries: a second copy would be here.
    await sleep(2500);
    const waited: number[] = [];
    for (const [i, s] of subscribed.entries()) {
      // A's attempt, which the subscriber never answered, and B's one delivery.
      expect(posts(s.path).length, `${s.path}\n${b.log(30)}`).toBe(2);
      const delivery = posts(s.path)[1]!;
      const current = await get(b.url, new URL(s.topic).pathname);
      expect(delivery.body.equals(current.body), `${s.path}: B delivered the current ${s.topic}`).toBe(true);
      expect(current.text).toContain('while-a-alone');
      expect(current.text).toContain('after-a-died');
      expect(delivery.headers['content-type']?.split(';')[0]).toBe(s.contentType);
      waited.push(delivery.at - firstAttempts[i]!);
    }
    report(
      `A killed holding ${subscribed.length} claims → B delivered them ${waited.join(', ')} ms after A's attempts (claims last ${CLAIM_MS} ms)`,
    );
    // B honoured A's claims (never two attempts at once), then took them over: nothing is lost.
    for (const ms of waited) expect(ms).toBeGreaterThanOrEqual(CLAIM_MS - 1500);
    const listed = await subscriptions();
    for (const s of subscribed)
      expect(listed.find((l) => l.topic === s.topic && l.callback === s.callback)?.state).toBe('active');
  }, 90_000);
});

describe.skipIf(!postgres)('a replica on PostgreSQL without MCP_SESSION_SECRET', () => {
  async function serveWithout(databaseUrl: string, secret: Record<string, string>) {
    const port = await freePort();
    // inheritedEnv() drops every MCP_* variable: the only secret is the one given here, if any.
    const env = {
      ...inheritedEnv(),
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...secret,
    };
    const ended = await new Promise<{ code: number | null; signal: string | null; stderr: string; stdout: string }>(
      (done) => {
        const child = execFile(process.execPath, [CLI, 'serve'], { env, timeout: 30_000 }, (_error, stdout, stderr) =>
          done({ code: child.exitCode, signal: child.signalCode, stdout, stderr }),
        );
      },
    );
    const listening = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      () => true,
      () => false,
    );
    return { ...ended, listening };
  }

  it.each([
    ['absent', {}],
    ['empty', { MCP_SESSION_SECRET: '' }],
  ])('refuses to start when it is %s, naming it', async (_name, secret) => {
    const databaseUrl = await newSchema();
    const ended = await serveWithout(databaseUrl, secret);
    expect(ended.signal, `serve kept running:\n${ended.stdout}\n${ended.stderr}`).toBeNull();
    expect(ended.code).not.toBe(0);
    expect(ended.stderr).toContain('MCP_SESSION_SECRET');
    expect(ended.listening).toBe(false);
  });
});

describe.skipIf(!postgres)('two replicas started at the same moment on a new, empty schema', () => {
  it('both migrate and come up, serving the same empty datasets, then the same import', async () => {
    const databaseUrl = await newSchema();
    const first = await ServiceProcess.create(databaseUrl, REPLICA_SETTINGS);
    const second = await ServiceProcess.create(databaseUrl, { ...REPLICA_SETTINGS, BASE_URL: first.url });
    await Promise.all([first.start(), second.start()]);

    for (const path of ['/reviews.json', '/api/feed.json', '/feed.xml']) {
      const [x, y] = await Promise.all([first, second].map((r) => get(r.url, path)));
      expect(x!.status, x!.text).toBe(200);
      expect(y!.status, y!.text).toBe(200);
      expect(y!.etag, path).toBe(x!.etag);
      expect(y!.body.equals(x!.body), path).toBe(true);
    }
    const dataset = JSON.parse((await get(first.url, '/reviews.json')).text) as {
      business: unknown;
      aggregateRating: { reviewCount: number };
      reviews: unknown[];
    };
    expect(dataset.business).toBeNull();
    expect(dataset.reviews).toEqual([]);
    expect(dataset.aggregateRating.reviewCount).toBe(0);
    expect(await servedVersion(second)).toEqual(await servedVersion(first));
    for (const replica of [first, second]) {
      const errors = replica
        .logged()
        .split('\n')
        .filter((line) => /"level":(50|60)/.test(line));
      expect(errors, replica.url).toEqual([]);
    }

    // The schema both migrated is whole: an import through the CLI is served by both.
    await importDocument(databaseUrl, { reviews: [newReview({ id: 'into-the-new-schema' })] });
    for (const replica of [first, second]) {
      await until(
        async () => (await get(replica.url, '/reviews.json')).text.includes('into-the-new-schema'),
        10_000,
        () => `${replica.url} to serve the import\n${replica.log()}`,
      );
    }
    await Promise.all([first.stop('SIGTERM'), second.stop('SIGTERM')]);
  }, 90_000);
});
