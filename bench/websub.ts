// WebSub fan-out: time from an import to the last of N HTTPS subscribers × 3 topics notified, and the hub's RSS meanwhile,
// against a baseline that POSTs the same bodies to the same subscribers with the same concurrency and nothing else.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { generateDemo } from '../src/demo/generate.js';
import { makeTestPki, type TestPki } from '../test/support/tls.js';
import { rssMiB, until } from './process.js';

export interface WebSubBenchOptions {
  root: string;
  work: string;
  port: number;
  subscribers: number;
  concurrency: number;
  row: (...cells: (string | number)[]) => void;
}

/** The HTTPS subscribers, all on one server: it answers every verification and counts the notifications. */
interface Subscribers {
  server: Server;
  port: number;
  posts: number;
  /** When the last notification arrived (performance.now()). */
  lastPostAt: number;
}

async function startSubscribers(pki: TestPki): Promise<Subscribers> {
  const counts = { posts: 0, lastPostAt: 0 };
  const server = createServer({ key: pki.key, cert: pki.cert }, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://x');
    req.resume();
    req.on('end', () => {
      if (req.method === 'GET') return void res.writeHead(200).end(url.searchParams.get('hub.challenge') ?? '');
      counts.posts++;
      counts.lastPostAt = performance.now();
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return Object.assign(counts, { server, port: (server.address() as { port: number }).port });
}

/** The hub's environment: its fan-out concurrency, and the limits that would refuse the bench's subscribers lifted. */
function hubEnv(o: WebSubBenchOptions, pki: TestPki): NodeJS.ProcessEnv {
  return {
    ...process.env,
    LOG_LEVEL: 'silent',
    DATABASE_URL: `sqlite:${join(o.work, `websub-${o.concurrency}.db`)}`,
    PORT: String(o.port),
    HOST: '127.0.0.1',
    BASE_URL: `http://127.0.0.1:${o.port}`,
    NODE_EXTRA_CA_CERTS: pki.caCert,
    WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
    WEBSUB_RATE_LIMIT_PER_MINUTE: '1000000',
    // Every subscriber is on 127.0.0.1: one client, as the hub counts them.
    WEBSUB_MAX_SUBSCRIPTIONS_PER_CLIENT: '1000000',
    WEBSUB_CONCURRENCY: String(o.concurrency),
    RELOAD_INTERVAL_MS: '200',
  };
}

/** A running hub with the demo imported and `subscribers` × the topics subscribed and verified. */
interface Hub {
  base: string;
  cli: string;
  env: NodeJS.ProcessEnv;
  server: ChildProcess;
  topics: string[];
  /** Subscriptions, every one verified. */
  total: number;
}

export async function benchWebSub(o: WebSubBenchOptions): Promise<void> {
  const pki = makeTestPki();
  const subscribers = await startSubscribers(pki);
  const demoFile = join(o.work, 'websub-demo.json');
  writeFileSync(demoFile, JSON.stringify(generateDemo({ reviews: 1500 })));
  const env = hubEnv(o, pki);
  const cli = join(o.root, 'dist/src/cli/main.js');
  execFileSync(process.execPath, [cli, 'import', demoFile], { env, stdio: 'ignore' });
  const server = spawn(process.execPath, [cli, 'serve'], { env, stdio: 'ignore' });
  const base = `http://127.0.0.1:${o.port}`;
  try {
    await until(
      async () => (await fetch(`${base}/reviews.json`).catch(() => undefined))?.ok === true,
      60_000,
      'the server',
    );
    const topics = ['/feed.xml', '/api/feed.json', '/reviews.json'].map((p) => `${base}${p}`);
    const hub: Hub = { base, cli, env, server, topics, total: o.subscribers * topics.length };
    await subscribeAll(o, hub, subscribers.port);
    const fanOut = await importAndFanOut(o, hub, subscribers);
    const baselineMs = await baseline(o, hub, pki, subscribers);
    o.row(
      `${o.subscribers}×3`,
      `WebSub: import → last of ${hub.total} notified (concurrency ${o.concurrency})`,
      `${Math.round(fanOut.hubMs)} ms (import ${Math.round(fanOut.importMs)} ms)`,
      `baseline ${Math.round(baselineMs)} ms`,
      `ratio ${(fanOut.hubMs / baselineMs).toFixed(2)}`,
    );
    o.row(
      `${o.subscribers}×3`,
      'WebSub: hub RSS peak during fan-out',
      `${fanOut.peakRss.toFixed(0)} MiB`,
      `before the import ${fanOut.rssBefore.toFixed(0)} MiB`,
    );
  } finally {
    server.kill('SIGTERM');
    subscribers.server.closeAllConnections();
    subscribers.server.close();
  }
}

/** Every subscriber to every topic, each with a secret of its own; resolves once the hub has verified them all. */
async function subscribeAll(o: WebSubBenchOptions, { base, cli, env, topics, total }: Hub, port: number) {
  for (let i = 0; i < o.subscribers; i++) {
    for (const topic of topics) {
      const res = await fetch(`${base}/api/websub/hub`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          'hub.mode': 'subscribe',
          'hub.topic': topic,
          'hub.callback': `https://127.0.0.1:${port}/s/${i}`,
          'hub.secret': `secret-${i}`,
        }),
      });
      if (res.status !== 202) throw new Error(`subscribe answered ${res.status}`);
    }
  }
  await until(
    () => {
      const list = JSON.parse(
        execFileSync(process.execPath, [cli, 'subscriptions', '--json'], { env, maxBuffer: 256 << 20 }).toString(),
      ) as { state: string }[];
      return list.filter((s) => s.state === 'active').length === total;
    },
    120_000,
    'every subscription to be verified',
  );
}

