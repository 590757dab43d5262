// DNS-rebinding protection for a server bound to loopback: a page on another site that makes its name resolve to
// 127.0.0.1 reaches this server with that name in Host. Such a server answers only requests addressed to
// loopback names or to BASE_URL's host; one bound to a public address serves whatever name points at it.
import type { FastifyInstance } from 'fastify';
import { LOOPBACK_NAMES, type Config } from '../config.js';
import { sendError } from './errors.js';

const LOOPBACK_BINDS = new Set(['127.0.0.1', '::1', 'localhost']);

/** The host name of a Host header, lower case, without the port. */
const hostName = (host: string) => host.toLowerCase().replace(/:\d+$/, '');

export function registerHostCheck(app: FastifyInstance, config: Pick<Config, 'host' | 'baseUrl'>): void {
  if (!LOOPBACK_BINDS.has(config.host)) return;
  const allowed = new Set([...LOOPBACK_NAMES, new URL(config.baseUrl).hostname.toLowerCase()]);
  app.addHook('onRequest', (request, reply, done) => {
    const host = request.headers.host;
    if (host !== undefined && allowed.has(hostName(host))) return done();
    // A reply sent from a hook ends the request there.
    void sendError(reply, 'invalid_request', `This server is bound to loopback and answers only requests addressed to ${[...allowed].join(', ')}`);
  });
}
