// Shared parts of the OpenAPI description: component schemas converted from the Zod schemas, and reused headers, parameters and responses.
import { TOO_MANY_REQUESTS } from '../http/limits.js';
import { z } from 'zod';
import { ErrorBody } from '../http/errors.js';

export type JsonSchema = Record<string, unknown>;
/** An OpenAPI object (operation, response, parameter…): plain JSON, shaped by the helpers below. */
export type OpenApiObject = Record<string, unknown>;

/** "jsonFeed" → "JsonFeed", for operationIds made from names. */
export const pascalCase = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

export const schemaRef = (id: string) => ({ $ref: `#/components/schemas/${id}` });
export const parameterRef = (id: string) => ({ $ref: `#/components/parameters/${id}` });
export const headerRef = (id: string) => ({ $ref: `#/components/headers/${id}` });
export const responseRef = (id: string) => ({ $ref: `#/components/responses/${id}` });

function withoutMeta(schema: JsonSchema): JsonSchema {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

/**
 * Every named Zod schema as one set of components: a schema used inside another becomes a $ref to it, so the
 * description says once what a Review is. The schemas stay the code's own; this only converts them.
 */
export function componentSchemas(components: Record<string, z.ZodType>): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(components)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}`, io: 'output' });
  return Object.fromEntries(Object.entries(schemas).map(([id, s]) => [id, withoutMeta(s as JsonSchema)]));
}

/** A Zod schema as the schema of a parameter, its description lifted to the parameter. */
export function parameterSchema(schema: z.ZodType): { schema: JsonSchema; description?: string } {
  const json = withoutMeta(z.toJSONSchema(schema, { io: 'output' }) as JsonSchema);
  const { description, ...rest } = json as { description?: string } & JsonSchema;
  return description ? { schema: rest, description } : { schema: rest };
}

/** The served description itself: only its frame is promised here; the OpenAPI 3.1 schema says the rest. */
export const OpenApiDocument = z
  .looseObject({
    openapi: z.literal('3.1.0'),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  })
  .describe('An OpenAPI 3.1.0 document (https://spec.openapis.org/oas/v3.1.0)');

export const header = (
  description: string,
  schema: JsonSchema = { type: 'string' },
  example?: string,
): OpenApiObject => (example === undefined ? { description, schema } : { description, schema, example });

/** Retry-After of a request over its client's allowance. */
export const RETRY_AFTER = header("Seconds until the client's minute is over and its requests are counted afresh", {
  type: 'integer',
  minimum: 1,
  maximum: 60,
});

/** Cache-Control as a response header, with the value this response carries. */
export const cacheControl = (value: string, description = 'Caching policy'): OpenApiObject =>
  header(description, { type: 'string' }, value);

export const NO_STORE = cacheControl('no-store', 'Never cached');

export const sharedHeaders: Record<string, OpenApiObject> = {
  ETag: header('Strong validator, distinct per content-coding (`"<hash>"`, `"<hash>-gzip"`, `"<hash>-br"`)', {
    type: 'string',
  }),
  LastModified: header('When the published data last changed; absent while nothing was ever published', {
    type: 'string',
  }),
  Vary: header('Always `Accept-Encoding`', { type: 'string' }, 'Accept-Encoding'),
  ContentEncoding: header('`br` or `gzip` when negotiated from Accept-Encoding; absent for identity', {
    type: 'string',
    enum: ['br', 'gzip'],
  }),
};

export const sharedParameters: Record<string, OpenApiObject> = {
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    schema: { type: 'string' },
    description: 'ETags from earlier responses, or `*`; weak comparison. When present it decides alone.',
  },
  IfModifiedSince: {
    name: 'If-Modified-Since',
    in: 'header',
    required: false,
    schema: { type: 'string' },
    description: 'HTTP-date; ignored when If-None-Match is present',
    example: 'Sun, 15 Nov 2026 18:00:00 GMT',
  },
  AcceptEncoding: {
    name: 'Accept-Encoding',
    in: 'header',
    required: false,
    schema: { type: 'string' },
    description: '`br` and `gzip` are offered; q-values honoured (ties prefer br, then gzip)',
    example: 'br, gzip',
  },
};

/** Parameters of every conditional read. */
export const conditionalParameters = [
  parameterRef('IfNoneMatch'),
  parameterRef('IfModifiedSince'),
  parameterRef('AcceptEncoding'),
];

export const errorContent = { 'application/json': { schema: schemaRef('ErrorBody') } };

export const sharedResponses: Record<string, OpenApiObject> = {
  NotModified: {
    description: 'Not Modified: the If-None-Match (or, without it, If-Modified-Since) validator matches; no body',
    headers: {
      ETag: headerRef('ETag'),
      'Cache-Control': header('The policy of the 200 it stands for'),
      Vary: headerRef('Vary'),
    },
  },
  TooManyQueries: {
    description:
      'More than RATE_LIMIT_QUERIES_PER_MINUTE search and since requests from this client (an IPv6 client counts by its /64) within a minute',
    headers: {
      'Cache-Control': header('`no-store`'),
      'Retry-After': RETRY_AFTER,
    },
    content: {
      'application/json': {
        schema: schemaRef('ErrorBody'),
        example: { error: 'too_many_requests', message: TOO_MANY_REQUESTS },
      },
    },
  },
  RequestHeaderFieldsTooLarge: {
    // True of every operation: the server refuses a request whose header block exceeds 16 KiB before routing. It
    // is the only client error the input-free documents can give.
    description:
      'Request Header Fields Too Large: the request line and headers exceed 16 KiB; answered before routing, and the connection closed',
    headers: { 'Cache-Control': header('`no-store`') },
    content: {
      'application/json': {
        schema: schemaRef('ErrorBody'),
        example: {
          error: 'header_fields_too_large',
          message: 'The request line and headers are larger than this server accepts (16 KiB)',
        },
      },
    },
  },
};

/** Component schemas every description has, beside the domain's. */
export const baseComponents: Record<string, z.ZodType> = { ErrorBody, OpenApiDocument };
