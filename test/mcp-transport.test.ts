// The MCP streamable HTTP transport with raw HTTP: signed sessions on every replica, Origin, versions and JSON-RPC errors.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { issueSession, sessionChecker } from '../src/mcp/session.js';
import { EraClassifier, plainLegacyRequest } from '../src/mcp/era.js';
import { classifyInboundRequest } from '@modelcontextprotocol/server';
import {
  initializeRequest,
  isJsonRpcError,
  mcpRequest,
  openSession,
  resultOf,
  rpc,
  type JsonRpcError,
  type McpHttpResponse,
} from './support/mcp-wire.js';
import { publish, startServer, tempDir, type RunningServer } from './support/server.js';
import { sleep } from './support/wait.js';

const SECRET = 'transport-test-secret-0123456789abcdef';
const OTHER_SECRET = 'another-secret-fedcba9876543210-xyz';
const ALLOWED_ORIGIN = 'https://app.example.com';

const dir = tempDir('reviews-mcp-transport-');
/** The server most tests talk to, over data/a.db. */
let server: RunningServer;
/** A replica over the same SQLite file and the same secret. */
let sameFileReplica: RunningServer;
/** A replica over another SQLite file with the same secret. */
let otherFileReplica: RunningServer;
/** A server whose secret differs. */
let otherSecret: RunningServer;

const demo = generateDemo({ seed: 3, reviews: 30 });

/** A JSON-RPC error object with the given HTTP status (and code, when given), served as JSON. */
function expectRpcError(res: McpHttpResponse, status: number, code?: number): JsonRpcError {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(isJsonRpcError(res.json), res.text).toBe(true);
  const body = res.json as JsonRpcError;
  expect(Object.keys(body).sort()).toStrictEqual(['error', 'id', 'jsonrpc']);
  expect(body.error.message.length).toBeGreaterThan(0);
  if (code !== undefined) expect(body.error.code).toBe(code);
  return body;
}

const toolsCall = (name: string, args: Record<string, unknown> = {}) => rpc('tools/call', { name, arguments: args });

/** A session id with one character replaced by another allowed one, at `position` from the start. */
function changeOneCharacter(id: string, position: number): string {
  const old = id[position]!;
  return `${id.slice(0, position)}${old === 'A' ? 'B' : 'A'}${id.slice(position + 1)}`;
}

beforeAll(async () => {
  const env = { MCP_SESSION_SECRET: SECRET, MCP_ALLOWED_ORIGINS: `${ALLOWED_ORIGIN}, http://localhost:5173` };
  server = await startServer(`${dir.path}/a.db`, env);
  await publish(server, { business: demo.business, reviews: demo.reviews, replace: true });
  sameFileReplica = await startServer(`${dir.path}/a.db`, env);
  await sameFileReplica.app.publisher.refresh();
  otherFileReplica = await startServer(`${dir.path}/b.db`, env);
  otherSecret = await startServer(`${dir.path}/b.db`, { MCP_SESSION_SECRET: OTHER_SECRET });
});
afterAll(async () => {
  for (const s of [otherSecret, otherFileReplica, sameFileReplica, server]) await s?.close();
  dir.remove();
});

