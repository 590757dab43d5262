// The MCP server's tools, resources and prompt over the current snapshot: read-only, schemas shared with the REST API.
import {
  McpServer,
  type CacheHint,
  type Implementation,
  type ProtocolEra,
  type StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { View } from '../publishing/view.js';
import { DOCUMENTS } from '../reviews/catalogue.js';
import { toPublic } from '../reviews/encoded-reviews.js';
import { SearchResponse, searchResponse, SinceResponse } from '../reviews/responses.js';
import { AggregateRating, Business, IsoDate, Review, VerificationSummary } from '../reviews/schemas.js';
import { SearchParams } from '../reviews/search.js';
import { MCP_TOOLS } from '../reviews/links.js';
import { InsightsArguments, insightsAnswer, InsightsResult, INSIGHT_LIMITS } from './insights-tool.js';
import { registerTemplates } from './templates.js';

export const SERVER_INFO = { name: 'reviews-service', version: '1.0.0' } as const;

/** What the server says it is: name and version, a title, and the site's icon (from this origin). */
export function serverInfo(baseUrl: string, iconPath: string): Implementation {
  return {
    ...SERVER_INFO,
    title: 'Verified customer reviews',
    websiteUrl: `${baseUrl}/`,
    icons: [{ src: `${baseUrl}${iconPath}`, mimeType: 'image/svg+xml', sizes: ['any'] }],
  };
}

export const INSTRUCTIONS =
  'Verified customer reviews of one home-services business (cooling, plumbing, electrical). Use get_business for who they are, their services (with ids) and technicians; search_reviews to find reviews by rating, date, text, technician or service; get_insights for what customers say overall (aspects such as punctuality or price, per technician, service and area, recurring topics, an FAQ and a summary). Every review cited has an id that get_review returns in full.';

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const SINCE_LIMIT = { max: 100, default: 20 } as const;

const SinceArguments = z
  .object({
    date: IsoDate.describe('First date included, YYYY-MM-DD'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(SINCE_LIMIT.max)
      .default(SINCE_LIMIT.default)
      .describe(
        `Maximum number of reviews returned, 1 to ${SINCE_LIMIT.max}, default ${SINCE_LIMIT.default}; total says how many there are`,
      ),
  })
  .strict();

const Hint = z
  .string()
  .optional()
  .describe('Present when more matched than were returned: how to narrow the question or see more');
const SearchResult = SearchResponse.extend({ hint: Hint });
const SinceResult = SinceResponse.extend({
  total: z.number().int().describe('Reviews dated on or after `since`, before the limit'),
  hint: Hint,
});

const BusinessResult = z.object({
  business: Business.nullable(),
  aggregateRating: AggregateRating,
  verification: VerificationSummary,
});
const ReviewResult = z.object({ review: Review });

/**
 * The same schema, its JSON Schema made once. The SDK converts each tool's Zod schemas to JSON Schema for every
 * server it builds, which is one per request: tools/list spent some 6 ms of its 7 doing that.
 */
function once<S extends StandardSchemaWithJSON>(schema: S): S {
  const standard = schema['~standard'];
  const made = new Map<string, Record<string, unknown>>();
  const remembered = (kind: 'input' | 'output') => (options: Parameters<typeof standard.jsonSchema.input>[0]) => {
    const key = `${kind} ${options.target}`;
    let json = made.get(key);
    if (!json) made.set(key, (json = standard.jsonSchema[kind](options)));
    return json;
  };
  return Object.assign(Object.create(schema) as S, {
    '~standard': { ...standard, jsonSchema: { input: remembered('input'), output: remembered('output') } },
  });
}

const PROMPT_ARGUMENTS = once(
  z.object({
    about: z
      .string()
      .max(200)
      .optional()
      .describe('A technician, service, area or aspect; empty for the whole business'),
  }),
);

/** A tool's answer: the structured value and the same value as a JSON text block, or an error the model can read. */
export type ToolResult =
  | { content: [{ type: 'text'; text: string }]; structuredContent: Record<string, unknown> }
  | { isError: true; content: [{ type: 'text'; text: string }] };

function result<T extends Record<string, unknown>>(structuredContent: T): ToolResult {
  return { content: [{ type: 'text' as const, text: JSON.stringify(structuredContent) }], structuredContent };
}

function toolError(message: string): ToolResult {
  return { isError: true, content: [{ type: 'text' as const, text: message }] };
}

/** Says how to see more when a list was cut at `limit`. */
function moreHint(count: number, total: number, narrow: string): { hint?: string } {
  return count < total ? { hint: `Showing the newest ${count} of ${total.toLocaleString('en-US')}. ${narrow}` } : {};
}

/** The tools' names: the only values the tool metric is labelled with. */
type ToolName = (typeof MCP_TOOLS)[keyof typeof MCP_TOOLS];
const TOOL_NAMES: ReadonlySet<string> = new Set(Object.values(MCP_TOOLS));

/** The tool a tools/call names, or `unknown` (a client's made-up name must not become a metric series). */
export const toolLabel = (name: string): string => (TOOL_NAMES.has(name) ? name : 'unknown');

/**
 * A read tool: registered on the SDK's server, and called directly by the route for requests it can answer from
 * a cache. Both run the same function over arguments parsed by the same schema.
 */
export interface ReadTool {
  readonly name: ToolName;
  /** The answer depends on the insights as well as the reviews. */
  readonly usesInsights: boolean;
  /** Arguments as the SDK parses them (defaults applied), or undefined when they do not parse (the SDK says why). */
  parse(args: unknown): Record<string, unknown> | undefined;
  /** The answer to arguments `parse` returned. */
  run(view: View, args: Record<string, unknown>): ToolResult;
  register(server: McpServer, view: View): void;
}

function defineTool<S extends z.ZodObject>(
  name: ToolName,
  spec: {
    title: string;
    description: string;
    input: S;
    output: z.ZodObject;
    usesInsights?: boolean;
    run: (view: View, args: z.output<S>) => ToolResult;
  },
): ReadTool {
  // Registered through the base type: the SDK then hands the callback what `spec.input` parsed.
  const inputSchema: z.ZodObject = once(spec.input);
  const outputSchema = once(spec.output);
  return {
    name,
    usesInsights: spec.usesInsights ?? false,
    parse: (args) => {
      const parsed = spec.input.safeParse(args);
      return parsed.success ? (parsed.data as Record<string, unknown>) : undefined;
    },
    run: (view, args) => spec.run(view, args as z.output<S>),
    register: (server, view) =>
      server.registerTool(
        name,
        {
          title: spec.title,
          description: spec.description,
          inputSchema,
          outputSchema,
          annotations: { title: spec.title, ...readOnly },
        },
        (args) => spec.run(view, args as z.output<S>),
      ),
  };
}

export const READ_TOOLS: readonly ReadTool[] = [
  defineTool(MCP_TOOLS.get_business, {
    title: 'Business details',
    description:
      'The business: name, contact, address, areas served, its service catalogue (each service has an id to use with search_reviews mentions_service) and technicians, plus the aggregate rating of all verified reviews (mean, count, distribution by stars), and how reviews are verified: the rule in one sentence and how many were received, published and are waiting for a job to match, by source.',
    input: z.object({}).strict(),
    output: BusinessResult,
    run: ({ snapshot }) =>
      result({
        business: snapshot.business,
        aggregateRating: snapshot.aggregateRating,
        verification: snapshot.verification,
      }),
  }),
  defineTool(MCP_TOOLS.search_reviews, {
    title: 'Search reviews',
    description:
      'Find verified reviews. Every filter is optional and they combine with AND: rating (exact stars 1-5), min_rating (1-5), since/until (YYYY-MM-DD, inclusive), query (case- and accent-insensitive text substring), mentions_technician (full or first name), mentions_service (a service id from get_business), limit (1-100, default 20). Returns newest first, with count (returned) and total (matched).',
    input: SearchParams,
    output: SearchResult,
    run: ({ snapshot }, params) => {
      const found = searchResponse(snapshot.index, params);
      return result({
        ...found,
        ...moreHint(
          found.count,
          found.total,
          'Narrow with since/until, rating or min_rating, query, mentions_technician or mentions_service, or raise limit (up to 100).',
        ),
      });
    },
  }),
  defineTool(MCP_TOOLS.get_reviews_since, {
    title: 'Reviews since a date',
    description: `Verified reviews dated on or after a date (YYYY-MM-DD), newest first, at most limit (default ${SINCE_LIMIT.default}); total says how many there are in all. Use it to see what is new.`,
    input: SinceArguments,
    output: SinceResult,
    run: ({ snapshot }, { date, limit }) => {
      const reviews = snapshot.index.since(date);
      const returned = reviews.slice(0, limit).map(toPublic);
      const hint = moreHint(
        returned.length,
        reviews.length,
        `Use a later date, or search_reviews with since/until and other filters to narrow, or raise limit (up to ${SINCE_LIMIT.max}).`,
      );
      return result({ since: date, count: returned.length, total: reviews.length, reviews: returned, ...hint });
    },
  }),
  defineTool(MCP_TOOLS.get_insights, {
    title: 'What customers say',
    description: `Insights computed from the reviews, one section at a time: aspects (punctuality, responsiveness, price, quality, professionalism, communication, cleanliness, expertise: mentions, sentiment, trend, quotes), technicians, services, areas, topics (recurring phrases), faq (common questions answered with figures) or summary. Give name to pick one entry, e.g. section technicians with name "Zoë". Lists of entries are cut at limit (default ${INSIGHT_LIMITS.entries.default}) and lists of review ids at ids (default ${INSIGHT_LIMITS.ids.default}); the counts are always complete. Every figure cites review ids that get_review returns.`,
    input: InsightsArguments,
    output: InsightsResult,
    usesInsights: true,
    run: (view, args) => {
      const answer = insightsAnswer(view.insights.document, args);
      return answer.ok ? result(answer.value) : toolError(answer.message);
    },
  }),
  defineTool(MCP_TOOLS.get_review, {
    title: 'One review',
    description:
      'One verified review by its id (as cited by search results and insights), with every field and the owner response if any.',
    input: z.object({ id: z.string().min(1).max(200).describe('Review id') }).strict(),
    output: ReviewResult,
    run: ({ snapshot }, { id }) => {
      const review = snapshot.index.get(id);
      return review
        ? result({ review: toPublic(review) })
        : toolError(`No verified review has id "${id}". Ids come from search_reviews or get_insights.`);
    },
  }),
];

const TOOL_BY_NAME = new Map(READ_TOOLS.map((tool) => [tool.name as string, tool]));
export const readTool = (name: unknown): ReadTool | undefined =>
  typeof name === 'string' ? TOOL_BY_NAME.get(name) : undefined;

/**
 * How long a 2026-07-28 client may reuse a list or a read (`ttlMs`), shared by any client (`cacheScope` public:
 * nothing here depends on who asks). The lists change only with a new version of this service; a document's
 * content with every import, which `subscriptions/listen` announces.
 */
const LIST_HINT: CacheHint = { ttlMs: 3_600_000, cacheScope: 'public' };
export const CACHE_HINTS = {
  'server/discover': LIST_HINT,
  'tools/list': LIST_HINT,
  'resources/list': LIST_HINT,
  'resources/templates/list': LIST_HINT,
  'prompts/list': LIST_HINT,
  'resources/read': { ttlMs: 60_000, cacheScope: 'public' },
} as const satisfies Record<string, CacheHint>;

/** Builds a server for one request over the snapshot current at that moment. */
export function createMcpServer(view: View, baseUrl: string, era: ProtocolEra, info: Implementation): McpServer {
  const server = new McpServer(info, {
    instructions: INSTRUCTIONS,
    // 2026-07-28 clients subscribe to documents with subscriptions/listen; a 2025 session has no stream to hear
    // resources/updated on (every answer comes on its POST), so it is not offered there.
    capabilities: {
      tools: { listChanged: false },
      resources: { listChanged: false, subscribe: era === 'modern' },
      prompts: { listChanged: false },
    },
    cacheHints: CACHE_HINTS,
  });
  for (const tool of READ_TOOLS) tool.register(server, view);

  for (const document of DOCUMENTS) {
    const uri = `${baseUrl}${document.path}`;
    const representation = view.representations[document.name];
    server.registerResource(
      document.name,
      uri,
      { title: document.title, description: document.description, mimeType: document.mediaType },
      () => ({
        contents: [
          { uri, mimeType: representation.contentType, text: representation.variants.identity.body.toString('utf8') },
        ],
      }),
    );
  }

  registerTemplates(server, view);

  server.registerPrompt(
    'summarize_reviews',
    {
      title: 'Summarize what customers say',
      description:
        'Asks for a summary of what customers say, overall or about one technician, service, area or aspect.',
      argsSchema: PROMPT_ARGUMENTS,
    },
    ({ about }) => ({
      messages: [
        {
          role: 'user' as const,
          content: {
            type: 'text' as const,
            text: about
              ? `Summarize what customers say about ${about}. Use get_insights (the right section, with name "${about}") and search_reviews for examples; cite review ids for every claim.`
              : 'Summarize what customers say about this business. Use get_business, then get_insights sections summary, aspects and faq; cite review ids for every claim.',
          },
        },
      ],
    }),
  );

  // The SDK advertises listChanged, but a server built per request never sends those notifications.
  server.server.registerCapabilities({
    tools: { listChanged: false },
    resources: { listChanged: false },
    prompts: { listChanged: false },
  });
  return server;
}
