// Which MCP era a POST belongs to. Told here where that is certain, without the SDK's classifier (its schema checks
// took a tenth of a tools/call's time), and by the classifier otherwise: the route then knows whether to run the
// 2025 session flow, answer a well-formed 2026-07-28 request itself, or leave the request to the SDK.
import { classifyInboundRequest, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';

export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** Envelopes (`_meta`) remembered as accepted by the classifier; the oldest are forgotten first. */
const REMEMBERED_ENVELOPES = 1000;

export interface RoutingHeaders {
  protocolVersion?: string;
  method?: string;
  name?: string;
}

export interface ModernRequest {
  id: string | number;
  method: string;
  params: Record<string, unknown>;
}

export type Era =
  | { kind: 'legacy' }
  /** A 2026-07-28 request whose routing headers agree with its body: one the route may answer itself. */
  | { kind: 'modern'; request: ModernRequest }
  /** Anything else (other modern requests, notifications, what the classifier refuses): the SDK's to answer. */
  | { kind: 'sdk' };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON-RPC request by shape: version, an id (string or integer), a method, params an object if present. */
function requestShape(
  body: unknown,
): { id: string | number; method: string; params: Record<string, unknown> | undefined } | undefined {
  if (!isPlainObject(body)) return undefined;
  const { jsonrpc, id, method, params } = body;
  if (jsonrpc !== '2.0' || !(typeof id === 'string' || Number.isSafeInteger(id)) || typeof method !== 'string')
    return undefined;
  if (params !== undefined && !isPlainObject(params)) return undefined;
  return { id: id as string | number, method, params };
}

/**
 * A plain 2025-era request: an id, a method, params (if any) without `_meta`, and no MCP-Protocol-Version header
 * naming the 2026 revision. The SDK's classifier routes every such request to the legacy era.
 */
export function plainLegacyRequest(body: unknown, protocolVersionHeader: string | undefined): boolean {
  const request = requestShape(body);
  return (
    request !== undefined &&
    !(request.params && '_meta' in request.params) &&
    (protocolVersionHeader === undefined || protocolVersionHeader.trim() < MODERN_PROTOCOL_VERSION)
  );
}

/** The routing headers agree with the body: the checks the SDK makes before serving a 2026-07-28 request. */
function headersAgree(request: ModernRequest, headers: RoutingHeaders): boolean {
  const named =
    request.method === 'tools/call'
      ? request.params['name']
      : request.method === 'resources/read'
        ? request.params['uri']
        : undefined;
  return (
    (request.params['_meta'] as Record<string, unknown>)[PROTOCOL_VERSION_META_KEY] === MODERN_PROTOCOL_VERSION &&
    headers.protocolVersion?.trim() === MODERN_PROTOCOL_VERSION &&
    headers.method?.trim() === request.method &&
    headers.name?.trim() === named
  );
}

/** A 2026-07-28 request with its envelope (as JSON), if the body is one by shape. */
function modernShape(body: unknown): { request: ModernRequest; envelope: string } | undefined {
  const shape = requestShape(body);
  const meta = shape?.params?.['_meta'];
  if (!shape?.params || !isPlainObject(meta) || meta[PROTOCOL_VERSION_META_KEY] !== MODERN_PROTOCOL_VERSION)
    return undefined;
  let envelope: string;
  try {
    envelope = JSON.stringify(meta);
  } catch {
    // Nested too deep to write back (JSON.parse took it): the classifier judges it.
    return undefined;
  }
  return { request: { id: shape.id, method: shape.method, params: shape.params }, envelope };
}

/**
 * Tells eras, remembering the envelopes the classifier accepted: a 2026-07-28 client sends the same `_meta` with
 * every request, and a request of the same shape with the same envelope and agreeing headers is classified the same.
 */
export class EraClassifier {
  private readonly accepted = new Map<string, true>();

  classify(body: unknown, headers: RoutingHeaders): Era {
    if (plainLegacyRequest(body, headers.protocolVersion)) return { kind: 'legacy' };
    const modern = modernShape(body);
    if (modern && this.accepted.has(modern.envelope) && headersAgree(modern.request, headers))
      return { kind: 'modern', request: modern.request };
    const route = classifyInboundRequest({
      httpMethod: 'POST',
      protocolVersionHeader: headers.protocolVersion,
      mcpMethodHeader: headers.method,
      mcpNameHeader: headers.name,
      body,
    });
    if (route.kind === 'legacy') return { kind: 'legacy' };
    if (route.kind !== 'modern' || route.messageKind !== 'request' || !modern || !headersAgree(modern.request, headers))
      return { kind: 'sdk' };
    this.accepted.set(modern.envelope, true);
    if (this.accepted.size > REMEMBERED_ENVELOPES) this.accepted.delete(this.accepted.keys().next().value!);
    return { kind: 'modern', request: modern.request };
  }
}