describe('MCP initialize over raw HTTP', () => {
  it.each([
    ['2025-06-18', '2025-06-18'],
    ['2025-11-25', '2025-11-25'],
    ['2025-03-26', '2025-03-26'],
    ['2099-01-01', '2025-11-25'],
  ])('asked for %s, answers 200 with a session id and protocol version %s', async (asked, negotiated) => {
    const request = initializeRequest(asked);
    const res = await mcpRequest(server.url, { body: request });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('mcp-session-id')).toMatch(/^[\x21-\x7E]+$/);
    const body = res.json as {
      jsonrpc: string;
      id: number;
      result: { protocolVersion: string; serverInfo: { name: string }; capabilities: Record<string, unknown> };
    };
    expect(body.jsonrpc).toBe('2.0');
    expect(body.id).toBe(request.id);
    expect(body.result.protocolVersion).toBe(negotiated);
    expect(body.result.serverInfo.name).toBe('reviews-service');
    expect(Object.keys(body.result.capabilities)).toEqual(expect.arrayContaining(['tools', 'resources', 'prompts']));
  });

  it('gives every initialize a different, long session id', async () => {
    const ids = await Promise.all(
      Array.from({ length: 5 }, async () =>
        (await mcpRequest(server.url, { body: initializeRequest('2025-06-18') })).headers.get('mcp-session-id')!,
      ),
    );
    expect(new Set(ids).size).toBe(5);
    for (const id of ids) expect(id.length).toBeGreaterThanOrEqual(32);
  });
});

describe('MCP session header', () => {
  it('serves tools/list, tools/call, ping and notifications/initialized with the session id', async () => {
    const { sessionId, protocolVersion } = await openSession(server.url);
    const listed = await mcpRequest(server.url, { sessionId, protocolVersion, body: rpc('tools/list') });
    expect(resultOf<{ tools: unknown[] }>(listed).tools).toHaveLength(5);
    const called = await mcpRequest(server.url, {
      sessionId,
      protocolVersion,
      body: toolsCall('search_reviews', { rating: 5, limit: 2 }),
    });
    const result = resultOf<{ structuredContent: { count: number; reviews: { rating: number }[] } }>(called);
    expect(result.structuredContent.count).toBeLessThanOrEqual(2);
    for (const review of result.structuredContent.reviews) expect(review.rating).toBe(5);
    const pinged = await mcpRequest(server.url, { sessionId, protocolVersion, body: rpc('ping') });
    expect(resultOf(pinged)).toStrictEqual({});
    const notified = await mcpRequest(server.url, {
      sessionId,
      protocolVersion,
      body: { jsonrpc: '2.0', method: 'notifications/initialized' },
    });
    expect(notified.status).toBe(202);
    expect(notified.text).toBe('');
    const answered = await mcpRequest(server.url, {
      sessionId,
      protocolVersion,
      body: { jsonrpc: '2.0', id: 'from-server-1', result: {} },
    });
    expect(answered.status).toBe(202);
  });

  it('serves a session without the MCP-Protocol-Version header (the session knows its version)', async () => {
    const { sessionId } = await openSession(server.url);
    const res = await mcpRequest(server.url, { sessionId, body: rpc('tools/list') });
    expect(res.status).toBe(200);
  });

  it.each([
    ['tools/list', rpc('tools/list')],
    ['tools/call', toolsCall('get_business')],
    ['ping', rpc('ping')],
    ['a notification', { jsonrpc: '2.0', method: 'notifications/initialized' }],
  ])('refuses %s without a session id with 400', async (_label, body) => {
    expectRpcError(await mcpRequest(server.url, { body }), 400);
  });

  it('answers 404 to forged session ids', async () => {
    const { sessionId } = await openSession(server.url);
    const [payload] = sessionId.split('.') as [string, string];
    const resigned = `${payload}.${createHmac('sha256', OTHER_SECRET).update(payload).digest('base64url')}`;
    const forged = [
      'not-a-session',
      'x'.repeat(80),
      changeOneCharacter(sessionId, 5),
      changeOneCharacter(sessionId, sessionId.length - 3),
      changeOneCharacter(sessionId, sessionId.length - 1),
      resigned,
      issueSession('2025-06-18', OTHER_SECRET).token,
      `${sessionId}x`,
    ];
    for (const id of forged) {
      expect(id).not.toBe(sessionId);
      expectRpcError(await mcpRequest(server.url, { sessionId: id, body: toolsCall('get_business') }), 404);
    }
    // The genuine id still works, so the 404s are about the ids.
    expect((await mcpRequest(server.url, { sessionId, body: toolsCall('get_business') })).status).toBe(200);
  });

  it('answers 404 to a session older than 24 hours, and serves one a little younger', async () => {
    const hour = 3600 * 1000;
    const expired = issueSession('2025-06-18', SECRET, Date.now() - 25 * hour).token;
    expectRpcError(
      await mcpRequest(server.url, {
        sessionId: expired,
        protocolVersion: '2025-06-18',
        body: toolsCall('get_business'),
      }),
      404,
    );
    const young = issueSession('2025-06-18', SECRET, Date.now() - 23 * hour).token;
    expect(
      (
        await mcpRequest(server.url, {
          sessionId: young,
          protocolVersion: '2025-06-18',
          body: toolsCall('get_business'),
        })
      ).status,
    ).toBe(200);
  });

  it('still ends a session whose signature was checked and remembered, when its day is over', () => {
    const check = sessionChecker(SECRET);
    const { token, claims } = issueSession('2025-06-18', SECRET);
    expect(check(token)).toEqual({ ok: true, claims });
    expect(check(token, (claims.exp + 1) * 1000)).toEqual({ ok: false, reason: 'expired' });
    expect(check(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)).toMatchObject({ ok: false });
  });
});

