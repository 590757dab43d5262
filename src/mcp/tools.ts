// The MCP server's tools, resources and prompt over the current snapshot: read-only, schemas shared with the REST API.
import { McpServer, type CacheHint, type Implementation, type ProtocolEra, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { View } from '../publishing/view.js';
import { DOCUMENTS } from '../reviews/catalogue.js';
import { toPublic } from '../reviews/documents.js';
import { SearchResponse, searchResponse, SinceResponse } from '../reviews/responses.js';
import { InsightsDocument } from '../reviews/insights-document.js';
import { AggregateRating, Business, IsoDate, Review } from '../reviews/schemas.js';
import { SearchParams } from '../reviews/search.js';
import { technicianKeys } from '../reviews/text.js';
import { registerTemplates } from './templates.js';

export const SERVER_INFO = { name: 'reviews-service', version: '1.0.0' } as const;

/** What the server says it is: name and version, a title, and the site's icon (from this origin). */
export function serverInfo(baseUrl: string, iconPath: string): Implementation {
  return { ...SERVER_INFO, title: 'Verified customer reviews', websiteUrl: `${baseUrl}/`, icons: [{ src: `${baseUrl}${iconPath}`, mimeType: 'image/svg+xml', sizes: ['any'] }] };
}

export const INSTRUCTIONS =
  'Verified customer reviews of one home-services business (cooling, plumbing, electrical). Use get_business for who they are, their services (with ids) and technicians; search_reviews to find reviews by rating, date, text, technician or service; get_insights for what customers say overall (aspects such as punctuality or price, per technician, service and area, recurring topics, an FAQ and a summary). Every review cited has an id that get_review returns in full.';

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const SINCE_LIMIT = { max: 500, default: 100 } as const;

const SinceArguments = z
  .object({
    date: IsoDate.describe('First date included, YYYY-MM-DD'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(SINCE_LIMIT.max)
      .default(SINCE_LIMIT.default)
      .describe(`Maximum number of reviews returned, 1 to ${SINCE_LIMIT.max}, default ${SINCE_LIMIT.default}; total says how many there are`),
  })
  .strict();

const SinceResult = SinceResponse.extend({ total: z.number().int().describe('Reviews dated on or after `since`, before the limit') });

const INSIGHT_SECTIONS = ['aspects', 'technicians', 'services', 'areas', 'topics', 'faq', 'summary'] as const;

const InsightsArguments = z
  .object({
    section: z.enum(INSIGHT_SECTIONS).describe('Which part of the insights: aspects, technicians, services, areas, topics, faq or summary'),
    name: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('Pick one entry of the section: an aspect id, technician name (first name works), service id or name, area, topic or question'),
  })
  .strict();

const { aspects, entities, topics, faq, summary } = InsightsDocument.shape;
const { technicians, services, serviceAreas } = entities.shape;

/** What each section holds: a list of entries, or the summary. */
interface SectionData {
  aspects: InsightsDocument['aspects'];
  technicians: InsightsDocument['entities']['technicians'];
  services: InsightsDocument['entities']['services'];
  areas: InsightsDocument['entities']['serviceAreas'];
  topics: InsightsDocument['topics'];
  faq: InsightsDocument['faq'];
  summary: InsightsDocument['summary'];
}

type Section = (typeof INSIGHT_SECTIONS)[number];

const InsightsResult = z
  .object({
    section: z.enum(INSIGHT_SECTIONS),
    generatedAt: InsightsDocument.shape.generatedAt,
    asOf: InsightsDocument.shape.asOf,
    reviewCount: z.number().int().describe('Verified reviews the insights describe'),
    data: z
      .union([aspects, aspects.element, technicians, technicians.element, services, services.element, serviceAreas, serviceAreas.element, topics, topics.element, faq, faq.element, summary])
      .describe('The section: a list of entries, the one entry `name` picked, or the summary object'),
  })
  .strict();

const BusinessResult = z.object({ business: Business.nullable(), aggregateRating: AggregateRating });
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
  return Object.assign(Object.create(schema) as S, { '~standard': { ...standard, jsonSchema: { input: remembered('input'), output: remembered('output') } } });
}

const EMPTY = once(z.object({}).strict());
const REVIEW_ID = once(z.object({ id: z.string().min(1).max(200).describe('Review id') }).strict());
const SEARCH_ARGUMENTS = once(SearchParams);
const SCHEMAS = {
  business: once(BusinessResult),
  search: once(SearchResponse),
  sinceArguments: once(SinceArguments),
  since: once(SinceResult),
  insightsArguments: once(InsightsArguments),
  insights: once(InsightsResult),
  review: once(ReviewResult),
  prompt: once(z.object({ about: z.string().max(200).optional().describe('A technician, service, area or aspect; empty for the whole business') })),
};

/** A tool result: the structured value and the same value as a JSON text block for clients that read only text. */
function result<T extends Record<string, unknown>>(structuredContent: T) {
  return { structuredContent, content: [{ type: 'text' as const, text: JSON.stringify(structuredContent) }] };
}

function toolError(message: string) {
  return { isError: true, content: [{ type: 'text' as const, text: message }] };
}

function insightSection(insights: InsightsDocument, section: Section): SectionData[Section] {
  switch (section) {
    case 'technicians':
      return insights.entities.technicians;
    case 'services':
      return insights.entities.services;
    case 'areas':
      return insights.entities.serviceAreas;
    default:
      return insights[section];
  }
}

/** The text an entry is picked by: its id, name, topic phrase or question. */
function entryNames(entry: object): string[] {
  return (['id', 'name', 'phrase', 'question'] as const).flatMap((k) => (k in entry && typeof (entry as Record<typeof k, unknown>)[k] === 'string' ? [(entry as Record<typeof k, string>)[k]] : []));
}

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

/** The tools' names: the only values the tool metric is labelled with. */
export const TOOLS = {
  get_business: 'get_business',
  search_reviews: 'search_reviews',
  get_reviews_since: 'get_reviews_since',
  get_insights: 'get_insights',
  get_review: 'get_review',
} as const;
const TOOL_NAMES: ReadonlySet<string> = new Set(Object.values(TOOLS));

/** The tool a tools/call names, or `unknown` (a client's made-up name must not become a metric series). */
export const toolLabel = (name: string): string => (TOOL_NAMES.has(name) ? name : 'unknown');

/** Builds a server for one request over the snapshot current at that moment. */
export function createMcpServer(view: View, baseUrl: string, era: ProtocolEra, info: Implementation): McpServer {
  const server = new McpServer(info, {
    instructions: INSTRUCTIONS,
    // 2026-07-28 clients subscribe to documents with subscriptions/listen; a 2025 session has no stream to hear
    // resources/updated on (every answer comes on its POST), so it is not offered there.
    capabilities: { tools: { listChanged: false }, resources: { listChanged: false, subscribe: era === 'modern' }, prompts: { listChanged: false } },
    cacheHints: CACHE_HINTS,
  });
  const { snapshot } = view;

  server.registerTool(
    TOOLS.get_business,
    {
      title: 'Business details',
      description:
        'The business: name, contact, address, areas served, its service catalogue (each service has an id to use with search_reviews mentions_service) and technicians, plus the aggregate rating of all verified reviews (mean, count, distribution by stars).',
      inputSchema: EMPTY,
      outputSchema: SCHEMAS.business,
      annotations: { title: 'Business details', ...readOnly },
    },
    () => result({ business: snapshot.business, aggregateRating: snapshot.aggregateRating }),
  );

  server.registerTool(
    TOOLS.search_reviews,
    {
      title: 'Search reviews',
      description:
        'Find verified reviews. Every filter is optional and they combine with AND: rating (exact stars 1-5), min_rating (1-5), since/until (YYYY-MM-DD, inclusive), query (case- and accent-insensitive text substring), mentions_technician (full or first name), mentions_service (a service id from get_business), limit (1-100, default 20). Returns newest first, with count (returned) and total (matched).',
      inputSchema: SEARCH_ARGUMENTS,
      outputSchema: SCHEMAS.search,
      annotations: { title: 'Search reviews', ...readOnly },
    },
    (params) => result(searchResponse(snapshot.index, params)),
  );

  server.registerTool(
    TOOLS.get_reviews_since,
    {
      title: 'Reviews since a date',
      description: `Verified reviews dated on or after a date (YYYY-MM-DD), newest first, at most limit (default ${SINCE_LIMIT.default}); total says how many there are in all. Use it to see what is new.`,
      inputSchema: SCHEMAS.sinceArguments,
      outputSchema: SCHEMAS.since,
      annotations: { title: 'Reviews since a date', ...readOnly },
    },
    ({ date, limit }) => {
      const reviews = snapshot.index.since(date);
      const returned = reviews.slice(0, limit).map(toPublic);
      return result({ since: date, count: returned.length, total: reviews.length, reviews: returned });
    },
  );

  server.registerTool(
    TOOLS.get_insights,
    {
      title: 'What customers say',
      description:
        'Insights computed from the reviews, one section at a time: aspects (punctuality, responsiveness, price, quality, professionalism, communication, cleanliness, expertise: mentions, sentiment, trend, quotes), technicians, services, areas, topics (recurring phrases), faq (common questions answered with figures) or summary. Give name to pick one entry, e.g. section technicians with name "Zoë". Every figure cites review ids that get_review returns.',
      inputSchema: SCHEMAS.insightsArguments,
      outputSchema: SCHEMAS.insights,
      annotations: { title: 'What customers say', ...readOnly },
    },
    ({ section, name }) => {
      const insights = view.insights.document;
      let data = insightSection(insights, section);
      if (name !== undefined) {
        const entries: object[] = Array.isArray(data) ? data : [];
        const wanted = technicianKeys(name)[0] ?? '';
        // Full or first name, as search's mentions_technician: "zoe" picks "Zoë Martínez".
        const entry = entries.find((e) => entryNames(e).some((n) => technicianKeys(n).includes(wanted)));
        if (!entry) {
          const known = entries.flatMap((e) => entryNames(e).slice(0, 1));
          return toolError(`No ${section} entry named "${name}". ${known.length ? `Known: ${known.join(', ')}.` : 'This section has no entries yet.'}`);
        }
        data = entry as typeof data;
      }
      return result({ section, generatedAt: insights.generatedAt, asOf: insights.asOf, reviewCount: insights.reviewCount, data });
    },
  );

  server.registerTool(
    TOOLS.get_review,
    {
      title: 'One review',
      description: 'One verified review by its id (as cited by search results and insights), with every field and the owner response if any.',
      inputSchema: REVIEW_ID,
      outputSchema: SCHEMAS.review,
      annotations: { title: 'One review', ...readOnly },
    },
    ({ id }) => {
      const review = snapshot.index.get(id);
      return review ? result({ review: toPublic(review) }) : toolError(`No verified review has id "${id}". Ids come from search_reviews or get_insights.`);
    },
  );

  for (const document of DOCUMENTS) {
    const uri = `${baseUrl}${document.path}`;
    const representation = view.representations[document.name];
    server.registerResource(
      document.name,
      uri,
      { title: document.title, description: document.description, mimeType: document.mediaType },
      () => ({ contents: [{ uri, mimeType: representation.contentType, text: representation.variants.identity.body.toString('utf8') }] }),
    );
  }

  registerTemplates(server, view);

  server.registerPrompt(
    'summarize_reviews',
    {
      title: 'Summarize what customers say',
      description: 'Asks for a summary of what customers say, overall or about one technician, service, area or aspect.',
      argsSchema: SCHEMAS.prompt,
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
  server.server.registerCapabilities({ tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } });
  return server;
}
