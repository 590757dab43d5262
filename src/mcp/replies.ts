// Answers the route makes itself, from bytes kept per version: a catalogue document's resources/read (shared by
// every reader: the reviews dataset is 43 MB at 100,000 reviews), a read tool's tools/call (kept per arguments, as
// REST keeps a search's answer) and the lists (the SDK's own first answer, kept). Each is the result the SDK would
// give; what they cannot answer goes to the SDK.
import { representationOf } from '../publishing/representation.js';
import type { View } from '../publishing/view.js';
import { DOCUMENTS, type DocumentName } from '../reviews/catalogue.js';
import { completeVariable } from './templates.js';
import { readTool } from './tools.js';

/** The `result` object of each catalogue document's resources/read, as JSON bytes, per view. */
const documentResults = new WeakMap<View, Map<DocumentName, Buffer>>();

/** The document a resource URI names, if it is one of the catalogue's. */
export function resourceNamed(uri: unknown, baseUrl: string): DocumentName | undefined {
  return typeof uri === 'string' ? DOCUMENTS.find((d) => `${baseUrl}${d.path}` === uri)?.name : undefined;
}

export function readResult(view: View, name: DocumentName, baseUrl: string): Buffer {
  let byName = documentResults.get(view);
  if (!byName) documentResults.set(view, (byName = new Map()));
  let bytes = byName.get(name);
  if (!bytes) {
    const document = DOCUMENTS.find((d) => d.name === name)!;
    const rep = view.representations[name];
    const contents = [
      {
        uri: `${baseUrl}${document.path}`,
        mimeType: rep.contentType,
        text: rep.variants.identity.body.toString('utf8'),
      },
    ];
    bytes = Buffer.from(JSON.stringify({ contents }), 'utf8');
    byName.set(name, bytes);
  }
  return bytes;
}

/**
 * The `result` of a tools/call of a read tool, as JSON bytes, when its arguments parse; undefined otherwise (the
 * SDK then answers, naming what is wrong). Kept in the version's query cache; the insights' tag is part of the key
 * of a tool that reads them, as they can be served after the reviews of the same version.
 */
export async function toolCallResult(view: View, params: Record<string, unknown>): Promise<Buffer | undefined> {
  const tool = readTool(params['name']);
  const args = tool?.parse(params['arguments'] ?? {});
  if (!tool || !args) return undefined;
  const insights = tool.usesInsights ? view.insights.representation.variants.identity.etag : '';
  const key = `mcp:tool:${tool.name}:${insights}:${JSON.stringify(args)}`;
  const made = await view.queries.get(key, async () =>
    representationOf(Buffer.from(JSON.stringify(tool.run(view, args)), 'utf8'), undefined, {
      contentType: 'application/json',
      cacheControl: 'no-store',
      lastModified: null,
    }),
  );
  return made.variants.identity.body;
}

/**
 * The `result` of a completion/complete of a template's variable, as JSON bytes: the SDK's answer with the true
 * `total` and `hasMore` (its completers can only say which values to send). Undefined for any other reference.
 */
export function completionResult(view: View, params: Record<string, unknown>): Buffer | undefined {
  const ref = params['ref'] as { type?: unknown; uri?: unknown } | undefined;
  const argument = params['argument'] as { name?: unknown; value?: unknown } | undefined;
  if (ref?.type !== 'ref/resource' || typeof argument?.value !== 'string') return undefined;
  const completion = completeVariable(view, ref.uri, argument.name, argument.value);
  if (!completion) return undefined;
  const { values, total, hasMore } = completion;
  return Buffer.from(JSON.stringify({ completion: { values, total, hasMore } }), 'utf8');
}

/** Methods whose result depends only on the version served and the protocol revision (without a cursor). */
export const LIST_METHODS: ReadonlySet<string> = new Set([
  'server/discover',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'prompts/list',
]);

/** The SDK's result of each list, per view, per method and protocol revision. */
const listResults = new WeakMap<View, Map<string, Buffer>>();

export function keptList(view: View, method: string, revision: string): Buffer | undefined {
  return listResults.get(view)?.get(`${method} ${revision}`);
}

/** Keeps the `result` of the SDK's answer to a list (a JSON-RPC response's bytes), for the rest of this version. */
export function keepList(view: View, method: string, revision: string, response: Buffer): void {
  const { result } = JSON.parse(response.toString('utf8')) as { result?: unknown };
  if (!result || typeof result !== 'object') return;
  let byKey = listResults.get(view);
  if (!byKey) listResults.set(view, (byKey = new Map()));
  byKey.set(`${method} ${revision}`, Buffer.from(JSON.stringify(result), 'utf8'));
}

/**
 * A JSON-RPC response around result bytes made earlier, in parts (the shared bytes in the middle).
 * `resultFields`: what else the result holds (2026-07-28's resultType, caching hints and server info).
 */
export function replyParts(id: string | number, result: Buffer, resultFields: Record<string, unknown> = {}): Buffer[] {
  const fields = JSON.stringify(resultFields).slice(1, -1);
  const rest = fields && result.length > 2 ? `,${fields}` : fields;
  return [
    Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`, 'utf8'),
    result.subarray(0, result.length - 1),
    Buffer.from(`${rest}}}`, 'utf8'),
  ];
}
