// MCP revision 2026-07-28 beside the 2025 sessions on one endpoint: the SDK's v2 client, stateless, lists and calls
// every tool and reads every document; the wire carries caching hints and answers every error with its request id.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, type Implementation } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { createMcpServer } from '../src/mcp/tools.js';
import { publish, startServer, tempDir, type RunningServer } from './support/server.js';
import { until } from './support/wait.js';

const dir = tempDir('reviews-mcp-modern-');
let server: RunningServer;
let client: Client;
const demo = generateDemo({ seed: 5, reviews: 200 });
const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

beforeAll(async () => {
  server = await startServer(`${dir.path}/modern.db`);
  await publish(server, { business: demo.business, reviews: demo.reviews, replace: true });
  await server.app.publisher.insightsReady();
  client = new Client({ name: 'modern-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
});
afterAll(async () => {
  await client.close();
  await server.close();
  dir.remove();
});

/** One raw 2026-07-28 request, with the routing headers the revision requires unless `headers` says otherwise. */
async function modern(
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  id = 7,
) {
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  const response = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } }),
  });
  return {
    status: response.status,
    headers: response.headers,
    json: (await response.json()) as {
      id: unknown;
      result?: Record<string, unknown>;
      error?: { code: number; data?: unknown };
    },
  };
}

describe('a 2026-07-28 client', () => {
  it('talks without a session: the era is modern and no request carried an Mcp-Session-Id', async () => {
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    expect(client.getServerVersion()?.name).toBe('reviews-service');
    expect(client.getInstructions()).toMatch(/search_reviews/);
  });

  it('lists every tool with a title, read-only annotations and an output schema, and calls each', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'get_business',
      'get_insights',
      'get_review',
      'get_reviews_since',
      'search_reviews',
    ]);
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
      expect(tool.outputSchema, tool.name).toBeTypeOf('object');
    }
    const search = await client.callTool({ name: 'search_reviews', arguments: { rating: 5, limit: 3 } });
    const rest = (await (await fetch(`${server.url}/api/reviews/search?rating=5&limit=3`)).json()) as unknown;
    expect(search.structuredContent).toEqual({ ...(rest as object), hint: expect.stringContaining('Narrow with') });
    const business = await client.callTool({ name: 'get_business', arguments: {} });
    expect((business.structuredContent as { business: { name: string } }).business.name).toBe(demo.business.name);
    const id = (rest as { reviews: { id: string }[] }).reviews[0]!.id;
    const one = await client.callTool({ name: 'get_review', arguments: { id } });
    expect((one.structuredContent as { review: { id: string } }).review.id).toBe(id);
    const since = await client.callTool({ name: 'get_reviews_since', arguments: { date: '2026-01-01', limit: 2 } });
    expect((since.structuredContent as { count: number }).count).toBe(2);
    const insights = await client.callTool({ name: 'get_insights', arguments: { section: 'summary' } });
    expect((insights.structuredContent as { section: string }).section).toBe('summary');
  });

  it('reads every catalogue document, byte for byte what HTTP serves', async () => {
    const { resources } = await client.listResources();
    expect(resources.length).toBe(4);
    for (const resource of resources) {
      const read = await client.readResource({ uri: resource.uri });
      const served = await (await fetch(resource.uri)).text();
      const first = read.contents[0] as { text?: string };
      expect(first.text, resource.uri).toBe(served);
    }
  });
});

