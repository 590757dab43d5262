// /mcp and the WebSub hub answer as the OpenAPI description declares: statuses, headers, schemas, and the very examples it shows.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { hubRequest } from './support/hub-subscribe.js';
import { mcpRequest, openSession, type McpRequestOptions } from './support/mcp-wire.js';
import { at, fetchDescription, schemaAt, type Json } from './support/openapi.js';
import { startServer, tempDir, type RunningServer } from './support/server.js';

const RATE_LIMIT = 30;
const dir = tempDir();
let server: RunningServer;
let doc: Json;
let schemaOf: ReturnType<typeof schemaAt>;

beforeAll(async () => {
  server = await startServer(`${dir.path}/operations.db`, {
    // Callbacks on loopback, so the background verification of a hub request stays on this machine.
    WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
    WEBSUB_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
  });
  const demo = generateDemo({ seed: 42, reviews: 60 });
  await server.store.applyImport({ business: demo.business, reviews: demo.reviews, replace: true });
  await server.app.publisher.refresh();
  const url = `${server.url}/.well-known/openapi.json`;
  doc = await fetchDescription(url);
  schemaOf = schemaAt(doc, url);
});
afterAll(async () => {
  await server.close();
  dir.remove();
});

/** The declared response of an operation, and a validator of its JSON body. */
function declared(path: string, method: string, status: number, type = 'application/json') {
  const location = ['paths', path, method, 'responses', String(status)];
  const response = at(doc, ...location);
  expect(response, `${method} ${path} declares no ${status}`).toBeTypeOf('object');
  return {
    response,
    example: (name: string) => at(response, 'content', type, 'examples', name, 'value'),
    validate: () => schemaOf(...location, 'content', type, 'schema'),
  };
}

const requestExample = (name: string) =>
  at(doc, 'paths', '/mcp', 'post', 'requestBody', 'content', 'application/json', 'examples', name, 'value');

describe('POST and DELETE /mcp', () => {
  it('answers the documented initialize example 200 with Mcp-Session-Id and the documented result', async () => {
    const res = await mcpRequest(server.url, { body: requestExample('initialize') });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toMatch(/\S/);
    const { validate, example } = declared('/mcp', 'post', 200);
    const check = validate();
    expect(check(res.json), JSON.stringify(check.errors)).toBe(true);
    expect(res.json).toEqual(example('initialize'));
  });

  it.each([
    ['toolsList', 200],
    ['getBusiness', 200],
    ['searchReviews', 200],
    ['initialized', 202],
  ])('answers the documented %s example %i, its body matching the declared schema', async (name, status) => {
    const { sessionId, protocolVersion } = await openSession(server.url);
    const res = await mcpRequest(server.url, { sessionId, protocolVersion, body: requestExample(name) });
    expect(res.status).toBe(status);
    if (status === 202) return expect(res.text).toBe('');
    const check = declared('/mcp', 'post', status).validate();
    expect(check(res.json), JSON.stringify(check.errors)).toBe(true);
    expect(at(res.json, 'result')).toBeTypeOf('object');
  });

  it('answers an unknown method 200 with a JSON-RPC error, as the methodNotFound example shows', async () => {
    const { sessionId } = await openSession(server.url);
    const res = await mcpRequest(server.url, { sessionId, body: { jsonrpc: '2.0', id: 5, method: 'no/such/method' } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual(declared('/mcp', 'post', 200).example('methodNotFound'));
  });

  const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(70 * 1024) } });
  const refusals: [string, string, number, (session: string) => McpRequestOptions][] = [
    ['post', 'noSession', 400, () => ({ body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } })],
    ['post', 'parseError', 400, () => ({ body: '{not json' })],
    ['post', 'invalidRequest', 400, () => ({ body: { hello: 'world' } })],
    ['post', 'batch', 400, (sessionId) => ({ sessionId, body: [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }] })],
    [
      'post',
      'origin',
      403,
      () => ({
        headers: { origin: 'https://elsewhere.example' },
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      }),
    ],
    [
      'post',
      'sessionNotFound',
      404,
      () => ({ sessionId: 'forged.session', body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } }),
    ],
    [
      'post',
      'notAcceptable',
      406,
      () => ({ headers: { accept: 'application/json' }, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } }),
    ],
    ['post', 'tooLarge', 413, () => ({ body: big })],
    [
      'post',
      'unsupportedMediaType',
      415,
      () => ({ headers: { 'content-type': 'text/plain' }, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } }),
    ],
    ['delete', 'endWithoutSession', 400, () => ({ method: 'DELETE' })],
    ['delete', 'endUnknownSession', 404, () => ({ method: 'DELETE', sessionId: 'forged.session' })],
    ['get', 'getNotAllowed', 405, () => ({ method: 'GET' })],
  ];

  it.each(refusals)(
    '%s /mcp: the %s refusal is %i with exactly the documented body and no-store',
    async (method, name, status, options) => {
      const { sessionId } = await openSession(server.url);
      const res = await mcpRequest(server.url, options(sessionId));
      expect(res.status).toBe(status);
      const { validate, example } = declared('/mcp', method, status);
      const check = validate();
      expect(check(res.json), JSON.stringify(check.errors)).toBe(true);
      expect(res.json).toEqual(example(name));
      expect(res.headers.get('cache-control')).toBe('no-store');
      if (status === 405)
        expect(res.headers.get('allow')).toBe(
          at(doc, 'paths', '/mcp', 'get', 'responses', '405', 'headers', 'Allow', 'example'),
        );
    },
  );

  it('ends a session with DELETE (204), after which the session is not found (404)', async () => {
    const { sessionId } = await openSession(server.url);
    expect(at(doc, 'paths', '/mcp', 'delete', 'responses', '204')).toBeTypeOf('object');
    expect((await mcpRequest(server.url, { method: 'DELETE', sessionId })).status).toBe(204);
    expect(
      (await mcpRequest(server.url, { sessionId, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } })).status,
    ).toBe(404);
  });
});

