// The WebSub hub's path item: the form it takes, its plain-text answers, and the callbacks it then makes to the subscriber.
import { TOO_MANY_REQUESTS } from '../http/limits.js';
import { z } from 'zod';
import { MAX_FAILURES } from '../websub/hub.js';
import { topicsOf } from '../websub/topics.js';
import type { PublicDocument } from '../reviews/catalogue.js';
import { ROUTES } from '../reviews/links.js';
import { header, NO_STORE, responseRef, RETRY_AFTER, schemaRef, type OpenApiObject } from './components.js';

export const HUB_PATH = ROUTES.hub;

export interface HubSettings {
  leaseDefaultSeconds: number;
  leaseMinSeconds: number;
  leaseMaxSeconds: number;
  /** Hub requests per client and minute. */
  hubRequestsPerMinute: number;
}

/** The subscription request form (W3C WebSub §5.1); other fields are ignored. */
export function hubRequestSchema(topicUrls: string[], settings: HubSettings): z.ZodType {
  const [first, ...rest] = topicUrls;
  return z
    .looseObject({
      'hub.callback': z
        .url()
        .describe(
          'The subscriber callback: an absolute https:// URL without credentials whose host is a public address',
        ),
      'hub.mode': z.enum(['subscribe', 'unsubscribe']),
      'hub.topic': (first === undefined ? z.string() : z.enum([first, ...rest])).describe('The topic URL'),
      'hub.lease_seconds': z
        .number()
        .int()
        .min(0)
        .optional()
        .describe(
          `Wanted lease in whole seconds, brought within ${settings.leaseMinSeconds}..${settings.leaseMaxSeconds}; default ${settings.leaseDefaultSeconds}. Subscribe again before it ends.`,
        ),
      'hub.secret': z
        .string()
        .max(199)
        .optional()
        .describe(
          'Shorter than 200 bytes (UTF-8). When given, every delivery carries X-Hub-Signature: sha256=HMAC of the body; empty means none',
        ),
    })
    .describe('Subscription request (application/x-www-form-urlencoded)');
}

const plainText = (description: string, examples: string[], headers: OpenApiObject = {}): OpenApiObject => ({
  description,
  headers: { 'Cache-Control': NO_STORE, ...headers },
  content: {
    'text/plain': {
      schema: { type: 'string' },
      examples: Object.fromEntries(examples.map((value, i) => [`e${i + 1}`, { value: `${value}\n` }])),
    },
  },
});

const callbackExpression = '{$request.body#/hub.callback}';

