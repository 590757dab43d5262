// POST/DELETE /mcp: streamable HTTP with signed session ids and a stateless SDK transport per request.
import { Readable } from 'node:stream';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  isInitializeRequest,
  JSONRPCMessageSchema,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { mcpOrigins, type Config } from '../config.js';
import type { Publisher } from '../publishing/publisher.js';
import type { Limits } from '../http/limits.js';
import { ROUTES } from '../reviews/links.js';
import { RevokedSessions } from './revocations.js';
import { checkSession, issueSession, type SessionClaims } from './session.js';
import { readResourceReply, resourceNamed } from './resources.js';
import { createMcpServer, toolLabel } from './tools.js';

/** Batches (protocol versions before 2025-06-18 only) hold at most this many messages. */
const MAX_BATCH_MESSAGES = 8;

/** JSON-RPC 2.0 error codes, plus the MCP SDK's server-error code for transport-level refusals. */
const RPC = { parseError: -32700, invalidRequest: -32600, invalidParams: -32602, serverError: -32000, sessionNotFound: -32001 } as const;

function rpcError(reply: FastifyReply, status: number, code: number, message: string, id: string | number | null = null): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'application/json')
    .header('cache-control', 'no-store')
    .send(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }));
}

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export interface McpDeps {
  config: Config;
  publisher: Publisher;
  revoked: RevokedSessions;
  limits: Limits;
  /** Told the tool of each tools/call (metrics). */
  onToolCall?: (tool: string) => void;
}

