// POST/DELETE /mcp: one endpoint for both MCP eras. 2026-07-28 requests (self-contained, their protocol version in
// `_meta`) go to the SDK's stateless handler; the 2025 session flow (initialize → Mcp-Session-Id) keeps signed
// session ids that any replica checks, with a stateless transport per request. Both use one server factory.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import {
  createMcpHandler,
  isInitializeRequest,
  LATEST_PROTOCOL_VERSION,
  SERVER_INFO_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  WebStandardStreamableHTTPServerTransport,
  type Implementation,
  type ProtocolEra,
} from '@modelcontextprotocol/server';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { mcpOrigins, type Config } from '../config.js';
import type { Publisher } from '../publishing/publisher.js';
import type { View } from '../publishing/view.js';
import { clientKey, TOO_MANY_REQUESTS, type Limits } from '../http/limits.js';
import { ROUTES, SERVER_CARD_PATHS } from '../reviews/links.js';
import { RevokedSessions } from './revocations.js';
import { issueSession, sessionChecker, type SessionClaims } from './session.js';
import { EraClassifier, MODERN_PROTOCOL_VERSION, type RoutingHeaders } from './era.js';
import {
  completionResult,
  keepList,
  keptList,
  LIST_METHODS,
  readResult,
  replyParts,
  resourceNamed,
  toolCallResult,
} from './replies.js';
import { CACHE_HINTS, createMcpServer, toolLabel } from './tools.js';
import { documentNamed, type DocumentName } from '../reviews/catalogue.js';
import { bodyOfParts, sendRepresentation } from '../http/conditional.js';
import { CACHE_CONTROL, encodeRepresentation, type Representation } from '../publishing/representation.js';
import { serverCard } from './server-card.js';
import { ListenStreams } from './listen.js';
import { MAX_QUOTED, overlongQuote } from './echo.js';
import { throttledWarning } from '../http/log.js';
import { replayEarlyBodies, type EarlyPost } from '../http/early-post.js';

/** A list request without a cursor or other parameters (`_meta` aside): the kind whose answer is kept per version. */
function plainList(method: string, params: unknown): boolean {
  return (
    LIST_METHODS.has(method) &&
    typeof params === 'object' &&
    params !== null &&
    Object.keys(params).every((key) => key === '_meta')
  );
}

/** Batches (protocol versions before 2025-06-18 only) hold at most this many messages. */
const MAX_BATCH_MESSAGES = 8;

/** JSON-RPC 2.0 error codes, plus the MCP SDK's server-error code for transport-level refusals. */
const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  invalidParams: -32602,
  serverError: -32000,
  sessionNotFound: -32001,
} as const;

type RpcId = string | number | null;

function rpcError(reply: FastifyReply, status: number, code: number, message: string, id: RpcId = null): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'application/json')
    .header('cache-control', 'no-store')
    .send(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }));
}

function headerValue(request: { headers: IncomingHttpHeaders }, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A refusal before any protocol is read: its status, JSON-RPC code and message. */
interface Problem {
  status: number;
  code: number;
  message: string;
}

const answerProblem = (reply: FastifyReply, { status, code, message }: Problem, id: RpcId = null) =>
  rpcError(reply, status, code, message, id);

/** The id of a single request, so that every error answers it (2026-07-28 requires it; older clients welcome it). */
function idOf(body: unknown): RpcId {
  const id =
    !Array.isArray(body) && typeof body === 'object' && body !== null ? (body as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** The request as the SDK's web-standard handlers take it; aborted when the client goes (ends listen streams). */
function webRequest(request: FastifyRequest, reply: FastifyReply, body: string | undefined): Request {
  const abort = new AbortController();
  reply.raw.on('close', () => abort.abort());
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  return new Request(`http://${request.headers.host ?? 'localhost'}${request.url}`, {
    method: request.method,
    headers,
    signal: abort.signal,
    ...(body !== undefined ? { body } : {}),
  });
}

/**
 * Sends the SDK's answer through Fastify (so hooks still add CORS, nosniff and the request log). A JSON answer is
 * read whole first and sent with its length; only an event stream (subscriptions/listen) is streamed.
 */
async function sendResponse(
  reply: FastifyReply,
  response: Response,
  keep?: (json: Buffer) => void,
  eventStream?: (body: ReadableStream<Uint8Array>) => Readable,
): Promise<FastifyReply> {
  reply.code(response.status);
  response.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'transfer-encoding') void reply.header(name, value);
  });
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  if (!response.body) return reply.send();
  if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    return reply.send(
      eventStream ? eventStream(response.body) : Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>),
    );
  }
  const bytes = Buffer.from(await response.arrayBuffer());
  if (response.status === 200) keep?.(bytes);
  return reply.header('content-length', String(bytes.length)).send(bytes);
}