describe('telling a plain 2025 request without the SDK classifier', () => {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const cases: [unknown, string | undefined][] = [
    [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_business', arguments: {} } }, undefined],
    [{ jsonrpc: '2.0', id: 'a', method: 'tools/list' }, '2025-06-18'],
    [
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      },
      undefined,
    ],
    [{ jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} }, ' 2025-11-25 '],
    [{ jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: meta } }, '2026-07-28'],
    [{ jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: { progressToken: 1 } } }, undefined],
    [{ jsonrpc: '2.0', id: 6, method: 'tools/list' }, '2026-07-28'],
    [{ jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: '2025-06-18' } }, '2026-07-28'],
    [{ jsonrpc: '2.0', id: 1.5, method: 'tools/list' }, undefined],
    [{ jsonrpc: '2.0', method: 'notifications/initialized' }, undefined],
    [{ jsonrpc: '2.0', id: 8, result: {} }, undefined],
    [[{ jsonrpc: '2.0', id: 9, method: 'tools/list' }], undefined],
    [{ jsonrpc: '1.0', id: 10, method: 'tools/list' }, undefined],
    [{ jsonrpc: '2.0', id: 11, method: 'tools/list', params: [] }, undefined],
  ];
  it.each(cases)('calls %j (version header %s) plain only where the classifier says legacy', (body, header) => {
    if (plainLegacyRequest(body, header))
      expect(classifyInboundRequest({ httpMethod: 'POST', protocolVersionHeader: header, body }).kind).toBe('legacy');
  });
  it('calls a 2026-07-28 request modern only as the classifier does, before and after its envelope is remembered', () => {
    const eras = new EraClassifier();
    const call = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_business', arguments: {}, _meta: meta },
    };
    const headers = { protocolVersion: '2026-07-28', method: 'tools/call', name: 'get_business' };
    for (let i = 0; i < 2; i++)
      expect(eras.classify(call, headers)).toEqual({
        kind: 'modern',
        request: { id: 1, method: 'tools/call', params: call.params },
      });
    // Remembered or not, headers that disagree and envelopes the classifier refuses leave the request to the SDK.
    expect(eras.classify(call, { ...headers, name: 'search_reviews' }).kind).toBe('sdk');
    expect(eras.classify(call, { ...headers, method: undefined }).kind).toBe('sdk');
    const badEnvelope = {
      ...call,
      params: { ...call.params, _meta: { ...meta, 'io.modelcontextprotocol/clientInfo': 5 } },
    };
    expect(
      classifyInboundRequest({
        httpMethod: 'POST',
        protocolVersionHeader: '2026-07-28',
        mcpMethodHeader: 'tools/call',
        mcpNameHeader: 'get_business',
        body: badEnvelope,
      }).kind,
    ).toBe('reject');
    for (let i = 0; i < 2; i++) expect(eras.classify(badEnvelope, headers).kind).toBe('sdk');
    expect(eras.classify(cases[0]![0], {}).kind).toBe('legacy');
    // An envelope nested deeper than JSON.stringify goes (JSON.parse takes it) is the classifier's to judge.
    const deep = JSON.parse(
      `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","x":${'{"a":'.repeat(20000)}1${'}'.repeat(20000)}}}}`,
    ) as unknown;
    expect(() => eras.classify(deep, { protocolVersion: '2026-07-28', method: 'tools/list' })).not.toThrow();
  });

  it('tells the ordinary ones: a 2025 session request and initialize', () => {
    expect(cases.slice(0, 4).every(([body, header]) => plainLegacyRequest(body, header))).toBe(true);
    expect(cases.slice(4).some(([body, header]) => plainLegacyRequest(body, header))).toBe(false);
  });
});

