// WebSub fan-out: time from an import to the last of N HTTPS subscribers × 3 topics notified, and the hub's RSS meanwhile,
// against a baseline that POSTs the same bodies to the same subscribers with the same concurrency and nothing else.
import { execFileSync, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:https';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { generateDemo } from '../src/demo/generate.js';
import { makeTestPki } from '../test/support/tls.js';
import { rssMiB, until } from './process.js';

export interface WebSubBenchOptions {
  root: string;
  work: string;
  port: number;
  subscribers: number;
  concurrency: number;
  row: (...cells: (string | number)[]) => void;
}

export async function benchWebSub(o: WebSubBenchOptions): Promise<void> {
  const pki = makeTestPki();
  let posts = 0;
  let lastPostAt = 0;
  const subscriber = createServer({ key: pki.key, cert: pki.cert }, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://x');
    req.resume();
    req.on('end', () => {
      if (req.method === 'GET') return void res.writeHead(200).end(url.searchParams.get('hub.challenge') ?? '');
      posts++;
      lastPostAt = performance.now();
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((done) => subscriber.listen(0, '127.0.0.1', done));
  const subscriberPort = (subscriber.address() as { port: number }).port;

  const db = `sqlite:${join(o.work, `websub-${o.concurrency}.db`)}`;
  const demoFile = join(o.work, 'websub-demo.json');
  const demo = generateDemo({ reviews: 1500 });
  writeFileSync(demoFile, JSON.stringify(demo));
  const env = {
    ...process.env,
    LOG_LEVEL: 'silent',
    DATABASE_URL: db,
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
    const total = o.subscribers * topics.length;
    for (let i = 0; i < o.subscribers; i++) {
      for (const topic of topics) {
        const res = await fetch(`${base}/api/websub/hub`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            'hub.mode': 'subscribe',
            'hub.topic': topic,
            'hub.callback': `https://127.0.0.1:${subscriberPort}/s/${i}`,
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

    // One new review changes all three topics.
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
    await until(() => posts >= total, 300_000, `${total} deliveries`);
    clearInterval(sampler);
    const hubMs = lastPostAt - started;

    // Baseline: the same bodies, signed the same way, POSTed by a bare client with the same concurrency.
    const bodies = await Promise.all(topics.map(async (t) => Buffer.from(await (await fetch(t)).arrayBuffer())));
    const agent = new Agent({ connections: o.concurrency, connect: { ca: readFileSync(pki.caCert, 'utf8') } });
    posts = 0;
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
          const res = await request(`https://127.0.0.1:${subscriberPort}/s/${Math.floor(n / topics.length)}`, {
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
    o.row(
      `${o.subscribers}×3`,
      `WebSub: import → last of ${total} notified (concurrency ${o.concurrency})`,
      `${Math.round(hubMs)} ms (import ${Math.round(imported - started)} ms)`,
      `baseline ${Math.round(baselineMs)} ms`,
      `ratio ${(hubMs / baselineMs).toFixed(2)}`,
    );
    o.row(
      `${o.subscribers}×3`,
      'WebSub: hub RSS peak during fan-out',
      `${peakRss.toFixed(0)} MiB`,
      `before the import ${rssBefore.toFixed(0)} MiB`,
    );
  } finally {
    server.kill('SIGTERM');
    subscriber.closeAllConnections();
    subscriber.close();
  }
}
