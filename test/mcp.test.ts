// The MCP server through the official SDK client over real HTTP: tools, resources and prompt agree with the REST API.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import type { ImportedReview } from '../src/reviews/schemas.js';
import { mcpRequest, openSession, resultOf, rpc } from './support/mcp-wire.js';
import { publish, startServer, tempDir, type RunningServer } from './support/server.js';
import { rawRequest } from './support/wire.js';

const dir = tempDir('reviews-mcp-');
let server: RunningServer;
let client: Client;
let transport: StreamableHTTPClientTransport;

const demo = generateDemo({ seed: 11, reviews: 400 });
// Accents in text and technician names, so search_reviews is checked where folding matters.
const extra: ImportedReview[] = [
  {
    id: 'zz-mcp-1',
    date: '2024-06-01',
    rating: 5,
    text: 'Zoë fixed the café AC; the Crème brûlée stayed cold.',
    author: 'Émile R.',
    technicians: ['Zoë Martínez'],
    services: ['ac-repair'],
    verified: true,
  },
  {
    id: 'zz-mcp-2',
    date: '2024-06-01',
    rating: 2,
    text: 'FAÇADE lights still flicker after the visit.',
    author: 'Ana P.',
    technicians: ['José Núñez'],
    services: [],
    verified: true,
  },
];
const firstTechnician = demo.business.technicians[0]!.name;
const someService = demo.business.services[0]!.id;

const TOOL_NAMES = ['get_business', 'get_insights', 'get_review', 'get_reviews_since', 'search_reviews'];
const INSIGHT_SECTIONS = ['aspects', 'technicians', 'services', 'areas', 'topics', 'faq', 'summary'] as const;

interface ReviewJson {
  id: string;
  [field: string]: unknown;
}
interface ReviewsDatasetJson {
  business: unknown;
  aggregateRating: unknown;
  reviews: ReviewJson[];
}
interface SinceJson {
  since: string;
  count: number;
  reviews: ReviewJson[];
}

