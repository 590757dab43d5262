// The one error catalogue and handler: every error body is { error, message, issues? }; 5xx details stay in the log.
import { z } from 'zod';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ROUTES } from '../reviews/links.js';

export const ErrorIssue = z
  .object({
    path: z.array(z.union([z.string(), z.number()])).describe('Where the problem is: the parameter name, then any nested keys'),
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
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof ERRORS;

export function sendError(reply: FastifyReply, error: ErrorCode, message: string, issues?: ErrorIssue[]): FastifyReply {
  return reply
    .code(ERRORS[error])
    .header('cache-control', 'no-store')
    .header('content-type', 'application/json; charset=utf-8')
    .send(JSON.stringify(issues ? { error, message, issues } : { error, message }));
}

/** 404 for a path (or method) nothing serves, pointing at the description of what is served. */
export function notFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(reply, 'not_found', `Nothing at ${request.method} ${request.url.split('?')[0]}; the API is described at ${ROUTES.openapi}`);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setNotFoundHandler(notFound);
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status === 413) return sendError(reply, 'payload_too_large', 'The request body is larger than this endpoint accepts');
    if (status === 415) return sendError(reply, 'unsupported_media_type', error.message);
    if (status >= 400 && status < 500) return sendError(reply, 'invalid_request', error.message);
    request.log.error({ err: error }, 'request failed');
    return sendError(reply, 'internal_error', `Internal server error (request ${request.id})`);
  });
}
