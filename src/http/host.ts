// DNS-rebinding protection for a server bound to loopback: a page on another site that makes its name resolve to
// 127.0.0.1 reaches this server with that name in Host. Such a server answers only requests addressed to
// loopback names or to BASE_URL's host; one bound to a public address serves whatever name points at it.
import type { FastifyInstance } from 'fastify';
import { LOOPBACK_NAMES, type Config } from '../config.js';
import { sendError } from './errors.js';

const LOOPBACK_BINDS = new Set(['127.0.0.1', '::1', 'localhost']);

/** The host name of a Host header, lower case, without the port. */
const hostName = (host: string) => host.toLowerCase().replace(/:\d+$/, '');

/** The names a server bound to loopback answers to; undefined when it answers any (bound to a public address). */
function allowedNames(config: Pick<Config, 'host' | 'baseUrl'>): ReadonlySet<string> | undefined {
  return LOOPBACK_BINDS.has(config.host)
    ? new Set([...LOOPBACK_NAMES, new URL(config.baseUrl).hostname.toLowerCase()])
    : undefined;
}

/** Whether a request with this Host header is answered (the fast path of revalidations asks too). */
export function hostCheck(config: Pick<Config, 'host' | 'baseUrl'>): (host: string | undefined) => boolean {
  const allowed = allowedNames(config);
  if (!allowed) return () => true;
  // Verdicts remembered by Host header: clients send a handful of them.
  const verdicts = new Map<string, boolean>();
  return (host) => {
    if (host === undefined) return false;
    let verdict = verdicts.get(host);
    if (verdict === undefined) {
      verdict = allowed.has(hostName(host));
      if (verdicts.size >= 256) verdicts.clear();
      verdicts.set(host, verdict);
    }
    return verdict;
  };
}

export function registerHostCheck(app: FastifyInstance, config: Pick<Config, 'host' | 'baseUrl'>): void {
  const allowed = allowedNames(config);
  if (!allowed) return;
  const answered = hostCheck(config);
  app.addHook('onRequest', (request, reply, done) => {
    if (answered(request.headers.host)) return done();
    // A reply sent from a hook ends the request there.
    void sendError(
      reply,
      'invalid_request',
      `This server is bound to loopback and answers only requests addressed to ${[...allowed].join(', ')}`,
    );
  });
}