async function restJson<T>(path: string): Promise<T> {
  const res = await fetch(`${server.url}${path}`);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

function searchPath(params: Record<string, string | number>): string {
  const qs = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
  return `/api/reviews/search?${qs}`;
}

async function callTool(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return CallToolResultSchema.parse(await client.callTool({ name, arguments: args }));
}

function textOf(result: CallToolResult): string {
  return result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
}

/** A successful result: structured content, and a text block carrying the same JSON. */
function structured(result: CallToolResult): Record<string, unknown> {
  expect(result.isError ?? false, textOf(result)).toBe(false);
  expect(result.structuredContent).toBeDefined();
  expect(JSON.parse(textOf(result))).toStrictEqual(result.structuredContent);
  return result.structuredContent!;
}

/**
 * Checks that `cut` is `full` with every list of review ids (`reviewIds`, `examples`) cut to its `keep` newest,
 * and nothing else changed; returns how many ids were left out.
 */
function expectCut(full: unknown, cut: unknown, keep: number, key = ''): number {
  if ((key === 'reviewIds' || key === 'examples') && Array.isArray(full)) {
    expect(cut, key).toStrictEqual(full.slice(0, keep));
    return Math.max(0, full.length - keep);
  }
  if (Array.isArray(full)) {
    expect(Array.isArray(cut) && cut.length === full.length, key).toBe(true);
    return full.reduce<number>((n, item, i) => n + expectCut(item, (cut as unknown[])[i], keep, key), 0);
  }
  if (full && typeof full === 'object') {
    expect(Object.keys(cut as object).sort(), key).toStrictEqual(Object.keys(full).sort());
    return Object.entries(full).reduce<number>(
      (n, [k, v]) => n + expectCut(v, (cut as Record<string, unknown>)[k], keep, key === 'reviewIds' ? key : k),
      0,
    );
  }
  expect(cut, key).toStrictEqual(full);
  return 0;
}

async function connectClient(): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const c = new Client({ name: 'mcp-test-client', version: '1.0.0' });
  const t = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`));
  await c.connect(t);
  return { client: c, transport: t };
}

beforeAll(async () => {
  server = await startServer(`${dir.path}/mcp.db`, { MCP_SESSION_SECRET: 'mcp-test-secret-0123456789abcdef' });
  await publish(server, { business: demo.business, reviews: [...demo.reviews, ...extra], replace: true });
  await server.app.publisher.insightsReady();
  ({ client, transport } = await connectClient());
});
afterAll(async () => {
  await client.close();
  await server.close();
  dir.remove();
});

describe('MCP initialize', () => {
  it('connects the SDK client with a session id, server info and tools, resources and prompts capabilities', () => {
    expect(transport.sessionId).toMatch(/^[\x21-\x7E]+$/);
    expect(client.getServerVersion()).toStrictEqual({
      name: 'reviews-service',
      version: '1.0.0',
      title: 'Verified customer reviews',
      websiteUrl: `${server.url}/`,
      icons: [
        {
          src: expect.stringMatching(new RegExp(`^${server.url}/assets/icon\\.[\\w-]+\\.svg$`)),
          mimeType: 'image/svg+xml',
          sizes: ['any'],
        },
      ],
    });
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.tools).toBeDefined();
    expect(capabilities?.resources).toBeDefined();
    expect(capabilities?.prompts).toBeDefined();
    expect(client.getInstructions()).toContain('search_reviews');
  });

  it("negotiates the SDK client's own protocol version 2025-11-25", () => {
    expect(transport.protocolVersion).toBe('2025-11-25');
  });

  it('negotiates 2025-06-18 for a client that asks for it, and serves that session', async () => {
    const session = await openSession(server.url, '2025-06-18');
    expect(session.protocolVersion).toBe('2025-06-18');
    const listed = await mcpRequest(server.url, {
      sessionId: session.sessionId,
      protocolVersion: '2025-06-18',
      body: rpc('tools/list'),
    });
    expect(
      resultOf<{ tools: { name: string }[] }>(listed)
        .tools.map((t) => t.name)
        .sort(),
    ).toStrictEqual(TOOL_NAMES);
  });
});

describe('MCP tools/list', () => {
  it('lists exactly the five read-only tools, each described with input and output schemas', async () => {
    const { tools } = await client.listTools();
    // The second list in a session is the first one kept for the version: the same.
    expect((await client.listTools()).tools).toStrictEqual(tools);
    expect(tools.map((t) => t.name).sort()).toStrictEqual(TOOL_NAMES);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      expect(tool.annotations?.destructiveHint ?? false, tool.name).toBe(false);
      expect(tool.description?.length ?? 0, tool.name).toBeGreaterThan(20);
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
    }
  });

  it('gives search_reviews every REST search parameter with the same bounds', async () => {
    const { tools } = await client.listTools();
    const search = tools.find((t) => t.name === 'search_reviews')!;
    const props = search.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(Object.keys(props).sort()).toStrictEqual(
      ['limit', 'mentions_service', 'mentions_technician', 'min_rating', 'query', 'rating', 'since', 'until'].sort(),
    );
    expect(props.rating).toMatchObject({ type: 'integer', minimum: 1, maximum: 5 });
    expect(props.min_rating).toMatchObject({ type: 'number', minimum: 1, maximum: 5 });
    expect(props.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    for (const date of ['since', 'until']) expect(props[date], date).toMatchObject({ type: 'string', format: 'date' });
    for (const text of ['query', 'mentions_technician', 'mentions_service'])
      expect(props[text]?.type, text).toBe('string');
    for (const [name, schema] of Object.entries(props)) expect(typeof schema.description, name).toBe('string');
    expect(search.inputSchema.required ?? []).toStrictEqual([]);
    expect(search.inputSchema.additionalProperties).toBe(false);
  });

  it("gives search_reviews the same parameter schemas as the REST search's OpenAPI description", async () => {
    const openapi = await restJson<{
      paths: Record<string, { get: { parameters: { name: string; in: string; schema: unknown }[] } }>;
    }>('/.well-known/openapi.json');
    const restParameters = openapi.paths['/api/reviews/search']!.get.parameters.filter((p) => p.in === 'query');
    const { tools } = await client.listTools();
    const props = tools.find((t) => t.name === 'search_reviews')!.inputSchema.properties as Record<
      string,
      Record<string, unknown>
    >;
    expect(Object.keys(props).sort()).toStrictEqual(restParameters.map((p) => p.name).sort());
    for (const parameter of restParameters) {
      const { description: _description, ...schema } = props[parameter.name]!;
      expect(schema, parameter.name).toStrictEqual(parameter.schema);
    }
  });
});

describe('MCP search_reviews', () => {
  const parameterSets: Record<string, string | number>[] = [
    {},
    { rating: 4, limit: 7 },
    { min_rating: 3.5, limit: 30 },
    { query: 'café', limit: 100 },
    { query: 'CRÈME brulee' },
    { query: 'facade' },
    { mentions_technician: firstTechnician.split(' ')[0]!.toLowerCase(), limit: 50 },
    { mentions_technician: 'zoe' },
    { mentions_service: someService, limit: 100 },
    { since: '2024-01-01', until: '2024-06-30', limit: 100 },
    { since: '2024-06-01', until: '2024-06-01' },
    { rating: 5, since: '2023-01-01', mentions_service: someService, limit: 10 },
    { query: 'zzzz-nothing-matches' },
    { limit: 1 },
    { limit: 100 },
  ];

  it.each(parameterSets)('returns the REST search body for %o', async (params) => {
    const rest = await restJson<{ count: number; total: number; reviews: ReviewJson[] }>(searchPath(params));
    const { hint, ...mcp } = structured(await callTool('search_reviews', params));
    expect(mcp).toStrictEqual(rest);
    // A hint to narrow or raise the limit exactly when more matched than were returned.
    if (rest.count < rest.total) expect(hint).toContain(`of ${rest.total.toLocaleString('en-US')}`);
    else expect(hint).toBeUndefined();
  });

  it('finds the accented review by an unaccented first name and text', async () => {
    const byName = structured(await callTool('search_reviews', { mentions_technician: 'ZOE', query: 'cafe' }));
    expect((byName.reviews as ReviewJson[]).map((r) => r.id)).toStrictEqual(['zz-mcp-1']);
  });
});

describe('MCP get_reviews_since', () => {
  it('returns the REST since body when limit covers every review, with total equal to its count', async () => {
    const rest = await restJson<SinceJson>('/api/reviews/since/2026-04-01');
    expect(rest.count).toBeGreaterThan(0);
    expect(rest.count).toBeLessThanOrEqual(100);
    const mcp = structured(await callTool('get_reviews_since', { date: '2026-04-01', limit: 100 }));
    expect(mcp).toStrictEqual({ since: rest.since, count: rest.count, total: rest.count, reviews: rest.reviews });
  });

  it('returns the newest reviews up to limit, and total counts them all', async () => {
    const rest = await restJson<SinceJson>('/api/reviews/since/2022-01-01');
    expect(rest.count).toBeGreaterThan(100);
    const limited = structured(await callTool('get_reviews_since', { date: '2022-01-01', limit: 5 }));
    const hint = expect.stringContaining(`Showing the newest 5 of ${rest.count}`);
    expect(limited).toStrictEqual({
      since: '2022-01-01',
      count: 5,
      total: rest.count,
      reviews: rest.reviews.slice(0, 5),
      hint,
    });
    const byDefault = structured(await callTool('get_reviews_since', { date: '2022-01-01' }));
    expect(byDefault).toStrictEqual({
      since: '2022-01-01',
      count: 20,
      total: rest.count,
      reviews: rest.reviews.slice(0, 20),
      hint: expect.stringContaining('newest 20'),
    });
  });

  it('returns nothing after the newest review', async () => {
    const rest = await restJson<SinceJson>('/api/reviews/since/2030-01-01');
    const mcp = structured(await callTool('get_reviews_since', { date: '2030-01-01' }));
    expect(mcp).toStrictEqual({ since: '2030-01-01', count: 0, total: rest.count, reviews: [] });
  });
});

describe('MCP get_business, get_review and get_insights', () => {
  it("get_business returns /reviews.json's business, aggregate rating and verification summary", async () => {
    const dataset = await restJson<ReviewsDatasetJson & { verification: unknown }>('/reviews.json');
    const mcp = structured(await callTool('get_business'));
    expect(mcp).toStrictEqual({
      business: dataset.business,
      aggregateRating: dataset.aggregateRating,
      verification: dataset.verification,
    });
  });

  it('get_review returns the review exactly as /reviews.json has it, owner response included', async () => {
    const dataset = await restJson<ReviewsDatasetJson>('/reviews.json');
    const withResponse = dataset.reviews.find((r) => r.response !== undefined)!;
    const accented = dataset.reviews.find((r) => r.id === 'zz-mcp-1')!;
    for (const review of [withResponse, accented, dataset.reviews.at(-1)!]) {
      expect(structured(await callTool('get_review', { id: review.id }))).toStrictEqual({ review });
    }
  });

  it('get_review of an unknown or unverified id is a tool error naming the id', async () => {
    const result = await callTool('get_review', { id: 'no-such-review' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('no-such-review');
  });

  it.each(INSIGHT_SECTIONS)(
    'get_insights returns the %s section of /insights.json, cut to its limits',
    async (section) => {
      const insights = await restJson<Record<string, unknown> & { entities: Record<string, unknown> }>(
        '/insights.json',
      );
      const full: Record<(typeof INSIGHT_SECTIONS)[number], unknown> = {
        aspects: insights.aspects,
        technicians: insights.entities.technicians,
        services: insights.entities.services,
        areas: insights.entities.serviceAreas,
        topics: insights.topics,
        faq: insights.faq,
        summary: insights.summary,
      };
      const head = {
        section,
        generatedAt: insights.generatedAt,
        asOf: insights.asOf,
        reviewCount: insights.reviewCount,
      };
      for (const [limits, entries, ids] of [
        [{}, 10, 5],
        [{ limit: 3, ids: 0 }, 3, 0],
        [{ limit: 50, ids: 100 }, 50, 100],
      ] as const) {
        const mcp = structured(await callTool('get_insights', { section, ...limits }));
        const expected = full[section];
        if (!Array.isArray(expected)) {
          expect(mcp).toStrictEqual({ ...head, data: expected });
          continue;
        }
        const {
          data,
          entries: counted,
          reviewIdsCut,
          hint,
          ...rest
        } = mcp as { data: unknown[]; entries: unknown; reviewIdsCut?: number; hint?: string };
        expect(rest).toStrictEqual(head);
        expect(counted).toStrictEqual({ returned: Math.min(entries, expected.length), total: expected.length });
        const cut = expectCut(expected.slice(0, entries), data, ids);
        expect(reviewIdsCut).toBe(cut || undefined);
        expect(hint !== undefined).toBe(cut > 0 || entries < expected.length);
      }
    },
  );

  it('get_insights with a name that does not exist is a tool error naming the section and the name', async () => {
    const result = await callTool('get_insights', { section: 'technicians', name: 'Nobody Atall' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('technicians');
    expect(textOf(result)).toContain('Nobody Atall');
  });
});

describe('MCP resource templates and completions in a session', () => {
  it('lists the four templates, reads each as the JSON the datasets hold, and completes each argument', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toStrictEqual([
      'reviews://aspect/{id}',
      'reviews://review/{id}',
      'reviews://service/{id}',
      'reviews://technician/{name}',
    ]);
    const dataset = await restJson<ReviewsDatasetJson>('/reviews.json');
    const insights = await restJson<{
      aspects: { id: string }[];
      entities: { technicians: { name: string }[]; services: { id: string }[] };
    }>('/insights.json');
    const complete = async (uri: string, name: string, value: string) =>
      (await client.complete({ ref: { type: 'ref/resource', uri }, argument: { name, value } })).completion.values;
    const readJson = async (uri: string) =>
      JSON.parse(((await client.readResource({ uri })).contents[0] as { text: string }).text) as unknown;

    // Each argument completed from a prefix, then the completed value read.
    const review = dataset.reviews.find((r) => r.id === 'zz-mcp-1')!;
    const reviewIds = await complete('reviews://review/{id}', 'id', 'zz-mcp');
    expect(reviewIds.sort()).toStrictEqual(['zz-mcp-1', 'zz-mcp-2']);
    expect(await readJson(`reviews://review/${reviewIds[0]}`)).toStrictEqual(review);

    const zoe = insights.entities.technicians.find((t) => t.name === 'Zoë Martínez');
    const names = await complete('reviews://technician/{name}', 'name', 'zo');
    expect(names).toContain('Zoë Martínez');
    if (zoe) expect(await readJson(`reviews://technician/${encodeURIComponent('Zoë Martínez')}`)).toStrictEqual(zoe);
    const technician = insights.entities.technicians[0]!;
    expect(await complete('reviews://technician/{name}', 'name', technician.name.slice(0, 3))).toContain(
      technician.name,
    );
    expect(await readJson(`reviews://technician/${encodeURIComponent(technician.name)}`)).toStrictEqual(technician);

    const service = insights.entities.services[0]!;
    expect(await complete('reviews://service/{id}', 'id', service.id.slice(0, 2))).toContain(service.id);
    expect(await readJson(`reviews://service/${service.id}`)).toStrictEqual(service);

    expect((await complete('reviews://aspect/{id}', 'id', 'c')).sort()).toStrictEqual(['cleanliness', 'communication']);
    expect(await readJson('reviews://aspect/price')).toStrictEqual(insights.aspects.find((a) => a.id === 'price'));

    await expect(client.readResource({ uri: 'reviews://service/no-such-service' })).rejects.toMatchObject({
      code: -32602,
    });
  });
});

