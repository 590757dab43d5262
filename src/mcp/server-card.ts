// The MCP server card (SEP-2127, the server-card extension): what this server is and offers, read without
// connecting, at /.well-known/mcp/server-card (and .json). Its tools, resources, templates, prompts and capabilities
// are the server's own answers to 2026-07-28 requests, so the card never disagrees with the server.
import type { Implementation } from '@modelcontextprotocol/server';
import { ROUTES } from '../reviews/links.js';

export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

const MODERN = '2026-07-28';

/** Asks the server one 2026-07-28 question, in-process. */
async function ask(
  fetch: (request: Request) => Promise<Response>,
  baseUrl: string,
  method: string,
): Promise<Record<string, unknown>> {
  const response = await fetch(
    new Request(`${baseUrl}${ROUTES.mcp}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': method,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method,
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': MODERN,
            'io.modelcontextprotocol/clientCapabilities': {},
            'io.modelcontextprotocol/clientInfo': { name: 'server-card', version: '1' },
          },
        },
      }),
    }),
  );
  const answer = (await response.json()) as { result?: Record<string, unknown>; error?: { message: string } };
  if (!answer.result)
    throw new Error(
      `the server card could not be made: ${method} answered ${answer.error?.message ?? response.status}`,
    );
  return answer.result;
}

/** A reverse-DNS name for this deployment: reviews.example.com → com.example.reviews/reviews (an address stays as it is). */
function cardName(baseUrl: string): string {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  return `${/^[\d.]+$|:/.test(host) ? host : host.split('.').reverse().join('.')}/reviews`;
}

export async function serverCard(
  fetch: (request: Request) => Promise<Response>,
  baseUrl: string,
  info: Implementation,
  supportedVersions: readonly string[],
): Promise<object> {
  const [discover, tools, resources, templates, prompts] = await Promise.all(
    ['server/discover', 'tools/list', 'resources/list', 'resources/templates/list', 'prompts/list'].map((method) =>
      ask(fetch, baseUrl, method),
    ),
  );
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: cardName(baseUrl),
    version: info.version,
    title: info.title,
    description:
      'Verified customer reviews of one home-services business (cooling, plumbing, electrical) and what customers say: search, insights, feeds. Read-only, no key.',
    websiteUrl: `${baseUrl}/`,
    icons: info.icons,
    remotes: [
      {
        type: 'streamable-http',
        url: `${baseUrl}${ROUTES.mcp}`,
        supportedProtocolVersions: [...supportedVersions],
        authentication: { required: false, schemes: [] },
      },
    ],
    capabilities: discover!.capabilities,
    tools: tools!.tools,
    resources: resources!.resources,
    resourceTemplates: templates!.resourceTemplates,
    prompts: prompts!.prompts,
  };
}
