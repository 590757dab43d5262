// CORS for a public read API: any origin may read, and browsers may see the caching validators and Link.
import type { FastifyInstance } from 'fastify';

const EXPOSED = 'ETag, Last-Modified, Link, Mcp-Session-Id';
// Authorization is allowed (and ignored) so a browser client that always sends it is not refused by the preflight.
const ALLOWED_REQUEST_HEADERS = 'If-None-Match, If-Modified-Since, Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID';

export function registerCors(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-expose-headers', EXPOSED);
  });
  app.options('/*', (request, reply) =>
    reply
      .code(204)
      .header('access-control-allow-methods', 'GET, HEAD, POST, DELETE, OPTIONS')
      .header('access-control-allow-headers', ALLOWED_REQUEST_HEADERS)
      .header('access-control-max-age', '86400')
      .send(),
  );
}
