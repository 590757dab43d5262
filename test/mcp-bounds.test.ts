// What one MCP client may cost the others: completions bounded whatever the store's size, every message of a batch
// counted against the allowance, listen streams capped per client and in all and ended after their lifetime, quoted
// strings in errors held to a length, and a forged or missing session id answered without an error in the log.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompletionIndex, MAX_COMPLETIONS } from '../src/mcp/completions.js';
import { fold } from '../src/reviews/text.js';
import { mcpRequest, openSession, rpc, type JsonRpcError, type JsonRpcResult } from './support/mcp-wire.js';
import { newReview } from './support/reviews.js';
import { publish, startServer, tempDir, type RunningServer } from './support/server.js';
import { ServiceProcess, stopAllServices } from './support/service-process.js';
import { until } from './support/wait.js';

const dir = tempDir('reviews-mcp-bounds-');
afterAll(async () => {
  await stopAllServices();
  dir.remove();
});

const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

/** `n` review ids shaped as the demo's and the platforms' are (`rv-000123`, `google:AbF…`). */
function ids(n: number): string[] {
  return Array.from({ length: n }, (_, i) =>
    i % 3 === 0 ? `google:Ab${(i * 7919).toString(36)}` : `rv-${String(i).padStart(6, '0')}`,
  );
}

describe('the completion index', () => {
  const small = ids(1_500);
  const large = ids(300_000);
  const indexes = [new CompletionIndex(small), new CompletionIndex(large)];

  it('answers what a scan of every value would, the first 100 in folded order, with the true total', () => {
    for (const [values, index] of [
      [small, indexes[0]!],
      [large, indexes[1]!],
    ] as const) {
      for (const typed of ['', 'rv-0001', 'RV-00012', 'google:ab1', 'zz', 'rv-0000000']) {
        const matching = values
          .filter((v) => fold(v).startsWith(fold(typed)))
          .sort((a, b) => (fold(a) < fold(b) ? -1 : fold(a) > fold(b) ? 1 : 0));
        const answer = index.complete(typed);
        expect(answer.values, typed).toEqual(matching.slice(0, MAX_COMPLETIONS));
        expect(answer.total, typed).toBe(matching.length);
        expect(answer.hasMore, typed).toBe(matching.length > MAX_COMPLETIONS);
      }
    }
  });

  it('examines at most 100 entries and two binary searches, whatever the number of values', () => {
    for (const typed of ['', 'rv-0', 'zz', 'google:']) {
      const [fewer, more] = indexes.map((index) => index.complete(typed).examined);
      // Two binary searches over 300,000 entries read 2 × 19 of them; over 1,500, 2 × 11.
      expect(more!, typed).toBeLessThanOrEqual(MAX_COMPLETIONS + 2 * 19);
      expect(more! - fewer!, typed).toBeLessThanOrEqual(2 * (19 - 10));
    }
  });

  it('finds technicians by their folded full or first name, spaces collapsed', () => {
    const index = new CompletionIndex(['Zoë Martínez', 'Zack  Lee', 'Ana Zúñiga']);
    expect(index.complete('zo').values).toEqual(['Zoë Martínez']);
    expect(index.complete('ZACK L').values).toEqual(['Zack  Lee']);
    expect(index.complete('z').values).toEqual(['Zack  Lee', 'Zoë Martínez']);
    expect(index.complete('x'.repeat(5000)).examined).toBe(0);
  });
});

describe('completions and batches over HTTP', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(`${dir.path}/completions.db`, { RATE_LIMIT_MCP_PER_MINUTE: '20' });
    await publish(server, {
      reviews: Array.from({ length: 150 }, (_, i) => newReview({ id: `zz-${String(i).padStart(3, '0')}` })),
      replace: true,
    });
  });
  afterAll(() => server.close());

  const completion = (value: string) =>
    rpc('completion/complete', {
      ref: { type: 'ref/resource', uri: 'reviews://review/{id}' },
      argument: { name: 'id', value },
    });

  it('says how many ids match and that there are more than the 100 it sends', async () => {
    const { sessionId, protocolVersion } = await openSession(server.url);
    const response = await mcpRequest(server.url, { sessionId, protocolVersion, body: completion('ZZ-') });
    const { completion: answer } = (
      response.json as JsonRpcResult<{ completion: { values: string[]; total: number; hasMore: boolean } }>
    ).result;
    expect(answer.values).toHaveLength(100);
    expect(answer.values[0]).toBe('zz-000');
    expect(answer).toMatchObject({ total: 150, hasMore: true });
  });

  it('counts every message of a 2025-03-26 batch against the allowance, so the batches past it are refused', async () => {
    const { sessionId } = await openSession(server.url, '2025-03-26');
    // 20 a minute; this test's session took 2 (initialize and initialized) and the test before 3.
    const batch = () =>
      mcpRequest(server.url, {
        sessionId,
        protocolVersion: '2025-03-26',
        body: Array.from({ length: 8 }, () => completion('zz')),
      });
    const first = await batch();
    expect(first.status).toBe(200);
    expect(first.json as unknown[]).toHaveLength(8);
    const second = await batch();
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((second.json as JsonRpcError).error.message).toMatch(/Too many requests/);
  });
});

