// The one error catalogue and handler: every error body is { error, message, issues? }; 5xx details stay in the log.
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { z } from 'zod';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ROUTES } from '../reviews/links.js';

export const ErrorIssue = z
  .object({
    path: z
      .array(z.union([z.string(), z.number()]))
      .describe('Where the problem is: the parameter name, then any nested keys'),
    message: z.string(),
    code: z.string().describe('Zod issue code, e.g. invalid_type, too_big, invalid_format, unrecognized_keys, custom'),
  })
  .strict();

export const ErrorBody = z
  .object({
    error: z.string().describe('Machine-readable error code'),
    message: z.string().describe('What went wrong, for people'),
    issues: z.array(ErrorIssue).optional(),
  })
  .strict();

export type ErrorIssue = z.infer<typeof ErrorIssue>;

export const ERRORS = {
  invalid_request: 400,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  too_many_requests: 429,
  header_fields_too_large: 431,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof ERRORS;

export function sendError(reply: FastifyReply, error: ErrorCode, message: string, issues?: ErrorIssue[]): FastifyReply {
  return reply
    .code(ERRORS[error])
    .header('cache-control', 'no-store')
    .header('content-type', 'application/json; charset=utf-8')
    .send(errorBody(error, message, issues));
}

/** 404 for a path (or method) nothing serves, pointing at the description of what is served. */
export function notFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(
    reply,
    'not_found',
    `Nothing at ${request.method} ${request.url.split('?')[0]}; the API is described at ${ROUTES.openapi}`,
  );
}

const errorBody = (error: ErrorCode, message: string, issues?: ErrorIssue[]) =>
  JSON.stringify(issues ? { error, message, issues } : { error, message });

/**
 * Errors met before a request reaches Fastify (a request too slow, headers too large, a malformed request line):
 * the same body shape, written to the socket, which is then closed.
 */
export function clientErrorHandler(
  this: { log: { debug: (o: object, m: string) => void } },
  error: Error & { code?: string },
  socket: Duplex,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [code, message]: [ErrorCode, string] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? ['request_timeout', 'The request did not arrive in time']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? ['header_fields_too_large', 'The request line and headers are larger than this server accepts (16 KiB)']
        : ['invalid_request', 'The request is not valid HTTP'];
  this.log.debug({ err: error }, 'client error');
  if (socket.writable) {
    const body = errorBody(code, message);
    socket.write(
      `HTTP/1.1 ${ERRORS[code]} ${STATUS_CODES[ERRORS[code]]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Errors the router meets (a path parameter longer than any valid one, a malformed URL), in the same shape. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH')
    return sendError(reply, 'uri_too_long', 'A path segment is longer than any this API accepts');
  return sendError(reply, 'invalid_request', `The request URL is not valid: ${request.url.slice(0, 200)}`);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setNotFoundHandler(notFound);
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status === 413)
      return sendError(reply, 'payload_too_large', 'The request body is larger than this endpoint accepts');
    if (status === 415) return sendError(reply, 'unsupported_media_type', error.message);
    if (status === 429) return sendError(reply, 'too_many_requests', error.message);
    if (status >= 400 && status < 500) return sendError(reply, 'invalid_request', error.message);
    request.log.error({ err: error }, 'request failed');
    return sendError(reply, 'internal_error', `Internal server error (request ${request.id})`);
  });
}
