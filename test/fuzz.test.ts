// Fuzzing through real HTTP on loopback, one server over a real SQLite file holding the demo business: 10,500
// generated inputs to search, since, the WebSub hub and /mcp (wrong types, huge and negative numbers, NaN-like text,
// unicode, control characters, bad percent-encoding, repeated and unknown parameters, deep and duplicate-keyed
// JSON, batches, missing headers). No answer is a 5xx; every refusal is in its route's format (REST: JSON
// { error, message, issues? }, with issues on a 400 for bad parameters; hub: plain text; /mcp: a JSON-RPC 2.0
// error object); and where the contract is clear-cut the answer follows it: unknown, repeated or out-of-range search
// parameters are 400, valid ones 200; a valid since date is 200, a malformed one 400; the hub accepts (202) nothing
// without a valid mode, topic and https callback. No generated callback can make the hub reach beyond this machine.
import fc from 'fast-check';
import { isIP } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { MCP_ACCEPT } from './support/mcp-wire.js';
import { runCli, startServer, tempDir, writeJson, type RunningServer } from './support/server.js';

const SEED = 424242;
const RUNS = { search: 3000, since: 2000, hub: 2500, mcp: 3000 };
const UNLIMITED = {
  RATE_LIMIT_QUERIES_PER_MINUTE: '1000000',
  RATE_LIMIT_MCP_PER_MINUTE: '1000000',
  WEBSUB_RATE_LIMIT_PER_MINUTE: '1000000',
};
const demo = generateDemo({ seed: 11, reviews: 300 });
const SERVICE_IDS = demo.business.services.map((s) => s.id);
const TECHNICIANS = demo.business.technicians.flatMap((t) => [t.name, t.name.split(' ')[0]!, t.name.toUpperCase()]);

const dir = tempDir();
let server: RunningServer;

beforeAll(async () => {
  const dbPath = `${dir.path}/fuzz.db`;
  const imported = await runCli(['import', writeJson(`${dir.path}/demo.json`, demo)], `sqlite:${dbPath}`);
  expect(imported.code, imported.stderr).toBe(0);
  server = await startServer(dbPath, UNLIMITED);
});
afterAll(async () => {
  await server?.close();
  dir.remove();
});

// ---------------------------------------------------------------------------------------------------------------
// Inputs

