// Where things are: the public origin and the paths of the routes that are not documents (hub, MCP, OpenAPI).
export interface Links {
  /** The public origin, without a trailing slash. */
  baseUrl: string;
}

export const ROUTES = {
  hub: '/api/websub/hub',
  mcp: '/mcp',
  openapi: '/.well-known/openapi.json',
  search: '/api/reviews/search',
  since: '/api/reviews/since/{date}',
} as const;
