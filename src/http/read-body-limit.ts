// GET and HEAD requests carry at most READ_BODY_LIMIT_BYTES of body, with its length stated: a larger one, or one
// sent chunked, is refused with 413 before any of it is read, and its connection closed rather than drained.
import type { FastifyInstance } from 'fastify';
import { sendError } from './errors.js';

/**
 * The most body a GET or HEAD may carry. No route reads one (HTTP gives it no meaning); a few bytes are tolerated
 * for clients that send an empty JSON object or form by habit.
 */
export const READ_BODY_LIMIT_BYTES = 1024;

const REFUSAL = `A GET or HEAD request may carry at most ${READ_BODY_LIMIT_BYTES} bytes of body, with a Content-Length; send the request without one`;

export function registerReadBodyLimit(app: FastifyInstance): void {
  // Runs on every request, so a plain callback (an async hook costs a promise and a turn each): a request without a
  // body, nearly all of them, costs two header lookups.
  app.addHook('onRequest', (request, reply, done) => {
    const { headers } = request;
    if (headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) return done();
    if (request.method !== 'GET' && request.method !== 'HEAD') return done();
    // A chunked body's length is known only by reading it all, so it is refused like one that is too long.
    if (headers['transfer-encoding'] === undefined && Number(headers['content-length']) <= READ_BODY_LIMIT_BYTES)
      return done();
    // Node drains an unread body to keep a connection for the next request; closing it reads no more of this one.
    reply.header('connection', 'close');
    void sendError(reply, 'payload_too_large', REFUSAL);
  });
}
