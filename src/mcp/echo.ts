// The strings of a request that error messages quote back (a resource URI, a tool, prompt or template name) are held
// to a length: an unknown 60 KB URI was quoted twice in its error, so a small request made a reply four times its size.

/** Longer than any URI or name this server knows (review ids are at most 200 characters). */
export const MAX_QUOTED = 1024;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The strings of one message's params that an error would quote, by name. */
function quoted(params: Record<string, unknown>): [string, unknown][] {
  const ref = isObject(params['ref']) ? params['ref'] : {};
  return [
    ['params.uri', params['uri']],
    ['params.name', params['name']],
    ['params.ref.uri', ref['uri']],
    ['params.ref.name', ref['name']],
  ];
}

/** The first of the messages' quoted strings longer than MAX_QUOTED, by its path; undefined when none is. */
export function overlongQuote(messages: readonly unknown[]): string | undefined {
  for (const message of messages) {
    const params = isObject(message) && isObject(message['params']) ? message['params'] : undefined;
    if (!params) continue;
    const found = quoted(params).find(([, value]) => typeof value === 'string' && value.length > MAX_QUOTED);
    if (found) return found[0];
  }
  return undefined;
}