describe('the 2026-07-28 wire', () => {
  it('answers server/discover with the supported versions, capabilities and caching hints', async () => {
    const { status, json } = await modern('server/discover');
    expect(status).toBe(200);
    expect(json.result).toMatchObject({ supportedVersions: [MODERN], resultType: 'complete', cacheScope: 'public' });
    expect(json.result?.capabilities).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    expect(json.result?.ttlMs).toBeTypeOf('number');
  });

  it('puts ttlMs and cacheScope on every list and on reads, the shared document reads included', async () => {
    for (const method of ['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list']) {
      const { json } = await modern(method);
      expect(json.result, method).toMatchObject({ resultType: 'complete', cacheScope: 'public' });
      expect(json.result?.ttlMs, method).toBeGreaterThan(0);
    }
    const read = await modern('resources/read', { uri: `${server.url}/feed.xml` });
    expect(read.json.result).toMatchObject({ resultType: 'complete', cacheScope: 'public', ttlMs: 60000 });
    // Answered from the shared bytes, with the serverInfo the SDK puts on its own results.
    const listed = await modern('tools/list');
    expect(read.json.result?._meta).toEqual(listed.json.result?._meta);
    expect(read.json.result?._meta).toMatchObject({
      'io.modelcontextprotocol/serverInfo': { name: 'reviews-service', version: '1.0.0' },
    });
  });

  it('refuses a read whose Mcp-Name disagrees with its uri, with the request id', async () => {
    const { status, json } = await modern(
      'resources/read',
      { uri: `${server.url}/reviews.json` },
      { 'mcp-name': `${server.url}/feed.xml` },
      41,
    );
    expect(status).toBe(400);
    expect(json.id).toBe(41);
    expect(json.error?.code).toBe(-32020);
  });

  it('answers a document nobody serves with -32602 naming the uri', async () => {
    const uri = 'test://nonexistent';
    const { json } = await modern('resources/read', { uri }, {}, 42);
    expect(json.id).toBe(42);
    expect(json.error).toMatchObject({ code: -32602, data: { uri } });
  });

  it('answers removed methods with 404 and -32601, and every refusal with the request id', async () => {
    for (const method of ['initialize', 'ping', 'resources/subscribe', 'no/such/method']) {
      const { status, json } = await modern(method, {}, {}, 43);
      expect(status, method).toBe(404);
      expect(json).toMatchObject({ id: 43, error: { code: -32601 } });
    }
    const foreign = await modern('tools/list', {}, { origin: 'https://elsewhere.example' }, 44);
    expect(foreign.status).toBe(403);
    expect(foreign.json.id).toBe(44);
    const wrongAccept = await modern('tools/list', {}, { accept: 'application/json' }, 45);
    expect(wrongAccept.status).toBe(406);
    expect(wrongAccept.json.id).toBe(45);
  });
});

