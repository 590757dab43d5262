// The /mcp path item: MCP over streamable HTTP, its JSON-RPC 2.0 bodies as schemas, its headers and every status the route gives.
import { TOO_MANY_REQUESTS } from '../http/limits.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { INSTRUCTIONS } from '../mcp/tools.js';
import type { Implementation } from '@modelcontextprotocol/server';
import { ROUTES } from '../reviews/links.js';
import {
  header,
  NO_STORE,
  RETRY_AFTER,
  parameterRef,
  responseRef,
  schemaRef,
  type OpenApiObject,
} from './components.js';
import { EXAMPLE_SEARCH, type Examples } from './examples.js';

export const MCP_PATH = ROUTES.mcp;

/** The protocol version the interface's examples use. */
const EXAMPLE_PROTOCOL_VERSION = '2025-06-18';

const JsonRpcVersion = z.literal('2.0');
const JsonRpcId = z
  .union([z.string(), z.number().int()])
  .describe('Request id chosen by the client, echoed in the response');
const Params = z.record(z.string(), z.unknown());

// The wire envelope of JSON-RPC 2.0 as the route accepts it (the SDK's message schema, which the route validates
// with, admits exactly these four shapes); the error's id is null when the request could not be read.
export const JsonRpcRequest = z
  .object({ jsonrpc: JsonRpcVersion, id: JsonRpcId, method: z.string(), params: Params.optional() })
  .strict();
export const JsonRpcNotification = z
  .object({ jsonrpc: JsonRpcVersion, method: z.string(), params: Params.optional() })
  .strict();
export const JsonRpcResultResponse = z.object({ jsonrpc: JsonRpcVersion, id: JsonRpcId, result: Params }).strict();
export const JsonRpcErrorResponse = z
  .object({
    jsonrpc: JsonRpcVersion,
    id: JsonRpcId.nullable().describe('The id of the request answered; null when it could not be read'),
    error: z
      .object({
        code: z
          .number()
          .int()
          .describe(
            '-32700 parse error, -32600 invalid request, -32601 method not found, -32602 invalid params, -32603 internal error, -32000 transport refusal, -32001 session not found',
          ),
        message: z.string(),
        data: z.unknown().optional(),
      })
      .strict(),
  })
  .strict();

const JsonRpcMessage = z.union([JsonRpcRequest, JsonRpcNotification, JsonRpcResultResponse, JsonRpcErrorResponse]);