/** A raw HTTP request from a chosen loopback address, its response as it arrives. */
function post(
  url: string,
  localAddress: string,
  headers: Record<string, string>,
  body: string,
): Promise<IncomingMessage> {
  return new Promise((done, fail) => {
    const req = httpRequest(
      `${url}/mcp`,
      {
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      done,
    );
    req.once('error', fail);
    req.end(body);
  });
}

interface Listening {
  status: number;
  body: string;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

let listenId = 1;

/** A 2026-07-28 subscriptions/listen to the feed, from `localAddress`. */
async function listen(url: string, localAddress = '127.0.0.1'): Promise<Listening> {
  const id = listenId++;
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'subscriptions/listen',
    params: { notifications: { resourceSubscriptions: [`${url}/api/feed.json`] }, _meta: META },
  });
  const response = await post(
    url,
    localAddress,
    { 'mcp-protocol-version': MODERN, 'mcp-method': 'subscriptions/listen' },
    body,
  );
  const listening: Listening = {
    status: response.statusCode ?? 0,
    body: '',
    ended: new Promise((done) => response.once('end', done)),
    close: () => response.destroy(),
  };
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => (listening.body += chunk));
  if (!String(response.headers['content-type']).startsWith('text/event-stream')) await listening.ended;
  else await until(() => listening.body.includes('acknowledged'), 5000, 'the listen acknowledgement');
  return listening;
}

const openStreams = async (url: string) =>
  Number(/^mcp_listen_streams (\d+)$/m.exec(await (await fetch(`${url}/metrics`)).text())?.[1]);

describe('subscriptions/listen', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(`${dir.path}/listen.db`, {
      MCP_LISTEN_PER_CLIENT: '2',
      MCP_LISTEN_MAX: '3',
      MCP_LISTEN_LIFETIME_MS: '60000',
    });
    await publish(server, { reviews: [newReview()], replace: true });
  });
  afterAll(() => server.close());

  it('holds one client to its share and every client to the cap in all, and counts the streams in the metrics', async () => {
    const a = [await listen(server.url), await listen(server.url)];
    expect(a.map((s) => s.status)).toEqual([200, 200]);
    const third = await listen(server.url);
    expect(third.status).toBe(429);
    expect(JSON.parse(third.body)).toMatchObject({ error: { message: expect.stringMatching(/at most 2/) } });
    // Another address still gets its stream, up to the cap of 3 in all.
    const b = await listen(server.url, '127.0.0.2');
    expect(b.status).toBe(200);
    expect(await openStreams(server.url)).toBe(3);
    const past = await listen(server.url, '127.0.0.3');
    expect(JSON.parse(past.body)).toMatchObject({ error: { message: 'Subscription limit reached' } });
    // A stream the client ends frees its place.
    a[0]!.close();
    b.close();
    await until(async () => (await openStreams(server.url)) === 1, 5000, 'the ended streams to be let go');
    const again = await listen(server.url);
    expect(again.status).toBe(200);
    again.close();
    a[1]!.close();
  });

  it('holds listen requests sent together to the share as well', async () => {
    await until(async () => (await openStreams(server.url)) === 0, 5000, 'the earlier streams to be let go');
    const together = await Promise.all(Array.from({ length: 5 }, () => listen(server.url, '127.0.0.4')));
    expect(together.map((s) => s.status).sort()).toEqual([200, 200, 429, 429, 429]);
    for (const s of together) s.close();
  });
});

describe('a listen stream past its lifetime', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(`${dir.path}/lifetime.db`, { MCP_LISTEN_LIFETIME_MS: '1000' });
  });
  afterAll(() => server.close());

  it('ends cleanly with the listen request’s result, and its place is freed', async () => {
    const stream = await listen(server.url);
    expect(stream.status).toBe(200);
    await stream.ended;
    const frames = stream.body.split('\n\n').filter((f) => f.startsWith('event: message'));
    const last = JSON.parse(frames.at(-1)!.split('data: ')[1]!) as { id: unknown; result: { resultType: string } };
    expect(last.result.resultType).toBe('complete');
    expect(await openStreams(server.url)).toBe(0);
  });
});

describe('errors that quote the request', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(`${dir.path}/quotes.db`);
  });
  afterAll(() => server.close());

  it('refuses a 60 KB resource URI without quoting it back', async () => {
    const { sessionId, protocolVersion } = await openSession(server.url);
    const uri = `reviews://review/${'x'.repeat(60_000)}`;
    const response = await mcpRequest(server.url, { sessionId, protocolVersion, body: rpc('resources/read', { uri }) });
    expect(response.status).toBe(400);
    expect(response.text.length).toBeLessThan(500);
    expect((response.json as JsonRpcError).error.message).toMatch(/params\.uri is longer than 1024/);
  });

  it('still names an unknown URI of a usual length', async () => {
    const { sessionId, protocolVersion } = await openSession(server.url);
    const response = await mcpRequest(server.url, {
      sessionId,
      protocolVersion,
      body: rpc('resources/read', { uri: 'reviews://review/nope' }),
    });
    expect(response.text).toContain('reviews://review/nope');
  });
});

describe('a forged or missing session id', () => {
  let service: ServiceProcess;
  beforeAll(async () => {
    service = await ServiceProcess.create(`sqlite:${dir.path}/sessions.db`);
    await service.start();
  });

  it('is answered 400 or 404 and logs only the request line, never an error or a stack', async () => {
    const before = service.logged().length;
    const forged = await mcpRequest(service.url, { sessionId: 'forged', body: rpc('tools/list') });
    const missing = await mcpRequest(service.url, { body: rpc('tools/list') });
    const ended = await mcpRequest(service.url, { method: 'DELETE', sessionId: 'forged' });
    expect([forged.status, missing.status, ended.status]).toEqual([404, 400, 404]);
    await until(
      () =>
        service
          .logged()
          .slice(before)
          .split('\n')
          .filter((l) => l.includes('"request"')).length >= 3,
      5000,
      'the three request lines',
    );
    const lines = service
      .logged()
      .slice(before)
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: number; msg: string; err?: unknown });
    expect(lines.filter((l) => l.level > 30 || l.err !== undefined)).toEqual([]);
  });
});