/** Text a hostile or careless client sends: NaN-like, numeric edge cases, encodings, controls, bidi, very long. */
const NASTY = [
  '',
  ' ',
  '%',
  '%%',
  '%00',
  '%zz',
  '%C3',
  '%C3%28',
  '%ED%A0%80',
  '%E2%80%AE',
  '%2F',
  '%252F',
  '+',
  '&',
  '=',
  '?',
  '#',
  ';',
  '\u0000',
  '\t',
  '\r\n',
  '\u007f',
  '\u0085',
  '\u202e',
  '\ufeff',
  '\uffff',
  '😀',
  'Zoë',
  'zoe\u0301',
  '../',
  '..%2F',
  '..\\',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '[object Object]',
  '__proto__',
  'constructor',
  '-1',
  '-0',
  '0',
  '1e309',
  '-1e309',
  'NaN',
  'Infinity',
  '-Infinity',
  '0x10',
  '0b1',
  '1_000',
  '9007199254740993',
  '1.7976931348623157e308',
  '5e-324',
  ' 3',
  '3 ',
  '+3',
  '03',
  '3.0',
  '1e0',
  '١',
  '３',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '%s%n',
  '2025-02-30',
  '2025-13-01',
  'a'.repeat(3000),
  '9'.repeat(400),
  'é'.repeat(600),
];
const nasty: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 200, maxLength: 400 }) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.bigInt(), fc.double()).map(String) },
);
const day = (from: string, to: string) =>
  fc.date({ min: new Date(from), max: new Date(to), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
const dateLike = fc.oneof(
  day('2015-01-01', '2027-12-31'),
  day('1000-01-01', '9999-12-31'),
  fc.constantFrom(
    '2024-02-29',
    '2023-02-29',
    '2025-04-31',
    '2025-00-10',
    '2025-1-01',
    '20250101',
    ' 2025-01-01',
    '2025-01-01T00:00:00Z',
    '0000-01-01',
    '２０２５-01-01',
    '٢٠٢٥-٠١-٠١',
    '2025–01–01',
    '+02025-01-01',
  ),
);

/** Joins name=value pairs, each side percent-encoded (the server sees exactly these strings) or written raw. */
function formText(pairs: [string, string][], how: 'encoded' | 'plus' | 'raw'): string {
  if (how === 'plus') return new URLSearchParams(pairs).toString();
  const side = how === 'raw' ? (s: string) => s : encodeURIComponent;
  return pairs.map(([k, v]) => `${side(k)}=${side(v)}`).join('&');
}

// ---------------------------------------------------------------------------------------------------------------
// What the contract says, where it says it clearly ('unclear' leaves the answer to the format checks alone)

type Verdict = 'valid' | 'invalid' | 'unclear';
const SEARCH_PARAMS = [
  'rating',
  'min_rating',
  'since',
  'until',
  'query',
  'mentions_technician',
  'mentions_service',
  'limit',
];

function dateVerdict(text: string): Verdict {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return 'invalid';
  const [y, m, d] = match.slice(1).map(Number) as [number, number, number];
  if (y === 0) return 'unclear'; // ISO 8601 has a year 0000; whether a calendar-date parameter takes it is not said
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d ? 'valid' : 'invalid';
}

/** Canonical decimals in range are valid; other spellings of an in-range number ("1e0", " 3", "3.0") are unclear. */
function numberVerdict(text: string, canonical: RegExp, min: number, max: number, integer: boolean): Verdict {
  const n = text.trim() === '' ? NaN : Number(text);
  const inRange = Number.isFinite(n) && n >= min && n <= max && (!integer || Number.isInteger(n));
  if (!inRange) return 'invalid';
  return canonical.test(text) ? 'valid' : 'unclear';
}

function valueVerdict(name: string, value: string): Verdict {
  switch (name) {
    case 'rating':
      return numberVerdict(value, /^[1-5]$/, 1, 5, true);
    case 'min_rating':
      return numberVerdict(value, /^[1-5](\.\d{1,6})?$/, 1, 5, false);
    case 'limit':
      return numberVerdict(value, /^[1-9]\d{0,2}$/, 1, 100, true);
    case 'since':
    case 'until':
      return dateVerdict(value);
    case 'mentions_service':
      return SERVICE_IDS.includes(value) ? 'valid' : 'unclear';
    default: // query, mentions_technician: any string; the empty one and bounds on length are not in the contract
      return value === '' || value.length > 200 ? 'unclear' : 'valid';
  }
}

/** DESIGN: a repeated or unknown parameter is 400, and so is since after until. */
function searchVerdict(pairs: [string, string][]): Verdict {
  const names = pairs.map(([k]) => k).filter((k) => k !== ''); // an empty name is not clearly a parameter
  if (new Set(names).size !== names.length || names.some((k) => !SEARCH_PARAMS.includes(k))) return 'invalid';
  const verdicts = pairs.map(([k, v]) => (k === '' ? 'unclear' : valueVerdict(k, v)));
  const since = pairs.find(([k]) => k === 'since')?.[1];
  const until = pairs.find(([k]) => k === 'until')?.[1];
  if (since && until && dateVerdict(since) === 'valid' && dateVerdict(until) === 'valid' && since > until)
    return 'invalid';
  if (verdicts.includes('invalid')) return 'invalid';
  return verdicts.every((v) => v === 'valid') ? 'valid' : 'unclear';
}

// ---------------------------------------------------------------------------------------------------------------
// Answers and their formats

interface Answer {
  status: number;
  type: string;
  text: string;
}

/** Statuses seen per route, so each property can show it reached both acceptance and refusal. */
const seen = new Map<string, Set<number>>();

async function send(
  route: string,
  url: URL | string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  // A byte body: fetch adds no Content-Type of its own, so "without the headers" means without them.
  const body = init.body === undefined ? undefined : new TextEncoder().encode(init.body);
  const response = await fetch(url, { method: init.method ?? 'GET', headers: init.headers ?? {}, body });
  const answer = {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    text: await response.text(),
  };
  seen.set(route, (seen.get(route) ?? new Set()).add(answer.status));
  return answer;
}

/** An answer in a failure message: its status and the start of its body. */
const shown = (answer: Answer) => `${answer.status} ${answer.type} ${answer.text.slice(0, 300)}`;

const classes = (route: string) =>
  [...new Set([...(seen.get(route) ?? [])].map((s) => `${Math.floor(s / 100)}xx`))].sort();

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const onlyKeys = (v: Record<string, unknown>, allowed: string[]) => Object.keys(v).every((k) => allowed.includes(k));

/** DESIGN: every REST error body is JSON { error, message, issues? }, issues items { path, message, code }. */
function expectRestError(answer: Answer, needsIssues: boolean): void {
  expect(answer.type, shown(answer)).toMatch(/^application\/json\b/);
  const body = JSON.parse(answer.text) as unknown;
  expect(isObject(body) && onlyKeys(body, ['error', 'message', 'issues']), shown(answer)).toBe(true);
  const { error, message, issues } = body as { error: unknown; message: unknown; issues?: unknown };
  expect(typeof error === 'string' && typeof message === 'string', shown(answer)).toBe(true);
  if (needsIssues) expect(Array.isArray(issues) && issues.length > 0, `an issues array: ${shown(answer)}`).toBe(true);
  if (issues === undefined) return;
  expect(Array.isArray(issues), shown(answer)).toBe(true);
  for (const issue of issues as unknown[]) {
    const ok =
      isObject(issue) &&
      onlyKeys(issue, ['path', 'message', 'code']) &&
      Array.isArray(issue.path) &&
      issue.path.every((p) => typeof p === 'string' || typeof p === 'number') &&
      typeof issue.message === 'string' &&
      typeof issue.code === 'string';
    expect(ok, `issue ${JSON.stringify(issue)}`).toBe(true);
  }
}

/** JSON-RPC 2.0 §5: a response has jsonrpc "2.0", an id (null when unknown), and exactly one of result or error. */
function rpcResponseProblem(value: unknown, errorOnly: boolean): string | undefined {
  if (!isObject(value)) return 'not an object';
  if (value.jsonrpc !== '2.0') return 'jsonrpc is not "2.0"';
  if (!onlyKeys(value, ['jsonrpc', 'id', 'result', 'error'])) return 'members beyond jsonrpc, id, result, error';
  if (!('id' in value) || !(value.id === null || typeof value.id === 'string' || typeof value.id === 'number'))
    return 'no id (string, number or null)';
  if ('result' in value === 'error' in value) return 'not exactly one of result and error';
  if (errorOnly && !('error' in value)) return 'no error member';
  if ('error' in value) {
    const e = value.error;
    if (
      !isObject(e) ||
      !Number.isInteger(e.code) ||
      typeof e.message !== 'string' ||
      !onlyKeys(e, ['code', 'message', 'data'])
    )
      return 'error is not { code: integer, message: string, data? }';
  }
  return undefined;
}

function expectMcpAnswer(answer: Answer): void {
  expect(answer.status, shown(answer)).toBeLessThan(500);
  if (answer.status >= 400) {
    expect(answer.type, shown(answer)).toMatch(/^application\/json\b/);
    expect(rpcResponseProblem(JSON.parse(answer.text), true), shown(answer)).toBeUndefined();
    return;
  }
  expect([200, 202], shown(answer)).toContain(answer.status);
  if (answer.status === 202) return expect(answer.text).toBe('');
  const payloads = answer.type.startsWith('text/event-stream')
    ? answer.text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5))
    : [answer.text];
  expect(answer.type, shown(answer)).toMatch(/^(application\/json|text\/event-stream)\b/);
  for (const payload of payloads) {
    const parsed = JSON.parse(payload) as unknown;
    for (const response of Array.isArray(parsed) ? parsed : [parsed])
      expect(rpcResponseProblem(response, false), payload.slice(0, 300)).toBeUndefined();
  }
}

