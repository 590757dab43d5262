// resources/read answered from bytes made once per version and shared by every reader: the whole reviews dataset
// is 43 MB at 100,000 reviews, and building that reply per request (the SDK's way) let a few clients take gigabytes.
import type { View } from '../publishing/view.js';
import { DOCUMENTS, type DocumentName } from '../reviews/catalogue.js';

/** The `contents` array of each catalogue document's resources/read result, as JSON bytes, per view. */
const encoded = new WeakMap<View, Map<DocumentName, Buffer>>();

/** The document a resource URI names, if it is one of the catalogue's. */
export function resourceNamed(uri: unknown, baseUrl: string): DocumentName | undefined {
  return typeof uri === 'string' ? DOCUMENTS.find((d) => `${baseUrl}${d.path}` === uri)?.name : undefined;
}

function contentsOf(view: View, name: DocumentName, baseUrl: string): Buffer {
  let byName = encoded.get(view);
  if (!byName) encoded.set(view, (byName = new Map()));
  let bytes = byName.get(name);
  if (!bytes) {
    const document = DOCUMENTS.find((d) => d.name === name)!;
    const rep = view.representations[name];
    const contents = [{ uri: `${baseUrl}${document.path}`, mimeType: rep.contentType, text: rep.variants.identity.body.toString('utf8') }];
    bytes = Buffer.from(JSON.stringify(contents), 'utf8');
    byName.set(name, bytes);
  }
  return bytes;
}

/**
 * The JSON-RPC response to a resources/read of a catalogue document, in parts: the shared contents in the middle.
 * `resultFields`: what else the result holds (2026-07-28's resultType and caching hints).
 */
export function readResourceReply(view: View, name: DocumentName, baseUrl: string, id: string | number, resultFields: Record<string, unknown> = {}): Buffer[] {
  const rest = Object.keys(resultFields).length ? `,${JSON.stringify(resultFields).slice(1, -1)}` : '';
  return [Buffer.from(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"contents":`, 'utf8'), contentsOf(view, name, baseUrl), Buffer.from(`${rest}}}`, 'utf8')];
}