describe('MCP invalid tool calls', () => {
  const invalid: [string, string, Record<string, unknown>, string][] = [
    ['rating 0', 'search_reviews', { rating: 0 }, 'rating'],
    ['rating 6', 'search_reviews', { rating: 6 }, 'rating'],
    ['rating 2.5', 'search_reviews', { rating: 2.5 }, 'rating'],
    ['rating "5"', 'search_reviews', { rating: '5' }, 'rating'],
    ['min_rating 0.5', 'search_reviews', { min_rating: 0.5 }, 'min_rating'],
    ['limit 0', 'search_reviews', { limit: 0 }, 'limit'],
    ['limit 101', 'search_reviews', { limit: 101 }, 'limit'],
    ['since 2025-02-30', 'search_reviews', { since: '2025-02-30' }, 'since'],
    ['until not a date', 'search_reviews', { until: '01/02/2025' }, 'until'],
    ['since after until', 'search_reviews', { since: '2025-03-01', until: '2025-02-01' }, 'since'],
    ['an unknown argument', 'search_reviews', { colour: 'red' }, 'colour'],
    ['get_reviews_since without date', 'get_reviews_since', {}, 'date'],
    ['get_reviews_since date 2025-02-30', 'get_reviews_since', { date: '2025-02-30' }, 'date'],
    ['get_reviews_since limit 101', 'get_reviews_since', { date: '2025-01-01', limit: 101 }, 'limit'],
    ['get_insights limit 51', 'get_insights', { section: 'topics', limit: 51 }, 'limit'],
    ['get_insights ids -1', 'get_insights', { section: 'topics', ids: -1 }, 'ids'],
    ['get_insights unknown section', 'get_insights', { section: 'weather' }, 'section'],
    ['get_business with an argument', 'get_business', { verbose: true }, 'verbose'],
    ['get_review without id', 'get_review', {}, 'id'],
  ];

  it.each(invalid)('%s is a tool error naming the argument', async (_label, tool, args, argument) => {
    const result = await callTool(tool, args);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    // The argument must be named in what is said about it, not merely inside the tool's name ("get_reviews_since").
    const said = textOf(result).replace(new RegExp(`\\b${tool}\\b`, 'g'), '');
    expect(said).toMatch(new RegExp(`(^|[^A-Za-z_])${argument}([^A-Za-z_]|$)`));
  });

  it('an unknown tool name is an error naming the tool', async () => {
    let message: string;
    try {
      const result = await callTool('delete_reviews', {});
      expect(result.isError).toBe(true);
      message = textOf(result);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('delete_reviews');
  });
});

describe('MCP resources', () => {
  const documents = [
    { path: '/reviews.json', mimeType: 'application/json' },
    { path: '/insights.json', mimeType: 'application/json' },
    { path: '/api/feed.json', mimeType: 'application/feed+json' },
    { path: '/feed.xml', mimeType: 'application/atom+xml' },
  ];

  it('lists the four documents with their MIME types', async () => {
    const { resources } = await client.listResources();
    expect(
      resources.map((r) => ({ uri: r.uri, mimeType: r.mimeType })).sort((a, b) => (a.uri < b.uri ? -1 : 1)),
    ).toStrictEqual(
      documents
        .map((d) => ({ uri: `${server.url}${d.path}`, mimeType: d.mimeType }))
        .sort((a, b) => (a.uri < b.uri ? -1 : 1)),
    );
  });

  it.each(documents)('reads $path with the same bytes as the REST body', async ({ path, mimeType }) => {
    const rest = await rawRequest(`${server.url}${path}`);
    expect(rest.status).toBe(200);
    const uri = `${server.url}${path}`;
    const { contents } = await client.readResource({ uri });
    expect(contents).toHaveLength(1);
    const [content] = contents;
    expect(content?.uri).toBe(uri);
    expect(content?.mimeType).toBe(mimeType);
    expect('text' in content! ? Buffer.from(content.text, 'utf8') : undefined).toStrictEqual(rest.body);
  });

  it('reading an unknown resource is an error', async () => {
    await expect(client.readResource({ uri: `${server.url}/nothing.json` })).rejects.toThrow(/nothing\.json/);
  });
});

describe('MCP prompts', () => {
  it('lists summarize_reviews with an optional about argument', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toStrictEqual(['summarize_reviews']);
    expect(prompts[0]?.arguments).toStrictEqual([expect.objectContaining({ name: 'about', required: false })]);
  });

  it('gets summarize_reviews for the whole business', async () => {
    const { messages } = await client.getPrompt({ name: 'summarize_reviews' });
    expect(messages).toHaveLength(1);
    expect(messages[0]?.role).toBe('user');
    const content = messages[0]!.content;
    expect(content.type).toBe('text');
    expect(content.type === 'text' ? content.text : '').toContain('get_business');
  });

  it('gets summarize_reviews about one technician', async () => {
    const { messages } = await client.getPrompt({ name: 'summarize_reviews', arguments: { about: 'Zoë' } });
    const content = messages[0]!.content;
    expect(content.type === 'text' ? content.text : '').toContain('Zoë');
    expect(content.type === 'text' ? content.text : '').toContain('get_insights');
  });
});

describe('MCP ping and session end', () => {
  it('answers ping', async () => {
    await expect(client.ping()).resolves.toStrictEqual({});
  });

  it('ends the session on terminateSession: later requests with that id get 404', async () => {
    const own = await connectClient();
    const sessionId = own.transport.sessionId!;
    expect((await own.client.listTools()).tools).toHaveLength(5);
    await own.transport.terminateSession();
    expect(own.transport.sessionId).toBeUndefined();
    await own.client.close();
    const after = await mcpRequest(server.url, { sessionId, protocolVersion: '2025-11-25', body: rpc('tools/list') });
    expect(after.status).toBe(404);
    // The main client's session is untouched.
    expect((await client.listTools()).tools).toHaveLength(5);
  });
});
