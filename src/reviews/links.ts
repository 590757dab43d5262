// Where things are: the public origin, review permalinks and the paths of the routes that are not documents (hub, MCP, OpenAPI).
export interface Links {
  /** The public origin, without a trailing slash. */
  baseUrl: string;
}

/** The page of one review (feeds link their entries here). */
export const permalink = (links: Links, id: string) => `${links.baseUrl}/reviews/${encodeURIComponent(id)}`;

export const ROUTES = {
  hub: '/api/websub/hub',
  mcp: '/mcp',
  openapi: '/.well-known/openapi.json',
  search: '/api/reviews/search',
  since: '/api/reviews/since/{date}',
} as const;
