// Tool results stay inside an assistant's context: every default answer within 10,000 tokens, and every answer at
// its largest arguments within 25,000 (the limits MCP clients such as Claude Code warn at and cut at), counted at
// three characters a token, which JSON of English text does not go below. Cut lists say so and how to see more.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { publish, startServer, tempDir, type RunningServer } from './support/server.js';

const CHARS_PER_TOKEN = 3;
const DEFAULT_BUDGET = 10_000 * CHARS_PER_TOKEN;
const MAX_BUDGET = 25_000 * CHARS_PER_TOKEN;
const SECTIONS = ['aspects', 'technicians', 'services', 'areas', 'topics', 'faq', 'summary'];

const dir = tempDir('reviews-mcp-budget-');
let server: RunningServer;
let client: Client;
// Enough reviews that every list of review ids in the insights is longer than the most a result may hold.
const demo = generateDemo({ seed: 3, reviews: 4000 });

beforeAll(async () => {
  server = await startServer(`${dir.path}/budget.db`);
  await publish(server, { business: demo.business, reviews: demo.reviews, replace: true });
  await server.app.publisher.insightsReady();
  client = new Client(
    { name: 'budget-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
}, 120_000);
afterAll(async () => {
  await client.close();
  await server.close();
  dir.remove();
});

async function text(
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; value: Record<string, unknown> }> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError ?? false, `${name} ${JSON.stringify(args)}`).toBe(false);
  const block = (result.content as { type: string; text: string }[])[0]!;
  return { text: block.text, value: result.structuredContent as Record<string, unknown> };
}

describe('tool results within a token budget', () => {
  it('keeps every default answer within 10,000 tokens', async () => {
    const insights = (await (await fetch(`${server.url}/insights.json`)).json()) as { aspects: unknown[] };
    // The whole insights document is far beyond any budget: what the limits are for.
    expect(JSON.stringify(insights).length).toBeGreaterThan(5 * MAX_BUDGET);
    const calls: [string, Record<string, unknown>][] = [
      ['get_business', {}],
      ['search_reviews', {}],
      ['get_reviews_since', { date: '2000-01-01' }],
      ['get_review', { id: demo.reviews[0]!.id }],
      ...SECTIONS.map((section): [string, Record<string, unknown>] => ['get_insights', { section }]),
      ['get_insights', { section: 'technicians', name: demo.business.technicians[0]!.name }],
    ];
    for (const [name, args] of calls)
      expect((await text(name, args)).text.length, `${name} ${JSON.stringify(args)}`).toBeLessThanOrEqual(
        DEFAULT_BUDGET,
      );
  });

  it('keeps every answer at its largest arguments within 25,000 tokens', async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['search_reviews', { limit: 100 }],
      ['get_reviews_since', { date: '2000-01-01', limit: 100 }],
      ...SECTIONS.map((section): [string, Record<string, unknown>] => [
        'get_insights',
        { section, limit: 50, ids: 100 },
      ]),
    ];
    for (const [name, args] of calls)
      expect((await text(name, args)).text.length, `${name} ${JSON.stringify(args)}`).toBeLessThanOrEqual(MAX_BUDGET);
  });

  it('says what was cut, with the full counts, and how to see more', async () => {
    const search = (await text('search_reviews', {})).value;
    expect(search.count).toBe(20);
    expect(search.total).toBeGreaterThan(20);
    expect(search.hint).toMatch(/Narrow with .*raise limit/);

    const aspects = (await text('get_insights', { section: 'aspects' })).value as {
      data: { mentions: number; reviewIds: Record<string, string[]> }[];
      reviewIdsCut: number;
      hint: string;
    };
    for (const aspect of aspects.data)
      for (const ids of Object.values(aspect.reviewIds)) expect(ids.length).toBeLessThanOrEqual(5);
    expect(aspects.reviewIdsCut).toBeGreaterThan(0);
    expect(aspects.hint).toMatch(/5 newest .*search_reviews/);

    const services = (await text('get_insights', { section: 'services', limit: 2 })).value as {
      entries: { returned: number; total: number };
      hint: string;
    };
    expect(services.entries.returned).toBe(2);
    expect(services.entries.total).toBe(demo.business.services.length);
    expect(services.hint).toContain(`Showing 2 of ${services.entries.total} services`);
  });
});
