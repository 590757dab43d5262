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

/** The MCP server's tools, by the names clients call them. */
export const MCP_TOOLS = {
  get_business: 'get_business',
  search_reviews: 'search_reviews',
  get_reviews_since: 'get_reviews_since',
  get_insights: 'get_insights',
  get_review: 'get_review',
} as const;

/** Where the MCP server card is served (the first is the one linked). */
export const SERVER_CARD_PATHS = ['/.well-known/mcp/server-card', '/.well-known/mcp/server-card.json'] as const;
