// POST /api/websub/hub: subscription requests (W3C WebSub §5.1), answered 202 and verified in the background.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { ROUTES } from '../reviews/links.js';
import type { Store } from '../store/types.js';
import { clientKey, type Limits } from '../http/limits.js';
import type { Hub, SubscriptionIntent } from './hub.js';

/** W3C WebSub §5.1.1: a secret is shorter than 200 bytes. */
const MAX_SECRET_BYTES = 199;

/** Errors of the hub are plain text (W3C WebSub §5.1.2), not the JSON of the rest of the API. */
function refuse(reply: FastifyReply, status: number, reason: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/plain; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(`${reason}\n`);
}

type Parsed = { ok: true; intent: SubscriptionIntent } | { ok: false; status: number; reason: string };

function parseRequest(form: URLSearchParams, config: Config, hub: Hub): Parsed {
  const mode = form.get('hub.mode');
  if (mode !== 'subscribe' && mode !== 'unsubscribe')
    return { ok: false, status: 400, reason: 'hub.mode must be subscribe or unsubscribe' };
  const topic = form.get('hub.topic');
  if (!topic || !hub.topics.some((t) => t.url === topic)) {
    return { ok: false, status: 400, reason: `hub.topic must be one of: ${hub.topics.map((t) => t.url).join(', ')}` };
  }
  const rawCallback = form.get('hub.callback');
  if (!rawCallback || !URL.canParse(rawCallback))
    return { ok: false, status: 400, reason: 'hub.callback must be an absolute https:// URL' };
  const callback = new URL(rawCallback);
  const refused = hub.refusal(callback);
  if (refused) return { ok: false, status: 400, reason: refused };

  const { leaseDefaultSeconds, leaseMinSeconds, leaseMaxSeconds } = config.websub;
  let leaseSeconds = leaseDefaultSeconds;
  const rawLease = form.get('hub.lease_seconds');
  if (rawLease !== null && rawLease !== '') {
    if (!/^\d+$/.test(rawLease))
      return { ok: false, status: 400, reason: 'hub.lease_seconds must be a whole number of seconds' };
    leaseSeconds = Number(rawLease);
  }
  leaseSeconds = Math.min(leaseMaxSeconds, Math.max(leaseMinSeconds, leaseSeconds));

  const secret = form.get('hub.secret');
  if (secret !== null && Buffer.byteLength(secret) > MAX_SECRET_BYTES)
    return { ok: false, status: 400, reason: 'hub.secret must be shorter than 200 bytes' };
  return { ok: true, intent: { mode, topic, callback, leaseSeconds, secret: secret || null } };
}

export interface HubOptions {
  config: Config;
  store: Store;
  hub: Hub;
  limits: Limits;
}

/** The hub's endpoint, as a Fastify plugin. */
export const hubPlugin = fp<HubOptions>(async (app, options) => registerHubRoute(app, options), { name: 'websub' });

function registerHubRoute(app: FastifyInstance, deps: HubOptions): void {
  const { config, store, hub } = deps;

  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    scope.setErrorHandler((error: { statusCode?: number; message: string }, request, reply) => {
      const status = error.statusCode ?? 500;
      if (status === 413) return refuse(reply, 413, 'Request body too large');
      if (status === 415) return refuse(reply, 415, 'Content-Type must be application/x-www-form-urlencoded');
      if (status < 500) return refuse(reply, status, error.message);
      request.log.error({ err: error }, 'WebSub hub request failed');
      return refuse(reply, 500, `Internal error (request ${request.id})`);
    });

    scope.post(ROUTES.hub, deps.limits('hub'), async (request: FastifyRequest, reply: FastifyReply) => {
      const parsed = parseRequest(
        new URLSearchParams(typeof request.body === 'string' ? request.body : ''),
        config,
        hub,
      );
      if (!parsed.ok) return refuse(reply, parsed.status, parsed.reason);
      const { intent } = parsed;
      // The client as the rate limits see it: its address, an IPv6 one by its /64. Its subscriptions are counted
      // against it, and its verifications (unsubscribes too) are charged to its share of the hub's outbound slots.
      const client = clientKey(request);
      if (intent.mode === 'subscribe') {
        const existing = await store.websub.get(intent.topic, intent.callback.href);
        const counted = existing && (existing.state === 'active' || existing.state === 'pending');
        if (!counted && (await store.websub.countActive(intent.topic)) >= config.websub.maxSubscribersPerTopic) {
          return refuse(reply, 409, 'This topic has as many subscribers as the hub accepts');
        }
        if (!counted && (await store.websub.countByClient(client)) >= config.websub.maxSubscriptionsPerClient) {
          return refuse(reply, 409, 'This client has as many subscriptions as the hub accepts from one client');
        }
        await store.websub.recordRequest(intent.topic, intent.callback.href, new Date().toISOString(), client);
      }
      hub.verifyLater(intent, client);
      return reply.code(202).header('cache-control', 'no-store').send();
    });

    scope.get(ROUTES.hub, async (_request, reply) =>
      refuse(reply.header('allow', 'POST'), 405, 'The hub takes subscription requests by POST (W3C WebSub)'),
    );
  });
}
