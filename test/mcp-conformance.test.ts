// The MCP endpoint, over real HTTP, passes the official conformance scenarios that apply to a read-only product
// server, and the MCP Inspector CLI (another real client) can call its search tool.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateDemo } from '../src/demo/generate.js';
import { runConformanceScenario, runInspectorCli, scenarioProblems } from './support/conformance.js';
import { publish, startServer, tempDir, type RunningServer } from './support/server.js';

/**
 * Scenarios of @modelcontextprotocol/conformance's active suite that test this server's own behaviour. The others
 * call fixtures the suite expects a test server to have (test_simple_text, test://static-text, test_simple_prompt…)
 * or features this server does not offer (logging, completion, subscriptions, sampling, elicitation, progress).
 */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'prompts-list', 'dns-rebinding-protection', 'server-sse-multiple-streams'] as const;

const dir = tempDir();
let server: RunningServer;
/** The URL given to the suite: 127.0.0.1 is "localhost" to the dns-rebinding scenario, and its origin is BASE_URL's. */
let mcpUrl: string;
const demo = generateDemo({ seed: 11, reviews: 200 });

beforeAll(async () => {
  server = await startServer(`${dir.path}/mcp-conformance.db`);
  await publish(server, { business: demo.business, reviews: demo.reviews, replace: true });
  mcpUrl = `${server.url}/mcp`;
});
afterAll(async () => {
  await server?.close();
  dir.remove();
});

describe('MCP conformance suite (@modelcontextprotocol/conformance)', () => {
  it.each(SCENARIOS)('passes the %s scenario', async (scenario) => {
    const run = await runConformanceScenario(mcpUrl, scenario);
    expect(scenarioProblems(run), `conformance scenario ${scenario}`).toEqual([]);
    expect(run.code).toBe(0);
  });
});

const SearchResult = z.object({
  count: z.number(),
  total: z.number(),
  reviews: z.array(z.object({ id: z.string(), rating: z.number() }).passthrough()),
});
const InspectorToolCall = z.object({
  content: z.array(z.object({ type: z.literal('text'), text: z.string() })).min(1),
  structuredContent: SearchResult,
  isError: z.boolean().optional(),
});

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${what} no JSON: ${text.slice(0, 1000)}`);
  }
}

describe('MCP Inspector CLI (@modelcontextprotocol/inspector-cli)', () => {
  it('calls search_reviews over streamable HTTP and prints the structured result', async () => {
    const run = await runInspectorCli([
      mcpUrl,
      '--transport',
      'http',
      '--method',
      'tools/call',
      '--tool-name',
      'search_reviews',
      '--tool-arg',
      'rating=5',
      '--tool-arg',
      'limit=2',
    ]);
    expect(run, `inspector stderr: ${run.stderr}`).toMatchObject({ code: 0 });

    const printed = InspectorToolCall.parse(parseJson(run.stdout, 'the inspector printed'));
    expect(printed.isError ?? false).toBe(false);
    const found = printed.structuredContent;
    expect(found.count).toBe(2);
    expect(found.reviews).toHaveLength(2);
    expect(found.reviews.every((review) => review.rating === 5)).toBe(true);
    // The text block is the same value for clients that read only text.
    expect(JSON.parse(printed.content[0]?.text ?? 'null')).toEqual(found);

    // The same search over REST finds the same reviews.
    const rest = SearchResult.parse(await (await fetch(`${server.url}/api/reviews/search?rating=5&limit=2`)).json());
    expect(found.total).toBe(rest.total);
    expect(found.reviews.map((review) => review.id)).toEqual(rest.reviews.map((review) => review.id));
  });
});