export function registerMcp(app: FastifyInstance, { config, publisher, revoked, limits, onToolCall }: McpDeps): void {
  const allowedOrigins = mcpOrigins(config);

  /** DNS-rebinding protection: a browser's Origin must be ours or configured; non-browser clients send none. */
  const refuseOrigin = (request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined => {
    const origin = headerValue(request, 'origin');
    if (origin === undefined || allowedOrigins.has(origin)) return undefined;
    return rpcError(reply, 403, RPC.serverError, `Forbidden: Origin ${origin} is not allowed`);
  };

  /** 400 without a session id, 404 for one that is forged, expired or ended (so the client initializes again). */
  const sessionOf = async (request: FastifyRequest, reply: FastifyReply): Promise<SessionClaims | FastifyReply> => {
    const id = headerValue(request, 'mcp-session-id');
    if (!id) return rpcError(reply, 400, RPC.serverError, 'Bad Request: Mcp-Session-Id header is required');
    const check = checkSession(id, config.mcp.sessionSecret);
    if (!check.ok || (await revoked.has(check.claims.sid))) return rpcError(reply, 404, RPC.sessionNotFound, 'Session not found');
    return check.claims;
  };

  app.register(async (scope) => {
    // The body is parsed here, not by Fastify, so that malformed JSON gets a JSON-RPC parse error.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      const status = error.statusCode ?? 500;
      if (status === 413) return rpcError(reply, 413, RPC.invalidRequest, 'Request body too large');
      if (status < 500) return rpcError(reply, status, RPC.invalidRequest, error.message);
      request.log.error({ err: error }, 'MCP request failed');
      return rpcError(reply, 500, -32603, `Internal error (request ${request.id})`);
    });

    scope.post(ROUTES.mcp, limits('mcp'), async (request, reply) => {
      const refused = refuseOrigin(request, reply);
      if (refused) return refused;
      const accept = headerValue(request, 'accept') ?? '';
      if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
        return rpcError(reply, 406, RPC.serverError, 'Not Acceptable: Client must accept both application/json and text/event-stream');
      }
      if (!/^application\/json\s*(;|$)/i.test(headerValue(request, 'content-type') ?? '')) {
        return rpcError(reply, 415, RPC.serverError, 'Unsupported Media Type: Content-Type must be application/json');
      }
      let body: unknown;
      try {
        body = JSON.parse(typeof request.body === 'string' ? request.body : '');
      } catch {
        return rpcError(reply, 400, RPC.parseError, 'Parse error: the body is not valid JSON');
      }
      const messages = Array.isArray(body) ? body : [body];
      if (messages.length === 0 || !messages.every((m) => JSONRPCMessageSchema.safeParse(m).success)) {
        return rpcError(reply, 400, RPC.invalidRequest, 'Invalid Request: not a JSON-RPC 2.0 message');
      }

      let sessionIdGenerator: (() => string) | undefined;
      let version: string;
      const initialize = messages.find((m) => (m as { method?: unknown }).method === 'initialize');
      if (initialize) {
        if (!isInitializeRequest(initialize)) {
          const id = (initialize as { id?: string | number }).id ?? null;
          return rpcError(reply, 400, RPC.invalidParams, 'Invalid params: initialize needs protocolVersion (string), capabilities (object) and clientInfo { name, version }', id);
        }
        const requested = initialize.params.protocolVersion;
        version = SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
        const { token } = issueSession(version, config.mcp.sessionSecret);
        sessionIdGenerator = () => token;
      } else {
        const session = await sessionOf(request, reply);
        if (!('sid' in session)) return session;
        version = session.pv;
        // Like the SDK's own transport (and the conformance suite), any supported version is accepted here;
        // an unknown one is 400 (transport spec: "invalid or unsupported").
        const header = headerValue(request, 'mcp-protocol-version');
        if (header !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(header)) {
          return rpcError(reply, 400, RPC.serverError, `Bad Request: unsupported MCP-Protocol-Version ${header} (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`);
        }
      }
      // Protocol version 2025-06-18 removed JSON-RPC batching; older sessions may still send batches, bounded so
      // that no batch can ask for an unbounded reply.
      if (Array.isArray(body)) {
        if (version >= '2025-06-18') {
          return rpcError(reply, 400, RPC.invalidRequest, `Invalid Request: protocol version ${version} does not allow JSON-RPC batches`);
        }
        if (messages.length > MAX_BATCH_MESSAGES) {
          return rpcError(reply, 400, RPC.invalidRequest, `Invalid Request: a batch holds at most ${MAX_BATCH_MESSAGES} messages; send the others separately`);
        }
        if (messages.some((m) => (m as { method?: unknown }).method === 'resources/read')) {
          return rpcError(reply, 400, RPC.invalidRequest, 'Invalid Request: resources/read returns a whole document; send it alone, not in a batch');
        }
      }

      for (const m of messages as { method?: unknown; params?: { name?: unknown } }[]) {
        if (m.method === 'tools/call' && typeof m.params?.name === 'string') onToolCall?.(toolLabel(m.params.name));
      }
      const view = publisher.current();
      // A catalogue document read: the reply's bytes are shared by every reader of this version.
      const read = messages.length === 1 ? (messages[0] as { method?: unknown; id?: unknown; params?: { uri?: unknown } }) : undefined;
      const document = read?.method === 'resources/read' && (typeof read.id === 'string' || typeof read.id === 'number') ? resourceNamed(read.params?.uri, config.baseUrl) : undefined;
      if (read && document) {
        const parts = readResourceReply(view, document, config.baseUrl, read.id as string | number);
        return reply
          .code(200)
          .header('content-type', 'application/json')
          .header('cache-control', 'no-store')
          .header('content-length', String(parts.reduce((n, p) => n + p.length, 0)))
          .send(Readable.from(parts));
      }

      const server = createMcpServer(view, config.baseUrl);
      // Whatever fails inside the SDK (a reply too large to encode, say) is logged, and the request still ends.
      const fail = (error: unknown) => {
        request.log.error({ err: error }, 'MCP request failed');
        const raw = reply.raw;
        if (!raw.headersSent) {
          raw.writeHead(500, { 'content-type': 'application/json', 'cache-control': 'no-store' });
          raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: `Internal error (request ${request.id})` }, id: null }));
        } else if (!raw.writableEnded) {
          raw.end();
        }
      };
      server.server.onerror = (error) => {
        // A reply that could not be sent leaves the request open: end it. Anything else is only logged.
        if (/^Failed to (send|enqueue)/.test(error.message)) fail(error);
        else request.log.warn({ err: error }, 'MCP server error');
      };
      // A session id generator only on initialize: the transport then sends it; later requests need no state.
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator, enableJsonResponse: true });
      await server.connect(transport);
      reply.hijack();
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await transport.handleRequest(request.raw, reply.raw, body);
      } catch (error) {
        fail(error);
      }
      return reply;
    });

    scope.delete(ROUTES.mcp, limits('mcp'), async (request, reply) => {
      const refused = refuseOrigin(request, reply);
      if (refused) return refused;
      const session = await sessionOf(request, reply);
      if (!('sid' in session)) return session;
      await revoked.revoke(session.sid, session.exp);
      return reply.code(204).send();
    });

    // No server-initiated stream is offered: every response comes on its POST.
    scope.get(ROUTES.mcp, async (request, reply) => {
      reply.header('allow', 'POST, DELETE');
      return rpcError(reply, 405, RPC.serverError, 'Method Not Allowed: this server sends no stream on GET; POST requests');
    });
  });
}
