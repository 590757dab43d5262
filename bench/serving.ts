// Serving figures of one running service: the reviews dataset (br), its 304, and a mix of searches, each against
// the twin that answers the same bytes from bare node:http; MCP tools/call search_reviews against the REST search
// for the same query, in both revisions; and how long a tools/list takes.
import autocannon from 'autocannon';
import { alternate, capture, load, startTwin, versus, type Load, type Probe } from './side-by-side.js';

export interface ServingBenchOptions {
  root: string;
  work: string;
  base: string;
  twinPort: number;
  size: number;
  duration: number;
  /** The generator's ceiling (measureCeiling): rows near it are marked generator-bound. */
  ceiling: Load;
  row: (...cells: (string | number)[]) => void;
}

/** Searches of the mix: filters alone and together, `query` among them (the costliest). */
export const SEARCH_MIX = [
  'rating=5&limit=20',
  'query=water%20heater&limit=20',
  'mentions_technician=zoe&min_rating=4',
  'since=2025-01-01&until=2025-03-31&mentions_service=ac-repair',
  'query=late&min_rating=1&limit=50',
  'min_rating=2&until=2024-12-31&limit=100',
];

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const MCP_QUERY = { mentions_technician: 'zoe', min_rating: 4, limit: 20 };
const REST_QUERY = '/api/reviews/search?mentions_technician=zoe&min_rating=4&limit=20';

async function mcpSession(base: string): Promise<string> {
  const init = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: MCP_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    }),
  });
  return init.headers.get('mcp-session-id')!;
}

/** A tools/call of search_reviews for MCP_QUERY; `_meta` for the stateless revision. */
const searchCall = (meta?: typeof MODERN_META) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'search_reviews', arguments: MCP_QUERY, ...(meta ? { _meta: meta } : {}) },
  });

/** The headers of a 2026-07-28 request: the method, and the tool's name, in headers of their own. */
const modernHeaders = (method: string, name?: string) => ({
  ...MCP_HEADERS,
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': method,
  ...(name ? { 'mcp-name': name } : {}),
});

export async function benchServing(o: ServingBenchOptions): Promise<void> {
  await againstTwin(o);
  await mcpAgainstRest(o);
  await toolsList(o);
}

/** The dataset (br), its 304 and the search mix, against the twin answering the bytes captured just before. */
async function againstTwin({
  root,
  work,
  base,
  twinPort,
  size,
  duration,
  ceiling,
  row,
}: ServingBenchOptions): Promise<void> {
  const br = { 'accept-encoding': 'br' } as const;
  const dataset = await capture(base, { path: '/reviews.json', headers: br });
  const revalidate: Probe = { path: '/reviews.json', headers: { ...br, 'if-none-match': dataset.headers['etag']! } };
  const searches = SEARCH_MIX.map((qs): Probe => ({ path: `/api/reviews/search?${qs}` }));
  const exchanges = [
    dataset,
    await capture(base, revalidate),
    ...(await Promise.all(searches.map((p) => capture(base, p)))),
  ];
  const twin = await startTwin(root, work, exchanges, twinPort);
  const twinBase = `http://127.0.0.1:${twinPort}`;
  const full = (at: string) => load(work, `${at}/reviews.json`, duration, { headers: br });
  const notModified = (at: string) =>
    load(work, `${at}/reviews.json`, duration, {
      headers: revalidate.headers as Record<string, string>,
      status: 304,
    });
  const mix = (at: string) => load(work, at, duration, { paths: searches.map((p) => p.path) });
  try {
    const m = await alternate(3, {
      dataset: () => full(base),
      datasetTwin: () => full(twinBase),
      notModified: () => notModified(base),
      notModifiedTwin: () => notModified(twinBase),
      search: () => mix(base),
      searchTwin: () => mix(twinBase),
    });
    row(
      size,
      '/reviews.json 200 br, req/s (p99 ms), wrk 50 connections, median of 3',
      ...versus(m.dataset, m.datasetTwin, 'twin', ceiling),
    );
    row(
      size,
      '/reviews.json 304, req/s (p99 ms), wrk 50 connections, median of 3',
      ...versus(m.notModified, m.notModifiedTwin, 'twin', ceiling),
    );
    row(
      size,
      `search, mix of ${SEARCH_MIX.length} (query among them), req/s (p99 ms), wrk 50 connections, median of 3`,
      ...versus(m.search, m.searchTwin, 'twin', ceiling),
    );
  } finally {
    twin.kill();
  }
}

/**
 * MCP against REST for the same query, and against the twin answering the same bytes to the same POST (an MCP
 * answer carries the result twice, as text and as structured content: twice the REST answer's bytes). Both
 * revisions; every answer checked to be a 200.
 */
async function mcpAgainstRest(o: ServingBenchOptions): Promise<void> {
  const { root, work, base, twinPort, size, duration, ceiling, row } = o;
  const session = await mcpSession(base);
  const sessionCall = searchCall();
  const statelessCall = searchCall(MODERN_META);
  const sessionHeaders = { ...MCP_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
  const sessionProbe = { path: '/mcp', post: { headers: sessionHeaders, body: sessionCall } };
  const twin = await startTwin(root, work, [await capture(base, sessionProbe)], twinPort);
  const twinBase = `http://127.0.0.1:${twinPort}`;
  const probe = (await (
    await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: modernHeaders('tools/call', 'search_reviews'),
      body: statelessCall,
    })
  ).json()) as { result?: { structuredContent?: unknown } };
  if (!probe.result?.structuredContent)
    throw new Error(`2026-07-28 tools/call did not answer a result: ${JSON.stringify(probe).slice(0, 300)}`);
  const sessionLoad = (at: string) =>
    load(work, `${at}/mcp`, duration, { method: 'POST', headers: sessionHeaders, body: sessionCall });
  const m = await alternate(3, {
    rest: () => load(work, `${base}${REST_QUERY}`, duration),
    session: () => sessionLoad(base),
    sessionTwin: () => sessionLoad(twinBase),
    stateless: () =>
      load(work, `${base}/mcp`, duration, {
        method: 'POST',
        headers: modernHeaders('tools/call', 'search_reviews'),
        body: statelessCall,
      }),
  }).finally(() => twin.kill());
  row(
    size,
    'MCP tools/call search_reviews, 2025-06-18 session, req/s (p99 ms), wrk 50 connections, median of 3',
    ...versus(m.session, m.rest, 'REST', ceiling),
  );
  row(
    size,
    'the same, against a bare node:http server answering the same bytes to the same POST',
    ...versus(m.session, m.sessionTwin, 'twin', ceiling),
  );
  row(
    size,
    'MCP tools/call search_reviews, 2026-07-28 stateless, req/s (p99 ms), wrk 50 connections, median of 3',
    ...versus(m.stateless, m.rest, 'REST', ceiling),
  );
}

/** One connection: the time one answer takes. */
async function toolsList({ base, size, duration, row }: ServingBenchOptions): Promise<void> {
  const list = await autocannon({
    url: `${base}/mcp`,
    connections: 1,
    duration,
    method: 'POST',
    headers: modernHeaders('tools/list'),
    body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: MODERN_META } }),
  });
  if (list.non2xx > 0) throw new Error(`tools/list: ${list.non2xx} answers were not 200`);
  row(
    size,
    'MCP tools/list, 2026-07-28, one connection, req/s (mean ms)',
    `${list.requests.average.toFixed(0)} (${list.latency.mean})`,
  );
}