export const McpInitializeRequest = JsonRpcRequest.extend({
  method: z.literal('initialize'),
  params: z.looseObject({
    protocolVersion: z
      .string()
      .describe(
        `Wanted version; an unsupported one is answered with the newest supported (${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
      ),
    capabilities: Params,
    clientInfo: z.looseObject({ name: z.string(), version: z.string() }),
  }),
}).describe('Opens a session: the answer carries the Mcp-Session-Id header');

export const McpToolsCallRequest = JsonRpcRequest.extend({
  method: z.literal('tools/call'),
  params: z.looseObject({
    name: z.string().describe('A tool that tools/list names, e.g. get_business or search_reviews'),
    arguments: Params.optional().describe("The tool's arguments, as its inputSchema in tools/list describes them"),
  }),
});

export const McpRequestBody = z
  .union([
    McpInitializeRequest,
    McpToolsCallRequest,
    JsonRpcMessage,
    z.array(JsonRpcMessage).min(1).describe('A batch: only in sessions of protocol versions before 2025-06-18'),
  ])
  .describe('One JSON-RPC 2.0 message (request, notification or response to the server), or a batch');

export const McpResponseBody = z
  .union([JsonRpcResultResponse, JsonRpcErrorResponse, z.array(z.union([JsonRpcResultResponse, JsonRpcErrorResponse]))])
  .describe('The JSON-RPC 2.0 response to the request (an array for a batch)');

export const mcpComponents: Record<string, z.ZodType> = {
  JsonRpcRequest,
  JsonRpcNotification,
  JsonRpcResultResponse,
  JsonRpcErrorResponse,
  McpInitializeRequest,
  McpToolsCallRequest,
  McpRequestBody,
  McpResponseBody,
};

export const mcpParameters: Record<string, OpenApiObject> = {
  McpSessionId: {
    name: 'Mcp-Session-Id',
    in: 'header',
    required: false,
    schema: { type: 'string' },
    description:
      'Required on every request but initialize: the Mcp-Session-Id the answer to initialize carried. Valid on every replica for a day, or until DELETE.',
  },
  McpProtocolVersion: {
    name: 'MCP-Protocol-Version',
    in: 'header',
    required: false,
    schema: { type: 'string', enum: [...SUPPORTED_PROTOCOL_VERSIONS] },
    description: 'The protocol version in use; any supported one is accepted, another is 400',
    example: EXAMPLE_PROTOCOL_VERSION,
  },
};

/** `id`: the refused request's, when it could be read (every example request has id 1); null otherwise. */
const rpcError = (code: number, message: string, id: number | null = null) => ({
  jsonrpc: '2.0',
  error: { code, message },
  id,
});

/**
 * What the route answers when it refuses a request, word for word (test/openapi-operations.test.ts provokes each).
 * A refusal of a readable single request carries its id.
 */
export const MCP_REFUSALS = {
  noSession: rpcError(-32000, 'Bad Request: Mcp-Session-Id header is required', 1),
  endWithoutSession: rpcError(-32000, 'Bad Request: Mcp-Session-Id header is required'),
  parseError: rpcError(-32700, 'Parse error: the body is not valid JSON'),
  invalidRequest: rpcError(-32600, 'Invalid Request: not a JSON-RPC 2.0 message'),
  batch: rpcError(
    -32600,
    `Invalid Request: protocol version ${EXAMPLE_PROTOCOL_VERSION} does not allow JSON-RPC batches`,
  ),
  batchTooLarge: rpcError(-32600, 'Invalid Request: a batch holds at most 8 messages; send the others separately'),
  batchWithRead: rpcError(
    -32600,
    'Invalid Request: resources/read returns a whole document; send it alone, not in a batch',
  ),
  tooManyRequests: rpcError(-32600, TOO_MANY_REQUESTS),
  tooManyListens: rpcError(-32000, 'Too many listen streams from this address: at most 10 at once; end one first', 1),
  quotedTooLong: rpcError(-32602, 'Invalid params: params.uri is longer than 1024 characters', 1),
  origin: rpcError(-32000, 'Forbidden: Origin https://elsewhere.example is not allowed', 1),
  sessionNotFound: rpcError(-32001, 'Session not found', 1),
  endUnknownSession: rpcError(-32001, 'Session not found'),
  originEnd: rpcError(-32000, 'Forbidden: Origin https://elsewhere.example is not allowed'),
  notAcceptable: rpcError(-32000, 'Not Acceptable: Client must accept both application/json and text/event-stream', 1),
  tooLarge: rpcError(-32600, 'Request body too large'),
  unsupportedMediaType: rpcError(-32000, 'Unsupported Media Type: Content-Type must be application/json', 1),
  getNotAllowed: rpcError(-32000, 'Method Not Allowed: this server sends no stream on GET; POST requests'),
} as const;

type Refusal = keyof typeof MCP_REFUSALS;

function refusal(description: string, names: Refusal[], headers: OpenApiObject = {}): OpenApiObject {
  return {
    description,
    headers: { 'Cache-Control': NO_STORE, ...headers },
    content: {
      'application/json': {
        schema: schemaRef('JsonRpcErrorResponse'),
        examples: Object.fromEntries(names.map((name) => [name, { value: MCP_REFUSALS[name] }])),
      },
    },
  };
}

const forbidden = refusal(
  "The request carries an Origin that is neither BASE_URL's nor in MCP_ALLOWED_ORIGINS (DNS-rebinding protection)",
  ['origin'],
);
const sessionNotFound = refusal('The Mcp-Session-Id is forged, expired or ended: initialize again', [
  'sessionNotFound',
]);

function requestExamples(): Record<string, OpenApiObject> {
  const request = (id: number, method: string, params?: Record<string, unknown>) => ({
    jsonrpc: '2.0',
    id,
    method,
    ...(params ? { params } : {}),
  });
  return {
    initialize: {
      summary: 'Open a session',
      value: request(1, 'initialize', {
        protocolVersion: EXAMPLE_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'example-client', version: '1.0.0' },
      }),
    },
    initialized: {
      summary: 'Confirm initialization (a notification: answered 202)',
      value: { jsonrpc: '2.0', method: 'notifications/initialized' },
    },
    toolsList: { summary: 'List the tools', value: request(2, 'tools/list') },
    getBusiness: {
      summary: 'Call get_business',
      value: request(3, 'tools/call', { name: 'get_business', arguments: {} }),
    },
    searchReviews: {
      summary: 'Call search_reviews',
      value: request(4, 'tools/call', { name: 'search_reviews', arguments: EXAMPLE_SEARCH }),
    },
  };
}

function postOperation(examples: Examples, bodyLimit: string, serverInfo: Implementation): OpenApiObject {
  const initializeResult = {
    protocolVersion: EXAMPLE_PROTOCOL_VERSION,
    capabilities: {
      tools: { listChanged: false },
      resources: { listChanged: false, subscribe: false },
      prompts: { listChanged: false },
      completions: {},
    },
    serverInfo,
    instructions: INSTRUCTIONS,
  };
  const toolResult = {
    content: [{ type: 'text', text: JSON.stringify(examples.search) }],
    structuredContent: examples.search,
  };
  return {
    operationId: 'postMcpMessage',
    tags: ['mcp'],
    summary: 'Send a JSON-RPC message to the MCP server',
    description: [
      'Model Context Protocol over streamable HTTP, read-only tools over the same data as the REST API (tools/list names them), and resource templates for one review, technician, service or aspect.',
      'Send `Accept: application/json, text/event-stream` (both, or 406) and `Content-Type: application/json` (or 415).',
      "Two revisions on this one endpoint. **2026-07-28** (stateless): every request carries `_meta` with `io.modelcontextprotocol/protocolVersion` and client capabilities, and the headers `MCP-Protocol-Version`, `Mcp-Method` and (for tools/call, resources/read, prompts/get) `Mcp-Name`; start with `server/discover`; lists and reads carry `ttlMs` and `cacheScope`; `subscriptions/listen` streams `notifications/resources/updated` when a document changes: at most MCP_LISTEN_PER_CLIENT (10) open per client and MCP_LISTEN_MAX (500) in all; after MCP_LISTEN_LIFETIME_MS (10 minutes) the server ends a stream with the listen request's result, and the client listens again. `completion/complete` completes the templates' variables by prefix (case and accents aside), at most 100 values with the true `total` and `hasMore`.",
      '**2025** sessions: begin with `initialize`; its answer carries `Mcp-Session-Id`; send that header on every later request, with `MCP-Protocol-Version`. Answers are JSON.',
      'No authentication. What the server offers, without connecting: the server card at `/.well-known/mcp/server-card`.',
    ].join(' '),
    parameters: [parameterRef('McpSessionId'), parameterRef('McpProtocolVersion')],
    requestBody: {
      required: true,
      description: `JSON-RPC 2.0, at most ${bodyLimit}`,
      content: { 'application/json': { schema: schemaRef('McpRequestBody'), examples: requestExamples() } },
    },
    responses: {
      '200': {
        description: 'The JSON-RPC response (a JSON-RPC error object when the method itself failed)',
        headers: {
          'Mcp-Session-Id': header('On the answer to initialize only: the session id to send on every later request'),
        },
        content: {
          'application/json': {
            schema: schemaRef('McpResponseBody'),
            examples: {
              initialize: {
                summary: 'Answer to initialize',
                value: { jsonrpc: '2.0', id: 1, result: initializeResult },
              },
              searchReviews: {
                summary: 'Answer to a search_reviews call',
                value: { jsonrpc: '2.0', id: 4, result: toolResult },
              },
              methodNotFound: {
                summary: 'An unknown method',
                value: { jsonrpc: '2.0', id: 5, error: { code: -32601, message: 'Method not found' } },
              },
            },
          },
        },
      },
      '202': {
        description: 'Accepted: the body held only notifications or responses, so there is nothing to answer; no body',
      },
      '400': refusal(
        'Not JSON, not a JSON-RPC 2.0 message, initialize without protocolVersion, capabilities and clientInfo (-32602, with its id), a resource URI or a tool, prompt or template name longer than 1,024 characters (-32602; it is not quoted back), no Mcp-Session-Id on a request other than initialize, an unsupported MCP-Protocol-Version, a batch in a session of 2025-06-18 or later, or in older sessions a batch of more than 8 messages or holding resources/read',
        ['parseError', 'invalidRequest', 'quotedTooLong', 'noSession', 'batch', 'batchTooLarge', 'batchWithRead'],
      ),
      '403': forbidden,
      '404': sessionNotFound,
      '406': refusal('Accept does not list both application/json and text/event-stream', ['notAcceptable']),
      '413': refusal(`The body is larger than ${bodyLimit}`, ['tooLarge']),
      '415': refusal('Content-Type is not application/json', ['unsupportedMediaType']),
      '429': refusal(
        'More than RATE_LIMIT_MCP_PER_MINUTE requests to POST and DELETE /mcp from this client (an IPv6 client counts by its /64) within a minute, each message of a batch counted as one request (with Retry-After); or a subscriptions/listen while this client already holds MCP_LISTEN_PER_CLIENT streams open (no Retry-After: end one first)',
        ['tooManyRequests', 'tooManyListens'],
        { 'Retry-After': RETRY_AFTER },
      ),
      '431': responseRef('RequestHeaderFieldsTooLarge'),
    },
  };
}

export function mcpPathItem(examples: Examples, bodyLimit: string, serverInfo: Implementation): OpenApiObject {
  return {
    post: postOperation(examples, bodyLimit, serverInfo),
    delete: {
      operationId: 'deleteMcpSession',
      tags: ['mcp'],
      summary: 'End an MCP session',
      description: 'Ends the session named by Mcp-Session-Id on every replica; a later request with it is 404.',
      parameters: [{ ...mcpParameters.McpSessionId, required: true, description: 'The session to end' }],
      responses: {
        '204': { description: 'Ended' },
        '400': refusal('No Mcp-Session-Id header', ['endWithoutSession']),
        '403': refusal(
          "The request carries an Origin that is neither BASE_URL's nor in MCP_ALLOWED_ORIGINS (DNS-rebinding protection)",
          ['originEnd'],
        ),
        '404': refusal('The Mcp-Session-Id is forged, expired or ended', ['endUnknownSession']),
        '429': refusal(
          'More than RATE_LIMIT_MCP_PER_MINUTE requests to POST and DELETE /mcp from this client (an IPv6 client counts by its /64) within a minute',
          ['tooManyRequests'],
          { 'Retry-After': RETRY_AFTER },
        ),
        '431': responseRef('RequestHeaderFieldsTooLarge'),
      },
    },
    get: {
      operationId: 'getMcpStream',
      tags: ['mcp'],
      summary: 'Server-initiated stream (not offered)',
      description:
        'This server sends nothing unasked, so it opens no event stream: GET is always 405, as the MCP transport allows.',
      responses: {
        '405': refusal('Method Not Allowed: no stream on GET; POST requests', ['getNotAllowed'], {
          Allow: header('The methods /mcp serves', { type: 'string' }, 'POST, DELETE'),
        }),
        '431': responseRef('RequestHeaderFieldsTooLarge'),
      },
    },
  };
}
