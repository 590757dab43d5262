// The operations paths: liveness, readiness and Prometheus metrics, for load balancers and monitoring.
import { METRICS_FORBIDDEN } from '../operations/metrics-access.js';
import { OPERATIONS_ROUTES } from '../operations/routes.js';
import { header, responseRef, schemaRef, type OpenApiObject } from './components.js';

const NO_STORE = { 'Cache-Control': header('`no-store`') };
const status = (description: string, example: object): OpenApiObject => ({
  description,
  headers: NO_STORE,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: {
          status: { type: 'string', enum: ['ok', 'ready', 'not_ready'] },
          reason: { type: 'string', description: 'Why not ready' },
          version: {
            type: 'object',
            description: 'The data version served',
            properties: { revision: { type: 'integer' }, publishedAt: { type: ['string', 'null'] } },
          },
          store: {
            type: 'string',
            description: '`ok`, or why the store did not answer the check (the last data is served meanwhile)',
          },
        },
        required: ['status'],
      },
      example,
    },
  },
});

export function operationsPaths(): Record<string, OpenApiObject> {
  return {
    [OPERATIONS_ROUTES.health]: {
      get: {
        operationId: 'getHealth',
        tags: ['operations'],
        summary: 'Liveness',
        description: "The process answers. Nothing else is checked: the store's state shows in /readyz.",
        responses: { '200': status('Alive', { status: 'ok' }), '431': responseRef('RequestHeaderFieldsTooLarge') },
      },
    },
    [OPERATIONS_ROUTES.ready]: {
      get: {
        operationId: 'getReadiness',
        tags: ['operations'],
        summary: 'Readiness',
        description:
          'Ready to serve: a data version is built from a store that answered. A store that stops answering later (checked within 2 s) is named in `store` but keeps the answer 200: the data in memory is still served, and every replica of one database failing its check at once would leave a load balancer nothing to send to. From the start of a shutdown it answers 503, so a load balancer stops sending requests before the server stops taking them.',
        responses: {
          '200': status('Ready, with the data version served', {
            status: 'ready',
            version: { revision: 42, publishedAt: '2026-11-20T09:30:00.000Z' },
            store: 'ok',
          }),
          '503': status('Not ready, and why', { status: 'not_ready', reason: 'shutting down' }),
          '431': responseRef('RequestHeaderFieldsTooLarge'),
        },
      },
    },
    [OPERATIONS_ROUTES.metrics]: {
      get: {
        operationId: 'getMetrics',
        tags: ['operations'],
        summary: 'Prometheus metrics',
        description:
          'Process metrics, requests by route and status with latency, the data version served with its age and build time, insights build time and currency, WebSub subscriptions by state, outbox depth and deliveries by outcome, MCP calls by tool, and rate-limit refusals; no review or customer data. The README lists each.\n\n' +
          "Who may read it is the operator's setting: everyone while neither METRICS_ALLOW nor METRICS_TOKEN is set (the default). With either set, only a client whose address (behind a proxy, the one TRUST_PROXY lets the server read from X-Forwarded-For) is in an address or CIDR block of METRICS_ALLOW, or a request carrying `Authorization: Bearer <METRICS_TOKEN>`; any other gets 403.",
        responses: {
          '200': {
            description: 'Prometheus text exposition format 0.0.4',
            headers: NO_STORE,
            content: {
              'text/plain; version=0.0.4; charset=utf-8': {
                schema: { type: 'string' },
                example:
                  '# HELP reviews_data_revision Store revision of the data served\n# TYPE reviews_data_revision gauge\nreviews_data_revision 42\n',
              },
            },
          },
          '403': {
            description:
              "Forbidden: METRICS_ALLOW or METRICS_TOKEN is set, and this client's address is not allowed nor its bearer token the one set",
            headers: NO_STORE,
            content: {
              'application/json': {
                schema: schemaRef('ErrorBody'),
                example: { error: 'forbidden', message: METRICS_FORBIDDEN },
              },
            },
          },
          '431': responseRef('RequestHeaderFieldsTooLarge'),
        },
      },
    },
  };
}
