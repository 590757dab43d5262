// CORS for a public read API: any origin may read, and browsers may see the caching validators and Link. A
// preflight answers what its route accepts: reads everywhere, POST to the hub, and POST/DELETE to /mcp only for
// the origins MCP accepts (a browser elsewhere would only be refused with 403 after sending its request). Every
// response says nosniff: a JSON or text body is never to be read as anything else.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { mcpOrigins, type Config } from '../config.js';
import { ROUTES } from '../reviews/links.js';

const EXPOSED = 'ETag, Last-Modified, Link, Mcp-Session-Id, Retry-After';
// Authorization is allowed (and ignored) so a browser client that always sends it is not refused by the preflight.
const ALLOWED_REQUEST_HEADERS =
  'If-None-Match, If-Modified-Since, Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID';

/** Headers every answer carries (the fast path of revalidations sends them too). */
export const EVERY_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED,
};

export function registerCors(app: FastifyInstance, config: Config): void {
  const allowed = mcpOrigins(config);
  /** The methods a browser at this origin may use on this path, beyond OPTIONS. */
  const methodsFor = (request: FastifyRequest): string | undefined => {
    const path = request.url.split('?')[0];
    if (path === ROUTES.mcp) {
      const origin = request.headers.origin;
      return origin === undefined || allowed.has(origin) ? 'POST, DELETE' : undefined;
    }
    if (path === ROUTES.hub) return 'POST';
    return 'GET, HEAD';
  };

  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(EVERY_RESPONSE_HEADERS);
    done();
  });
  app.options('/*', (request, reply) => {
    const methods = methodsFor(request);
    // Without Allow-Methods the browser does not send the request: nothing here would accept it.
    if (methods === undefined) return reply.code(204).header('vary', 'Origin').send();
    return reply
      .code(204)
      .header('vary', 'Origin')
      .header('access-control-allow-methods', `${methods}, OPTIONS`)
      .header('access-control-allow-headers', ALLOWED_REQUEST_HEADERS)
      .header('access-control-max-age', '86400')
      .send();
  });
}