describe('MCP sessions on every replica', () => {
  it('accepts a session initialized on another replica with the same secret', async () => {
    const { sessionId, protocolVersion } = await openSession(server.url);
    const res = await mcpRequest(otherFileReplica.url, { sessionId, protocolVersion, body: toolsCall('get_business') });
    const result = resultOf<{ isError?: boolean; structuredContent: { business: unknown } }>(res);
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent.business).toBeNull();
    const onSameFile = await mcpRequest(sameFileReplica.url, {
      sessionId,
      protocolVersion,
      body: toolsCall('get_business'),
    });
    expect(
      resultOf<{ structuredContent: { business: { name: string } } }>(onSameFile).structuredContent.business.name,
    ).toBe(demo.business.name);
  });

  it('answers 404 on a server with a different secret', async () => {
    const { sessionId, protocolVersion } = await openSession(server.url);
    expectRpcError(
      await mcpRequest(otherSecret.url, { sessionId, protocolVersion, body: toolsCall('get_business') }),
      404,
    );
  });

  // A replica looks a live session up again after RELOAD_INTERVAL_MS (500 ms here): the loop allows ten times that.
  it('ends a session on every replica soon after DELETE on one', async () => {
    const { sessionId, protocolVersion } = await openSession(server.url);
    expect((await mcpRequest(sameFileReplica.url, { sessionId, protocolVersion, body: rpc('ping') })).status).toBe(200);
    const deleted = await mcpRequest(server.url, { method: 'DELETE', sessionId });
    expect(deleted.status).toBe(204);
    const start = Date.now();
    let status = 200;
    while (Date.now() - start < 5000) {
      status = (await mcpRequest(sameFileReplica.url, { sessionId, protocolVersion, body: rpc('ping') })).status;
      if (status === 404) break;
      await sleep(25);
    }
    expect(status).toBe(404);
  });
});

describe('DELETE and GET /mcp', () => {
  it('ends the session with 204; the id then gets 404, DELETE included', async () => {
    const { sessionId, protocolVersion } = await openSession(server.url);
    const deleted = await mcpRequest(server.url, { method: 'DELETE', sessionId, protocolVersion });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expectRpcError(await mcpRequest(server.url, { sessionId, protocolVersion, body: rpc('tools/list') }), 404);
    expectRpcError(await mcpRequest(server.url, { sessionId, protocolVersion, body: toolsCall('get_business') }), 404);
    expectRpcError(await mcpRequest(server.url, { method: 'DELETE', sessionId }), 404);
  });

  it('answers DELETE without a session id with 400 and with a forged one with 404', async () => {
    expectRpcError(await mcpRequest(server.url, { method: 'DELETE' }), 400);
    expectRpcError(await mcpRequest(server.url, { method: 'DELETE', sessionId: 'forged.session' }), 404);
  });

  it('answers GET with 405 and Allow', async () => {
    const { sessionId } = await openSession(server.url);
    for (const res of [
      await mcpRequest(server.url, { method: 'GET' }),
      await mcpRequest(server.url, { method: 'GET', sessionId }),
    ]) {
      expectRpcError(res, 405);
      const allow = (res.headers.get('allow') ?? '').split(',').map((m) => m.trim());
      expect(allow).toEqual(expect.arrayContaining(['POST', 'DELETE']));
      expect(allow).not.toContain('GET');
    }
  });
});