export interface McpDeps {
  config: Config;
  publisher: Publisher;
  revoked: RevokedSessions;
  limits: Limits;
  /** Told the tool of each tools/call (metrics). */
  onToolCall?: (tool: string) => void;
  /** Given a reading of the subscriptions/listen streams open (metrics). */
  onListenStreams?: (open: () => number) => void;
  /** Name, version, title and icons (serverInfo). */
  info: Implementation;
  /** Given the answer to a POST made from its body ahead of Fastify (see EarlyPost). */
  answerEarly?: (answer: EarlyPost) => void;
}

/** MCP over streamable HTTP at /mcp, and the server card, as a Fastify plugin. */
export const mcpPlugin = fp<McpDeps>(
  async (app, deps) => {
    const endpoint = new McpEndpoint(app, deps);
    await app.register(async (scope) => endpoint.routes(scope));
  },
  { name: 'mcp' },
);

/** The problems of the Accept and Content-Type headers (problemOf's first checks). */
function headersProblem(request: { headers: IncomingHttpHeaders }): Problem | undefined {
  const accept = headerValue(request, 'accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return {
      status: 406,
      code: RPC.serverError,
      message: 'Not Acceptable: Client must accept both application/json and text/event-stream',
    };
  }
  if (!/^application\/json\s*(;|$)/i.test(headerValue(request, 'content-type') ?? '')) {
    return {
      status: 415,
      code: RPC.serverError,
      message: 'Unsupported Media Type: Content-Type must be application/json',
    };
  }
  return undefined;
}

/**
 * What is wrong with a POST to /mcp before any protocol is read (its headers, whether its body parsed, the body),
 * or undefined when it may go on.
 */
function problemOf(request: { headers: IncomingHttpHeaders }, parsed: boolean, body: unknown): Problem | undefined {
  const headers = headersProblem(request);
  if (headers) return headers;
  if (!parsed) return { status: 400, code: RPC.parseError, message: 'Parse error: the body is not valid JSON' };
  const messages = Array.isArray(body) ? body : [body];
  if (
    messages.length === 0 ||
    !messages.every((m) => typeof m === 'object' && m !== null && (m as { jsonrpc?: unknown }).jsonrpc === '2.0')
  ) {
    return { status: 400, code: RPC.invalidRequest, message: 'Invalid Request: not a JSON-RPC 2.0 message' };
  }
  const overlong = overlongQuote(messages);
  if (overlong)
    return {
      status: 400,
      code: RPC.invalidParams,
      message: `Invalid params: ${overlong} is longer than ${MAX_QUOTED} characters`,
    };
  return undefined;
}

/** An answer made early (see McpEndpoint.early), kept for the requests that repeat it. */
interface KeptAnswer {
  /** The protocol version it was made for: 2026-07-28, or the version of the 2025 session that asked. */
  version: string;
  /** The tool called (its metric label), if a tools/call. */
  tool: string | undefined;
  /** The answer in one part when it is kept (at most KEPT_BYTES), else in the parts ownAnswer made. */
  bytes: Buffer[];
}

/** Answers up to this long are kept (tools/call, lists); a document's resources/read is not. */
const KEPT_BYTES = 256 * 1024;