/** One new review changes all three topics: from the import to the last notification, and the hub's RSS meanwhile. */
async function importAndFanOut(
  o: WebSubBenchOptions,
  { cli, env, server, total }: Hub,
  subscribers: Subscribers,
): Promise<{ hubMs: number; importMs: number; rssBefore: number; peakRss: number }> {
  const change = join(o.work, 'websub-change.json');
  writeFileSync(
    change,
    JSON.stringify({
      reviews: [
        {
          id: 'bench-new',
          date: '2026-11-16',
          rating: 5,
          text: 'Fast and tidy.',
          author: 'Bench B.',
          verified: true,
        },
      ],
    }),
  );
  const rssBefore = rssMiB(server.pid!);
  let peakRss = rssBefore;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMiB(server.pid!))), 50);
  const started = performance.now();
  execFileSync(process.execPath, [cli, 'import', change], { env, stdio: 'ignore' });
  const imported = performance.now();
  await until(() => subscribers.posts >= total, 300_000, `${total} deliveries`);
  clearInterval(sampler);
  return { hubMs: subscribers.lastPostAt - started, importMs: imported - started, rssBefore, peakRss };
}

/** The same bodies, signed the same way, POSTed by a bare client with the same concurrency: its ms for them all. */
async function baseline(
  o: WebSubBenchOptions,
  { topics, total }: Hub,
  pki: TestPki,
  subscribers: Subscribers,
): Promise<number> {
  const bodies = await Promise.all(topics.map(async (t) => Buffer.from(await (await fetch(t)).arrayBuffer())));
  const agent = new Agent({ connections: o.concurrency, connect: { ca: readFileSync(pki.caCert, 'utf8') } });
  subscribers.posts = 0;
  const baselineStart = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: o.concurrency }, async () => {
      while (next < total) {
        const n = next++;
        const body = bodies[n % topics.length]!;
        const signature = createHmac('sha256', `secret-${Math.floor(n / topics.length)}`)
          .update(body)
          .digest('hex');
        const res = await request(`https://127.0.0.1:${subscribers.port}/s/${Math.floor(n / topics.length)}`, {
          dispatcher: agent,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-hub-signature': `sha256=${signature}` },
          body,
        });
        await res.body.dump();
      }
    }),
  );
  const baselineMs = performance.now() - baselineStart;
  await agent.close();
  return baselineMs;
}