describe('MCP Origin check', () => {
  it('allows requests without Origin, with the BASE_URL origin and with configured origins', async () => {
    for (const origin of [undefined, server.url, ALLOWED_ORIGIN, 'http://localhost:5173']) {
      const headers: Record<string, string> = origin === undefined ? {} : { origin };
      const { sessionId } = await openSession(server.url, '2025-06-18', headers);
      const res = await mcpRequest(server.url, { sessionId, headers, body: toolsCall('get_business') });
      expect(res.status, origin).toBe(200);
    }
    // A browser page on an allowed origin can read the session id it is given.
    const res = await mcpRequest(server.url, {
      headers: { origin: ALLOWED_ORIGIN },
      body: initializeRequest('2025-06-18'),
    });
    expect(res.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('mcp-session-id');
  });

  it('refuses other origins with 403 on initialize, later requests and DELETE', async () => {
    const evil = { origin: 'http://evil.example.com' };
    expectRpcError(await mcpRequest(server.url, { headers: evil, body: initializeRequest('2025-06-18') }), 403);
    const { sessionId } = await openSession(server.url);
    expectRpcError(await mcpRequest(server.url, { sessionId, headers: evil, body: toolsCall('get_business') }), 403);
    expectRpcError(await mcpRequest(server.url, { method: 'DELETE', sessionId, headers: evil }), 403);
    // A look-alike of an allowed origin is another origin.
    for (const origin of [`${ALLOWED_ORIGIN}.evil.example`, 'http://app.example.com', 'null']) {
      expectRpcError(await mcpRequest(server.url, { headers: { origin }, body: initializeRequest('2025-06-18') }), 403);
    }
    // The refused DELETE ended nothing.
    expect((await mcpRequest(server.url, { sessionId, body: rpc('ping') })).status).toBe(200);
  });
});

describe('MCP-Protocol-Version header', () => {
  it('accepts every supported version, as the SDK transport does, and refuses an unsupported one with 400', async () => {
    const { sessionId } = await openSession(server.url, '2025-06-18');
    for (const version of ['2025-06-18', '2025-11-25', '2025-03-26']) {
      expect(
        (await mcpRequest(server.url, { sessionId, protocolVersion: version, body: rpc('tools/list') })).status,
        version,
      ).toBe(200);
    }
    for (const version of ['1999-01-01', '2026-07-28', 'latest']) {
      expectRpcError(
        await mcpRequest(server.url, { sessionId, protocolVersion: version, body: rpc('tools/list') }),
        400,
      );
    }
  });
});

describe('MCP JSON-RPC errors', () => {
  it('answers malformed JSON with 400 and a parse error (-32700), with or without a session', async () => {
    const { sessionId } = await openSession(server.url);
    for (const text of ['{"jsonrpc": "2.0",', 'not json', '']) {
      const body = expectRpcError(await mcpRequest(server.url, { body: text, sessionId }), 400, -32700);
      expect(body.id).toBeNull();
    }
    expectRpcError(await mcpRequest(server.url, { body: '{"jsonrpc":' }), 400, -32700);
  });

  it.each([
    '{}',
    '[]',
    '{"jsonrpc":"1.0"}',
    '{"jsonrpc":"1.0","id":1,"method":"ping"}',
    '"hello"',
    '42',
    'null',
    '[1, 2]',
  ])('answers %s (JSON, but not a JSON-RPC message) with 400 and an invalid request error (-32600)', async (text) => {
    const { sessionId } = await openSession(server.url);
    expectRpcError(await mcpRequest(server.url, { body: text, sessionId }), 400, -32600);
  });

  it('answers a body over 64 KiB with 413', async () => {
    const { sessionId } = await openSession(server.url);
    const body = toolsCall('search_reviews', { query: 'x'.repeat(70 * 1024) });
    expectRpcError(await mcpRequest(server.url, { sessionId, body }), 413);
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx', 'text/json'])(
    'answers Content-Type %s with 415',
    async (contentType) => {
      expectRpcError(
        await mcpRequest(server.url, {
          headers: { 'content-type': contentType },
          body: initializeRequest('2025-06-18'),
        }),
        415,
      );
    },
  );

  it('accepts Content-Type application/json with a charset', async () => {
    const res = await mcpRequest(server.url, {
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: initializeRequest('2025-06-18'),
    });
    expect(res.status).toBe(200);
  });

  it.each(['application/json', 'text/event-stream', '*/*'])(
    'answers Accept %s (not both types) with 406',
    async (accept) => {
      expectRpcError(await mcpRequest(server.url, { headers: { accept }, body: initializeRequest('2025-06-18') }), 406);
    },
  );

  it.each([
    ['empty params', {}],
    ['no clientInfo', { protocolVersion: '2025-06-18', capabilities: {} }],
    [
      'a numeric protocolVersion',
      { protocolVersion: 20250618, capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    ],
  ])('answers an initialize with %s as invalid params, not as a missing session', async (_label, params) => {
    const res = await mcpRequest(server.url, { body: { jsonrpc: '2.0', id: 'init-1', method: 'initialize', params } });
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const body = expectRpcError(res, res.status === 200 ? 200 : 400);
    expect(body.error.message).not.toMatch(/Mcp-Session-Id/i);
    expect([-32602, -32600]).toContain(body.error.code);
  });

  it('answers an unknown method in a valid session with -32601 in a 200 response, with the request id', async () => {
    const { sessionId, protocolVersion } = await openSession(server.url);
    const request = rpc('reviews/delete_all');
    const body = expectRpcError(
      await mcpRequest(server.url, { sessionId, protocolVersion, body: request }),
      200,
      -32601,
    );
    expect(body.id).toBe(request.id);
  });
});

describe('Authorization header', () => {
  it('changes nothing: initialize and tools/call succeed the same with Authorization: Bearer x', async () => {
    const plain = await openSession(server.url);
    const bearer = await openSession(server.url, '2025-06-18', { authorization: 'Bearer x' });
    expect(bearer.protocolVersion).toBe(plain.protocolVersion);
    const withoutAuth = await mcpRequest(server.url, {
      sessionId: plain.sessionId,
      body: toolsCall('search_reviews', { limit: 3 }),
    });
    const withAuth = await mcpRequest(server.url, {
      sessionId: bearer.sessionId,
      headers: { authorization: 'Bearer x' },
      body: toolsCall('search_reviews', { limit: 3 }),
    });
    expect(withAuth.status).toBe(200);
    expect(resultOf(withAuth)).toStrictEqual(resultOf(withoutAuth));
    // A session opened without the header may use it, and the other way round.
    expect(
      (
        await mcpRequest(server.url, {
          sessionId: plain.sessionId,
          headers: { authorization: 'Bearer x' },
          body: rpc('ping'),
        })
      ).status,
    ).toBe(200);
    expect((await mcpRequest(server.url, { sessionId: bearer.sessionId, body: rpc('ping') })).status).toBe(200);
  });
});

describe('JSON-RPC batches', () => {
  it('refuses a batch in a session of 2025-06-18 or later, which removed batching, with -32600', async () => {
    for (const version of ['2025-06-18', '2025-11-25']) {
      const { sessionId } = await openSession(server.url, version);
      const res = await mcpRequest(server.url, {
        sessionId,
        protocolVersion: version,
        body: [rpc('ping'), rpc('tools/list')],
      });
      expect(expectRpcError(res, 400, -32600).error.message).toContain('batch');
    }
  });

  it('serves a batch in a 2025-03-26 session, which allowed it', async () => {
    const { sessionId } = await openSession(server.url, '2025-03-26');
    const res = await mcpRequest(server.url, {
      sessionId,
      protocolVersion: '2025-03-26',
      body: [rpc('ping'), rpc('tools/list')],
    });
    expect(res.status, res.text).toBe(200);
    expect(Array.isArray(res.json) && res.json.length).toBe(2);
  });
});

describe('bounded replies', () => {
  it('refuses a batch of more than 8 messages, and a batch that reads a resource, with -32600', async () => {
    const { sessionId } = await openSession(server.url, '2025-03-26');
    const many = await mcpRequest(server.url, {
      sessionId,
      protocolVersion: '2025-03-26',
      body: Array.from({ length: 9 }, () => rpc('ping')),
    });
    expect(expectRpcError(many, 400, -32600).error.message).toContain('at most 8');
    const reads = Array.from({ length: 3 }, () => rpc('resources/read', { uri: `${server.url}/reviews.json` }));
    const withRead = await mcpRequest(server.url, { sessionId, protocolVersion: '2025-03-26', body: reads });
    expect(expectRpcError(withRead, 400, -32600).error.message).toContain('resources/read');
    expect(withRead.text.length).toBeLessThan(500);
    // Up to the bound, a batch is still served.
    const eight = await mcpRequest(server.url, {
      sessionId,
      protocolVersion: '2025-03-26',
      body: Array.from({ length: 8 }, () => rpc('ping')),
    });
    expect(eight.status, eight.text).toBe(200);
  });

  it('answers resources/read with the document as served, the same bytes for every reader, not to be cached', async () => {
    const { sessionId } = await openSession(server.url, '2025-11-25');
    const document = await (await fetch(`${server.url}/reviews.json`)).text();
    for (const id of [7, 'read-8']) {
      const request = {
        jsonrpc: '2.0' as const,
        id,
        method: 'resources/read',
        params: { uri: `${server.url}/reviews.json` },
      };
      const res = await mcpRequest(server.url, { sessionId, protocolVersion: '2025-11-25', body: request });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.json).toEqual({
        jsonrpc: '2.0',
        id,
        result: { contents: [{ uri: `${server.url}/reviews.json`, mimeType: 'application/json', text: document }] },
      });
    }
    // Not a catalogue document: the SDK's own answer (an error naming the URI).
    const other = await mcpRequest(server.url, {
      sessionId,
      protocolVersion: '2025-11-25',
      body: rpc('resources/read', { uri: `${server.url}/nothing.json` }),
    });
    expect(other.text).toContain('nothing.json');
  });
});

describe('MCP capabilities', () => {
  it('does not promise list-changed notifications it can never send', async () => {
    const res = await mcpRequest(server.url, { body: initializeRequest('2025-11-25') });
    const capabilities = resultOf<{ capabilities: Record<string, { listChanged?: boolean }> }>(res).capabilities;
    for (const kind of ['tools', 'resources', 'prompts']) expect(capabilities[kind]?.listChanged ?? false).toBe(false);
  });
});

describe('MCP_ALLOWED_ORIGINS', () => {
  it('matches origins written in another case or with a default port, as browsers normalise them', async () => {
    const upper = await startServer(`${dir.path}/c.db`, { MCP_ALLOWED_ORIGINS: 'HTTPS://App.Example.COM:443/' });
    try {
      const res = await mcpRequest(upper.url, {
        body: initializeRequest('2025-06-18'),
        headers: { origin: 'https://app.example.com' },
      });
      expect(res.status, res.text).toBe(200);
    } finally {
      await upper.close();
    }
  });
});
