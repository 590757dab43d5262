// Raw MCP over HTTP for tests: hand-built JSON-RPC requests to POST /mcp and what came back, status and headers included.

/** What a streamable HTTP client must accept (MCP transport spec). */
export const MCP_ACCEPT = 'application/json, text/event-stream';

export interface JsonRpcError {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string; data?: unknown };
}

export interface JsonRpcResult<T = Record<string, unknown>> {
  jsonrpc: '2.0';
  id: string | number;
  result: T;
}

export interface McpHttpResponse {
  status: number;
  headers: Headers;
  /** The raw body text ('' for 202 and 204). */
  text: string;
  /** The body parsed as JSON, or undefined when it is empty or not JSON. */
  json: unknown;
}

export interface McpRequestOptions {
  method?: 'POST' | 'DELETE' | 'GET';
  /** Mcp-Session-Id request header. */
  sessionId?: string;
  /** MCP-Protocol-Version request header. */
  protocolVersion?: string;
  /** Headers sent as given; they replace the defaults (Accept, Content-Type) of the same name. */
  headers?: Record<string, string>;
  /** A value is sent as JSON; a string is sent as it is. */
  body?: unknown;
}

/** One request to {url}/mcp with the headers a streamable HTTP client sends, unless told otherwise. */
export async function mcpRequest(baseUrl: string, options: McpRequestOptions = {}): Promise<McpHttpResponse> {
  const method = options.method ?? 'POST';
  const headers: Record<string, string> = { accept: MCP_ACCEPT };
  if (method === 'POST') headers['content-type'] = 'application/json';
  if (options.sessionId !== undefined) headers['mcp-session-id'] = options.sessionId;
  if (options.protocolVersion !== undefined) headers['mcp-protocol-version'] = options.protocolVersion;
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body);
  const res = await fetch(`${baseUrl}/mcp`, { method, headers, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

let nextId = 1;

/** A JSON-RPC request object with a fresh id. */
export function rpc(
  method: string,
  params?: Record<string, unknown>,
): { jsonrpc: '2.0'; id: number; method: string; params?: Record<string, unknown> } {
  return { jsonrpc: '2.0', id: nextId++, method, ...(params === undefined ? {} : { params }) };
}

export function initializeRequest(protocolVersion: string) {
  return rpc('initialize', {
    protocolVersion,
    capabilities: {},
    clientInfo: { name: 'raw-test-client', version: '0.0.1' },
  });
}

export interface InitializedSession {
  sessionId: string;
  protocolVersion: string;
  response: McpHttpResponse;
}

/** initialize, then notifications/initialized, as a client does; fails loudly if either is refused. */
export async function openSession(
  baseUrl: string,
  protocolVersion = '2025-06-18',
  headers: Record<string, string> = {},
): Promise<InitializedSession> {
  const response = await mcpRequest(baseUrl, { body: initializeRequest(protocolVersion), headers });
  const sessionId = response.headers.get('mcp-session-id');
  if (response.status !== 200 || !sessionId) throw new Error(`initialize failed: ${response.status} ${response.text}`);
  const negotiated = (response.json as JsonRpcResult<{ protocolVersion: string }>).result.protocolVersion;
  const initialized = await mcpRequest(baseUrl, {
    sessionId,
    protocolVersion: negotiated,
    headers,
    body: { jsonrpc: '2.0', method: 'notifications/initialized' },
  });
  if (initialized.status !== 202)
    throw new Error(`notifications/initialized failed: ${initialized.status} ${initialized.text}`);
  return { sessionId, protocolVersion: negotiated, response };
}

export function isJsonRpcError(value: unknown): value is JsonRpcError {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const error = v.error as Record<string, unknown> | undefined;
  return (
    v.jsonrpc === '2.0' &&
    'id' in v &&
    (v.id === null || typeof v.id === 'string' || typeof v.id === 'number') &&
    typeof error === 'object' &&
    error !== null &&
    Number.isInteger(error.code) &&
    typeof error.message === 'string' &&
    !('result' in v)
  );
}

export function resultOf<T = Record<string, unknown>>(response: McpHttpResponse): T {
  const body = response.json as Partial<JsonRpcResult<T>> | undefined;
  if (response.status !== 200 || body?.result === undefined)
    throw new Error(`expected a JSON-RPC result: ${response.status} ${response.text}`);
  return body.result;
}