/** The hub's GET to hub.callback: verification of intent, and notice of denial. */
function verificationCallback(topicUrls: string[]): OpenApiObject {
  const topicParameter = {
    name: 'hub.topic',
    in: 'query',
    required: true,
    schema: { type: 'string', enum: topicUrls },
  };
  return {
    [callbackExpression]: {
      get: {
        operationId: 'verifyIntent',
        tags: ['websub'],
        summary: 'Verification of intent (and notice of denial)',
        description:
          "The hub's GET to the callback, its own query string kept and these parameters appended. For subscribe and unsubscribe the callback proves intent by echoing hub.challenge; `denied` tells it the hub ended the subscription (after failed deliveries), and its answer is ignored.",
        parameters: [
          {
            name: 'hub.mode',
            in: 'query',
            required: true,
            schema: { type: 'string', enum: ['subscribe', 'unsubscribe', 'denied'] },
          },
          topicParameter,
          {
            name: 'hub.challenge',
            in: 'query',
            required: false,
            schema: { type: 'string' },
            description: 'Random; absent when denied',
          },
          {
            name: 'hub.lease_seconds',
            in: 'query',
            required: false,
            schema: { type: 'integer' },
            description: 'The lease granted; on subscribe only',
          },
          {
            name: 'hub.reason',
            in: 'query',
            required: false,
            schema: { type: 'string' },
            description: 'Why; on denied only',
          },
        ],
        responses: {
          '2XX': {
            description:
              'Intent confirmed when the body is exactly hub.challenge: a subscription becomes active, an unsubscription removes it',
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
          '4XX': {
            description:
              'Any other status, a wrong body or no answer within WEBSUB_TIMEOUT_MS: intent not verified: a subscription is rejected, an unsubscription leaves the subscription as it was',
          },
        },
      },
    },
  };
}

/** The hub's POST to hub.callback: the topic's content, after each change. */
function distributionCallback(topics: readonly PublicDocument[], topicUrls: string[], hubUrl: string): OpenApiObject {
  return {
    [callbackExpression]: {
      post: {
        operationId: 'distributeContent',
        tags: ['websub'],
        summary: 'Content distribution',
        description: `The full current content of the topic, pushed after each change; a change while a delivery is pending replaces its content. ${MAX_FAILURES} consecutive failed attempts (retries included) end the subscription.`,
        parameters: [
          {
            name: 'Link',
            in: 'header',
            required: true,
            schema: { type: 'string' },
            example: `<${hubUrl}>; rel="hub", <${topicUrls[0] ?? hubUrl}>; rel="self"`,
            description: 'The hub (rel=hub) and the topic (rel=self)',
          },
          {
            name: 'X-Hub-Signature',
            in: 'header',
            required: false,
            schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
            description: 'When the subscription has a secret: HMAC-SHA256 of the body',
          },
        ],
        requestBody: {
          required: true,
          content: Object.fromEntries(topics.map((doc) => [doc.mediaType, { schema: schemaRef(doc.schemaName) }])),
        },
        responses: {
          '2XX': { description: 'Delivered' },
          '410': { description: 'Gone: the subscription is removed at once' },
          '4XX': {
            description: 'A failed attempt (as is any 5XX, or no answer in time); retried after WEBSUB_RETRY_DELAYS_MS',
          },
        },
      },
    },
  };
}

/** The requests the hub makes to hub.callback after a 202: verification of intent, then content distribution. */
function callbacks(topics: readonly PublicDocument[], topicUrls: string[], hubUrl: string): OpenApiObject {
  return {
    verification: verificationCallback(topicUrls),
    distribution: distributionCallback(topics, topicUrls, hubUrl),
  };
}

export function hubPathItem(
  topics: readonly PublicDocument[],
  baseUrl: string,
  settings: HubSettings,
  bodyLimit: string,
): OpenApiObject {
  const topicUrls = topics.map((doc) => `${baseUrl}${doc.path}`);
  const hubUrl = `${baseUrl}${HUB_PATH}`;
  const refusedGet = plainText(
    'Method Not Allowed: the hub takes subscription requests by POST',
    ['The hub takes subscription requests by POST (W3C WebSub)'],
    {
      Allow: header('The methods the hub serves', { type: 'string' }, 'POST'),
    },
  );
  return {
    post: {
      operationId: 'requestSubscription',
      tags: ['websub'],
      summary: 'Subscribe to or unsubscribe from a topic',
      description:
        'W3C WebSub §5.1. The request is checked and answered at once; the hub then verifies intent with a GET to hub.callback, and only then does a subscription start (or end). Errors are plain text (§5.1.2).',
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: schemaRef('HubRequest'),
            example: {
              'hub.mode': 'subscribe',
              'hub.topic': topicUrls[0],
              'hub.callback': 'https://subscriber.example/websub/reviews',
              'hub.lease_seconds': settings.leaseDefaultSeconds,
            },
          },
        },
      },
      responses: {
        '202': {
          description: 'Accepted: intent will be verified at the callback; no body',
          headers: { 'Cache-Control': NO_STORE },
        },
        '400': plainText('A missing or invalid field; the body says which', [
          'hub.mode must be subscribe or unsubscribe',
          // Word for word, so in the hub's own order of topics.
          `hub.topic must be one of: ${topicsOf(baseUrl)
            .map((t) => t.url)
            .join(', ')}`,
          'hub.callback must be an absolute https:// URL',
          'hub.callback must be an https:// URL',
          'hub.lease_seconds must be a whole number of seconds',
        ]),
        '409': plainText(
          'The topic has as many subscribers as the hub accepts (WEBSUB_MAX_SUBSCRIBERS_PER_TOPIC), or this client as many pending and active subscriptions (WEBSUB_MAX_SUBSCRIPTIONS_PER_CLIENT)',
          [
            'This topic has as many subscribers as the hub accepts',
            'This client has as many subscriptions as the hub accepts from one client',
          ],
        ),
        '413': plainText(`The body is larger than ${bodyLimit}`, ['Request body too large']),
        '415': plainText('Content-Type is not application/x-www-form-urlencoded', [
          'Content-Type must be application/x-www-form-urlencoded',
        ]),
        '429': plainText(
          `More than ${settings.hubRequestsPerMinute} hub requests from this client (an IPv6 client counts by its /64) within a minute`,
          [TOO_MANY_REQUESTS],
          { 'Retry-After': RETRY_AFTER },
        ),
        '431': responseRef('RequestHeaderFieldsTooLarge'),
      },
      callbacks: callbacks(topics, topicUrls, hubUrl),
    },
    get: {
      operationId: 'getHub',
      tags: ['websub'],
      summary: 'The hub (POST only)',
      description: 'The hub has nothing to show: GET is always 405.',
      responses: { '405': refusedGet, '431': responseRef('RequestHeaderFieldsTooLarge') },
    },
  };
}