const SEARCH = '/api/reviews/search';
const SINCE = '/api/reviews/since/';

describe('fuzzed requests over HTTP', () => {
  it(`search: ${RUNS.search} query strings`, async () => {
    const validPair = fc.constantFrom(...SEARCH_PARAMS).chain((name) => fc.tuple(fc.constant(name), validValue(name)));
    const name = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...SEARCH_PARAMS) },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          'unknown',
          'RATING',
          'Rating',
          'rating ',
          ' rating',
          'rating[]',
          'limit[0]',
          'limit.x',
          '__proto__',
          'constructor',
          'toString',
          'hasOwnProperty',
          'sort',
          'offset',
          'q',
        ),
      },
      { weight: 1, arbitrary: nasty },
    );
    const pair = fc.oneof(
      { weight: 2, arbitrary: validPair },
      { weight: 3, arbitrary: fc.tuple(name, fc.oneof(nasty, fc.constantFrom(...SEARCH_PARAMS).chain(validValue))) },
    );
    const pairs = fc.oneof(
      fc.uniqueArray(validPair, { selector: ([k]) => k, maxLength: 5 }),
      fc.array(pair, { maxLength: 6 }),
      // The same parameter again, with the same or another value.
      fc
        .tuple(validPair, fc.oneof(nasty, fc.constantFrom(...SEARCH_PARAMS).chain(validValue)))
        .map(([[k, v], w]): [string, string][] => [
          [k, v],
          [k, w],
        ]),
    );
    const how = fc.constantFrom<'encoded' | 'plus' | 'raw'>('encoded', 'encoded', 'plus', 'raw');

    let judged = { valid: 0, invalid: 0 };
    await fc.assert(
      fc.asyncProperty(pairs, how, async (query, written) => {
        const url = new URL(`${SEARCH}?${formText(query, written)}`, server.url);
        // Under the 16 KiB request-head limit: a 431 closes the connection mid-request, which is not what this tests.
        fc.pre(url.href.length < 12_000);
        const answer = await send('search', url);
        expect(answer.status, shown(answer)).toBeLessThan(500);
        if (answer.status >= 400) expectRestError(answer, answer.status === 400);
        // A raw query (unencoded '&', '=', '+', '#', bad escapes) is the server's to read: its format alone is checked.
        const verdict = written === 'raw' ? 'unclear' : searchVerdict(query);
        if (verdict === 'invalid') expect(answer.status, shown(answer)).toBe(400);
        if (verdict === 'valid') expect(answer.status, shown(answer)).toBe(200);
        if (verdict !== 'unclear') judged = { ...judged, [verdict]: judged[verdict] + 1 };
        if (answer.status === 200) {
          const body = JSON.parse(answer.text) as { count: number; total: number; reviews: unknown[] };
          expect(Object.keys(body).sort()).toEqual(['count', 'reviews', 'total']);
          expect(body.count).toBe(body.reviews.length);
          expect(body.total).toBeGreaterThanOrEqual(body.count);
          const limit = written === 'raw' ? undefined : query.find(([k]) => k === 'limit')?.[1];
          expect(body.count).toBeLessThanOrEqual(
            limit && valueVerdict('limit', limit) === 'valid' ? Number(limit) : 100,
          );
        }
      }),
      { numRuns: RUNS.search, seed: SEED },
    );
    expect(classes('search')).toEqual(['2xx', '4xx']);
    expect(judged.valid).toBeGreaterThan(RUNS.search / 10);
    expect(judged.invalid).toBeGreaterThan(RUNS.search / 10);
  }, 120_000);

  it(`since: ${RUNS.since} paths`, async () => {
    const segment = fc.oneof(
      { weight: 3, arbitrary: dateLike.map((d) => ({ text: d, written: 'encoded' as const })) },
      { weight: 3, arbitrary: nasty.map((d) => ({ text: d, written: 'encoded' as const })) },
      { weight: 2, arbitrary: fc.oneof(dateLike, nasty).map((d) => ({ text: d, written: 'raw' as const })) },
      // Percent-encoded in full (each byte %XX), or with an encoded slash or dot segment inside.
      {
        weight: 1,
        arbitrary: dateLike.map((d) => ({
          text: [...new TextEncoder().encode(d)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
          written: 'raw' as const,
        })),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom(
            '2025%2F01%2F01',
            '2025-01-01%2F',
            '%2F2025-01-01',
            '2025-01-01%2f..',
            '%2e%2e',
            '..',
            '.',
            '2025-01-01/',
            '2025-01-01/x',
            '',
            '2025-01-01%00',
            '2025-01-01%zz',
            '%',
            'x'.repeat(201),
          )
          .map((t) => ({ text: t, written: 'raw' as const })),
      },
    );
    const query = fc.oneof(
      { weight: 5, arbitrary: fc.constant('') },
      { weight: 1, arbitrary: fc.constantFrom('?', '?limit=5', '?since=2025-01-01', '?%zz', '?a=1&a=2') },
    );

    let judged = { valid: 0, invalid: 0 };
    await fc.assert(
      fc.asyncProperty(segment, query, async ({ text, written }, search) => {
        const url = new URL(`${SINCE}${written === 'encoded' ? encodeURIComponent(text) : text}${search}`, server.url);
        fc.pre(url.href.length < 12_000);
        const answer = await send('since', url);
        expect(answer.status, shown(answer)).toBeLessThan(500);
        // The date the server sees: the path's one segment after /since/, decoded (when it decodes at all).
        const raw = url.pathname.startsWith(SINCE) ? url.pathname.slice(SINCE.length) : undefined;
        let date: string | undefined;
        try {
          date = raw !== undefined && raw !== '' && !raw.includes('/') ? decodeURIComponent(raw) : undefined;
        } catch {
          date = undefined; // malformed percent-encoding: a malformed URL more than a malformed date
        }
        const verdict = date === undefined || url.search !== '' ? 'unclear' : dateVerdict(date);
        if (answer.status >= 400) expectRestError(answer, answer.status === 400 && verdict === 'invalid');
        if (verdict === 'valid') expect(answer.status, shown(answer)).toBe(200);
        // DESIGN: a malformed date is 400 with issues; a path longer than any date may be refused as 414 first.
        if (verdict === 'invalid')
          expect(answer.status === 400 || (answer.status === 414 && raw!.length > 10), shown(answer)).toBe(true);
        if (verdict !== 'unclear') judged = { ...judged, [verdict]: judged[verdict] + 1 };
        if (answer.status === 200) {
          const body = JSON.parse(answer.text) as { since: string; count: number; reviews: { date: string }[] };
          expect(Object.keys(body).sort()).toEqual(['count', 'reviews', 'since']);
          if (date !== undefined) expect(body.since).toBe(date);
          expect(body.count).toBe(body.reviews.length);
          expect(body.reviews.every((r) => r.date >= body.since)).toBe(true);
        }
      }),
      { numRuns: RUNS.since, seed: SEED },
    );
    expect(classes('since')).toEqual(['2xx', '4xx']);
    expect(judged.valid).toBeGreaterThan(RUNS.since / 10);
    expect(judged.invalid).toBeGreaterThan(RUNS.since / 10);
  }, 120_000);

  it(`hub: ${RUNS.hub} form bodies`, async () => {
    const topics = ['/feed.xml', '/api/feed.json', '/reviews.json'].map((p) => `${server.url}${p}`);
    const port = new URL(server.url).port;
    const mode = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('subscribe', 'unsubscribe') },
      {
        weight: 1,
        arbitrary: fc.constantFrom('publish', 'SUBSCRIBE', 'Subscribe', 'subscribe ', 'subscribe\u0000', 'denied'),
      },
      { weight: 1, arbitrary: nasty },
    );
    const topic = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...topics) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          `${topics[0]}/`,
          `${topics[0]}?x=1`,
          `http://localhost:${port}/feed.xml`,
          `HTTP://127.0.0.1:${port}/feed.xml`,
          '/feed.xml',
          'feed.xml',
          `https://127.0.0.1:${port}/reviews.json`,
        ),
      },
      { weight: 1, arbitrary: nasty },
    );
    const callback = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...REFUSED_CALLBACKS) },
      { weight: 3, arbitrary: fc.constantFrom(...LOOPBACK_CALLBACKS) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom(...REFUSED_CALLBACKS, ...LOOPBACK_CALLBACKS), nasty)
          .map(([u, s]) => `${u}${s}`),
      },
      { weight: 1, arbitrary: nasty },
    );
    const lease = fc.oneof(
      fc.constantFrom('3600', '0', '-1', '86400.5', '1e9', ' 86400', '18446744073709551616', '9'.repeat(400), ''),
      fc.bigInt().map(String),
      nasty,
    );
    const field = fc.oneof(
      { weight: 3, arbitrary: fc.tuple(fc.constant('hub.mode'), mode) },
      { weight: 3, arbitrary: fc.tuple(fc.constant('hub.topic'), topic) },
      { weight: 3, arbitrary: fc.tuple(fc.constant('hub.callback'), callback) },
      { weight: 2, arbitrary: fc.tuple(fc.constant('hub.lease_seconds'), lease) },
      { weight: 1, arbitrary: fc.tuple(fc.constant('hub.secret'), fc.oneof(nasty, fc.constant('s'.repeat(200)))) },
      {
        weight: 1,
        arbitrary: fc.tuple(
          fc.constantFrom('hub.Mode', 'HUB.MODE', 'hub_mode', 'hub.mode ', 'hub.callback[]', '__proto__'),
          nasty,
        ),
      },
      { weight: 1, arbitrary: fc.tuple(nasty, nasty) },
    );
    // A well-formed request most of the time, then a field dropped, repeated or spoiled.
    const wellFormed = fc.tuple(
      fc.tuple(fc.constant('hub.mode'), mode),
      fc.tuple(fc.constant('hub.topic'), topic),
      fc.tuple(fc.constant('hub.callback'), callback),
    );
    const fields = fc.oneof(
      {
        weight: 3,
        arbitrary: fc
          .tuple(wellFormed, fc.array(field, { maxLength: 3 }))
          .chain(([base, extra]) =>
            fc.shuffledSubarray([...base, ...extra], { minLength: base.length + extra.length }),
          ),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(wellFormed, fc.array(field, { maxLength: 3 }))
          .chain(([base, extra]) => fc.shuffledSubarray([...base, ...extra])),
      },
      { weight: 1, arbitrary: fc.array(field, { maxLength: 7 }) },
    );
    const how = fc.constantFrom<'encoded' | 'plus' | 'raw'>('encoded', 'plus', 'raw');
    const contentType = fc.oneof(
      { weight: 6, arbitrary: fc.constant('application/x-www-form-urlencoded') },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          'application/x-www-form-urlencoded; charset=utf-8',
          'APPLICATION/X-WWW-FORM-URLENCODED',
          'application/x-www-form-urlencoded;charset=ISO-8859-1',
        ),
      },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          'text/plain',
          'application/json',
          'multipart/form-data; boundary=x',
          'application/x-www-form-urlencodedx',
          '',
        ),
      },
    );
    const huge = fc.constantFrom('hub.mode=subscribe&hub.secret=' + 'x'.repeat(70_000));
    const body = fc
      .oneof(
        { weight: 30, arbitrary: fc.tuple(fields, how).map(([f, h]) => formText(f, h)) },
        { weight: 1, arbitrary: huge },
      )
      // Read as the hub reads it (URLSearchParams, then new URL): no callback it could call is beyond this machine.
      .filter((text) => !new URLSearchParams(text).getAll('hub.callback').some(couldLeave));

    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(body, contentType, async (text, type) => {
        const form = new URLSearchParams(text);
        if (form.getAll('hub.callback').some(couldLeave))
          throw new Error(`generated a callback beyond this machine: ${text}`);
        const answer = await send('hub', `${server.url}/api/websub/hub`, {
          method: 'POST',
          headers: type ? { 'content-type': type } : {},
          body: text,
        });
        expect(answer.status, shown(answer)).toBeLessThan(500);
        // RFC 9110 §8.3.1: a media type's type, subtype and parameter names are case-insensitive.
        if (/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type))
          expect(answer.status, shown(answer)).not.toBe(415);
        if (answer.status >= 400) {
          // W3C WebSub §5.1.2 (DESIGN): the hub's errors are plain text.
          expect(answer.type, shown(answer)).toMatch(/^text\/plain\b/);
          expect(answer.text.trim().length, 'a reason').toBeGreaterThan(0);
          return;
        }
        // W3C WebSub §5.1.2: accepted is 202, and only for a form with a valid mode, a served topic and an https callback.
        expect(answer.status).toBe(202);
        accepted++;
        expect(type.toLowerCase()).toMatch(/^application\/x-www-form-urlencoded\b/);
        expect(
          form.getAll('hub.mode').some((m) => m === 'subscribe' || m === 'unsubscribe'),
          text.slice(0, 300),
        ).toBe(true);
        expect(
          form.getAll('hub.topic').some((t) => topics.includes(t)),
          text.slice(0, 300),
        ).toBe(true);
        expect(
          form
            .getAll('hub.callback')
            .some((c) => URL.canParse(c) && new URL(c).protocol === 'https:' && new URL(c).hostname === 'localhost'),
          text.slice(0, 300),
        ).toBe(true);
      }),
      { numRuns: RUNS.hub, seed: SEED },
    );
    expect(classes('hub')).toEqual(['2xx', '4xx']);
    expect(accepted).toBeGreaterThan(0);
  }, 120_000);

  it(`mcp: ${RUNS.mcp} JSON-RPC bodies, with and without the transport's headers`, async () => {
    const sessions = { current: await initialize('2025-06-18'), older: await initialize('2025-03-26') };
    const base = { accept: MCP_ACCEPT, 'content-type': 'application/json' };
    const HEADERS: Record<string, Record<string, string>> = {
      session: { ...base, 'mcp-session-id': sessions.current, 'mcp-protocol-version': '2025-06-18' },
      olderSession: { ...base, 'mcp-session-id': sessions.older },
      noSession: base,
      forgedSession: { ...base, 'mcp-session-id': `${sessions.current.slice(0, -2)}xx` },
      badVersion: { ...base, 'mcp-session-id': sessions.current, 'mcp-protocol-version': '1999-01-01' },
      foreignOrigin: { ...base, 'mcp-session-id': sessions.current, origin: 'https://attacker.example' },
      none: {},
      acceptJsonOnly: {
        accept: 'application/json',
        'content-type': 'application/json',
        'mcp-session-id': sessions.current,
      },
      acceptAny: { accept: '*/*', 'content-type': 'application/json', 'mcp-session-id': sessions.current },
      textPlain: { accept: MCP_ACCEPT, 'content-type': 'text/plain', 'mcp-session-id': sessions.current },
      jsonCharset: {
        accept: MCP_ACCEPT,
        'content-type': 'application/json; charset=utf-8',
        'mcp-session-id': sessions.current,
      },
    };
    const headers = fc.oneof(
      { weight: 8, arbitrary: fc.constant('session') },
      { weight: 3, arbitrary: fc.constant('olderSession') },
      { weight: 3, arbitrary: fc.constantFrom(...Object.keys(HEADERS)) },
    );

    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', maxDepth: 4 },
        fc.constant(null),
        fc.boolean(),
        fc.integer(),
        fc.double(),
        nasty,
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(nasty, tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    const tools = ['get_business', 'search_reviews', 'get_reviews_since', 'get_insights', 'get_review'];
    const toolArguments = fc.oneof(
      fc.dictionary(
        fc.oneof(fc.constantFrom(...SEARCH_PARAMS, 'date', 'section', 'name', 'id', 'about'), nasty),
        fc.oneof(json, fc.constantFrom(...SEARCH_PARAMS).chain(validValue), fc.integer({ min: 1, max: 5 })),
        { maxKeys: 4 },
      ),
      json,
    );
    const docs = ['/reviews.json', '/insights.json', '/api/feed.json', '/feed.xml'].map((p) => `${server.url}${p}`);
    const params = (method: string): fc.Arbitrary<unknown> => {
      switch (method) {
        case 'initialize':
          return fc.record(
            {
              protocolVersion: fc.oneof(fc.constantFrom('2025-06-18', '2025-03-26', '2024-11-05', '1999-01-01'), json),
              capabilities: fc.oneof(fc.constant({}), json),
              clientInfo: fc.oneof(fc.constant({ name: 'f', version: '1' }), json),
            },
            { requiredKeys: [] },
          );
        case 'tools/call':
          return fc.record(
            {
              name: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...tools) }, { weight: 1, arbitrary: nasty }),
              arguments: toolArguments,
            },
            { requiredKeys: ['name'] },
          );
        case 'resources/read':
          return fc.record(
            {
              uri: fc.oneof(
                fc.constantFrom(
                  ...docs,
                  'file:///etc/passwd',
                  'http://169.254.169.254/',
                  `${server.url}/../etc/passwd`,
                ),
                nasty,
              ),
            },
            { requiredKeys: [] },
          );
        case 'prompts/get':
          return fc.record(
            {
              name: fc.oneof(fc.constant('summarize_reviews'), nasty),
              arguments: fc.oneof(fc.record({ about: nasty }), json),
            },
            { requiredKeys: [] },
          );
        default:
          return fc.oneof(
            { weight: 3, arbitrary: fc.dictionary(nasty, json, { maxKeys: 3 }) },
            { weight: 1, arbitrary: json },
          );
      }
    };
    const method = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.constantFrom(
          'tools/call',
          'tools/call',
          'tools/list',
          'ping',
          'resources/read',
          'resources/list',
          'resources/templates/list',
          'prompts/list',
          'prompts/get',
          'initialize',
          'completion/complete',
          'logging/setLevel',
          'notifications/initialized',
          'notifications/cancelled',
          'rpc.discover',
          'tools/delete',
        ),
      },
      { weight: 1, arbitrary: nasty },
    );
    const id = fc.oneof(
      { weight: 4, arbitrary: fc.oneof(fc.integer(), fc.string({ maxLength: 10 })) },
      { weight: 1, arbitrary: fc.constantFrom(0, -1, 1.5, -0, Number.MAX_SAFE_INTEGER, 1e308, '', 'é'.repeat(500)) },
      { weight: 1, arbitrary: fc.oneof(fc.constant(null), json) },
    );
    // Mostly well-formed envelopes, so that requests reach the methods and tools; then any member missing or spoiled.
    const message = method.chain((m) =>
      fc.oneof(
        {
          weight: 3,
          arbitrary: fc.record(
            { jsonrpc: fc.constant('2.0'), id, method: fc.constant(m), params: params(m) },
            { requiredKeys: ['jsonrpc', 'id', 'method'] },
          ),
        },
        {
          weight: 1,
          arbitrary: fc.record(
            { jsonrpc: fc.oneof(fc.constant('2.0'), json), id, method: fc.constant(m), params: params(m) },
            { requiredKeys: [] },
          ),
        },
      ),
    );

    // Raw JSON text: members in any order, repeated keys, numbers no double holds, escapes of lone surrogates.
    const rawValue = fc.oneof(
      fc.constantFrom(
        '1',
        '-0',
        '1e999',
        '-1e999',
        '123456789012345678901234567890',
        '9007199254740993',
        '0.1e-400',
        '"2.0"',
        '"\\u0000"',
        '"\\ud800"',
        '"\\u202e"',
        'null',
        'true',
        '[]',
        '{}',
      ),
      json.map((v) => JSON.stringify(v) ?? 'null'),
    );
    const member = fc.oneof(
      fc.tuple(fc.constant('"jsonrpc"'), fc.oneof(fc.constant('"2.0"'), rawValue)),
      fc.tuple(fc.constant('"id"'), rawValue),
      fc.tuple(
        fc.constant('"method"'),
        fc.oneof(
          method.map((m) => JSON.stringify(m)),
          rawValue,
        ),
      ),
      fc.tuple(
        fc.constant('"params"'),
        fc.oneof(
          method.chain(params).map((p) => JSON.stringify(p)),
          rawValue,
        ),
      ),
      fc.tuple(fc.constantFrom('"result"', '"error"', '"__proto__"', '"constructor"', '""'), rawValue),
      fc.tuple(
        nasty.map((k) => JSON.stringify(k)),
        rawValue,
      ),
    );
    const rawMessage = fc
      .tuple(
        fc.subarray([
          ['"jsonrpc"', '"2.0"'],
          ['"id"', '1'],
          ['"method"', '"tools/list"'],
        ] as [string, string][]),
        fc.array(member, { maxLength: 5 }),
      )
      .chain(([start, more]) => fc.shuffledSubarray([...start, ...more], { minLength: start.length }))
      .map((members) => `{${members.map(([k, v]) => `${k}:${v}`).join(',')}}`);
    const deep = fc
      .tuple(fc.integer({ min: 1, max: 9_000 }), fc.constantFrom('array', 'object', 'params', 'arguments', 'id'))
      .map(([depth, where]) => {
        const nested =
          where === 'array'
            ? `${'['.repeat(depth)}${']'.repeat(depth)}`
            : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
        if (where === 'array' || where === 'object') return nested;
        if (where === 'id') return `{"jsonrpc":"2.0","id":${nested},"method":"ping"}`;
        if (where === 'params') return `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":${nested}}}`;
        return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_reviews","arguments":${nested}}}`;
      });
    const invalidJson = fc.oneof(
      nasty,
      fc.constantFrom(
        '',
        '{',
        '{"jsonrpc":"2.0",',
        "{'jsonrpc':'2.0'}",
        '{"jsonrpc":"2.0","id":1,"method":"ping",}',
        'NaN',
        '\ufeff{"jsonrpc":"2.0","id":1,"method":"ping"}',
        '{"a":1}{"b":2}',
        '"\\ud800"',
        '[1,]',
      ),
      message.map((m) => JSON.stringify(m)).chain((t) => fc.nat(t.length).map((n) => t.slice(0, n))),
    );
    const body = fc.oneof(
      { weight: 12, arbitrary: message.map((m) => JSON.stringify(m)) },
      { weight: 6, arbitrary: rawMessage },
      {
        weight: 4,
        arbitrary: fc
          .array(
            fc.oneof(
              message.map((m) => JSON.stringify(m)),
              rawMessage,
              fc.constantFrom('1', 'null', '[]'),
            ),
            { maxLength: 10 },
          )
          .map((batch) => `[${batch.join(',')}]`),
      },
      { weight: 2, arbitrary: deep },
      { weight: 4, arbitrary: invalidJson },
      {
        weight: 1,
        arbitrary: fc.constant(
          JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(70_000) } }),
        ),
      },
    );

    await fc.assert(
      fc.asyncProperty(body, headers, async (text, sent) => {
        const answer = await send('mcp', `${server.url}/mcp`, { method: 'POST', headers: HEADERS[sent], body: text });
        expectMcpAnswer(answer);
      }),
      { numRuns: RUNS.mcp, seed: SEED },
    );
    expect(classes('mcp')).toEqual(['2xx', '4xx']);
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------------------------
// Helpers that need the running server or the demo's catalogue

