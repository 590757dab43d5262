// Fuzzing through real HTTP: over 10,000 generated inputs to search, since, the WebSub hub and MCP (wrong types,
// huge values, unicode, control characters, deep JSON, duplicate keys, batches). No answer is a 5xx, and every
// refusal is in its route's format: { error, message } JSON for the read API, plain text for the hub, a JSON-RPC
// error object for /mcp.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { MCP_ACCEPT } from './support/mcp-wire.js';
import { publish, serverPerBlock, tempDir } from './support/server.js';

const dir = tempDir();
afterAll(() => dir.remove());
const UNLIMITED = { RATE_LIMIT_QUERIES_PER_MINUTE: '100000000', RATE_LIMIT_MCP_PER_MINUTE: '100000000', WEBSUB_RATE_LIMIT_PER_MINUTE: '100000000' };
const server = serverPerBlock(`${dir.path}/fuzz.db`, UNLIMITED);
const SEED = 20261124;

/** Text a client might send: plain, unicode, control characters, percent signs, very long. */
const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '%', '%00', '%zz', '\u0000', '\n', '../', '..%2F', '😀', 'Zoë', '\u202e', 'null', '[]', '{}', '-1', '1e309', 'NaN', '0x10', '9'.repeat(400)),
  fc.integer().map(String),
  fc.double().map(String),
);

const REST_ERROR = (body: string) => {
  const parsed = JSON.parse(body) as { error?: unknown; message?: unknown };
  return typeof parsed.error === 'string' && typeof parsed.message === 'string';
};

/** Answers by status class, per route: each property must see both accepted and refused inputs. */
const seen = new Map<string, Set<string>>();
const tally = (route: string, status: number) => seen.set(route, (seen.get(route) ?? new Set()).add(`${Math.floor(status / 100)}xx`));

async function get(path: string): Promise<{ status: number; type: string; body: string }> {
  const response = await fetch(`${server().url}${path}`);
  tally(path.split('?')[0]!.startsWith('/api/reviews/since') ? 'since' : 'search', response.status);
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() };
}

