// The pages for people and for the programs that find them: /, /reviews/{id}, /docs, /badge.svg, /embed, /verification,
// /llms.txt, /robots.txt, /sitemap.xml and the assets, with the security headers every HTML answer carries.
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Publisher } from '../publishing/publisher.js';
import type { Representation } from '../publishing/representation.js';
import { ASSETS_PREFIX } from './assets.js';
import { isSearch, type Filters } from './home.js';
import { TOO_MANY_REQUESTS, type Limits } from '../http/limits.js';
import { prefersJson, type PageAnswer, type SitePages } from './pages.js';
import { sendRepresentation } from '../http/conditional.js';
import { notFound, sendError } from '../http/errors.js';
import { fastifyPath } from '../http/route-path.js';
import { VERIFICATION_PATH } from './verification-page.js';

export const SITE_ROUTES = {
  home: '/',
  review: '/reviews/{id}',
  docs: '/docs',
  badge: '/badge.svg',
  embed: '/embed',
  verification: VERIFICATION_PATH,
  llms: '/llms.txt',
  robots: '/robots.txt',
  sitemap: '/sitemap.xml',
  asset: `${ASSETS_PREFIX}{file}`,
} as const;

/**
 * Pages load only what this origin serves; the JSON-LD data block is not script the browser runs, so no inline
 * script is allowed at all. Only /embed may be framed, by any site.
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "manifest-src 'self'",
];
const contentSecurityPolicy = (framing: string) => [...CSP, `frame-ancestors ${framing}`].join('; ');
const FRAMED_ANYWHERE = contentSecurityPolicy('*');
const NEVER_FRAMED = contentSecurityPolicy("'none'");

function securityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  const embed = request.url.split('?')[0] === SITE_ROUTES.embed;
  reply.header('content-security-policy', embed ? FRAMED_ANYWHERE : NEVER_FRAMED);
  reply.header('referrer-policy', 'strict-origin-when-cross-origin');
  if (!embed) reply.header('x-frame-options', 'DENY');
}

/** An answer that is a page, or the error page (a JSON error body for clients that asked for JSON). */
function sendPage(request: FastifyRequest, reply: FastifyReply, answer: PageAnswer): FastifyReply {
  if (answer.ok) return sendRepresentation(request, reply, answer.representation);
  if (prefersJson(request)) {
    if (answer.status === 404) return notFound(request, reply);
    return answer.status === 429
      ? sendError(reply, 'too_many_requests', TOO_MANY_REQUESTS)
      : sendError(reply, 'invalid_request', 'Invalid page request');
  }
  return reply
    .code(answer.status)
    .header('cache-control', 'no-store')
    .header('content-type', 'text/html; charset=utf-8')
    .send(answer.html);
}

/** The rate limiter's refusal (it throws one, with Retry-After already on the reply). */
const isRefusal = (error: unknown) => error instanceof Error && (error as { statusCode?: unknown }).statusCode === 429;

/**
 * `limits`: `/` with search filters counts with the search API's requests (it runs the same search); the pages
 * themselves, made once per version, are not limited.
 */
export interface SiteOptions {
  publisher: Publisher;
  site: SitePages;
  limits: Limits;
}

/** The pages, as a Fastify plugin (its security headers go on every HTML answer of the server). */
export const sitePlugin = fp<SiteOptions>(async (app, options) => registerSiteRoutes(app, options), { name: 'site' });

function registerSiteRoutes(app: FastifyInstance, { publisher, site, limits }: SiteOptions): void {
  const queryLimit = limits('queries').onRequest;
  app.addHook('onSend', (request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html')) securityHeaders(request, reply);
    done(null, payload);
  });
  const read = (
    url: string,
    handler: (request: FastifyRequest, reply: FastifyReply) => unknown,
    onRequest?: onRequestAsyncHookHandler,
  ) => app.route({ method: ['GET', 'HEAD'], url: fastifyPath(url), handler, ...(onRequest ? { onRequest } : {}) });
  const represent = (make: () => Promise<Representation>) => async (request: FastifyRequest, reply: FastifyReply) =>
    sendRepresentation(request, reply, await make());

  read(
    SITE_ROUTES.home,
    async (request, reply) =>
      sendPage(request, reply, await site.home(publisher.current(), request.query as Record<string, unknown>)),
    async function (request, reply) {
      if (!isSearch(request.query as Filters)) return;
      try {
        await (queryLimit as onRequestAsyncHookHandler).call(this, request, reply);
      } catch (error) {
        // A person who searched too often gets a page in the site's style, not the API's JSON error.
        if (!isRefusal(error)) throw error;
        return sendPage(
          request,
          reply,
          site.tooManySearches(publisher.current(), Number(reply.getHeader('retry-after'))),
        );
      }
    },
  );
  read(SITE_ROUTES.review, async (request, reply) =>
    sendPage(request, reply, await site.review(publisher.current(), (request.params as { id: string }).id)),
  );
  read(
    SITE_ROUTES.docs,
    represent(() => site.docs(publisher.current())),
  );
  read(
    SITE_ROUTES.badge,
    represent(() => site.badge(publisher.current())),
  );
  read(
    SITE_ROUTES.embed,
    represent(() => site.embed(publisher.current())),
  );
  read(
    SITE_ROUTES.verification,
    represent(() => site.verification(publisher.current())),
  );
  read(
    SITE_ROUTES.llms,
    represent(() => site.llms(publisher.current())),
  );
  read(
    SITE_ROUTES.robots,
    represent(() => site.robots(publisher.current())),
  );
  read(SITE_ROUTES.sitemap, async (request, reply) => {
    const made = site.sitemap(publisher.current(), (request.query as { part?: string }).part);
    if (!made) return notFound(request, reply);
    return sendRepresentation(request, reply, await made);
  });
  read(SITE_ROUTES.asset, async (request, reply) => {
    const made = site.assets.get(request.url.split('?')[0]!);
    if (!made) return notFound(request, reply);
    return sendRepresentation(request, reply, await made);
  });
}