/** Answers kept per version at most; the oldest are forgotten first (and made again if asked). */
const KEPT_ANSWERS = 256;

const keptByView = new WeakMap<View, Map<string, KeptAnswer>>();

function keptAnswers(view: View): Map<string, KeptAnswer> {
  let answers = keptByView.get(view);
  if (!answers) keptByView.set(view, (answers = new Map()));
  return answers;
}

/** The body as JSON, and whether it parsed. */
function parseBody(text: string): { parsed: boolean; body: unknown } {
  try {
    return { parsed: true, body: JSON.parse(text) as unknown };
  } catch {
    return { parsed: false, body: undefined };
  }
}

/**
 * Like the SDK's own transport (and the conformance suite), a 2025 session's request may name any supported
 * version; an unknown one is 400 (transport spec: "invalid or unsupported").
 */
function versionProblem(request: { headers: IncomingHttpHeaders }): Problem | undefined {
  const header = headerValue(request, 'mcp-protocol-version');
  if (header === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(header)) return undefined;
  return {
    status: 400,
    code: RPC.serverError,
    message: `Bad Request: unsupported MCP-Protocol-Version ${header} (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
  };
}

function sendParts(reply: FastifyReply, parts: Buffer[]): FastifyReply {
  const { body, length } = bodyOfParts(parts);
  return reply
    .code(200)
    .header('content-type', 'application/json')
    .header('cache-control', 'no-store')
    .header('content-length', String(length))
    .send(body);
}

/** The /mcp endpoint of one server: both protocol revisions, the sessions of the older one, and the server card. */
class McpEndpoint {
  private readonly allowedOrigins: ReadonlySet<string>;
  private readonly checkSession: ReturnType<typeof sessionChecker>;
  private readonly eras = new EraClassifier();
  private readonly listens: ListenStreams;
  private readonly modern: ReturnType<typeof createMcpHandler>;
  /** The server card, made once from the server's own answers, with the caching of static documents. */
  private card: Promise<Representation> | undefined;

  constructor(
    app: FastifyInstance,
    private readonly deps: McpDeps,
  ) {
    const { config, publisher } = deps;
    this.allowedOrigins = mcpOrigins(config);
    this.checkSession = sessionChecker(config.mcp.sessionSecret);
    this.listens = new ListenStreams(config.mcp.listen, deps.info);
    deps.onListenStreams?.(() => this.listens.open);
    // The SDK reports clients' mistakes here too (a version it does not serve, headers that disagree, a listen past the
    // cap): one warning a minute at most, so that no client can flood the log.
    const warn = throttledWarning(app.log, 'MCP request failed');
    const modern = createMcpHandler(({ era }) => this.serverFor(era), {
      legacy: 'reject',
      maxSubscriptions: config.mcp.listen.max,
      onerror: (error) => warn(error.message),
    });
    this.modern = modern;
    // The documents whose bytes changed are announced to the subscriptions/listen streams of this process (each
    // replica tells its own listeners when it serves the change), as WebSub announces its topics.
    const announce = (names: readonly DocumentName[]) => {
      for (const name of names) modern.notify.resourceUpdated(`${config.baseUrl}${documentNamed(name).path}`);
    };
    publisher.on('published', (_view, changed) => announce(changed));
    publisher.on('insights', () => announce(['insights']));
    // Open listen streams end before the server stops taking connections, so a shutdown does not wait on them.
    app.addHook('preClose', async () => {
      await modern.close();
    });
  }

  routes(scope: FastifyInstance): void {
    const { limits, revoked } = this.deps;
    // The body is parsed here, not by Fastify, so that malformed JSON gets a JSON-RPC parse error.
    scope.removeAllContentTypeParsers();
    replayEarlyBodies(scope);
    this.deps.answerEarly?.((request, text, client) => this.early(request, text, client));
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      const status = error.statusCode ?? 500;
      if (status === 413) return rpcError(reply, 413, RPC.invalidRequest, 'Request body too large');
      if (status < 500) return rpcError(reply, status, RPC.invalidRequest, error.message);
      request.log.error({ err: error }, 'MCP request failed');
      return rpcError(reply, 500, -32603, `Internal error (request ${request.id})`);
    });
    scope.post(ROUTES.mcp, limits('mcp'), (request, reply) => this.post(request, reply));
    scope.delete(ROUTES.mcp, limits('mcp'), async (request, reply) => {
      const refused = this.refuseOrigin(request, reply, null);
      if (refused) return refused;
      const session = await this.sessionOf(request, reply, null);
      if (!session) return reply;
      await revoked.revoke(session.sid, session.exp);
      return reply.code(204).send();
    });
    for (const path of SERVER_CARD_PATHS) {
      scope.route({
        method: ['GET', 'HEAD'],
        url: path,
        handler: async (request, reply) => sendRepresentation(request, reply, await this.cardRepresentation()),
      });
    }
    // No server-initiated stream is offered: every response comes on its POST.
    scope.get(ROUTES.mcp, async (_request, reply) => {
      reply.header('allow', 'POST, DELETE');
      return rpcError(
        reply,
        405,
        RPC.serverError,
        'Method Not Allowed: this server sends no stream on GET; POST requests',
      );
    });
  }

  private serverFor(era: ProtocolEra) {
    return createMcpServer(this.deps.publisher.current(), this.deps.config.baseUrl, era, this.deps.info);
  }

  private cardRepresentation(): Promise<Representation> {
    const { config, info } = this.deps;
    return (this.card ??= serverCard((web) => this.modern.fetch(web), config.baseUrl, info, [
      MODERN_PROTOCOL_VERSION,
      ...SUPPORTED_PROTOCOL_VERSIONS,
    ]).then((value) =>
      encodeRepresentation(JSON.stringify(value), {
        contentType: 'application/json',
        cacheControl: CACHE_CONTROL.static,
        lastModified: null,
        effort: 'best',
      }),
    ));
  }

  private async post(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const text = typeof request.body === 'string' ? request.body : '';
    const { parsed, body } = parseBody(text);
    const id = idOf(body);
    const refused = this.refuseOrigin(request, reply, id);
    if (refused) return refused;
    const problem = problemOf(request, parsed, body);
    if (problem) return answerProblem(reply, problem, id);
    for (const m of (Array.isArray(body) ? body : [body]) as { method?: unknown; params?: { name?: unknown } }[]) {
      if (m.method === 'tools/call' && typeof m.params?.name === 'string')
        this.deps.onToolCall?.(toolLabel(m.params.name));
    }
    const era = this.eras.classify(body, {
      protocolVersion: headerValue(request, 'mcp-protocol-version'),
      method: headerValue(request, 'mcp-method'),
      name: headerValue(request, 'mcp-name'),
    });
    if (era.kind === 'legacy') return this.legacy(request, reply, text, body);
    // A well-formed 2026-07-28 request is answered here when it can be, and a list the SDK answers is kept.
    const answer =
      era.kind === 'modern' && (await this.ownAnswer(era.request, MODERN_PROTOCOL_VERSION, this.modernFields));
    if (answer) return sendParts(reply, answer);
    const keep = era.kind === 'modern' ? this.keeper(era.request, MODERN_PROTOCOL_VERSION) : undefined;
    // Whatever its routing headers say, a listen request opens a stream only within this client's share.
    const place =
      (body as { method?: unknown }).method === 'subscriptions/listen' ? this.listens.admit(clientKey(request)) : null;
    if (place === undefined) {
      return rpcError(
        reply,
        429,
        RPC.serverError,
        `Too many listen streams from this address: at most ${this.listens.perClient} at once; end one first`,
        id,
      );
    }
    let streamed = false;
    const stream = place
      ? (events: ReadableStream<Uint8Array>) => ((streamed = true), place.stream(events, id ?? 0))
      : undefined;
    try {
      return await sendResponse(
        reply,
        await this.modern.fetch(webRequest(request, reply, text), { parsedBody: body }),
        keep,
        stream,
      );
    } finally {
      // A refused listen (the cap in all, bad parameters) answered JSON: its place is given back.
      if (place && !streamed) place.release();
    }
  }

  /**
   * The answer to a POST the route would answer from kept bytes (`ownAnswer`) with nothing to refuse, made from its
   * body and headers alone, and kept for this version: a client repeating a request (the same body, routing headers
   * and, in a 2025 session, protocol version) is answered without its body being read again, its headers and
   * session checked as the first time. The request's count is taken against the client's allowance then. Undefined
   * for any other, and for a client with no room left: the route then answers it, refusal or not.
   */
  private async early(request: IncomingMessage, text: string, client: string): Promise<Buffer[] | undefined> {
    const { publisher, limits, onToolCall } = this.deps;
    const view = publisher.current();
    const headers = {
      protocolVersion: headerValue(request, 'mcp-protocol-version'),
      method: headerValue(request, 'mcp-method'),
      name: headerValue(request, 'mcp-name'),
    };
    // What an answer depends on besides the session's version: the body, the routing headers, the insights served.
    const key = `${view.insights.representation.variants.identity.etag}\n${headers.protocolVersion}\n${headers.method}\n${headers.name}\n${text}`;
    const answers = keptAnswers(view);
    let kept = answers.get(key);
    if (!this.originAllowed(headerValue(request, 'origin'))) return undefined;
    if (kept) {
      if (headersProblem(request)) return undefined;
    } else {
      kept = await this.earlyAnswer(request, text, headers);
      if (!kept) return undefined;
      // A whole document (resources/read) is not kept twice: its parts share the version's bytes.
      if (kept.bytes.length === 1) {
        answers.set(key, kept);
        if (answers.size > KEPT_ANSWERS) answers.delete(answers.keys().next().value!);
      }
    }
    if (kept.version !== MODERN_PROTOCOL_VERSION) {
      const session = await this.sessionClaims(request);
      if (!('claims' in session) || session.claims.pv !== kept.version || versionProblem(request)) return undefined;
    }
    if (!limits.take('mcp', client)) return undefined;
    if (kept.tool) onToolCall?.(kept.tool);
    return kept.bytes;
  }

  /** The answer `early` keeps, made from the body; undefined when the route is to answer. */
  private async earlyAnswer(
    request: IncomingMessage,
    text: string,
    headers: RoutingHeaders,
  ): Promise<KeptAnswer | undefined> {
    const { parsed, body } = parseBody(text);
    if (Array.isArray(body) || problemOf(request, parsed, body)) return undefined;
    const message = body as { method?: unknown; params?: { name?: unknown } };
    if (message.method === 'initialize') return undefined;
    const era = this.eras.classify(body, headers);
    let version = MODERN_PROTOCOL_VERSION;
    let answer: Buffer[] | undefined;
    if (era.kind === 'modern') answer = await this.ownAnswer(era.request, version, this.modernFields);
    else if (era.kind === 'legacy') {
      const session = await this.sessionClaims(request);
      if (!('claims' in session)) return undefined;
      version = session.claims.pv;
      answer = await this.ownAnswer(body, version, () => ({}));
    }
    if (!answer) return undefined;
    const tool =
      message.method === 'tools/call' && typeof message.params?.name === 'string'
        ? toolLabel(message.params.name)
        : undefined;
    const length = answer.reduce((n, part) => n + part.length, 0);
    return { version, tool, bytes: length <= KEPT_BYTES ? [Buffer.concat(answer, length)] : answer };
  }

  /** DNS-rebinding protection: a browser's Origin must be ours or configured; non-browser clients send none. */
  private refuseOrigin(request: FastifyRequest, reply: FastifyReply, id: RpcId): FastifyReply | undefined {
    const origin = headerValue(request, 'origin');
    if (this.originAllowed(origin)) return undefined;
    return rpcError(reply, 403, RPC.serverError, `Forbidden: Origin ${origin} is not allowed`, id);
  }

  private originAllowed(origin: string | undefined): boolean {
    return origin === undefined || this.allowedOrigins.has(origin);
  }

  /**
   * The claims of the request's session, or undefined once it is answered 400 without a session id, or 404 for one
   * that is forged, expired or ended (so the client initializes again). Either is the client's error: nothing is logged
   * beyond the request line.
   */
  private async sessionOf(request: FastifyRequest, reply: FastifyReply, id: RpcId): Promise<SessionClaims | undefined> {
    const session = await this.sessionClaims(request);
    if ('claims' in session) return session.claims;
    answerProblem(reply, session, id);
    return undefined;
  }

  private async sessionClaims(request: { headers: IncomingHttpHeaders }): Promise<{ claims: SessionClaims } | Problem> {
    const session = headerValue(request, 'mcp-session-id');
    if (!session)
      return { status: 400, code: RPC.serverError, message: 'Bad Request: Mcp-Session-Id header is required' };
    const check = this.checkSession(session);
    if (!check.ok || (await this.deps.revoked.has(check.claims.sid)))
      return { status: 404, code: RPC.sessionNotFound, message: 'Session not found' };
    return { claims: check.claims };
  }

  /**
   * The answer to a resources/read of a catalogue document, a tools/call of a read tool or a list, made from bytes
   * kept per version (see replies.ts), in parts; undefined for any other request, which the SDK serves.
   * `revision`: the protocol revision served (lists differ between revisions); `resultFields`: what a read or a
   * call adds in that revision (a kept list holds the SDK's whole result).
   */
  private async ownAnswer(
    message: unknown,
    revision: string,
    resultFields: (method: string) => Record<string, unknown>,
  ): Promise<Buffer[] | undefined> {
    const { publisher, config } = this.deps;
    if (Array.isArray(message)) return undefined;
    const { id, method, params = {} } = message as { id?: unknown; method?: unknown; params?: unknown };
    if (
      (typeof id !== 'string' && typeof id !== 'number') ||
      typeof method !== 'string' ||
      typeof params !== 'object' ||
      params === null
    )
      return undefined;
    const given = params as Record<string, unknown>;
    // Only the parameters these answers take: a request with others (a cursor, a task) is the SDK's to judge.
    const only = (...keys: string[]) => Object.keys(given).every((key) => key === '_meta' || keys.includes(key));
    const view = publisher.current();
    if (plainList(method, given)) {
      const kept = keptList(view, method, revision);
      return kept && replyParts(id, kept);
    }
    let result: Buffer | undefined;
    if (method === 'resources/read' && only('uri')) {
      const document = resourceNamed(given['uri'], config.baseUrl);
      result = document && readResult(view, document, config.baseUrl);
    } else if (method === 'tools/call' && only('name', 'arguments')) {
      result = await toolCallResult(view, given);
    } else if (method === 'completion/complete' && only('ref', 'argument', 'context')) {
      result = completionResult(view, given);
    }
    return result && replyParts(id, result, resultFields(method));
  }

  /** Keeps the SDK's answer to a list without a cursor, so that the next is answered from it. */
  private keeper(message: unknown, revision: string): ((json: Buffer) => void) | undefined {
    const { method, params = {} } = (Array.isArray(message) ? {} : message) as { method?: unknown; params?: unknown };
    if (typeof method !== 'string' || !plainList(method, params)) return undefined;
    const view = this.deps.publisher.current();
    return (json: Buffer) => keepList(view, method, revision, json);
  }

  /** What a 2026-07-28 result holds besides the answer: its type, the caching hint of a read, and who answered. */
  private readonly modernFields = (method: string) => ({
    resultType: 'complete',
    ...(method === 'resources/read' ? CACHE_HINTS['resources/read'] : {}),
    _meta: { [SERVER_INFO_META_KEY]: this.deps.info },
  });

  /** The 2025 session flow: initialize issues a signed id, every later request must carry a valid one. */
  private async legacy(
    request: FastifyRequest,
    reply: FastifyReply,
    text: string,
    body: unknown,
  ): Promise<FastifyReply> {
    const started = await this.legacySession(request, reply, body);
    if (!started) return reply;
    const { version, sessionIdGenerator } = started;
    const refused = this.batchRefusal(request, reply, version, body);
    if (refused) return refused;
    const answer = await this.ownAnswer(body, version, () => ({}));
    if (answer) return sendParts(reply, answer);
    const web = webRequest(request, reply, text);
    const server = this.serverFor('legacy');
    // A session id generator only on initialize: the transport then sends it; later requests need no state.
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator, enableJsonResponse: true });
    await server.connect(transport);
    try {
      // Sent before the transport closes: closing it ends a body still being streamed, and clients saw connections
      // closed mid-answer (in the load test, a few in 100,000, and the next request on the same connection failed).
      return await sendResponse(
        reply,
        await transport.handleRequest(web, { parsedBody: body }),
        this.keeper(body, version),
      );
    } finally {
      void transport.close();
      void server.close();
    }
  }

  /**
   * The protocol version of a 2025 request: the one initialize asks for (and a session id for it), or its session's;
   * undefined once the request is answered with an error. (Not the reply itself: a reply is thenable, and an async
   * function would resolve it.)
   */
  private async legacySession(
    request: FastifyRequest,
    reply: FastifyReply,
    body: unknown,
  ): Promise<{ version: string; sessionIdGenerator?: () => string } | undefined> {
    const messages = Array.isArray(body) ? body : [body];
    const initialize = messages.find((m) => (m as { method?: unknown }).method === 'initialize');
    if (initialize) {
      if (!isInitializeRequest(initialize)) {
        const initializeId = (initialize as { id?: string | number }).id ?? null;
        rpcError(
          reply,
          400,
          RPC.invalidParams,
          'Invalid params: initialize needs protocolVersion (string), capabilities (object) and clientInfo { name, version }',
          initializeId,
        );
        return undefined;
      }
      const requested = initialize.params.protocolVersion;
      const version = SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
      const { token } = issueSession(version, this.deps.config.mcp.sessionSecret);
      return { version, sessionIdGenerator: () => token };
    }
    const id = idOf(body);
    const session = await this.sessionOf(request, reply, id);
    if (!session) return undefined;
    const unsupported = versionProblem(request);
    if (unsupported) {
      answerProblem(reply, unsupported, id);
      return undefined;
    }
    return { version: session.pv };
  }

  /**
   * Protocol version 2025-06-18 removed JSON-RPC batching; older sessions may still send batches, bounded so that no
   * batch can ask for an unbounded reply.
   */
  private batchRefusal(
    request: FastifyRequest,
    reply: FastifyReply,
    version: string,
    body: unknown,
  ): FastifyReply | undefined {
    if (!Array.isArray(body)) return undefined;
    if (version >= '2025-06-18') {
      return rpcError(
        reply,
        400,
        RPC.invalidRequest,
        `Invalid Request: protocol version ${version} does not allow JSON-RPC batches`,
      );
    }
    if (body.length > MAX_BATCH_MESSAGES) {
      return rpcError(
        reply,
        400,
        RPC.invalidRequest,
        `Invalid Request: a batch holds at most ${MAX_BATCH_MESSAGES} messages; send the others separately`,
      );
    }
    if (body.some((m) => (m as { method?: unknown }).method === 'resources/read')) {
      return rpcError(
        reply,
        400,
        RPC.invalidRequest,
        'Invalid Request: resources/read returns a whole document; send it alone, not in a batch',
      );
    }
    // Each message is a request of its own to the allowance: the batch's own count was taken on arrival.
    const charged = this.deps.limits.charge('mcp', request, body.length - 1);
    if (!charged.ok)
      return rpcError(
        reply.header('retry-after', String(charged.retryAfterSeconds)),
        429,
        RPC.invalidRequest,
        TOO_MANY_REQUESTS,
      );
    return undefined;
  }
}