describe('calls and reads the route answers itself', () => {
  // The route answers tools/call and catalogue reads from bytes kept per version; the SDK's own server, built here
  // over the same version, must give the same answer to the same request.
  const sdk = () => {
    const info = { name: 'reviews-service', version: '1.0.0' } as Implementation;
    return async (method: string, params: Record<string, unknown>, serverInfo: Implementation) => {
      const handler = createMcpHandler(
        ({ era }) => createMcpServer(server.app.publisher.current(), server.url, era, serverInfo ?? info),
        { legacy: 'reject' },
      );
      const name =
        typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
      const response = await handler.fetch(
        new Request(`${server.url}/mcp`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': MODERN,
            'mcp-method': method,
            ...(name ? { 'mcp-name': name } : {}),
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: META } }),
        }),
      );
      await handler.close();
      return (await response.json()) as unknown;
    };
  };
  const calls: [string, Record<string, unknown>][] = [
    ['get_business', {}],
    ['search_reviews', { mentions_technician: 'zoe', min_rating: 4 }],
    ['search_reviews', { query: 'no such words at all' }],
    ['get_reviews_since', { date: '2026-01-01', limit: 3 }],
    ['get_insights', { section: 'technicians', limit: 2, ids: 1 }],
    ['get_insights', { section: 'aspects', name: 'price' }],
    ['get_insights', { section: 'technicians', name: 'Nobody Atall' }],
    ['get_review', { id: demo.reviews[0]!.id }],
    ['get_review', { id: 'no-such-review' }],
  ];

  it.each(calls)(
    '%s %o: the same answer as the SDK server, twice (the second from what was kept)',
    async (name, args) => {
      const ours = await modern('tools/call', { name, arguments: args });
      const again = await modern('tools/call', { name, arguments: args });
      expect(ours.status).toBe(200);
      const serverInfo = (ours.json.result?._meta as Record<string, Implementation>)[
        'io.modelcontextprotocol/serverInfo'
      ]!;
      expect(ours.json).toEqual(await sdk()('tools/call', { name, arguments: args }, serverInfo));
      expect(again.json).toEqual(ours.json);
    },
  );

  it.each(['server/discover', 'tools/list', 'resources/list', 'resources/templates/list', 'prompts/list'])(
    "%s: the SDK server's answer, kept for the version",
    async (method) => {
      const first = await modern(method, {}, {}, 11);
      const kept = await modern(method, {}, {}, 'twelve' as unknown as number);
      expect(first.status).toBe(200);
      const serverInfo = (first.json.result?._meta as Record<string, Implementation>)[
        'io.modelcontextprotocol/serverInfo'
      ]!;
      const fresh = (await sdk()(method, {}, serverInfo)) as { id: unknown };
      expect(first.json).toEqual({ ...fresh, id: 11 });
      expect(kept.json).toEqual({ ...fresh, id: 'twelve' });
    },
  );

  it('reads the feed as the SDK server does', async () => {
    const params = { uri: `${server.url}/api/feed.json` };
    const ours = await modern('resources/read', params);
    const serverInfo = (ours.json.result?._meta as Record<string, Implementation>)[
      'io.modelcontextprotocol/serverInfo'
    ]!;
    expect(ours.json).toEqual(await sdk()('resources/read', params, serverInfo));
  });

  it('leaves arguments that do not parse to the SDK, which names them', async () => {
    const { json } = await modern('tools/call', { name: 'search_reviews', arguments: { limit: 0 } });
    expect(json.result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringContaining('limit') }],
    });
  });
});

describe('resource templates and completions', () => {
  const technician = demo.business.technicians[0]!.name;
  const service = demo.business.services[0]!.id;

  it('lists the four templates', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
      'reviews://aspect/{id}',
      'reviews://review/{id}',
      'reviews://service/{id}',
      'reviews://technician/{name}',
    ]);
  });

  it('reads each as the JSON the datasets hold for it', async () => {
    const dataset = (await (await fetch(`${server.url}/reviews.json`)).json()) as { reviews: { id: string }[] };
    const insights = (await (await fetch(`${server.url}/insights.json`)).json()) as {
      aspects: { id: string }[];
      entities: { technicians: { name: string }[]; services: { id: string }[] };
    };
    const readJson = async (uri: string) =>
      JSON.parse(((await client.readResource({ uri })).contents[0] as { text: string }).text) as unknown;
    expect(await readJson(`reviews://review/${encodeURIComponent(dataset.reviews[0]!.id)}`)).toEqual(
      dataset.reviews[0],
    );
    const named = insights.entities.technicians.find((t) => t.name === technician)!;
    // The first name, in lower case, accents folded, finds the technician, as search does.
    const first = technician
      .split(' ')[0]!
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase();
    expect(await readJson(`reviews://technician/${encodeURIComponent(first)}`)).toEqual(named);
    expect(await readJson(`reviews://service/${service}`)).toEqual(
      insights.entities.services.find((s) => s.id === service),
    );
    expect(await readJson('reviews://aspect/punctuality')).toEqual(
      insights.aspects.find((a) => a.id === 'punctuality'),
    );
    await expect(client.readResource({ uri: 'reviews://review/no-such-review' })).rejects.toMatchObject({
      code: -32602,
      data: { uri: 'reviews://review/no-such-review' },
    });
  });

  it('completes review ids, technician names, service ids and aspect ids from what was typed', async () => {
    const complete = async (uri: string, name: string, value: string) =>
      (await client.complete({ ref: { type: 'ref/resource', uri }, argument: { name, value } })).completion.values;
    expect(await complete('reviews://aspect/{id}', 'id', 'pr')).toEqual(['price', 'professionalism']);
    expect(await complete('reviews://service/{id}', 'id', service.slice(0, 3))).toContain(service);
    expect(await complete('reviews://technician/{name}', 'name', technician.slice(0, 2).toLowerCase())).toContain(
      technician,
    );
    const ids = await complete('reviews://review/{id}', 'id', 'rv-00001');
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.every((id) => id.startsWith('rv-00001'))).toBe(true);
  });
});

