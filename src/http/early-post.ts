// A small POST read ahead of Fastify (src/api/fast-path.ts) and, when the early answer declines it, handed to the
// route with the bytes read: the route's scope replays them to Fastify's body parser, which sees the request as sent.
import { PassThrough } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * Bodies read early are at most this long: a tools/call or a list is a few hundred bytes; anything longer goes
 * to Fastify unread, which applies the route's own body limit.
 */
export const EARLY_BODY_MAX_BYTES = 16 * 1024;

/**
 * An answer made from a POST's body before Fastify sees the request: the JSON response's bytes, in parts, or
 * undefined to leave the request to the route (which answers it, refusal or not, as it would have). `client`: the
 * key the client's allowance is counted by. Whoever answers takes the request's count against that allowance.
 */
export type EarlyPost = (request: IncomingMessage, body: string, client: string) => Promise<Buffer[] | undefined>;

const PREREAD = Symbol('body read ahead of Fastify');

type Preread = IncomingMessage & { [PREREAD]?: Buffer };

/** Marks the request's body as read: the route's scope replays `body` (see `replayEarlyBodies`). */
export function keepEarlyBody(request: IncomingMessage, body: Buffer): void {
  (request as Preread)[PREREAD] = body;
}

/** In this scope, a body read early reaches the parser as if read from the socket (length checks included). */
export function replayEarlyBodies(scope: FastifyInstance): void {
  scope.addHook('preParsing', (request, _reply, payload, done) => {
    const body = (request.raw as Preread)[PREREAD];
    if (body === undefined) return done(null, payload);
    const replay = new PassThrough();
    replay.end(body);
    done(null, replay);
  });
}