/** A value the contract accepts for a search parameter. */
function validValue(name: string): fc.Arbitrary<string> {
  switch (name) {
    case 'rating':
      return fc.integer({ min: 1, max: 5 }).map(String);
    case 'min_rating':
      return fc.oneof(
        fc.integer({ min: 1, max: 5 }).map(String),
        fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 99 })).map(([a, b]) => `${a}.${b}`),
      );
    case 'limit':
      return fc.integer({ min: 1, max: 100 }).map(String);
    case 'since':
    case 'until':
      return day('2015-01-01', '2027-12-31');
    case 'mentions_service':
      return fc.constantFrom(...SERVICE_IDS);
    case 'mentions_technician':
      return fc.oneof(
        fc.constantFrom(...TECHNICIANS, 'zoe', 'ZOË'),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
      );
    default:
      return fc.oneof(
        fc.constantFrom('water heater', 'AC', 'on time', 'é', '%', '_', "'", '"', '\\', '*', '\u0000', '\u202e'),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }),
      );
  }
}

/**
 * Callbacks the hub must refuse at once: literal non-public addresses in many spellings, other schemes, credentials,
 * plain HTTP, no URL at all.
 */
const REFUSED_CALLBACKS = [
  'https://127.0.0.1/cb',
  'https://127.0.0.1:1/cb?x=1',
  'https://10.0.0.1/cb',
  'https://192.168.1.1/',
  'https://172.16.0.1/',
  'https://169.254.169.254/latest/meta-data/',
  'https://100.64.0.1/',
  'https://0.0.0.0/',
  'https://0/',
  'https://127.1/',
  'https://0x7f000001/',
  'https://2130706433/',
  'https://017700000001/',
  'https://%31%32%37.0.0.1/',
  'https://[::1]/',
  'https://[::]/',
  'https://[::ffff:127.0.0.1]/',
  'https://[::ffff:10.0.0.1]/',
  'https://[64:ff9b::a9fe:a9fe]/',
  'https://[2002:7f00:1::]/',
  'https://[fd00::1]/',
  'https://[fe80::1]/',
  'https://192.0.2.1/',
  'https://198.51.100.1/',
  'https://203.0.113.1/',
  'https://224.0.0.1/',
  'https://255.255.255.255/',
  'https://user:pw@127.0.0.1/',
  'https://user@localhost/',
  'http://127.0.0.1/cb',
  'http://localhost/cb',
  'ftp://127.0.0.1/',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'data:text/plain,hi',
  'gopher://127.0.0.1:70/',
  'ws://127.0.0.1/',
  'wss://127.0.0.1/',
  'mailto:a@b',
  'https:',
  'https://',
  'https:///cb',
  '//127.0.0.1/cb',
  '/relative',
  'https://[::1',
  'https://[fe80::1%25eth0]/',
];

/** Callbacks the hub may accept (202), whose name resolves to loopback only: refused when the hub connects. */
const LOOPBACK_CALLBACKS = ['https://localhost/cb', 'https://localhost:1/cb?existing=1', 'https://LOCALHOST/cb#frag'];

/** Hosts of the https callbacks above: literal non-public addresses, and localhost. */
const LOCAL_HOSTS = new Set(
  [...REFUSED_CALLBACKS, ...LOOPBACK_CALLBACKS]
    .filter((c) => URL.canParse(c) && new URL(c).protocol === 'https:')
    .map((c) => new URL(c).hostname)
    .filter((h) => h === 'localhost' || isIP(h.replace(/^\[|\]$/g, '')) !== 0),
);

/** Whether a hub.callback value is an https URL whose host is none of those: such a value is never sent. */
function couldLeave(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === 'https:' && !LOCAL_HOSTS.has(url.hostname);
}

async function initialize(protocolVersion: string): Promise<string> {
  const response = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { accept: MCP_ACCEPT, 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
    }),
  });
  await response.text();
  const session = response.headers.get('mcp-session-id');
  expect(response.status).toBe(200);
  expect(session).toBeTruthy();
  return session!;
}