describe('subscriptions/listen', () => {
  it('tells a listening client that a document changed when an import changes it', async () => {
    const listener = new Client(
      { name: 'listener', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: MODERN } } },
    );
    await listener.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    const updated: string[] = [];
    listener.setNotificationHandler(
      'notifications/resources/updated',
      async (notification) => void updated.push(notification.params.uri),
    );
    const feed = `${server.url}/api/feed.json`;
    const subscription = await listener.listen({ resourceSubscriptions: [feed] });
    expect(subscription.honoredFilter.resourceSubscriptions).toEqual([feed]);
    await publish(server, {
      reviews: [
        {
          id: 'listen-1',
          date: '2026-11-24',
          rating: 5,
          text: 'Heard about it at once.',
          author: 'L. Listener',
          technicians: [],
          services: [],
          verified: true,
        },
      ],
      replace: false,
    });
    await until(() => updated.includes(feed), 5000, 'a resources/updated notification for the feed');
    // Only what was asked for: the reviews dataset changed too, but this client did not subscribe to it.
    expect(updated.every((uri) => uri === feed)).toBe(true);
    await subscription.close();
    await listener.close();
  });
});

describe('origins', () => {
  it('counts every loopback name as the origin of a BASE_URL on loopback, and nothing else', async () => {
    const port = new URL(server.url).port;
    for (const origin of [`http://localhost:${port}`, `http://127.0.0.1:${port}`, `http://[::1]:${port}`]) {
      expect((await modern('tools/list', {}, { origin })).status, origin).toBe(200);
    }
    for (const origin of [
      `http://localhost:${Number(port) + 1}`,
      `https://localhost:${port}`,
      'http://localhost.example',
    ]) {
      expect((await modern('tools/list', {}, { origin })).status, origin).toBe(403);
    }
  });
});

describe('the server card', () => {
  it('describes the endpoint and lists exactly what the server lists, at both names', async () => {
    const answers = await Promise.all(
      ['/.well-known/mcp/server-card', '/.well-known/mcp/server-card.json'].map((path) =>
        fetch(`${server.url}${path}`),
      ),
    );
    for (const answer of answers) expect(answer.status).toBe(200);
    const [card, again] = (await Promise.all(answers.map((a) => a.json()))) as Record<string, unknown>[];
    expect(again).toEqual(card);
    expect(card).toMatchObject({
      $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
      version: '1.0.0',
    });
    expect(card!.name).toMatch(/^[^/]+\/reviews$/);
    expect(card!.remotes).toEqual([
      expect.objectContaining({
        type: 'streamable-http',
        url: `${server.url}/mcp`,
        supportedProtocolVersions: expect.arrayContaining([MODERN, '2025-06-18']),
      }),
    ]);
    const listed = await client.listTools();
    expect(card!.tools).toEqual(JSON.parse(JSON.stringify(listed.tools)));
    expect((card!.resourceTemplates as unknown[]).length).toBe(4);
    // The icon is served here.
    const icon = (card!.icons as { src: string }[])[0]!.src;
    expect(icon.startsWith(server.url)).toBe(true);
    expect((await fetch(icon)).headers.get('content-type')).toBe('image/svg+xml');
  });
});
