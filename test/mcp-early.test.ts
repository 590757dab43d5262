// A tools/call or a list whose answer is kept is answered from its body before Fastify sees the request
// (src/http/early-post.ts); the same request sent chunked goes through the route. Both must be the same answer,
// counted alike, and a request the early answer declines must reach the route whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { MCP_ACCEPT } from './support/mcp-wire.js';
import { scrapeMetrics } from './support/metrics.js';
import { publish, startServer, tempDir, type RunningServer } from './support/server.js';
import { header, rawRequest, type RawResponse } from './support/wire.js';

const dir = tempDir('reviews-mcp-early-');
const demo = generateDemo({ seed: 11, reviews: 120 });
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};
const SEARCH = { name: 'search_reviews', arguments: { min_rating: 4, limit: 3 } };

async function started(file: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const server = await startServer(`${dir.path}/${file}`, env);
  await publish(server, { business: demo.business, reviews: demo.reviews, replace: true });
  return server;
}

/** POST /mcp with a stated length (read early) or chunked (Fastify reads it). */
function post(
  server: RunningServer,
  body: unknown,
  headers: Record<string, string> = {},
  framing: 'length' | 'chunked' = 'length',
): Promise<RawResponse> {
  return rawRequest(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      accept: MCP_ACCEPT,
      'content-type': 'application/json',
      ...(framing === 'chunked' ? { 'transfer-encoding': 'chunked' } : {}),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const withoutDate = (res: RawResponse) =>
  Object.fromEntries(Object.entries(res.headers).filter(([name]) => name !== 'date'));

/** The answer read early and the route's, which must agree byte for byte (the Date header aside). */
async function bothWays(server: RunningServer, body: unknown, headers: Record<string, string> = {}) {
  const routed = await post(server, body, headers, 'chunked');
  const early = await post(server, body, headers);
  expect(withoutDate(early)).toEqual(withoutDate(routed));
  expect(early.body.toString('utf8')).toBe(routed.body.toString('utf8'));
  return early;
}

async function metrics(server: RunningServer): Promise<{ posts: number; timed: number; calls: number }> {
  const value = await scrapeMetrics(server.url);
  return {
    posts: value('http_requests_total{method="POST",route="/mcp",status="200"}'),
    timed: value('http_request_duration_seconds_count{method="POST",route="/mcp"}'),
    calls: value('mcp_tool_calls_total{tool="search_reviews"}'),
  };
}

describe('MCP requests answered from their body ahead of the route', () => {
  let server: RunningServer;
  let session: string;
  beforeAll(async () => {
    server = await started('early.db');
    const init = await post(server, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    session = header(init, 'mcp-session-id') ?? '';
    expect(session).not.toBe('');
  });
  afterAll(async () => {
    await server.close();
  });

  it('a 2025-06-18 session’s tools/call: the same 200 as the route’s, counted as a request and a tool call', async () => {
    const before = await metrics(server);
    const answer = await bothWays(
      server,
      { jsonrpc: '2.0', id: 'call-1', method: 'tools/call', params: SEARCH },
      { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
    );
    expect(answer.status).toBe(200);
    const parsed = JSON.parse(answer.body.toString('utf8')) as { id: string; result: { structuredContent: unknown } };
    expect(parsed.id).toBe('call-1');
    expect(parsed.result.structuredContent).toBeDefined();
    expect(await metrics(server)).toEqual({
      posts: before.posts + 2,
      timed: before.timed + 2,
      calls: before.calls + 2,
    });
  });

  it('a 2026-07-28 tools/call and a kept tools/list: the same answers as the route’s', async () => {
    const modernHeaders = (method: string, name?: string) => ({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    });
    const call = await bothWays(
      server,
      { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { ...SEARCH, _meta: META } },
      modernHeaders('tools/call', SEARCH.name),
    );
    expect((JSON.parse(call.body.toString('utf8')) as { result: { resultType: string } }).result.resultType).toBe(
      'complete',
    );
    const list = { jsonrpc: '2.0', id: 10, method: 'tools/list', params: { _meta: META } };
    // The first list is the SDK's, and kept; then both ways answer from what was kept.
    await post(server, list, modernHeaders('tools/list'));
    const listed = await bothWays(server, list, modernHeaders('tools/list'));
    expect(listed.status).toBe(200);
  });

  it('requests the early answer declines reach the route with their body, and get its answer', async () => {
    const legacy = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    const call = (args: unknown) => ({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'search_reviews', arguments: args },
    });
    // Arguments out of bounds: the SDK names the problem.
    const invalid = await bothWays(server, call({ rating: 9 }), legacy);
    expect(invalid.body.toString('utf8')).toContain('rating');
    expect((await bothWays(server, '{"jsonrpc":', legacy)).status).toBe(400);
    expect((await bothWays(server, call({}), { ...legacy, 'mcp-session-id': 'forged.session' })).status).toBe(404);
    expect((await bothWays(server, call({}), { ...legacy, origin: 'https://elsewhere.example' })).status).toBe(403);
    expect((await bothWays(server, call({}), { ...legacy, accept: 'application/json' })).status).toBe(406);
    expect((await bothWays(server, call({}), { ...legacy, 'mcp-protocol-version': '1999-01-01' })).status).toBe(400);
    // Only what the stated length covers is the request: here, a body cut short, which does not parse.
    const short = await post(server, JSON.stringify(call({})) + ' ', { ...legacy, 'content-length': '20' });
    expect(short.status).toBe(400);
  });
});

describe('an answer kept for the requests that repeat it', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await started('early-kept.db');
  });
  afterAll(async () => {
    await server.close();
  });

  const initialize = async (protocolVersion: string) =>
    header(
      await post(server, {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
      'mcp-session-id',
    ) ?? '';

  it('is not given to a request its headers, session or protocol version would refuse', async () => {
    const session = await initialize('2025-06-18');
    const legacy = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    const call = { jsonrpc: '2.0', id: 'kept', method: 'tools/call', params: SEARCH };
    const first = await bothWays(server, call, legacy);
    expect(first.status).toBe(200);
    expect((await bothWays(server, call, { ...legacy, accept: 'application/json' })).status).toBe(406);
    expect((await bothWays(server, call, { ...legacy, 'content-type': 'text/plain' })).status).toBe(415);
    expect((await bothWays(server, call, { ...legacy, origin: 'https://elsewhere.example' })).status).toBe(403);
    // Another session of another version, the same body and headers (no version header, which 2025 sessions may
    // leave out): the route's answer for its version. The first list of a version is the SDK's.
    const list = { jsonrpc: '2.0', id: 'list', method: 'tools/list' };
    await post(server, list, { 'mcp-session-id': session });
    expect((await bothWays(server, list, { 'mcp-session-id': session })).status).toBe(200);
    const older = await initialize('2024-11-05');
    await post(server, list, { 'mcp-session-id': older });
    expect((await bothWays(server, list, { 'mcp-session-id': older })).status).toBe(200);
    // The session ended: the same request is refused, kept answer or not.
    const ended = await rawRequest(`${server.url}/mcp`, {
      method: 'DELETE',
      headers: { accept: MCP_ACCEPT, 'mcp-session-id': session },
    });
    expect(ended.status).toBe(204);
    expect((await post(server, call, legacy)).status).toBe(404);
  });
});

describe('the allowance of a client answered early', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await started('early-limit.db', { RATE_LIMIT_MCP_PER_MINUTE: '4' });
  });
  afterAll(async () => {
    await server.close();
  });

  it('counts each answer, and the route refuses the request past the allowance with its 429', async () => {
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { ...SEARCH, _meta: META } };
    const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': SEARCH.name };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await post(server, call, headers)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const refused = await post(server, call, headers);
    expect(header(refused, 'retry-after')).toMatch(/^\d+$/);
  });
});