describe('fuzzed inputs', () => {
  it('seeds the store', async () => {
    const demo = generateDemo({ seed: 5, reviews: 200 });
    await publish(server(), { business: demo.business, reviews: demo.reviews, replace: true });
  });

  it('search: 3,000 query strings, never a 5xx, every refusal { error, message }', async () => {
    const keys = fc.constantFrom('rating', 'min_rating', 'since', 'until', 'query', 'mentions_technician', 'mentions_service', 'limit', 'unknown', 'RATING', '', 'limit[]');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(keys, nasty), { maxLength: 6 }), async (pairs) => {
        const query = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
        const { status, type, body } = await get(`/api/reviews/search?${query}`);
        expect(status).toBeLessThan(500);
        if (status >= 400) {
          expect(type).toContain('application/json');
          expect(REST_ERROR(body)).toBe(true);
        } else expect(JSON.parse(body)).toHaveProperty('reviews');
      }),
      { numRuns: 3000, seed: SEED },
    );
    expect([...seen.get('search')!].sort()).toEqual(['2xx', '4xx']);
  }, 300_000);

  it('since: 2,500 paths, never a 5xx, every refusal { error, message }', async () => {
    const date = fc.oneof(nasty, fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)), fc.constantFrom('2024-02-30', '2024-13-01', '0000-00-00', '+10000-01-01'));
    await fc.assert(
      fc.asyncProperty(date, fc.boolean(), async (value, encode) => {
        const { status, type, body } = await get(`/api/reviews/since/${encode ? encodeURIComponent(value) : value.replace(/[#?]/g, '')}`);
        expect(status).toBeLessThan(500);
        if (status >= 400) {
          expect(type).toContain('application/json');
          expect(REST_ERROR(body)).toBe(true);
        }
      }),
      { numRuns: 2500, seed: SEED },
    );
    expect([...seen.get('since')!].sort()).toEqual(['2xx', '4xx']);
  }, 300_000);

  it('hub: 2,500 form bodies, never a 5xx, every refusal plain text', async () => {
    // Callbacks the hub must refuse or that cannot be reached: nothing leaves this machine.
    const callback = fc.oneof(nasty, fc.constantFrom('https://127.0.0.1:1/x', 'https://10.0.0.1/x', 'http://example.com/x', 'https://[::1]/x', 'https://169.254.169.254/', 'javascript:alert(1)', 'https://user:pw@localhost/x', 'https://0/x'));
    const field = fc.oneof(
      fc.tuple(fc.constant('hub.mode'), fc.oneof(nasty, fc.constantFrom('subscribe', 'unsubscribe', 'publish', 'SUBSCRIBE'))),
      fc.tuple(fc.constant('hub.topic'), fc.oneof(nasty, fc.constantFrom('http://127.0.0.1/feed.xml', '/feed.xml'))),
      fc.tuple(fc.constant('hub.callback'), callback),
      fc.tuple(fc.constant('hub.lease_seconds'), nasty),
      fc.tuple(fc.constant('hub.secret'), nasty),
      fc.tuple(nasty, nasty),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(field, { maxLength: 7 }), fc.constantFrom('application/x-www-form-urlencoded', 'text/plain', 'application/json', ''), async (fields, contentType) => {
        const body = fields.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
        const response = await fetch(`${server().url}/api/websub/hub`, { method: 'POST', headers: contentType ? { 'content-type': contentType } : {}, body });
        const text = await response.text();
        tally('hub', response.status);
        expect(response.status).toBeLessThan(500);
        if (response.status >= 400) expect(response.headers.get('content-type') ?? '').toContain('text/plain');
        else expect(response.status).toBe(202);
        expect(text).not.toContain('<html');
      }),
      { numRuns: 2500, seed: SEED },
    );
  }, 300_000);

  it('mcp: 2,500 JSON-RPC bodies, never a 5xx, every refusal a JSON-RPC error', async () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), fc.double(), fc.integer(), nasty, fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(nasty, tie('value'), { maxKeys: 4 })),
    })).value;
    const message = fc.record(
      {
        jsonrpc: fc.oneof(fc.constant('2.0'), json),
        id: fc.oneof(fc.integer(), nasty, fc.constant(null), json),
        method: fc.oneof(fc.constantFrom('initialize', 'tools/list', 'tools/call', 'resources/read', 'resources/list', 'ping', 'notifications/initialized'), nasty),
        params: json,
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(
      message.map((m) => JSON.stringify(m)),
      fc.array(message, { maxLength: 10 }).map((batch) => JSON.stringify(batch)),
      nasty,
      fc.nat(2000).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
      fc.constant('{"jsonrpc":"2.0","id":1,"id":2,"method":"ping","method":"tools/list"}'),
    );
    const headers = fc.constantFrom<Record<string, string>>(
      { accept: MCP_ACCEPT, 'content-type': 'application/json' },
      { accept: MCP_ACCEPT, 'content-type': 'application/json', 'mcp-protocol-version': '2025-06-18', 'mcp-session-id': 'forged' },
      { accept: 'text/html', 'content-type': 'application/json' },
      { accept: MCP_ACCEPT, 'content-type': 'text/plain' },
    );
    await fc.assert(
      fc.asyncProperty(body, headers, async (text, sent) => {
        const response = await fetch(`${server().url}/mcp`, { method: 'POST', headers: sent, body: text });
        const answer = await response.text();
        tally('mcp', response.status);
        expect(response.status).toBeLessThan(500);
        if (response.status >= 400) {
          const parsed = JSON.parse(answer) as { jsonrpc?: string; error?: { code?: unknown; message?: unknown } };
          expect(parsed.jsonrpc).toBe('2.0');
          expect(typeof parsed.error?.code).toBe('number');
          expect(typeof parsed.error?.message).toBe('string');
        }
      }),
      { numRuns: 2500, seed: SEED },
    );
    // Some bodies were well-formed requests (answered), most were refused.
    expect(seen.get('mcp')!.has('4xx')).toBe(true);
    expect(seen.get('hub')!.has('4xx')).toBe(true);
  }, 300_000);
});