describe('the WebSub hub', () => {
  const topic = () => `${server.url}/feed.xml`;
  /** The plain-text example bodies a status of the hub's POST declares. */
  const textExamples = (status: number) =>
    Object.values(
      (at(doc, 'paths', '/api/websub/hub', 'post', 'responses', String(status), 'content', 'text/plain', 'examples') ??
        {}) as Json[],
    ).map((e) => e.value);

  /** An https:// callback on loopback where nothing listens: verification fails at once, without leaving the machine. */
  async function deadCallback(): Promise<string> {
    const port = await new Promise<number>((done) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() => done(typeof address === 'object' && address ? address.port : 1));
      });
    });
    return `https://127.0.0.1:${port}/websub`;
  }

  it('accepts a well-formed subscription request 202 with no body, as the documented example', async () => {
    const example = at(
      doc,
      'paths',
      '/api/websub/hub',
      'post',
      'requestBody',
      'content',
      'application/x-www-form-urlencoded',
      'example',
    ) as Record<string, unknown>;
    const fields = Object.fromEntries(Object.entries(example).map(([k, v]) => [k, String(v)]));
    const answer = await hubRequest(server.url, { ...fields, 'hub.callback': await deadCallback() });
    expect(answer.status).toBe(202);
    expect(answer.text).toBe('');
    expect(at(doc, 'paths', '/api/websub/hub', 'post', 'responses', '202')).toBeTypeOf('object');
  });

  it.each([
    ['no mode', { 'hub.topic': 'x' }],
    ['an unknown topic', { 'hub.mode': 'subscribe', 'hub.topic': 'https://elsewhere.example/feed' }],
    ['a plain http callback', { 'hub.mode': 'subscribe', 'hub.callback': 'http://127.0.0.1/websub' }],
    [
      'a lease that is not a whole number',
      { 'hub.mode': 'subscribe', 'hub.callback': 'https://127.0.0.1/websub', 'hub.lease_seconds': '1.5' },
    ],
  ])('refuses %s 400 in plain text with one of the documented bodies', async (_what, fields) => {
    const answer = await hubRequest(server.url, { 'hub.topic': topic(), ...fields });
    expect(answer.status).toBe(400);
    expect(answer.contentType).toMatch(/^text\/plain\b/);
    expect(textExamples(400)).toContain(answer.text);
  });

  it('refuses another content type 415 with the documented body', async () => {
    const answer = await hubRequest(server.url, {}, { contentType: 'application/json', body: '{}' });
    expect(answer.status).toBe(415);
    expect(textExamples(415)).toEqual([answer.text]);
  });

  it('refuses a body over the limit 413 with the documented body', async () => {
    const answer = await hubRequest(
      server.url,
      {},
      { contentType: 'application/x-www-form-urlencoded', body: `hub.secret=${'a'.repeat(70 * 1024)}` },
    );
    expect(answer.status).toBe(413);
    expect(textExamples(413)).toEqual([answer.text]);
  });

  it('refuses GET 405 with Allow: POST and the documented body', async () => {
    const res = await fetch(`${server.url}/api/websub/hub`);
    const refused = at(doc, 'paths', '/api/websub/hub', 'get', 'responses', '405');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(at(refused, 'headers', 'Allow', 'example'));
    expect(Object.values(at(refused, 'content', 'text/plain', 'examples') as Json[]).map((e) => e.value)).toEqual([
      await res.text(),
    ]);
  });

  // Last in this file: it spends this address's hub requests for the current minute.
  it('answers 429 with Retry-After in seconds once an address passes the rate limit', async () => {
    let answer = await hubRequest(server.url, {});
    // A minute boundary may reset the count once, hence up to twice the limit.
    for (let i = 0; answer.status !== 429 && i < 2 * RATE_LIMIT + 2; i++) answer = await hubRequest(server.url, {});
    expect(answer.status).toBe(429);
    expect(textExamples(429)).toEqual([answer.text]);
    expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(answer.retryAfter)).toBeLessThanOrEqual(60);
    expect(
      at(doc, 'paths', '/api/websub/hub', 'post', 'responses', '429', 'headers', 'Retry-After', 'schema'),
    ).toMatchObject({ type: 'integer' });
  });
});
