// The OpenAPI 3.1.0 description of the whole service, generated from the Zod schemas the code validates and renders with.
import type { Implementation } from '@modelcontextprotocol/server';
import { operationsPaths } from './operations.js';
import { pagePaths } from './pages.js';
import { z } from 'zod';
import { SearchResponse, SinceResponse } from '../reviews/responses.js';
import { DOCUMENTS } from '../reviews/catalogue.js';
import { InsightsDocument } from '../reviews/insights-document.js';
import { AggregateRating, Business, JsonFeedDocument, Review, ReviewsDataset } from '../reviews/schemas.js';
import {
  baseComponents,
  componentSchemas,
  pascalCase,
  sharedHeaders,
  sharedParameters,
  sharedResponses,
  type OpenApiObject,
} from './components.js';
import { buildExamples } from './examples.js';
import { MCP_PATH, mcpComponents, mcpParameters, mcpPathItem } from './mcp.js';
import { readPaths } from './reads.js';
import { HUB_PATH, hubPathItem, hubRequestSchema, type HubSettings } from './websub.js';

export interface DescriptionSettings {
  /** Request bodies larger than this are refused with 413. */
  bodyLimitBytes: number;
  /** What the MCP server says it is (initialize's serverInfo). */
  mcpServerInfo: Implementation;
  websub: HubSettings;
}

const TAGS = [
  { name: 'datasets', description: 'The reviews and insights datasets, whole' },
  { name: 'feeds', description: 'The newest reviews as JSON Feed 1.1 and Atom' },
  { name: 'search', description: 'Filtered search and incremental listing of reviews' },
  { name: 'mcp', description: 'Model Context Protocol server for AI assistants (streamable HTTP, JSON-RPC 2.0)' },
  { name: 'websub', description: 'WebSub hub: subscriptions to the topics, verified and then pushed every change' },
  { name: 'meta', description: 'This description' },
  { name: 'operations', description: 'Liveness, readiness and metrics, for load balancers and monitoring' },
  {
    name: 'pages',
    description:
      "The home page and review pages for people, the badge and embed for the business's website, and what crawlers and language models read first",
  },
];

const DESCRIPTION = `Public, read-only verified customer reviews of one home-services business (cooling, plumbing, electrical), with sentiment insights, feeds, search, an MCP server and a WebSub hub.

**No authentication.** Every operation is public; an Authorization header is ignored. MCP uses only the session id issued by initialize.

**Errors.** The read API answers \`{ error, message, issues? }\` with \`Cache-Control: no-store\`; the WebSub hub answers plain text (W3C WebSub §5.1.2) and /mcp answers JSON-RPC error objects. A request refused before routing (headers over 16 KiB: 431; an undecodable or overlong path segment: 400 or 414; a request whose headers and body do not arrive within \`HTTP_REQUEST_TIMEOUT_MS\`: 408, then the connection is closed) gets the same \`{ error, message }\`. An unexpected failure is 500 in the operation's own error format, with details only in the server log; a server shutting down answers 503.

**Methods.** Every GET is also served as HEAD. A method a path does not list is 405 (with \`Allow\`) on the read paths and 404 elsewhere. Any path answers an OPTIONS preflight with 204 (CORS: \`Access-Control-Allow-Origin: *\` on every response, \`ETag\`, \`Last-Modified\`, \`Link\` and \`Mcp-Session-Id\` exposed).

**Caching.** Documents, search and since carry a strong \`ETag\` per content-coding and, once data is published, \`Last-Modified\`; \`If-None-Match\` (or, without it, \`If-Modified-Since\`) gets 304. Bodies come as br, gzip or identity by \`Accept-Encoding\`.`;

/** HEAD of a GET operation: the same parameters and statuses, with no body in the answers it describes inline. */
function headOf(get: OpenApiObject): OpenApiObject {
  const id = String(get.operationId);
  const responses = Object.fromEntries(
    Object.entries(get.responses as Record<string, OpenApiObject>).map(([status, response]) => {
      if ('$ref' in response) return [status, response];
      const { content: _content, ...withoutBody } = response;
      return [status, withoutBody];
    }),
  );
  return {
    ...get,
    operationId: id.startsWith('get') ? `head${id.slice(3)}` : `head${pascalCase(id)}`,
    summary: `${String(get.summary)} (headers only)`,
    description: 'As GET, without a body.',
    responses,
  };
}

/** Every GET in the description gets its HEAD twin, since Fastify serves HEAD wherever it serves GET. */
function withHead(item: OpenApiObject): OpenApiObject {
  const { get, ...rest } = item as { get?: OpenApiObject } & OpenApiObject;
  return get ? { get, head: headOf(get), ...rest } : item;
}

export async function buildOpenApiDocument(baseUrl: string, settings: DescriptionSettings): Promise<OpenApiObject> {
  const examples = await buildExamples(baseUrl);
  const topics = DOCUMENTS.filter((doc) => doc.topic);
  const bodyLimit = `${Math.round(settings.bodyLimitBytes / 1024)} KiB`;
  const schemas: Record<string, z.ZodType> = {
    ...baseComponents,
    Review,
    Business,
    AggregateRating,
    ReviewsDataset,
    Insights: InsightsDocument,
    JsonFeed: JsonFeedDocument,
    AtomFeed: z.string().describe('An RFC 4287 Atom feed document (XML)'),
    SearchResponse,
    SinceResponse,
    ...mcpComponents,
    HubRequest: hubRequestSchema(
      topics.map((doc) => `${baseUrl}${doc.path}`),
      settings.websub,
    ),
  };
  const paths: Record<string, OpenApiObject> = {
    ...readPaths(DOCUMENTS, examples),
    [MCP_PATH]: mcpPathItem(examples, bodyLimit, settings.mcpServerInfo),
    [HUB_PATH]: hubPathItem(topics, baseUrl, settings.websub, bodyLimit),
    ...operationsPaths(),
    ...pagePaths(),
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Reviews service',
      version: '1.0.0',
      description: DESCRIPTION,
      contact: { name: 'Reviews service', url: `${baseUrl}/` },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: baseUrl, description: 'This deployment (its BASE_URL)' }],
    // The API is public: an empty requirement list says so, and no scheme is defined.
    security: [],
    tags: TAGS,
    paths: Object.fromEntries(Object.entries(paths).map(([path, item]) => [path, withHead(item)])),
    components: {
      schemas: componentSchemas(schemas),
      parameters: { ...sharedParameters, ...mcpParameters },
      headers: sharedHeaders,
      responses: sharedResponses,
      securitySchemes: {},
    },
  };
}
